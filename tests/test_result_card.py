"""What a result card says (games/cards.py): the places, the winner, who pays whom and in what,
in the reader's language; the picture itself is tests/test_browser_result_card.py's."""

from datetime import date
from types import SimpleNamespace

from django.utils import translation

from games import cards, rules, screen

ISOLATES = "\u2066\u2067\u2068\u2069"


def plain(text):
    return "".join(c for c in text if c not in ISOLATES)


def evening(amounts, day=date(2026, 11, 30)):
    """The card of a series of Gongzhu whose combined settlement gave the players amounts."""
    players = ["Ann", "Bo", "Chen", "Dee"]
    match = SimpleNamespace(players=players, day=day)
    combined = {
        **rules.settle.settlement(players, amounts, 1),
        "count": 3,
        "players": players,
    }
    result = {"game": "gongzhu", "options": {}}
    return cards.series_card(match, rules.GAMES["gongzhu"], result, combined)


def test_the_evening_ranks_by_amount_ties_sharing_a_place_and_the_top_winner_marked():
    card = evening([-30, 50, -30, 10])
    rows = [
        (s["place"], plain(s["name"]), plain(s["total"]), s["winner"]) for s in card["standings"]
    ]
    assert rows == [
        ("1", "Bo", "+50", True),
        ("2", "Dee", "+10", False),
        ("3", "Ann", "-30", False),
        ("3", "Chen", "-30", False),
    ]
    assert card["note"] == "Settlement of 3 finished matches"
    assert card["file"] == "gongzhu-2026-11-30-series.png"
    assert [plain(line) for line in card["payments"][0]["lines"]] == [
        "Ann pays Bo 30",
        "Chen pays Bo 20",
        "Chen pays Dee 10",
    ]


def test_an_evening_where_nobody_won_marks_no_winner_and_says_nobody_pays():
    card = evening([0, 0, 0, 0])
    assert not any(s["winner"] for s in card["standings"])
    assert card["payments"][0]["lines"] == ["Nobody pays anybody."]


def test_a_phone_that_kept_no_day_draws_the_card_undated():
    card = evening([10, -10, 0, 0], day=None)
    assert (card["date"], card["file"]) == ("", "gongzhu-series.png")


def test_the_card_is_in_the_readers_language():
    with translation.override("zh-hans"):
        card = evening([-12.5, 12.5, 0, 0])
    assert card["title"] == "拱猪"
    assert card["date"] == "2026年11月30日"
    assert card["payments"][0]["heading"] == "谁付给谁（钱）"
    assert [plain(line) for line in card["payments"][0]["lines"]] == ["Ann付给Bo 12.50"]
    with translation.override("fa"):
        card = evening([-12.5, 12.5, 0, 0])
    assert card["payments"][0]["heading"] == "چه کسی به چه کسی می‌پردازد (پول)"
    # a sign stays in front of its number in a right-to-left line
    assert card["standings"][0]["total"] == "\u2066+12.50\u2069"


def match_card(game, players, options, entries):
    """The card of a match of game played with these entries (its board as the screen has it)."""
    document = {"game": game, "players": players, "options": options, "rounds": entries}
    drawn = screen.board(document, range(1, len(entries) + 1), len(entries))
    return cards.match_card(SimpleNamespace(day=date(2026, 11, 30)), drawn)


def test_a_card_whose_payments_are_not_the_totals_says_why_in_one_line():
    # Totals 0 / 8 / 136: Ann is a kid, so Bo's 8 and Chen's 136 count double.
    hand = {"winner": 0, "cards_left": [None, 4, 17]}
    card = match_card("sanming", ["Ann", "Bo", "Chen"], {}, [hand, hand])
    assert [plain(s["total"]) for s in card["standings"]] == ["0", "8", "136"]
    payments = card["payments"][0]
    assert [plain(line) for line in payments["lines"]] == ["Chen pays Ann 288", "Chen pays Bo 240"]
    assert plain(payments["why"]) == (
        "Each pays the others the difference between their totals; the kid rule counted Ann "
        "as 0 and doubled the others' totals."
    )


def test_a_card_at_a_stake_says_what_a_point_is_worth():
    captured = [["QS"], ["JD"], ["10C"], [f"{rank}H" for rank in "AKQJ98765432"] + ["10H"]]
    options = {"stake": 0.01, "end": "hands", "hands": 1}
    card = match_card("gongzhu", ["Ann", "Bo", "Chen", "Dee"], options, [{"captured": captured}])
    assert card["payments"][0]["why"] == "Money a point: 0.01."


def test_a_card_whose_payments_are_the_totals_says_nothing_more():
    options = {"zero_sum": True, "stake": 1, "hands": 1}
    card = match_card("sheet", ["Ann", "Bo"], options, [{"points": [3, -3]}])
    assert card["payments"][0]["why"] == ""
    assert [plain(line) for line in card["payments"][0]["lines"]] == ["Bo pays Ann 3"]
