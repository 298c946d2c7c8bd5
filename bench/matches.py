"""The Gongzhu hands the benchmarks store (bench/run, bench/profile, bench/instructions)."""

from games.rules.gongzhu import HEARTS


def gongzhu_hand(k):
    """Hand k: all 16 scoring cards captured, by seats taking turns; the A♥ sold every third."""
    captured = [[] for _ in range(4)]
    for seat, cards in enumerate((["QS"], ["JD"], ["10C"], list(HEARTS))):
        captured[(seat + k) % 4] += cards
    return {"captured": captured, "exposed": ["AH"] if k % 3 == 0 else []}
