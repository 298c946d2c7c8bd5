"""Sanming run-fast, rule by rule (games/rules/sanming.py); every figure worked by hand."""

import pytest

from games.rules import GAMES, RulesError, replay, score
from games.rules.base import Term
from games.rules.sanming import loser_points

GAME = GAMES["sanming"]
PLAYERS = ["Ann", "Bo", "Chen"]
SANMING = {"deal": 17, "card_points": "sanming", "baodan": False}


def hand(winner, cards_left, bombed=None):
    """One round entry: who went out, cards left per seat and (optionally) bombs per seat."""
    entry = {"winner": winner, "cards_left": cards_left}
    if bombed is not None:
        entry["bombed"] = bombed
    return entry


def match(*rounds, closed=False, **options):
    return {
        "game": "sanming",
        "players": PLAYERS,
        "options": options,
        "rounds": list(rounds),
        "closed": closed,
    }


def table_after(*rounds, **options):
    """The engine's table once rounds are played (for breakdown and status)."""
    return replay(match(*rounds, **options))[1]


def rejected(document):
    with pytest.raises(RulesError) as error:
        score(document)
    return str(error.value)


# ---- scoring a hand: 1-9 -> n, 10-16 -> 2n, 17 -> 68, doubled per bomb


@pytest.mark.parametrize(
    "cards, bombs, points",
    [
        (1, 0, 1),
        (5, 0, 5),
        (9, 0, 9),
        (10, 0, 20),
        (12, 0, 24),
        (16, 0, 32),
        (17, 0, 68),
        (12, 1, 48),  # the rule book: 12 × 2 × 2
        (9, 2, 36),  # the rule book: 9 bombed twice
        (17, 1, 136),
        (1, 3, 8),
        (16, 13, 32 * 8192),
    ],
)
def test_a_losers_points(cards, bombs, points):
    assert loser_points(cards, bombs, score(match())["options"] | SANMING) == points
    result = score(match(hand(0, [0, cards, 1], [0, bombs, 0]), target=100000))
    assert result["rounds"] == [{"points": [0, points, 1]}]


def test_the_winner_scores_0_and_bombs_default_to_none():
    result = score(match(hand(2, [12, 9, 0])))
    assert result["rounds"] == [{"points": [24, 9, 0]}]
    assert result["totals"] == [24, 9, 0]


@pytest.mark.parametrize("winners_bombs", [5, 99, "x"])  # ignored, so never refused
def test_the_winners_cards_may_be_null_and_the_winners_bombs_are_ignored(winners_bombs):
    result = score(match(hand(1, [3, None, 10], [0, winners_bombs, 1])))
    assert result["rounds"] == [{"points": [3, 0, 40]}]


def test_defaults_are_filled_in():
    assert score(match())["options"] == {"target": 100, "kid_below": 5, "bean_rate": 1}


# ---- the end of the match


def test_reaching_exactly_100_ends_the_match():
    result = score(match(hand(0, [0, 17, 1]), hand(0, [0, 16, 1])))
    assert result["totals"] == [0, 100, 2]
    assert result["finished"] is True


def test_99_is_not_the_end():
    result = score(match(hand(0, [0, 17, 1]), hand(0, [0, 11, 1]), hand(0, [0, 9, 1])))
    assert result["totals"] == [0, 99, 3]
    assert (result["finished"], result["winners"], result["settlement"]) == (False, [], None)


def test_the_target_is_an_option():
    result = score(match(hand(0, [0, 10, 1]), target=20))
    assert result["finished"] is True


# ---- kids and the settlement: result = (B - A) + (C - A)


@pytest.mark.parametrize(
    "rounds, options, totals, adjusted, results, winners",
    [
        # one kid: Ann's 3 is below 5 -> 0; Bo 6 -> 12, Chen 100 -> 200; sum 212
        (
            [hand(1, [3, 0, 17]), hand(0, [0, 6, 16])],
            {},
            [3, 6, 100],
            [0, 12, 200],
            [212, 176, -388],
            ["Ann"],
        ),
        # two kids: Ann 0 and Bo 4 -> 0; Chen 136 -> 272
        (
            [hand(0, [0, 4, 17], [0, 0, 1])],
            {},
            [0, 4, 136],
            [0, 0, 272],
            [272, 272, -544],
            ["Ann", "Bo"],
        ),
        # exactly 5 is not a kid, so nothing changes; sum 111
        (
            [hand(1, [5, 0, 17]), hand(0, [0, 6, 16])],
            {},
            [5, 6, 100],
            [5, 6, 100],
            [96, 93, -189],
            ["Ann"],
        ),
        # 4 is a kid with the default line, not with kid_below 4
        (
            [hand(1, [4, 0, 17]), hand(0, [0, 6, 16])],
            {},
            [4, 6, 100],
            [0, 12, 200],
            [212, 176, -388],
            ["Ann"],
        ),
        (
            [hand(1, [4, 0, 17]), hand(0, [0, 6, 16])],
            {"kid_below": 4},
            [4, 6, 100],
            [4, 6, 100],
            [98, 92, -190],
            ["Ann"],
        ),
        # no kid at all: 20, 20, 100 stand; sum 140
        (
            [hand(0, [0, 10, 17]), hand(1, [10, 0, 16])],
            {},
            [20, 20, 100],
            [20, 20, 100],
            [80, 80, -160],
            ["Ann", "Bo"],
        ),
    ],
)
def test_the_kid_rule_and_results(rounds, options, totals, adjusted, results, winners):
    result = score(match(*rounds, **options))
    assert result["totals"] == totals
    assert result["finished"] is True
    assert result["settlement"]["adjusted"] == adjusted
    assert result["settlement"]["results"] == results
    assert result["settlement"]["amounts"] == results
    assert result["winners"] == winners


def test_the_rule_books_worked_example_at_5_beans():
    result = score(
        match(
            hand(0, [0, 6, 11]),
            hand(1, [3, 0, 14], [0, 0, 1]),
            hand(0, [0, 9, 13], [0, 1, 0]),
            bean_rate=5,
        )
    )
    assert result["totals"] == [3, 24, 104]
    assert result["settlement"] == {
        "adjusted": [0, 48, 208],
        "results": [256, 112, -368],
        "amounts": [1280, 560, -1840],
        "transfers": [
            {"from": "Chen", "to": "Ann", "amount": 1280},
            {"from": "Chen", "to": "Bo", "amount": 560},
        ],
        "remainder": 0,
    }


def test_a_match_closed_early_settles_without_the_kid_rule():
    # 3, 0, 68 stand (Ann and Bo are below 5, but nobody reached 100); sum 71
    result = score(match(hand(1, [3, 0, 17]), closed=True))
    assert result["finished"] is True
    assert result["settlement"]["adjusted"] == [3, 0, 68]
    assert result["settlement"]["results"] == [62, 71, -133]
    assert result["winners"] == ["Bo"]


def test_a_match_closed_before_any_hand_has_no_settlement():
    result = score(match(closed=True))
    assert (result["finished"], result["winners"], result["settlement"]) == (True, [], None)


@pytest.mark.parametrize(
    "rate, amounts, transfers",
    [
        (5, [310, 355, -665], [("Chen", "Bo", 355), ("Chen", "Ann", 310)]),
        (0.5, [31, 35.5, -66.5], [("Chen", "Bo", 35.5), ("Chen", "Ann", 31)]),
        (0.1, [6.2, 7.1, -13.3], [("Chen", "Bo", 7.1), ("Chen", "Ann", 6.2)]),
        (0, [0, 0, 0], []),
    ],
)
def test_the_bean_rate(rate, amounts, transfers):
    settled = score(match(hand(1, [3, 0, 17]), closed=True, bean_rate=rate))["settlement"]
    assert settled["results"] == [62, 71, -133]
    assert settled["amounts"] == amounts
    assert [(t["from"], t["to"], t["amount"]) for t in settled["transfers"]] == transfers
    assert settled["remainder"] == 0


@pytest.mark.parametrize(
    "rounds",
    [
        [hand(1, [3, 0, 17])],
        [hand(0, [0, 4, 17], [0, 0, 1])],
        [hand(1, [5, 0, 17]), hand(0, [0, 6, 16])],
    ],
)
def test_transfers_settle_the_amounts(rounds):
    settled = score(match(*rounds, closed=True, bean_rate=0.5))["settlement"]
    assert sum(settled["amounts"]) == 0
    balance = dict.fromkeys(PLAYERS, 0)
    for t in settled["transfers"]:
        balance[t["from"]] -= t["amount"]
        balance[t["to"]] += t["amount"]
    assert list(balance.values()) == settled["amounts"]


# ---- options


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"target": 10, "kid_below": 10},
            "option 'Kid rule: totals below' must be below the target (10)",
        ),
        ({"kid_below": 100}, "option 'Kid rule: totals below' must be below the target (100)"),
        ({"target": 0}, "option 'Total that ends the match' cannot be 0"),
        ({"target": 100001}, "option 'Total that ends the match' cannot be 100001"),
        ({"kid_below": -1}, "option 'Kid rule: totals below' cannot be -1"),
        ({"bean_rate": -1}, "option 'Beans a point' cannot be -1"),
        ({"bean_rate": "5"}, "option 'Beans a point' cannot be \"5\""),
        ({"beans": 5}, "unknown option 'beans'"),
    ],
)
def test_bad_options_are_rejected(options, message):
    assert rejected(match(**options)) == message


def test_kid_below_just_under_the_target_is_allowed():
    assert score(match(target=10, kid_below=9))["options"]["kid_below"] == 9


def test_the_game_is_for_three():
    assert (
        rejected({"game": "sanming", "players": ["Ann", "Bo"]})
        == "Sanming run-fast is for exactly 3 players"
    )


# ---- rejected entries


@pytest.mark.parametrize(
    "entry, message",
    [
        (hand(3, [0, 1, 1]), "the winner must be a whole number from 0 to 2"),
        (hand(-1, [0, 1, 1]), "the winner must be a whole number from 0 to 2"),
        (hand("Ann", [0, 1, 1]), "the winner must be a whole number from 0 to 2"),
        (hand(0, [2, 6, 11]), "the winner's cards left must be a whole number from 0 to 0"),
        (hand(0, [0, 0, 11]), "Bo's cards left must be a whole number from 1 to 17"),
        (hand(0, [0, 6, 18]), "Chen's cards left must be a whole number from 1 to 17"),
        (hand(0, [0, None, 3]), "Tap how many cards Bo has left."),
        (hand(0, [0, 6.0, 3]), "Bo's cards left must be a whole number from 1 to 17"),
        (hand(0, [0, 6, 3], [0, 14, 0]), "Bo's bombs must be a whole number from 0 to 13"),
        (hand(0, [0, 6, 3], [0, 0, -1]), "Chen's bombs must be a whole number from 0 to 13"),
        (hand(0, [0, 6]), "cards left must list one entry per player"),
        (hand(0, [0, 6, 3], [0, 0]), "bombed must list one entry per player"),
    ],
)
def test_a_bad_hand_is_rejected(entry, message):
    assert rejected(match(hand(1, [1, 0, 1]), entry)) == "round 2: " + message


def test_a_hand_after_the_end_is_rejected():
    # Bo reaches 136 (68 bombed once) in round 1
    document = match(hand(0, [0, 17, 12], [0, 1, 0]), hand(0, [0, 1, 1]))
    assert rejected(document) == "round 2: the match is already finished"


# ---- the entry form: winner, cards_left-N, bombed-N


def test_a_typical_form_becomes_the_entry_the_engine_accepts():
    form = {
        "winner": ["1"],
        "cards_left-0": ["12"],
        "cards_left-1": [""],
        "cards_left-2": [" 3 "],
        "bombed-0": ["1"],
        "bombed-1": [""],
        "bombed-2": ["0"],
        "csrfmiddlewaretoken": ["x"],
    }
    entry = GAME.entry_from_form(form, table_after())
    assert entry == {"winner": 1, "cards_left": [12, None, 3], "bombed": [1, 0, 0]}
    assert score(match(entry))["rounds"] == [{"points": [48, 0, 3]}]


def test_the_winners_row_on_the_form_is_left_out():
    # Cards typed for a player who is then tapped as the winner are not theirs to hold.
    form = {
        "winner": ["2"],
        "cards_left-0": ["5"],
        "cards_left-1": ["12"],
        "cards_left-2": ["18"],
        "bombed-1": ["1"],
        "bombed-2": ["x"],
    }
    entry = GAME.entry_from_form(form, table_after())
    assert entry == {"winner": 2, "cards_left": [5, 12, None], "bombed": [0, 1, 0]}


def test_missing_bomb_fields_mean_no_bombs():
    form = {"winner": ["0"], "cards_left-1": ["17"], "cards_left-2": ["9"]}
    entry = GAME.entry_from_form(form, table_after())
    assert entry == {"winner": 0, "cards_left": [None, 17, 9], "bombed": [0, 0, 0]}


@pytest.mark.parametrize(
    "field, text, message",
    [
        ("cards_left-2", "three", "round 1: Chen's cards left must be a whole number from 1 to 17"),
        ("bombed-1", "x", "round 1: Bo's bombs must be a whole number from 0 to 13"),
        ("winner", "", "round 1: Tap who went out first."),
    ],
)
def test_bad_typed_text_is_kept_and_rejected(field, text, message):
    form = {"winner": ["0"], "cards_left-1": ["4"], "cards_left-2": ["9"], field: [text]}
    entry = GAME.entry_from_form(form, table_after())
    assert rejected(match(entry)) == message


# ---- at the table: breakdown and status


@pytest.mark.parametrize(
    "entry, lines",
    [
        (
            hand(0, [0, 12, 9], [0, 1, 2]),
            [
                "Ann went out first: 0",
                "Bo: 12 cards ×2 = 24, bombed once ×2 = 48",
                "Chen: 9 cards = 9, bombed twice ×4 = 36",
            ],
        ),
        (
            hand(2, [17, 1, 0]),
            ["Chen went out first: 0", "Ann: 17 cards, never played = 68", "Bo: 1 card = 1"],
        ),
        (
            hand(1, [16, 0, 1], [0, 0, 3]),
            [
                "Bo went out first: 0",
                "Ann: 16 cards ×2 = 32",
                "Chen: 1 card = 1, bombed 3 times ×8 = 8",
            ],
        ),
        (
            hand(1, [17, 0, 5], [1, 0, 0]),
            [
                "Bo went out first: 0",
                "Ann: 17 cards, never played = 68, bombed once ×2 = 136",
                "Chen: 5 cards = 5",
            ],
        ),
    ],
)
def test_the_breakdown_says_each_losers_points_in_words(entry, lines):
    table = table_after(hand(1, [1, 0, 1]), entry, target=1000)
    assert [str(p) for p in GAME.breakdown(table, 1)] == lines


def test_the_breakdown_leaves_the_bomb_count_to_translate():
    phrase = GAME.breakdown(table_after(hand(0, [0, 12, 9], [0, 1, 0])), 0)[1]
    assert isinstance(phrase.params["times"], Term)


def test_the_holder_of_3_spades_leads_the_first_hand():
    assert [str(p) for p in GAME.status(table_after())] == [
        "The holder of 3♠ leads the first hand.",
        "The match ends when a total reaches 100.",
    ]


def test_the_last_hands_winner_leads_and_the_leader_is_measured_to_the_target():
    table = table_after(hand(1, [3, 0, 17]))
    assert [str(p) for p in GAME.status(table)] == [
        "Bo won the last hand and leads the next.",
        "Highest total 68 (Chen): 32 short of 100.",
    ]
    table = table_after(hand(1, [3, 0, 17]), hand(2, [10, 17, 0]))
    assert [str(p) for p in GAME.status(table)] == [
        "Chen won the last hand and leads the next.",
        "Highest total 68 (Bo, Chen): 32 short of 100.",
    ]


def test_after_the_end_the_status_shows_the_kid_rule_and_the_payments():
    table = table_after(hand(1, [3, 0, 17]), hand(0, [0, 6, 16]), bean_rate=5)
    assert [str(p) for p in GAME.status(table)] == [
        "A total reached 100: the match is over.",
        "Ann is a kid (3 is below 5): 0.",
        "Bo doubles: 6 becomes 12.",
        "Chen doubles: 100 becomes 200.",
        "Chen pays Ann 1060 beans.",
        "Chen pays Bo 880 beans.",
    ]


def test_after_the_end_without_a_kid_the_status_says_so():
    table = table_after(hand(1, [5, 0, 17]), hand(0, [0, 6, 16]))
    assert [str(p) for p in GAME.status(table)][:2] == [
        "A total reached 100: the match is over.",
        "Nobody is below 5, so there is no kid.",
    ]


# ---- house rules of run-fast: deal, card_points, baodan, bomb (pay), bomb_points, settle

FLAT = {"card_points": "flat"}


def paid(winner, cards_left, bombs=None):
    """A hand with bomb: pay: who went out, cards left, and (optionally) bombs each played."""
    entry = {"winner": winner, "cards_left": cards_left}
    if bombs is not None:
        entry["bombs"] = bombs
    return entry


@pytest.mark.parametrize(
    "options, cards, bombs, points",
    [
        # flat: a card a point, doubled for a player who never played: 2 × the deal
        (FLAT, 1, 0, 1),
        (FLAT, 12, 0, 12),
        (FLAT, 16, 0, 16),
        (FLAT, 17, 0, 34),
        (FLAT, 12, 1, 24),  # bombs still double
        ({"deal": 16}, 9, 0, 9),
        ({"deal": 16}, 15, 0, 15),
        ({"deal": 16}, 16, 0, 32),
        ({"deal": 15}, 14, 0, 14),
        ({"deal": 15}, 15, 0, 30),
        ({"deal": 15}, 15, 2, 120),
        # baodan: a single card left scores 0, bombed or not; two cards are two
        ({"baodan": True}, 1, 0, 0),
        ({"baodan": True}, 1, 3, 0),
        ({"baodan": True}, 2, 0, 2),
        ({"baodan": True}, 17, 0, 68),
        ({"baodan": True, "deal": 15}, 1, 0, 0),
        ({"baodan": False}, 1, 0, 1),
    ],
)
def test_a_losers_points_under_the_house_rules(options, cards, bombs, points):
    result = score(match(hand(0, [0, cards, 2], [0, bombs, 0]), target=100000, **options))
    assert result["rounds"] == [{"points": [0, points, 2]}]


@pytest.mark.parametrize(
    "options, card_points",
    [({}, "sanming"), ({"deal": 17}, "sanming"), ({"deal": 16}, "flat"), ({"deal": 15}, "flat")],
)
def test_card_points_follow_the_deal_unless_given(options, card_points):
    assert GAME.read_options(options, 3)["card_points"] == card_points


def test_the_sanming_table_needs_a_17_card_deal():
    for deal in (16, 15):
        with pytest.raises(RulesError) as error:
            score(match(deal=deal, card_points="sanming"))
        assert str(error.value) == "option 'card_points': the Sanming table needs a 17-card deal"
        assert error.value.phrase.params["name"] == "card_points"
    assert score(match(deal=17, card_points="flat"))["options"]["card_points"] == "flat"


@pytest.mark.parametrize("deal, most", [(17, 17), (16, 16), (15, 15)])
def test_a_loser_holds_1_to_the_deal(deal, most):
    assert score(match(hand(0, [0, most, 1]), deal=deal, target=1000))["rounds"]
    assert rejected(match(hand(0, [0, most + 1, 1]), deal=deal)) == (
        f"round 1: Bo's cards left must be a whole number from 1 to {most}"
    )


def test_the_house_rules_are_listed_once_the_match_gives_one():
    plain = {"target": 100, "kid_below": 5, "bean_rate": 1}
    assert score(match())["options"] == plain
    assert score(match(settle="pairwise"))["options"] == plain | {
        "deal": 17,
        "card_points": "sanming",
        "baodan": False,
        "bomb": "double",
        "bomb_points": 10,
        "settle": "pairwise",
    }


@pytest.mark.parametrize(
    "options, message",
    [
        ({"deal": 14}, "option 'Cards dealt to each player' cannot be 14"),
        ({"deal": "16"}, "option 'Cards dealt to each player' cannot be \"16\""),
        ({"card_points": "double"}, "option 'Points for the cards left' cannot be \"double\""),
        ({"baodan": 1}, "option 'A single card left scores 0' cannot be 1"),
        ({"bomb": "none"}, "option 'A bomb' cannot be \"none\""),
        ({"bomb_points": 0}, "option 'What each pays for a bomb' cannot be 0"),
        ({"bomb_points": 1001}, "option 'What each pays for a bomb' cannot be 1001"),
        ({"settle": "kid"}, "option 'Who pays whom at the end' cannot be \"kid\""),
    ],
)
def test_a_house_rule_out_of_range_is_rejected(options, message):
    assert rejected(match(**options)) == message


def test_bomb_points_from_1_to_1000():
    for points in (1, 1000):
        result = score(match(paid(0, [0, 3, 4], [0, 0, 1]), bomb="pay", bomb_points=points))
        assert result["rounds"][0]["bomb_pay"] == [-points, -points, 2 * points]


@pytest.mark.parametrize(
    "bombs, bomb_points, bomb_pay",
    [
        ([0, 0, 1], 10, [-10, -10, 20]),  # the rule book: seat 2 bombs once at 10
        ([1, 0, 0], 10, [20, -10, -10]),  # the winner bombs too
        ([2, 0, 1], 10, [30, -30, 0]),
        ([1, 1, 1], 10, [0, 0, 0]),
        ([0, 3, 0], 20, [-60, 120, -60]),
        ([0, 0, 0], 10, [0, 0, 0]),
    ],
)
def test_with_bomb_pay_each_other_player_pays_the_bomber(bombs, bomb_points, bomb_pay):
    options = {"bomb": "pay", "bomb_points": bomb_points}
    result = score(match(paid(0, [0, 12, 3], bombs), closed=True, **options))
    # bombs double nothing: the points are the cards alone, and bomb payments are not totals
    assert result["rounds"] == [{"points": [0, 24, 3], "bomb_pay": bomb_pay}]
    assert result["totals"] == [0, 24, 3]
    pairwise = [27 + 0, 27 - 72, 27 - 9]
    assert result["settlement"]["results"] == [r + b for r, b in zip(pairwise, bomb_pay)]


def test_bomb_payments_count_neither_to_the_target_nor_to_the_kid_rule():
    # Bo is paid 10 × 13 by each of the others, but totals are points only: no end yet
    result = score(match(paid(1, [3, 0, 1], [0, 13, 0]), bomb="pay", target=60))
    assert (result["totals"], result["finished"]) == ([3, 0, 1], False)
    rounds = [paid(1, [3, 0, 1], [0, 13, 0]), paid(1, [3, 0, 17])]
    ended = score(match(*rounds, bomb="pay", target=60))
    settlement = ended["settlement"]
    # Bo's 0 makes him a kid whatever he was paid: 12, 0, 138 → 114, 150, -264, plus the bombs
    assert settlement["adjusted"] == [12, 0, 138]
    assert settlement["results"] == [114 - 130, 150 + 260, -264 - 130]
    assert ended["winners"] == ["Bo"]


def test_without_bombs_a_paying_hand_pays_nothing():
    result = score(match(paid(0, [0, 4, 5]), bomb="pay"))
    assert result["rounds"] == [{"points": [0, 4, 5], "bomb_pay": [0, 0, 0]}]


def test_with_bomb_pay_bombed_is_refused_and_bombs_are_checked():
    assert rejected(match(hand(0, [0, 5, 8], [0, 1, 0]), bomb="pay")) == (
        "round 1: with bomb: pay, record the bombs each player played (bombs), not bombed"
    )
    assert rejected(match(hand(0, [0, 5, 8], [0, 0, 0]), bomb="pay")).startswith("round 1: with")
    assert score(match(paid(0, [0, 5, 8]) | {"bombed": None}, bomb="pay"))["rounds"]
    assert rejected(match(paid(0, [0, 5, 8], [14, 0, 0]), bomb="pay")) == (
        "round 1: Ann's bombs must be a whole number from 0 to 13"
    )
    assert rejected(match(paid(0, [0, 5, 8], [0, 0]), bomb="pay")) == (
        "round 1: bombs must list one entry per player"
    )
    # doubling reads no bombs: whatever they hold
    assert score(match(paid(0, [0, 5, 8], "x")))["rounds"] == [{"points": [0, 5, 8]}]


def test_baodan_does_not_excuse_a_bomb_payment():
    result = score(match(paid(0, [0, 1, 8], [1, 0, 0]), bomb="pay", baodan=True, closed=True))
    assert result["rounds"] == [{"points": [0, 0, 8], "bomb_pay": [20, -10, -10]}]
    assert result["settlement"]["results"] == [8 + 20, 8 - 10, -16 - 10]


@pytest.mark.parametrize("settle, results", [("winner", [9, -6, -3]), ("pairwise", [9, -9, 0])])
def test_losers_pay_the_winner_or_everyone_settles_with_everyone(settle, results):
    # the rule book: one hand, Ann out, Bo 6 cards, Chen 3 (flat)
    result = score(match(hand(0, [0, 6, 3]), closed=True, settle=settle, card_points="flat"))
    assert result["settlement"]["results"] == results


def test_losers_pay_each_hands_winner_with_no_kid_rule():
    # Ann collects 12 + 3, Bo 1 + 10; Chen reaches the target; Ann's 1 is no kid here
    rounds = [hand(0, [0, 12, 3]), hand(1, [1, 0, 10])]
    options = {"target": 13, "settle": "winner", "deal": 16}
    result = score(match(*rounds, **options))
    assert (result["finished"], result["totals"]) == (True, [1, 12, 13])
    assert result["settlement"]["adjusted"] == [1, 12, 13]
    assert result["settlement"]["results"] == [15 - 1, 11 - 12, -13]
    assert result["winners"] == ["Ann"]
    assert [str(line) for line in GAME.status(table_after(*rounds, **options))] == [
        "A total reached 13: the match is over.",
        "Chen pays Ann 13 beans.",
        "Bo pays Ann 1 beans.",
    ]


def test_the_breakdown_names_the_house_rules():
    table = table_after(
        paid(0, [0, 16, 1], [0, 0, 1]),
        paid(2, [15, 1, 0], [0, 2, 0]),
        deal=16,
        baodan=True,
        bomb="pay",
        bomb_points=20,
        settle="winner",
    )
    assert [str(p) for p in GAME.breakdown(table, 0)] == [
        "Ann went out first: 0",
        "Bo: 16 cards, never played ×2 = 32",
        "Chen: 1 card, announced (baodan) = 0",
        "Chen's bomb: Ann and Bo pay 20 each",
        "The losers pay Ann their points: 32 in all.",
    ]
    assert [str(p) for p in GAME.breakdown(table, 1)] == [
        "Chen went out first: 0",
        "Ann: 15 cards = 15",
        "Bo: 1 card, announced (baodan) = 0",
        "Bo's 2 bombs: Ann and Chen pay 40 each",
        "The losers pay Chen their points: 15 in all.",
    ]
    bombed = table_after(hand(0, [0, 16, 15], [0, 1, 0]), deal=16, target=1000)
    assert [str(p) for p in GAME.breakdown(bombed, 0)][1:] == [
        "Bo: 16 cards, never played ×2 = 32, bombed once ×2 = 64",
        "Chen: 15 cards = 15",
    ]


def test_with_bomb_pay_the_form_asks_the_bombs_every_player_played():
    form = {
        "winner": ["1"],
        "cards_left-0": ["12"],
        "cards_left-2": ["3"],
        "bombs-0": [""],
        "bombs-1": ["2"],
        "bombs-2": ["1"],
        "bombed-0": ["1"],
    }
    entry = GAME.entry_from_form(form, table_after(bomb="pay"))
    assert entry == {"winner": 1, "cards_left": [12, None, 3], "bombs": [0, 2, 1]}
    assert score(match(entry, bomb="pay"))["rounds"][0]["bomb_pay"] == [-30, 30, 0]
    assert GAME.entry_from_form(form, table_after())["bombed"] == [1, 0, 0]
