"""Gongzhu, rule by rule (games/rules/gongzhu.py). Every figure is worked by hand.

A hand is written seat by seat as the scoring cards each player took, separated by spaces;
REST stands for every scoring card not named for another seat (both copies with two decks).
Values: Q♠ -100, J♦ +100, A♥ -50, K♥ -40, Q♥ -30, J♥ -20, 10♥-5♥ -10 each, 4♥-2♥ 0;
the hearts add up to -200.
"""

import pytest

from games.rules import RulesError, replay, score
from games.rules.base import Term
from games.rules.gongzhu import GAME, Line

PLAYERS = ["Ann", "Bo", "Chen", "Dee"]
HEARTS = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"
SCORING = ["QS", "JD", "10C", *HEARTS.split()]
REST = "rest"


def hand(*seats, exposed=(), decks=1):
    """A round entry: each seat's cards; REST takes whatever the other seats did not."""
    named = [card for cards in seats if cards != REST for card in cards.split()]
    rest = [card for card in SCORING for _copy in range(decks - named.count(card))]
    captured = [rest if cards == REST else cards.split() for cards in seats]
    return {"captured": captured, "exposed": list(exposed)}


def match(*rounds, closed=False, **options):
    return {
        "game": "gongzhu",
        "players": PLAYERS,
        "options": options,
        "rounds": list(rounds),
        "closed": closed,
    }


def raw(entry, **options):
    """The raw scores of one hand."""
    return score(match(entry, **options))["rounds"][0]["raw"]


def table_after(*rounds, **options):
    """A table with rounds played, as the web layer holds it between hands."""
    return replay(match(*rounds, **options))[1]


def rejected(*rounds, **options):
    with pytest.raises(RulesError) as error:
        score(match(*rounds, **options))
    return str(error.value)


# ---- one deck: raw scores


@pytest.mark.parametrize(
    "entry, expected",
    [
        # nothing exposed: pig -100, sheep +100, the rest of the hearts -200 + 0 (2♥)
        (hand("QS", "JD", "10C 2H", REST), [-100, 100, 0, -200]),
        # Q♠ exposed: the pig is -200
        (hand("QS", "JD", "10C 2H", REST, exposed=["QS"]), [-200, 100, 0, -200]),
        # J♦ exposed: the sheep is +200
        (hand("QS", "JD", "10C 2H", REST, exposed=["JD"]), [-100, 200, 0, -200]),
        # 10♣ exposed, taken alone: +100 instead of +50 (Dee took all 13 hearts: all red +200)
        (hand("QS", "JD", "10C", REST), [-100, 100, 50, 200]),
        (hand("QS", "JD", "10C", REST, exposed=["10C"]), [-100, 100, 100, 200]),
        # A♥ exposed: every heart doubles, whoever took it.
        # Ann -100 + 2×-50; Bo 100 + 2×-40; Chen 2×-30 ×2 (10♣); Dee 2×(-20 - 60)
        (hand("QS AH", "JD KH", "10C QH", REST), [-150, 60, -60, -80]),
        (hand("QS AH", "JD KH", "10C QH", REST, exposed=["AH"]), [-200, 20, -120, -160]),
    ],
)
def test_each_exposure_doubles_its_card(entry, expected):
    assert raw(entry) == expected


@pytest.mark.parametrize(
    "entry, expected",
    [
        # alone: 25 × 2 = +50; exposed 25 × 4 = +100
        (hand("10C", "QS", "JD", REST), [50, -100, 100, 200]),
        (hand("10C", "QS", "JD", REST, exposed=["10C"]), [100, -100, 100, 200]),
        # with others: (100 - 50) × 2 = 100; exposed × 4 = 200
        (hand("10C JD AH", "QS", "", REST), [100, -100, 0, -150]),
        (hand("10C JD AH", "QS", "", REST, exposed=["10C"]), [200, -100, 0, -150]),
        # with others summing to zero: 2♥ is worth 0, Q♠ + J♦ = 0
        (hand("10C 2H", "QS", "JD", REST), [0, -100, 100, -200]),
        (hand("10C QS JD", "AH", "", REST), [0, -50, 0, -150]),
        (hand("10C QS JD", "AH", "", REST, exposed=["10C"]), [0, -50, 0, -150]),
    ],
)
def test_the_transformer(entry, expected):
    assert raw(entry) == expected


ALL_RED = hand("QS " + HEARTS, "JD", "10C", "")


@pytest.mark.parametrize(
    "entry, options, ann",
    [
        # all red +200; the pig turns to +100 (all_red_pig, default) or stays -100
        (ALL_RED, {}, 300),
        (ALL_RED, {"all_red_pig": False}, 100),
        # A♥ exposed: all red +400
        (hand("QS " + HEARTS, "JD", "10C", "", exposed=["AH"]), {}, 500),
        (hand("QS " + HEARTS, "JD", "10C", "", exposed=["AH"]), {"all_red_pig": False}, 300),
        # Q♠ exposed: the turned pig is +200
        (hand("QS " + HEARTS, "JD", "10C", "", exposed=["QS"]), {}, 400),
        # all red without the pig, doubled by the transformer: 200 × 2, A♥ exposed 400 × 2
        (hand("10C " + HEARTS, "QS", "JD", ""), {}, 400),
        (hand("10C " + HEARTS, "QS", "JD", "", exposed=["AH"]), {}, 800),
    ],
)
def test_all_red(entry, options, ann):
    assert raw(entry, **options)[0] == ann


def test_twelve_hearts_are_not_all_red():
    # Ann lacks 2♥ (worth 0): her hearts count -200 and the pig stays -100
    assert raw(hand("QS AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H", "JD", "10C", "2H")) == [
        -300,
        100,
        50,
        0,
    ]


GRAND_SLAM = "QS JD 10C " + HEARTS


@pytest.mark.parametrize(
    "exposed, options, ann",
    [
        # flat: 800 × 2^(exposed cards)
        ([], {}, 800),
        (["QS", "AH"], {}, 3200),
        # three exposed: the fourth counts too (16 × 800), unless auto_expose_fourth is off
        (["QS", "JD", "AH"], {}, 12800),
        (["QS", "JD", "AH"], {"auto_expose_fourth": False}, 6400),
        # formula: (all red 200 + turned pig 100 + sheep 100) × 2
        ([], {"grand_slam": "formula"}, 800),
        ([], {"grand_slam": "formula", "all_red_pig": False}, 400),
        # A♥ and Q♠ exposed: (400 + 200 + 100) × 2
        (["QS", "AH"], {"grand_slam": "formula"}, 1400),
    ],
)
def test_grand_slam(exposed, options, ann):
    assert raw(hand(GRAND_SLAM, "", "", "", exposed=exposed), **options) == [ann, 0, 0, 0]


@pytest.mark.parametrize(
    "entry, on, off",
    [
        # Q♠ J♦ A♥ exposed: 10♣ counts as exposed, alone 25 × 4 (off: 25 × 2).
        # Bo -200, Chen +200, Dee all red 200 × 2
        (
            hand("10C", "QS", "JD", REST, exposed=["QS", "JD", "AH"]),
            [100, -200, 200, 400],
            [50, -200, 200, 400],
        ),
        # Q♠ J♦ 10♣ exposed: A♥ counts as exposed. Ann -50 × 2 × 4 (off: -50 × 4);
        # Dee's hearts -150 × 2 (off: -150)
        (
            hand("10C AH", "QS", "JD", REST, exposed=["QS", "JD", "10C"]),
            [-400, -200, 200, -300],
            [-200, -200, 200, -150],
        ),
    ],
)
def test_auto_expose_fourth(entry, on, off):
    assert raw(entry) == on
    assert raw(entry, auto_expose_fourth=True) == on
    assert raw(entry, auto_expose_fourth=False) == off


def test_two_of_the_four_exposed_expose_nothing_more():
    # only Q♠ and J♦: 10♣ alone stays +50 and the hearts are not doubled
    assert raw(hand("10C", "QS", "JD", REST, exposed=["QS", "JD"])) == [50, -200, 200, 200]


# ---- two decks


@pytest.mark.parametrize(
    "entry, expected",
    [
        # one copy of 10♣: ×2, ×4 with one copy exposed, ×8 with both.
        # Ann 100 × M, Bo alone 25 × M, Chen -200 + 100, Dee all 26 hearts +400
        (hand("10C JD", "10C", "QS QS JD", REST, decks=2), [200, 50, -100, 400]),
        (hand("10C JD", "10C", "QS QS JD", REST, decks=2, exposed=["10C"]), [400, 100, -100, 400]),
        (
            hand("10C JD", "10C", "QS QS JD", REST, decks=2, exposed=["10C", "10C"]),
            [800, 200, -100, 400],
        ),
        # both copies: ×4, ×8, ×16
        (hand("10C 10C JD", "QS", "QS JD", REST, decks=2), [400, -100, 0, 400]),
        (hand("10C 10C JD", "QS", "QS JD", REST, decks=2, exposed=["10C"]), [800, -100, 0, 400]),
        (
            hand("10C 10C JD", "QS", "QS JD", REST, decks=2, exposed=["10C", "10C"]),
            [1600, -100, 0, 400],
        ),
        # both copies alone: 25 × 4, × 8, × 16
        (hand("10C 10C", "QS JD", "QS JD", REST, decks=2), [100, 0, 0, 400]),
        (hand("10C 10C", "QS JD", "QS JD", REST, decks=2, exposed=["10C"]), [200, 0, 0, 400]),
        (hand("10C 10C", "QS JD", "QS JD", REST, decks=2, exposed=["10C"] * 2), [400, 0, 0, 400]),
    ],
)
def test_two_decks_transformer(entry, expected):
    assert raw(entry, decks=2) == expected


@pytest.mark.parametrize(
    "exposed, expected",
    [
        # Ann and Bo: A♥ -50 × 2^eA and a pig -100; Chen: J♦ J♦ 10♣ 10♣ = 200 × 4;
        # Dee: the other 24 hearts -300 × 2^eA
        ([], [-150, -150, 800, -300]),
        (["AH"], [-200, -200, 800, -600]),
        (["AH", "AH"], [-300, -300, 800, -1200]),
    ],
)
def test_two_decks_each_exposed_heart_doubles_again(exposed, expected):
    entry = hand("AH QS", "AH QS", "JD JD 10C 10C", REST, decks=2, exposed=exposed)
    assert raw(entry, decks=2) == expected


@pytest.mark.parametrize("exposed, dee", [([], 400), (["AH"], 800), (["AH", "AH"], 1600)])
def test_two_decks_all_red_is_all_26_hearts(exposed, dee):
    entry = hand("QS QS", "JD JD", "10C 10C", REST, decks=2, exposed=exposed)
    assert raw(entry, decks=2) == [-200, 200, 100, dee]


def test_two_decks_thirteen_hearts_are_not_all_red():
    entry = hand(HEARTS + " QS", HEARTS + " QS", "JD JD", "10C 10C", decks=2)
    assert raw(entry, decks=2) == [-300, -300, 200, 100]


def test_two_decks_example_from_the_original_page():
    # both 10♣, both A♥, both Q♠ exposed: Q♠ Q♠ 10♣ 10♣ = (-400 - 400) × 16
    entry = hand(
        "QS QS 10C 10C", REST, "JD JD", "", decks=2, exposed=["10C", "10C", "AH", "AH", "QS", "QS"]
    )
    result = score(match(entry, decks=2))
    # Bo all red 400 × 4 = 1600; Chen 200. S = -11000; (4·raw - S)/3, rounded, × 1
    assert result["rounds"] == [
        {"raw": [-12800, 1600, 200, 0], "points": [-13400, 5800, 3933, 3667]}
    ]
    assert result["finished"] and result["winners"] == ["Bo"]


def test_two_decks_grand_slam_and_no_auto_exposure():
    everything = " ".join(SCORING * 2)
    # flat: 1600 × 2^3 for three exposed copies
    assert raw(hand(everything, "", "", "", decks=2, exposed=["QS", "QS", "AH"]), decks=2) == [
        12800,
        0,
        0,
        0,
    ]
    # Q♠ J♦ A♥ exposed once each: 10♣ is not exposed with two decks, so 25 × 4 alone;
    # Bo -100 × 2 twice, Chen 100 × 2 twice, Dee all red 400 × 2
    entry = hand("10C 10C", "QS QS", "JD JD", REST, decks=2, exposed=["QS", "JD", "AH"])
    assert raw(entry, decks=2) == [100, -400, 400, 800]


# ---- points


def test_individual_nearest_example_from_the_original_page():
    # raw -120, -280, 0, 160 → -80, -293.33, 80, 293.33 → -80, -293, 80, 293 → × 12
    entry = hand("AH KH JH 9H 4H 3H", "QS 10C QH 10H 2H", "", REST, exposed=["JD"])
    result = score(match(entry))
    assert result["rounds"][0] == {"raw": [-120, -280, 0, 160], "points": [-960, -3516, 960, 3516]}


def test_individual_exact_rounds_after_multiplying():
    # 12 × -293.33 = -3520 exactly; the points sum to zero
    entry = hand("AH KH JH 9H 4H 3H", "QS 10C QH 10H 2H", "", REST, exposed=["JD"])
    assert score(match(entry, rounding="exact"))["totals"] == [-960, -3520, 960, 3520]


@pytest.mark.parametrize(
    "options, points",
    [
        # raw -120, -120, 70, -60, S = -230: -83.33, -83.33, 170, -3.33
        ({"multiplier": 1}, [-83, -83, 170, -3]),
        ({"multiplier": 3}, [-249, -249, 510, -9]),
        ({"multiplier": 3, "rounding": "exact"}, [-250, -250, 510, -10]),
        ({}, [-996, -996, 2040, -36]),
    ],
)
def test_multiplier_and_rounding(options, points):
    entry = hand("QS 9H 8H", "AH KH QH", "JD JH 10H", "10C 7H 6H 5H 4H 3H 2H")
    assert score(match(entry, **options))["totals"] == points


def test_pairs_example_from_the_original_page():
    # raw -190, 50, -10, 0: team 0+2 -200, team 1+3 +50 → ∓125 → × 12
    entry = hand("QS JD AH KH QH JH 10H 9H 8H 7H 6H 4H 3H 2H", "10C", "5H", "")
    result = score(match(entry, mode="pairs"))
    assert result["rounds"][0] == {"raw": [-190, 50, -10, 0], "points": [-1500, 1500, -1500, 1500]}


@pytest.mark.parametrize("decks, multiplier, floor", [(1, 12, 1000), (2, 1, 4000)])
def test_defaults_depend_on_the_decks(decks, multiplier, floor):
    options = score(match(decks=decks))["options"]
    assert (options["multiplier"], options["floor"]) == (multiplier, floor)
    assert options == {
        "decks": decks,
        "mode": "individual",
        "multiplier": multiplier,
        "rounding": "nearest",
        "all_red_pig": True,
        "grand_slam": "flat",
        "auto_expose_fourth": True,
        "end": "floor",
        "floor": floor,
        "hands": None,
        "stake": 0,
    }


@pytest.mark.parametrize(
    "options, message",
    [
        ({"decks": 3}, "option 'How many decks' cannot be 3"),
        ({"multiplier": 0}, "option 'Each hand's points multiplied by' cannot be 0"),
        ({"mode": "teams"}, "option 'Who plays with whom' cannot be \"teams\""),
        ({"stake": -1}, "option 'Money a point' cannot be -1"),
        ({"end": "hands"}, "Type how many hands: the match ends after a number of hands."),
        ({"trump": True}, "unknown option 'trump'"),
    ],
)
def test_bad_options(options, message):
    assert rejected(**options) == message


def test_four_players_exactly():
    assert "Gongzhu is for exactly 4 players" in str(
        pytest.raises(RulesError, score, {"game": "gongzhu", "players": ["A", "B", "C"]}).value
    )


# ---- the end of the match

PLAIN = hand("QS 9H 8H", "AH KH QH", "JD JH 10H", "10C 7H 6H 5H 4H 3H 2H")  # raw -120 for Ann


def test_the_floor_is_checked_on_raw_totals():
    # after one hand Ann has -996 points but only -120 raw: the match goes on
    result = score(match(PLAIN))
    assert (result["totals"][0], result["raw_totals"][0], result["finished"]) == (-996, -120, False)
    # floor 240: the second hand brings Ann's raw total to exactly -240
    assert not score(match(PLAIN, floor=241, end="floor"))["finished"]
    result = score(match(PLAIN, PLAIN, floor=240))
    assert result["raw_totals"] == [-240, -240, 140, -120]
    assert result["finished"] and result["winners"] == ["Chen"]
    assert rejected(PLAIN, PLAIN, PLAIN, floor=240) == "round 3: the match is already finished"


def test_the_default_floor_is_1000_raw():
    result = score(match(PLAIN, PLAIN, PLAIN, PLAIN, PLAIN, PLAIN, PLAIN, PLAIN))
    assert (result["raw_totals"][0], result["finished"]) == (-960, False)
    result = score(match(*[PLAIN] * 9))
    assert (result["raw_totals"][0], result["finished"]) == (-1080, True)


def test_end_after_hands():
    assert not score(match(PLAIN, end="hands", hands=2))["finished"]
    result = score(match(PLAIN, PLAIN, end="hands", hands=2))
    assert result["finished"] and result["winners"] == ["Chen"]
    assert rejected(PLAIN, PLAIN, PLAIN, end="hands", hands=2) == (
        "round 3: the match is already finished"
    )


def test_open_ends_only_when_closed():
    assert not score(match(*[PLAIN] * 10, end="open"))["finished"]
    result = score(match(PLAIN, end="open", closed=True))
    assert result["finished"] and result["winners"] == ["Chen"]
    empty = score(match(end="open", closed=True))
    assert (empty["finished"], empty["winners"], empty["settlement"]) == (True, [], None)


def test_pairs_winners_are_both_partners():
    entry = hand("QS JD AH KH QH JH 10H 9H 8H 7H 6H 4H 3H 2H", "10C", "5H", "")
    assert score(match(entry, mode="pairs", closed=True))["winners"] == ["Bo", "Dee"]


# ---- settlement


def test_stake_and_transfers():
    # totals -996, -996, 2040, -36 (nearest rounding leaves +12) × 0.5
    settlement = score(match(PLAIN, closed=True, stake=0.5))["settlement"]
    assert settlement == {
        "results": [-996, -996, 2040, -36],
        "amounts": [-498, -498, 1020, -18],
        "transfers": [
            {"from": "Ann", "to": "Chen", "amount": 498},
            {"from": "Bo", "to": "Chen", "amount": 498},
            {"from": "Dee", "to": "Chen", "amount": 18},
        ],
        "remainder": 6,
    }


def test_stake_zero_settles_nothing():
    settlement = score(match(PLAIN, closed=True))["settlement"]
    assert settlement == {
        "results": [-996, -996, 2040, -36],
        "amounts": [0, 0, 0, 0],
        "transfers": [],
        "remainder": 0,
    }


def test_exact_rounding_settles_without_remainder():
    # multiplier 3: -250, -250, 510, -10 at 0.01
    settlement = score(match(PLAIN, closed=True, stake=0.01, rounding="exact", multiplier=3))[
        "settlement"
    ]
    assert settlement["amounts"] == [-2.5, -2.5, 5.1, -0.1]
    assert settlement["transfers"] == [
        {"from": "Ann", "to": "Chen", "amount": 2.5},
        {"from": "Bo", "to": "Chen", "amount": 2.5},
        {"from": "Dee", "to": "Chen", "amount": 0.1},
    ]
    assert settlement["remainder"] == 0


# ---- rejected hands


@pytest.mark.parametrize(
    "entry, options, message",
    [
        (
            hand("QS", "JD", "10C", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H"),
            {},
            "round 1: still to place: 2♥",
        ),
        (
            hand("QS", "JD QS", "10C", REST),
            {},
            "round 1: Q♠ was captured 2 times, but there is only one",
        ),
        (hand("QS 5C", "JD", "10C", REST), {}, "round 1: 5C is not a scoring card"),
        (hand("QS XX", "JD", "10C", REST), {}, "round 1: XX is not a card"),
        (
            hand("QS", "JD", "10C", REST, exposed=["KH"]),
            {},
            "round 1: KH cannot be exposed: only Q♠, J♦, 10♣ and A♥ can",
        ),
        (
            hand("QS", "JD", "10C", REST, exposed=["QS", "QS"]),
            {},
            "round 1: Q♠ was exposed 2 times, but there is only one",
        ),
        # two decks: twice is right, once or three times is not
        (
            hand("QS QS", "QS", "JD JD 10C 10C", REST, decks=2),
            {"decks": 2},
            "round 1: Q♠ was captured 3 times, but two decks have only two",
        ),
        (
            {"captured": [["QS"], ["JD", "JD"], ["10C", "10C"], HEARTS.split() * 2]},
            {"decks": 2},
            "round 1: still to place: Q♠",
        ),
        (
            hand("QS", "JD", "10C", REST, decks=2, exposed=["AH"] * 3),
            {"decks": 2},
            "round 1: A♥ was exposed 3 times, but two decks have only two",
        ),
        (
            {"captured": [["QS"], ["JD"], ["10C"]]},
            {},
            "round 1: captured must list one entry per player",
        ),
        (
            {"captured": ["QS", [], [], []]},
            {},
            "round 1: each player's captured cards must be a list of cards",
        ),
        (
            {"captured": hand("QS", "JD", "10C", REST)["captured"], "exposed": "QS"},
            {},
            "round 1: exposed must be a list of cards",
        ),
    ],
)
def test_rejected(entry, options, message):
    assert rejected(entry, **options) == message


def test_the_round_is_named():
    assert rejected(PLAIN, hand("QS", "JD", "", HEARTS)) == ("round 2: still to place: 10♣")


def test_exposed_may_be_missing_or_null():
    entry = {"captured": PLAIN["captured"]}
    assert raw(entry) == raw({**entry, "exposed": None}) == [-120, -120, 70, -60]


@pytest.mark.parametrize("notation", ["QS", "Q♠", "qs", " q♠ ", "Q♤"])
def test_card_notations_for_the_pig(notation):
    entry = {
        "captured": [[notation], ["JD"], ["10C", "2H"], HEARTS.split()[:-1]],
        "exposed": [notation],
    }
    assert raw(entry) == [-200, 100, 0, -200]


@pytest.mark.parametrize(
    "ten, ace", [("TC", "A♥\ufe0f"), ("10C", "ah"), ("10♣", "A♥"), ("tc", "AH")]
)
def test_card_notations_for_ten_and_ace(ten, ace):
    # A♥ exposed: Ann (-50 × 2) × 2; Dee (-150 × 2)
    entry = {"captured": [[ten, ace], ["QS"], ["JD"], HEARTS.split()[1:]], "exposed": [ace]}
    assert raw(entry) == [-200, -100, 100, -300]


# ---- breakdown and status


def lines(phrases, translate=str):
    return [phrase.render(translate) for phrase in phrases]


def test_breakdown_reads_like_the_table_would_say_it():
    entry = hand(
        "QS AH KH", "QH JH 10H 9H 8H 7H 6H 4H 3H 2H", "", "10C JD 5H", exposed=["QS", "AH"]
    )
    table = table_after(entry)
    assert lines(GAME.breakdown(table, 0)) == [
        "Exposed: Q♠ A♥",
        "Ann took Q♠ A♥ K♥: pig -100 ×2 (Q♠ exposed), hearts -90 ×2 (A♥ exposed) = -380; "
        "after evening out -367 ×12 = -4404",
        "Bo took Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 4♥ 3♥ 2♥: hearts -100 ×2 (A♥ exposed) = -200; "
        "after evening out -127 ×12 = -1524",
        "Chen took no scoring card: 0; after evening out 140 ×12 = 1680",
        "Dee took J♦ 10♣ 5♥: sheep 100, hearts -10 ×2 (A♥ exposed), transformer ×2 = 160; "
        "after evening out 353 ×12 = 4236",
    ]


def test_breakdown_of_special_hands():
    table = table_after(hand("10C", "QS", "JD", REST, exposed=["QS", "JD", "AH"]))
    assert lines(GAME.breakdown(table, 0))[:3] == [
        "Exposed: Q♠ J♦ A♥ 10♣",
        "10♣ counts as exposed: the other three were.",
        # raw 100, -200, 200, 400; S = 500: (400 - 500)/3 = -33.33
        "Ann took 10♣: transformer alone 25 ×4 (10♣ exposed) = 100; "
        "after evening out -33 ×12 = -396",
    ]
    table = table_after(hand(GRAND_SLAM, "", "", "", exposed=["QS"]))
    assert lines(GAME.breakdown(table, 0))[1].startswith(
        "Ann took Q♠ J♦ 10♣ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥: "
        "grand slam 800 ×2 (Q♠ exposed) = 1600"
    )
    table = table_after(ALL_RED)
    assert lines(GAME.breakdown(table, 0))[0].startswith(
        "Ann took Q♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥: pig turned by all red 100, "
        "all red 200 = 300"
    )


def test_breakdown_in_pairs_and_with_exact_rounding():
    entry = hand("QS JD AH KH QH JH 10H 9H 8H 7H 6H 4H 3H 2H", "10C", "5H", "")
    assert lines(GAME.breakdown(table_after(entry, mode="pairs"), 0))[1] == (
        "Bo took 10♣: transformer alone 25 ×2 = 50; "
        "team 50 against -200, after evening out 125 ×12 = 1500"
    )
    assert lines(GAME.breakdown(table_after(PLAIN, rounding="exact"), 0))[0] == (
        "Ann took Q♠ 9♥ 8♥: pig -100, hearts -20 = -120; after evening out -83.33 ×12 = -1000"
    )


def test_breakdown_words_are_translated():
    words = {
        "pig": "猪",
        "hearts": "红心",
        "%(card)s exposed": "%(card)s 亮",
        "%(name)s %(score)s; %(share)s": "%(name)s %(score)s；%(share)s",
    }
    table = table_after(hand("QS AH", "JD", "10C 2H", REST, exposed=["AH"]))
    assert lines(GAME.breakdown(table, 0), lambda text: words.get(text, text))[1].startswith(
        "Ann took Q♠ A♥: 猪 -100, 红心 -50 ×2 (A♥ 亮) = -200；"
    )


def test_status_says_who_leads():
    assert lines(GAME.status(table_after())) == ["The holder of 2♣ leads the first hand."]
    table = table_after(PLAIN, hand("JD", "AH", "10C", "QS " + HEARTS.replace("AH ", "")))
    assert lines(GAME.status(table)) == [
        "Dee took the pig and leads the next hand.",
        # Dee: -60, then the pig -100 and twelve hearts -150
        "The match ends when a player's card points reach -1000; lowest now -310 (Dee).",
    ]
    table = table_after(hand("QS", "QS", "JD JD", REST, decks=2), decks=2, end="hands", hands=3)
    assert lines(GAME.status(table)) == [
        "Ann and Bo each took a pig: one of them leads the next hand, as the table agrees.",
        "Hand 2 of 3 is next.",
    ]
    assert lines(GAME.status(table_after(PLAIN, end="hands", hands=1))) == ["The match is over."]


# ---- the entry form


def form(**fields):
    """A posted form: field name -> list of strings (dashes written as underscores here)."""
    return {
        name.replace("_", "-"): value if isinstance(value, list) else [value]
        for name, value in fields.items()
    }


def test_form_gives_the_entry():
    posted = form(
        owner_QS="0",
        owner_9H="0",
        owner_8H="0",
        owner_AH="1",
        owner_KH="1",
        owner_QH="1",
        owner_JD="2",
        owner_JH="2",
        owner_10H="2",
        rest="3",
    )
    entry = GAME.entry_from_form(posted, table_after())
    assert entry == {
        "captured": [
            ["QS", "9H", "8H"],
            ["AH", "KH", "QH"],
            ["JD", "JH", "10H"],
            ["10C", "7H", "6H", "5H", "4H", "3H", "2H"],
        ],
        "exposed": [],
    }
    assert score(match(entry))["totals"] == [-996, -996, 2040, -36]


def test_form_with_exposed_cards_and_every_owner():
    posted = form(
        **{**{f"owner_{card}": "3" for card in SCORING}, "owner_QS": "0"}, exposed=["QS", "AH"]
    )
    entry = GAME.entry_from_form(posted, table_after())
    assert entry == {"captured": [["QS"], [], [], SCORING[1:]], "exposed": ["QS", "AH"]}
    # Dee took all 13 hearts: (sheep 100 + all red 200 × 2) × 2
    assert score(match(entry))["rounds"][0]["raw"] == [-200, 0, 0, 1000]


def test_form_with_two_decks_names_the_copies():
    posted = form(
        owner_QS_1="0",
        owner_QS_2="1",
        owner_JD_1="2",
        owner_JD_2="2",
        owner_10C_1="0",
        owner_10C_2="0",
        rest="3",
        exposed=["QS-1", "QS-2", "10C-2"],
    )
    entry = GAME.entry_from_form(posted, table_after(decks=2))
    assert entry["captured"][:3] == [["QS", "10C", "10C"], ["QS"], ["JD", "JD"]]
    assert entry["exposed"] == ["QS", "QS", "10C"]
    # Ann: -400 × 2^(2+1); Bo -400; Chen +200; Dee all red +400
    assert score(match(entry, decks=2))["rounds"][0]["raw"] == [-3200, -400, 200, 400]


@pytest.mark.parametrize(
    "posted, message",
    [
        # no owner and no rest: the engine names every card still to place
        (
            form(owner_QS="0", owner_JD="1", owner_10C="2"),
            "round 1: still to place: A♥, K♥, Q♥, J♥, 10♥, 9♥, 8♥, 7♥, 6♥, 5♥, 4♥, 3♥, 2♥",
        ),
        (form(owner_JD="1", owner_10C="2", rest="3"), None),
        # an owner that is not a seat leaves the card out
        (form(owner_QS="x", owner_JD="1", rest="3"), "round 1: still to place: Q♠"),
        (form(owner_QS="4", owner_JD="1", rest="3"), "round 1: still to place: Q♠"),
        # exposed text that is not a card is passed through for the engine to reject
        (form(rest="0", exposed="ZZ"), "round 1: ZZ is not a card"),
        (
            form(rest="0", exposed="KH"),
            "round 1: KH cannot be exposed: only Q♠, J♦, 10♣ and A♥ can",
        ),
    ],
)
def test_form_with_missing_or_bad_values(posted, message):
    entry = GAME.entry_from_form(posted, table_after())
    if message is None:
        # Dee: Q♠ and all the hearts, all red 200 and the pig turned to +100
        assert score(match(entry))["rounds"][0]["raw"][3] == 300
    else:
        assert rejected(entry) == message


def refilled(entry, **options):
    """The form entry_context draws for entry: each owner field's seat, the checked boxes."""
    context = GAME.entry_context(table_after(**options), entry)
    return (
        {card["field"]: card["owner"] for card in context["cards"]},
        [box["value"] for box in context["exposable"] if box["checked"]],
        context["unassigned"],
    )


def test_a_fresh_form_has_every_card_without_an_owner():
    context = GAME.entry_context(table_after())
    assert [(c["field"], c["label"], c["red"]) for c in context["cards"][:4]] == [
        ("owner-QS", "Q♠", False),
        ("owner-JD", "J♦", True),
        ("owner-10C", "10♣", False),
        ("owner-AH", "A♥", True),
    ]
    assert {card["owner"] for card in context["cards"]} == {None}
    assert [(box["value"], box["checked"]) for box in context["exposable"]] == [
        ("QS", False),
        ("JD", False),
        ("10C", False),
        ("AH", False),
    ]
    assert context["unassigned"] == [card["label"] for card in context["cards"]]


def test_the_form_refills_from_what_was_posted():
    posted = form(owner_QS="0", owner_AH="1", owner_2H="3", exposed=["QS", "AH"])
    owners, exposed, unassigned = refilled(GAME.entry_from_form(posted, table_after()))
    assert owners["owner-QS"] == 0 and owners["owner-AH"] == 1 and owners["owner-2H"] == 3
    assert sum(owner is not None for owner in owners.values()) == 3
    assert exposed == ["QS", "AH"]
    assert unassigned[:3] == ["J♦", "10♣", "K♥"] and len(unassigned) == 13


def test_the_form_refills_a_stored_hand_and_posts_it_back_unchanged():
    entry = hand(
        "QS AH KH", "QH JH 10H 9H 8H 7H 6H 4H 3H 2H", "", "JD 10C 5H", exposed=["QS", "AH"]
    )
    owners, exposed, unassigned = refilled(entry)
    posted = form(
        **{name.replace("-", "_"): str(seat) for name, seat in owners.items()}, exposed=exposed
    )
    assert GAME.entry_from_form(posted, table_after()) == entry
    assert unassigned == []


def test_two_decks_refill_each_copy():
    entry = hand("QS AH", "QS", "JD JD 10C", REST, exposed=["AH", "AH", "QS"], decks=2)
    owners, exposed, _unassigned = refilled(entry, decks=2)
    assert (owners["owner-QS-1"], owners["owner-QS-2"]) == (0, 1)
    assert (owners["owner-AH-1"], owners["owner-AH-2"]) == (0, 3)
    assert (owners["owner-10C-1"], owners["owner-10C-2"]) == (2, 3)
    assert exposed == ["QS-1", "AH-1", "AH-2"]
    posted = form(
        **{name.replace("-", "_"): str(seat) for name, seat in owners.items()}, exposed=exposed
    )
    assert score(match(GAME.entry_from_form(posted, table_after(decks=2)), decks=2)) == score(
        match(entry, decks=2)
    )


def test_breakdown_names_the_exposure_behind_each_factor():
    # Dee: sheep 100 ×2 (J♦ exposed), 2♥ 0, transformer ×2 doubled again by its exposure:
    # (200 + 0) × 4 = 800. S = -190 - 110 + 0 + 800 = 500: Ann (-760 - 500)/3 = -420.
    entry = hand(
        "QS AH KH", "QH JH 10H 9H 8H 7H 6H 5H 4H 3H", "", "10C JD 2H", exposed=["JD", "10C"]
    )
    assert lines(GAME.breakdown(table_after(entry), 0)) == [
        "Exposed: J♦ 10♣",
        "Ann took Q♠ A♥ K♥: pig -100, hearts -90 = -190; after evening out -420 ×12 = -5040",
        "Bo took Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥: hearts -110 = -110; "
        "after evening out -313 ×12 = -3756",
        "Chen took no scoring card: 0; after evening out -167 ×12 = -2004",
        "Dee took J♦ 10♣ 2♥: sheep 100 ×2 (J♦ exposed), hearts 0, transformer ×4 (10♣ exposed) "
        "= 800; after evening out 900 ×12 = 10800",
    ]
    # all red 200 doubled by the exposed A♥; the pig turned to +100: raw 500
    entry = hand("QS " + HEARTS, "", "JD", "10C", exposed=["AH"])
    assert lines(GAME.breakdown(table_after(entry), 0))[1].startswith(
        "Ann took Q♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥: pig turned by all red 100, "
        "all red 200 ×2 (A♥ exposed) = 500;"
    )


def test_breakdown_with_two_decks_names_a_card_exposed_twice():
    entry = hand("QS QS AH", "JD JD", "10C 10C", REST, exposed=["QS", "QS"], decks=2)
    assert lines(GAME.breakdown(table_after(entry, decks=2), 0))[:2] == [
        "Exposed: Q♠ Q♠",
        "Ann took Q♠ Q♠ A♥: pig -200 ×4 (Q♠ exposed twice), hearts -50 = -850; "
        "after evening out -833 ×1 = -833",
    ]


def test_breakdown_in_pairs_names_each_seat_s_team_and_the_other():
    # raws -100, -90, 70, -160: Ann and Chen -30, Bo and Dee -250; halves of the gap ±110
    entry = hand("QS", "AH KH", "JD QH", "10C JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")
    assert [
        line.split("; ")[1] for line in lines(GAME.breakdown(table_after(entry, mode="pairs"), 0))
    ] == [
        "team -30 against -250, after evening out 110 ×12 = 1320",
        "team -250 against -30, after evening out -110 ×12 = -1320",
        "team -30 against -250, after evening out 110 ×12 = 1320",
        "team -250 against -30, after evening out -110 ×12 = -1320",
    ]


@pytest.mark.parametrize("rounding", ["nearest", "exact"])
def test_pairs_points_are_the_team_halves_with_either_rounding(rounding):
    entry = hand("QS", "AH KH", "JD QH", "10C JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")
    result = score(match(entry, mode="pairs", rounding=rounding))
    assert result["rounds"][0]["points"] == [1320, -1320, 1320, -1320]


def test_status_names_everyone_on_the_lowest_raw_total():
    # Ann Q♠ -100; Bo A♥ K♥ 5♥ -100; Chen J♦ 10♣ (100 ×2); Dee the other hearts -100
    entry = hand("QS", "AH KH 5H", "JD 10C", REST)
    assert score(match(entry))["rounds"][0]["raw"] == [-100, -100, 200, -100]
    assert lines(GAME.status(table_after(entry)))[1] == (
        "The match ends when a player's card points reach -1000; lowest now -100 (Ann, Bo, Dee)."
    )


def test_a_missing_hands_option_points_at_the_hands_field():
    with pytest.raises(RulesError) as error:
        score(match(end="hands"))
    assert error.value.phrase.params["name"] == "hands"


def test_a_line_translates_its_words_once_and_never_its_numbers():
    mark = "<{}>".format
    assert Line("%(label)s %(value)s", label=Term("pig"), value=-100).render(mark) == (
        "<<pig> -100>"
    )
    assert Line("%(cards)s", cards=[Term("pig"), Term("sheep")]).render(mark) == "<<pig>, <sheep>>"


def test_the_form_s_cards_and_boxes_carry_what_the_template_draws():
    context = GAME.entry_context(table_after())
    assert [card["card"] for card in context["cards"][:4]] == ["QS", "JD", "10C", "AH"]
    assert [(box["label"], box["red"]) for box in context["exposable"]] == [
        ("Q♠", False),
        ("J♦", True),
        ("10♣", False),
        ("A♥", True),
    ]


def test_all_red_names_only_the_ace_of_hearts_exposure():
    # the turned pig 100 ×2 by Q♠, all red 200 ×2 by A♥: raw 600
    entry = hand("QS " + HEARTS, "", "JD", "10C", exposed=["AH", "QS"])
    assert lines(GAME.breakdown(table_after(entry), 0))[1].startswith(
        "Ann took Q♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥: pig turned by all red 100 ×2 "
        "(Q♠ exposed), all red 200 ×2 (A♥ exposed) = 600;"
    )


# ---- house rules: hearts at face value, a ceiling beside the floor


@pytest.mark.parametrize(
    "entry, standard, face",
    [
        (hand("9H 4H", "QS", "JD", REST), -10, -19),  # Wikipedia: 9♥ with 4♥
        (hand("9H", "QS", "JD", REST), -10, -9),
        (hand("8H 7H 6H", "QS", "JD", REST), -30, -21),
        (hand("5H", "QS", "JD", REST), -10, -5),
        (hand("4H", "QS", "JD", REST), 0, -10),
        (hand("3H 2H", "QS", "JD", REST), 0, -5),
        (hand("10H AH KH QH JH", "QS", "JD", REST), -150, -150),  # the others as before
        (hand("10C 2H", "QS", "JD", REST), 0, -4),  # no heart is 0: the transformer doubles -2
        (hand(HEARTS, "QS", "JD", "10C"), 200, 200),  # all red: still +200
        (hand("9H", "QS", "JD", REST, exposed=["AH"]), -20, -18),  # A♥ exposed doubles it
    ],
)
def test_hearts_at_face_value(entry, standard, face):
    assert raw(entry)[0] == standard
    assert raw(entry, hearts="standard")[0] == standard
    assert raw(entry, hearts="face")[0] == face


def test_face_value_hearts_still_add_up_to_minus_200():
    assert raw(hand(HEARTS.replace("AH ", ""), "AH", "QS JD", "10C"), hearts="face")[:2] == [
        -150,
        -50,
    ]


def test_face_value_with_two_decks():
    entry = hand("9H 9H 4H", "QS QS", "JD JD", REST, decks=2)
    assert raw(entry, decks=2, hearts="face")[0] == -28


def test_a_ceiling_also_ends_the_match():
    # Chen takes 70 raw a hand: 140 after two
    result = score(match(PLAIN, PLAIN, ceiling=140))
    assert result["raw_totals"][2] == 140
    assert (result["finished"], result["winners"]) == (True, ["Chen"])
    assert not score(match(PLAIN, PLAIN, ceiling=141))["finished"]
    assert not score(match(PLAIN, ceiling=140))["finished"]
    assert rejected(PLAIN, PLAIN, PLAIN, ceiling=140) == "round 3: the match is already finished"
    # the floor still ends it first when it is reached first
    assert score(match(PLAIN, PLAIN, ceiling=1000, floor=240))["finished"]


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"ceiling": 1000, "end": "open"},
            "option 'Also end at plus this many card points' is used only when 'How the match "
            "ends' is 'at a limit of card points'",
        ),
        (
            {"ceiling": 1000, "end": "hands", "hands": 3},
            "option 'Also end at plus this many card points' is used only when 'How the match "
            "ends' is 'at a limit of card points'",
        ),
        ({"ceiling": 0}, "option 'Also end at plus this many card points' cannot be 0"),
        (
            {"ceiling": 10_000_001},
            "option 'Also end at plus this many card points' cannot be 10000001",
        ),
        ({"hearts": "red"}, "option 'What the hearts are worth' cannot be \"red\""),
    ],
)
def test_bad_house_rules(options, message):
    with pytest.raises(RulesError) as error:
        score(match(**options))
    assert str(error.value) == message
    assert error.value.phrase.params["name"] == next(iter(options))


def test_the_house_rules_are_listed_once_the_match_gives_one():
    plain = score(match())["options"]
    assert "hearts" not in plain and "ceiling" not in plain
    for given in ({"ceiling": 1}, {"ceiling": 10_000_000}, {"hearts": "standard"}):
        assert (
            score(match(**given))["options"]
            == plain | {"hearts": "standard", "ceiling": None} | given
        )
    assert score(match(ceiling=None, end="open"))["options"]["ceiling"] is None


def test_status_names_the_ceiling():
    assert lines(GAME.status(table_after(PLAIN, ceiling=1000))) == [
        "Ann took the pig and leads the next hand.",
        "The match ends when a player's card points reach -1000; lowest now -120 (Ann, Bo).",
        "It also ends at +1000; highest now 70 (Chen).",
    ]


def test_the_standings_give_each_players_card_points_beside_the_floor():
    table = table_after(hand("QS AH", "JD", "10C 2H", REST, exposed=["AH"]))
    assert [str(GAME.to_go(table, seat)) for seat in range(4)] == [
        f"card points {raw} of -1000" for raw in table.raw_totals
    ]
    assert GAME.to_go(table_after(hand("QS AH", "JD", "10C 2H", REST), end="open"), 0) is None
