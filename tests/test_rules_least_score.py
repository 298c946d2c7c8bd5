"""Least Score, rule by rule (games/rules/least_score.py, the worked matches in tests/examples/);
every figure is worked by hand. Then the entry form: the card picker (cards-N), typed cards
(cardtext-N) and totals.

A round: D is the declarer's hand, L the lowest other hand still in. The declaration stands when
D < L (D = L too, unless `tie` is declarer_fails): the declarer scores 0 and every other player
their hand minus D. Otherwise the declarer scores `penalty` + D - L and nobody else scores.
A total landing exactly on a `halve_on` number by scoring is halved, once, before the elimination
check; a round's points are the change in each total, `scored` the points before halving.
"""

import pytest

from games.rules import RulesError, get_game, replay, score

GAME = get_game("least_score")
PLAYERS = ["Ann", "Bo", "Chen"]


def match(*rounds, players=PLAYERS, closed=False, **options):
    return {
        "game": "least_score",
        "players": players,
        "options": options,
        "rounds": list(rounds),
        "closed": closed,
    }


def declare(declarer, *hands):
    """A round: who declared and each seat's hand (a total, a list of cards, or None if out)."""
    return {"declarer": declarer, "hands": list(hands)}


def refused(document):
    """The one-line message a match document is refused with."""
    with pytest.raises(RulesError) as error:
        score(document)
    return str(error.value)


# ---- scoring a round


@pytest.mark.parametrize(
    "entry, options, scored",
    [
        # the rule book's two examples: A 10, B 16, C 17 stands; A 10, B 8, C 15 fails 20 + 2
        (declare(0, 10, 16, 17), {}, [0, 6, 7]),
        (declare(0, 10, 8, 15), {}, [22, 0, 0]),
        # the declarer need not sit first, and L is the lowest of the others, not of all
        (declare(2, 20, 3, 1), {}, [19, 2, 0]),
        (declare(1, 5, 4, 6), {}, [1, 0, 2]),
        (declare(2, 5, 7, 6), {}, [0, 0, 21]),
        (declare(1, 50, 49, 1), {}, [0, 68, 0]),
        # a tie stands by default: the tied player scores 0, like the declarer
        (declare(0, 9, 9, 12), {}, [0, 0, 3]),
        (declare(0, 9, 9, 12), {"tie": "declarer_wins"}, [0, 0, 3]),
        # tie: declarer_fails: D = L fails with the penalty + 0; D < L still stands
        (declare(0, 9, 9, 12), {"tie": "declarer_fails"}, [20, 0, 0]),
        (declare(1, 12, 9, 9), {"tie": "declarer_fails"}, [0, 20, 0]),
        (declare(0, 8, 9, 12), {"tie": "declarer_fails"}, [0, 1, 4]),
        (declare(0, 9, 9, 12), {"tie": "declarer_fails", "penalty": 5}, [5, 0, 0]),
        # the penalty is an option: 0 leaves just the difference, 1000 is the most
        (declare(0, 10, 8, 15), {"penalty": 0}, [2, 0, 0]),
        (declare(0, 10, 8, 15), {"penalty": 1000}, [1002, 0, 0]),
        (declare(0, 50, 1, 1), {"penalty": 7}, [56, 0, 0]),
        # hands as cards: A = 1, 2-10 face value, J Q K = 10 (A♥ 2♣ = 3, K♠ 10, 10♦ J♣ 20)
        (declare(0, ["AH", "2C"], ["KS"], ["10D", "JC"]), {}, [0, 7, 17]),
        (declare(1, ["QH", "QD"], ["AS", "AC", "AD", "2S", "2D"], 9), {}, [13, 0, 2]),
        (declare(2, ["9C"], ["KD"], ["AS", "AD"]), {}, [7, 8, 0]),
        (declare(0, ["5s", "3♥", " 4D "], 12, ["TH"]), {}, [22, 0, 0]),
    ],
)
def test_a_round_is_scored(entry, options, scored):
    result = score(match(entry, **options))
    assert result["rounds"] == [{"points": scored, "scored": scored}]
    assert result["totals"] == scored


def test_the_lowest_other_hand_counts_only_players_still_in():
    # Threshold 25. Round 1: Ann 1 stands; Bo 30 - 1 = 29 is out, Chen 8. Round 2: Chen
    # declares 4 against Ann's 5 alone (Bo has no hand): stands, Ann scores 1.
    result = score(match(declare(0, 1, 30, 9), declare(2, 5, None, 4), threshold=25))
    assert result["rounds"][1]["points"] == [1, 0, 0]
    assert result["totals"] == [1, 29, 8]
    assert result["eliminated"] == {"Bo": 1}


def test_two_players_declare_against_each_other():
    result = score(match(declare(1, 7, 3), declare(0, 4, 2), players=["Ann", "Bo"]))
    assert [r["points"] for r in result["rounds"]] == [[4, 0], [22, 0]]
    assert result["totals"] == [26, 0]


# ---- halve_on


def test_a_total_landing_on_a_halving_number_is_halved():
    # Bo 38, then scores 12 to land on 50, halved to 25: his points are -13, scored 12.
    result = score(match(declare(0, 1, 39, 11), declare(0, 1, 13, 2), halve_on=[50]))
    assert result["rounds"][1] == {"points": [0, -13, 1], "scored": [0, 12, 1]}
    assert result["totals"] == [0, 25, 11]


def test_scoring_a_single_point_onto_a_halving_number_halves_too():
    # Chen 49 scores 1 (Ann's 1 against his 2) to land on 50: halved to 25, a whole number
    result = score(match(declare(0, 1, 2, 50), declare(0, 1, 3, 2), halve_on=[50]))
    assert result["rounds"][1] == {"points": [0, 2, -24], "scored": [0, 2, 1]}
    assert result["totals"] == [0, 3, 25]
    assert [type(t) for t in result["totals"]] == [int, int, int]


def test_without_halve_on_the_same_total_stays():
    result = score(match(declare(0, 1, 39, 11), declare(0, 1, 13, 2)))
    assert result["rounds"][1] == {"points": [0, 12, 1], "scored": [0, 12, 1]}
    assert result["totals"] == [0, 50, 11]


def test_a_total_passing_over_a_halving_number_is_not_halved():
    # Bo 38 scores 13 to 51: past 50, not on it.
    result = score(match(declare(0, 1, 39, 11), declare(0, 1, 14, 2), halve_on=[50]))
    assert result["totals"] == [0, 51, 11]


def test_halving_happens_once_even_when_the_half_is_a_halving_number_too():
    # Bo 48, 88, then 100: halved to 50 (not again to 25). Next round Bo scores nothing and
    # stays on 50: only a total landing there by scoring is halved.
    rounds = [declare(0, 1, 49, 2), declare(0, 1, 41, 2), declare(0, 1, 13, 3)]
    result = score(match(*rounds, declare(0, 1, 5, 3), halve_on=[50, 100]))
    assert [r["points"] for r in result["rounds"]] == [
        [0, 48, 1],
        [0, 40, 1],
        [0, -38, 2],
        [0, 4, 2],
    ]
    assert result["rounds"][2]["scored"] == [0, 12, 2]
    assert result["totals"] == [0, 54, 6]
    stays = score(match(*rounds, declare(1, 5, 1, 3), halve_on=[50, 100]))
    assert stays["rounds"][3] == {"points": [4, 0, 2], "scored": [4, 0, 2]}
    assert stays["totals"] == [4, 50, 6]


def test_a_failed_declarer_landing_on_a_halving_number_is_halved():
    # Ann 8, then fails with 10 against Bo's 8: 20 + 2 = 22 lands on 30, halved to 15 (+7).
    result = score(match(declare(1, 9, 1, 5), declare(0, 10, 8, 15), halve_on=[30]))
    assert result["rounds"][1] == {"points": [7, 0, 0], "scored": [22, 0, 0]}
    assert result["totals"] == [15, 0, 4]


def test_several_players_can_be_halved_in_one_round():
    # Bo and Chen both on 20, both then score 10 to land on 30: both halved to 15.
    result = score(match(declare(0, 1, 21, 21), declare(0, 1, 11, 11), halve_on=[30]))
    assert result["rounds"][1] == {"points": [0, -5, -5], "scored": [0, 10, 10]}
    assert result["totals"] == [0, 15, 15]


def test_halving_comes_before_the_elimination_check():
    # Threshold 40: Bo's 38 + 12 = 50 would put him out, but 50 is halved to 25 first.
    rounds = [declare(0, 1, 39, 11), declare(0, 1, 13, 2)]
    halved = score(match(*rounds, threshold=40, halve_on=[50]))
    assert (halved["totals"], halved["eliminated"]) == ([0, 25, 11], {})
    plain = score(match(*rounds, threshold=40))
    assert (plain["totals"], plain["eliminated"]) == ([0, 50, 11], {"Bo": 2})


# ---- elimination and the end


@pytest.mark.parametrize(
    "options, eliminated",
    [
        # Bo lands exactly on the threshold 25: out only when eliminate_at is reach
        ({}, {}),
        ({"eliminate_at": "over"}, {}),
        ({"eliminate_at": "reach"}, {"Bo": 1}),
        # one above: out either way; one below: in either way
        ({"threshold": 24}, {"Bo": 1}),
        ({"threshold": 24, "eliminate_at": "reach"}, {"Bo": 1}),
        ({"threshold": 26, "eliminate_at": "reach"}, {}),
    ],
)
def test_out_over_or_at_the_threshold(options, eliminated):
    result = score(match(declare(0, 1, 26, 10), **{"threshold": 25, **options}))
    assert result["totals"] == [0, 25, 9]
    assert result["eliminated"] == eliminated
    assert result["finished"] is False


@pytest.mark.parametrize(
    "penalty, eliminate_at, eliminated",
    [(20, "over", {"Ann": 1}), (19, "over", {}), (19, "reach", {"Ann": 1}), (18, "reach", {})],
)
def test_a_failed_declarer_can_go_out(penalty, eliminate_at, eliminated):
    # Ann fails with 10 against 4: penalty + 6 against a threshold of 25.
    result = score(
        match(declare(0, 10, 4, 5), threshold=25, penalty=penalty, eliminate_at=eliminate_at)
    )
    assert result["totals"] == [penalty + 6, 0, 0]
    assert result["eliminated"] == eliminated


def test_a_player_who_reached_the_threshold_plays_no_more_rounds():
    rounds = [declare(0, 1, 26, 10), declare(0, 2, None, 3)]
    result = score(match(*rounds, threshold=25, eliminate_at="reach"))
    assert result["rounds"][1]["points"] == [0, 0, 1]
    assert (result["totals"], result["eliminated"]) == ([0, 25, 10], {"Bo": 1})
    assert (
        refused(
            match(declare(0, 1, 26, 10), declare(0, 2, 5, 3), threshold=25, eliminate_at="reach")
        )
        == "round 2: Bo is out and has no hand"
    )


def test_last_standing_plays_on_until_one_player_is_left():
    # Threshold 25: Bo out in round 1 (29), Chen in round 2 (8 + 20 = 28): Ann wins alone.
    rounds = [declare(0, 1, 30, 9), declare(0, 1, None, 21)]
    result = score(match(*rounds, threshold=25))
    assert (result["finished"], result["winners"]) == (True, ["Ann"])
    assert result["eliminated"] == {"Bo": 1, "Chen": 2}
    assert refused(match(*rounds, declare(0, 1, None, None), threshold=25)) == (
        "round 3: the match is already finished"
    )
    going_on = score(match(rounds[0], threshold=25))
    assert (going_on["finished"], going_on["winners"]) == (False, [])


@pytest.mark.parametrize(
    "entry, totals, winners",
    [
        # Bo 28 is out at once; Ann 0 and Chen 3 still in: the lowest wins
        (declare(0, 2, 30, 5), [0, 28, 3], ["Ann"]),
        # a tie for the lowest among those still in: both win
        (declare(0, 5, 31, 5), [0, 26, 0], ["Ann", "Chen"]),
        # the declarer herself fails (20 + 19) and goes out: Bo and Chen, at 0, share the win
        (declare(0, 20, 1, 2), [39, 0, 0], ["Bo", "Chen"]),
    ],
)
def test_first_out_ends_the_match_at_the_first_elimination(entry, totals, winners):
    result = score(match(entry, threshold=25, end="first_out"))
    assert result["totals"] == totals
    assert (result["finished"], result["winners"]) == (True, winners)
    assert refused(match(entry, declare(0, 1, 2, 3), threshold=25, end="first_out")) == (
        "round 2: the match is already finished"
    )


def test_first_out_plays_on_while_nobody_is_out():
    result = score(match(declare(0, 2, 20, 5), threshold=25, end="first_out"))
    assert (result["finished"], result["winners"], result["eliminated"]) == (False, [], {})


def test_a_closed_match_is_won_by_the_lowest_total_still_in():
    rounds = [declare(0, 1, 30, 9), declare(2, 4, None, 3)]
    result = score(match(*rounds, threshold=25, closed=True))
    assert result["totals"] == [1, 29, 8]
    assert (result["finished"], result["winners"]) == (True, ["Ann"])


def test_eliminated_lists_players_in_seat_order_with_their_round():
    # Threshold 25: Chen out in round 1 (26), then Ann fails (20 + 9 = 29) in round 2.
    players = ["Ann", "Bo", "Chen", "Dee"]
    rounds = [declare(1, 5, 1, 27, 2), declare(0, 12, 3, None, 6)]
    result = score(match(*rounds, players=players, threshold=25))
    assert result["totals"] == [33, 0, 26, 1]
    assert list(result["eliminated"].items()) == [("Ann", 2), ("Chen", 1)]
    assert result["finished"] is False


# ---- what is refused


@pytest.mark.parametrize(
    "entry, message, seat",
    [
        # a total is a whole number 1-50, named by the player whose it is
        (declare(0, 0, 5, 5), "Ann's hand total must be a whole number from 1 to 50", 0),
        (declare(0, 51, 5, 5), "Ann's hand total must be a whole number from 1 to 50", 0),
        (declare(0, 5, 10.0, 5), "Bo's hand total must be a whole number from 1 to 50", 1),
        (declare(0, 5, True, 5), "Bo's hand total must be a whole number from 1 to 50", 1),
        (declare(0, 5, 6, "7"), "Chen's hand total must be a whole number from 1 to 50", 2),
        # a hand of cards holds 1 to 5 cards, each a card, none twice in the round
        (declare(0, [], 5, 5), "Ann's hand must hold 1 to 5 cards", 0),
        (declare(0, 5, list(PLAYERS * 2), 5), "Bo's hand must hold 1 to 5 cards", 1),
        (declare(0, ["AS", "1S"], 5, 5), "in Ann's hand, 1S is not a card", 0),
        (declare(0, ["AS", "AS"], 5, 5), "Ann's hand holds A♠ twice", 0),
        (declare(0, ["ah"], ["A♥"], 5), "A♥ is in Ann's hand and in Bo's", 1),
        (declare(0, 5, ["2C", "KD"], ["10H", "kd"]), "K♦ is in Bo's hand and in Chen's", 2),
        # one hand per seat, each player still in has one
        (declare(0, 5, 5), "hands must list one entry per player", None),
        (declare(0, 5, 5, 5, 5), "hands must list one entry per player", None),
        ({"declarer": 0}, "hands must list one entry per player", None),
        (declare(0, 5, None, 5), "Bo's hand is missing", 1),
        # the declarer is a seat
        (declare(3, 5, 5, 5), "the declarer must be a whole number from 0 to 2", None),
        (declare(-1, 5, 5, 5), "the declarer must be a whole number from 0 to 2", None),
        ({"hands": [5, 5, 5]}, "Tap who declared.", None),
        # a total and picked cards for one player: a question, never a silent choice
        (
            declare(0, 5, {"total": 7, "cards": ["10C"]}, 5),
            "Bo has a total and picked cards: keep one of them",
            1,
        ),
    ],
)
def test_a_broken_round_is_refused_naming_the_player(entry, message, seat):
    with pytest.raises(RulesError) as error:
        score(match(entry))
    assert str(error.value) == f"round 1: {message}"
    assert error.value.phrase.params.get("seat") == seat


@pytest.mark.parametrize(
    "entry",
    [
        declare(0, 1, 50, 50),
        declare(0, ["AS"], ["KS", "KH", "KD", "KC", "QS"], 10),
        declare(2, ["AS", "2S", "3S", "4S", "5S"], ["AH"], ["5H", "3D"]),
    ],
)
def test_the_limits_of_a_hand_are_allowed(entry):
    assert score(match(entry))["rounds"]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"threshold": 0}, "option 'Out past this total' cannot be 0"),
        ({"threshold": 1001}, "option 'Out past this total' cannot be 1001"),
        ({"penalty": -1}, "option 'Added to a failed declarer' cannot be -1"),
        ({"penalty": 1001}, "option 'Added to a failed declarer' cannot be 1001"),
        ({"eliminate_at": "under"}, "option 'Out when a total' cannot be \"under\""),
        ({"tie": "split"}, "option 'When the declarer ties the lowest hand' cannot be \"split\""),
        ({"end": "never"}, "option 'How the match ends' cannot be \"never\""),
        ({"halve_on": [51]}, "option 'Totals halved when landing exactly on' cannot be [51]"),
        ({"halve_on": [50, 0]}, "option 'Totals halved when landing exactly on' cannot be [50, 0]"),
        ({"halve_on": [50.0]}, "option 'Totals halved when landing exactly on' cannot be [50.0]"),
        ({"halve_on": 50}, "option 'Totals halved when landing exactly on' cannot be 50"),
        ({"halve_on": [True]}, "option 'Totals halved when landing exactly on' cannot be [true]"),
    ],
)
def test_an_option_out_of_range_is_refused(options, message):
    assert refused(match(**options)) == message


def test_the_options_default_to_the_rule_book():
    assert score(match())["options"] == {
        "threshold": 100,
        "eliminate_at": "over",
        "tie": "declarer_wins",
        "penalty": 20,
        "end": "last_standing",
        "halve_on": [],
    }
    allowed = {"threshold": 1, "penalty": 0, "halve_on": [2, 1000]}
    assert score(match(**allowed))["options"]["halve_on"] == [2, 1000]
    assert score(match(threshold=1000, penalty=1000))["options"]["threshold"] == 1000


# ---- house rules: the Yaniv way (scoring, declare_max, asaf_lowest), exact_totals

YANIV = {"scoring": "yaniv"}
FOUR = ["Ann", "Bo", "Chen", "Dee"]


@pytest.mark.parametrize(
    "entry, options, scored",
    [
        # standing: the declarer 0, everyone else their own hand (not minus D)
        (declare(0, 5, 7, 10), YANIV, [0, 7, 10]),
        (declare(2, 12, 9, 1), YANIV, [12, 9, 0]),
        # Asaf: the declarer D + 30, the lower hand 0, the rest their hand
        (declare(0, 5, 7, 3, 10), YANIV, [35, 7, 0, 10]),
        (declare(0, 5, 3, 3, 10), YANIV, [35, 0, 0, 10]),  # two lowest: both 0
        (declare(0, 5, 4, 3, 10), YANIV, [35, 4, 0, 10]),  # only the lowest, not any lower
        # a tie is an Asaf the Yaniv way, unless the table says tie: declarer_wins
        (declare(0, 5, 5, 8), YANIV, [35, 0, 8]),
        (declare(0, 5, 5, 8), YANIV | {"tie": "declarer_wins"}, [0, 5, 8]),
        # the penalty given holds: a 20-point Asaf
        (declare(0, 4, 3, 9), YANIV | {"penalty": 20}, [24, 0, 9]),
        # asaf_lowest hand: the lowest scores its hand too (Board Game Arena)
        (declare(0, 6, 4, 9), YANIV | {"asaf_lowest": "hand"}, [36, 4, 9]),
        (declare(0, 3, 4, 9), YANIV | {"asaf_lowest": "hand"}, [0, 4, 9]),
        # ... and means nothing when scoring the difference
        (declare(0, 10, 8, 15), {"asaf_lowest": "hand"}, [22, 0, 0]),
        (declare(0, 10, 8, 15), {"scoring": "difference"}, [22, 0, 0]),
        # a joker hand is 0: declaring with it, or beaten by it
        (declare(0, 0, 3, 5), YANIV, [0, 3, 5]),
        (declare(1, 0, 0, 5), YANIV, [0, 30, 5]),
        (declare(2, 1, 2, ["AS", "2S", "3S"]), YANIV | {"declare_max": 6}, [0, 2, 36]),
    ],
)
def test_a_round_scored_the_yaniv_way(entry, options, scored):
    players = FOUR[: len(entry["hands"])]
    result = score(match(entry, players=players, **options))
    assert result["rounds"] == [{"points": scored, "scored": scored}]


def test_a_player_who_is_out_scores_nothing_the_yaniv_way():
    # threshold 10: Bo's 12 puts him out; round 2 Chen's Asaf against Ann's 2 (Bo has no hand)
    result = score(match(declare(0, 1, 12, 3), declare(2, 2, None, 4), threshold=10, **YANIV))
    assert result["rounds"][1]["points"] == [0, 0, 34]
    assert result["eliminated"] == {"Bo": 1, "Chen": 2}


def test_the_yaniv_way_moves_three_defaults_and_sets_a_declaring_limit():
    assert score(match(**YANIV))["options"] == {
        "threshold": 200,
        "eliminate_at": "over",
        "tie": "declarer_fails",
        "penalty": 30,
        "end": "last_standing",
        "halve_on": [],
        "scoring": "yaniv",
        "declare_max": 7,
        "asaf_lowest": "zero",
        "exact_totals": [],
    }
    given = {"threshold": 100, "tie": "declarer_wins", "penalty": 20, "declare_max": None}
    assert score(match(**YANIV, **given))["options"] == {
        **given,
        "eliminate_at": "over",
        "end": "last_standing",
        "halve_on": [],
        "scoring": "yaniv",
        "asaf_lowest": "zero",
        "exact_totals": [],
    }


def test_the_house_rules_are_listed_once_the_match_gives_one():
    plain = ["threshold", "eliminate_at", "tie", "penalty", "end", "halve_on"]
    variants = ["scoring", "declare_max", "asaf_lowest", "exact_totals"]
    assert list(score(match())["options"]) == plain
    assert list(score(match(penalty=5))["options"]) == plain
    for given in ({"scoring": "difference"}, {"asaf_lowest": "zero"}, {"exact_totals": []}):
        options = score(match(**given))["options"]
        assert options == score(match())["options"] | {
            "scoring": "difference",
            "declare_max": None,
            "asaf_lowest": "zero",
            "exact_totals": [],
        }
        assert list(options) == plain + variants


@pytest.mark.parametrize(
    "options, hand, allowed",
    [
        ({}, 50, True),  # no limit by default
        (YANIV, 7, True),
        (YANIV, 8, False),
        ({"declare_max": 5}, 5, True),
        ({"declare_max": 5}, 6, False),
        (YANIV | {"declare_max": None}, 50, True),
        (YANIV | {"declare_max": 1}, 1, True),
    ],
)
def test_a_declaration_above_declare_max_is_refused_naming_the_declarer(options, hand, allowed):
    document = match(declare(1, 9, hand, 50), **options)
    if allowed:
        assert score(document)["rounds"]
        return
    with pytest.raises(RulesError) as error:
        score(document)
    assert str(error.value) == (
        f"round 1: Bo declared with {hand}; a declaration needs a hand total of at most "
        f"{options['declare_max'] if 'declare_max' in options else 7}"
    )
    assert error.value.phrase.params["seat"] == 1


def test_a_hand_total_of_0_is_only_for_the_yaniv_way():
    assert refused(match(declare(0, 0, 5, 5))) == (
        "round 1: Ann's hand total must be a whole number from 1 to 50"
    )
    assert refused(match(declare(0, 3, 51, 5), **YANIV)) == (
        "round 1: Bo's hand total must be a whole number from 0 to 50"
    )
    assert refused(match(declare(0, 3, -1, 5), **YANIV)) == (
        "round 1: Bo's hand total must be a whole number from 0 to 50"
    )


def test_when_every_player_still_in_goes_out_the_lowest_of_them_wins():
    # threshold 35: Ann 3 + 30 = 33 ... round 3 Ann's tie is an Asaf: Ann 36, Bo 6 (hand)
    rounds = [declare(0, 3, 30), declare(1, 20, 6), declare(0, 6, 6)]
    options = YANIV | {"asaf_lowest": "hand", "threshold": 35}
    result = score(match(*rounds, players=["Ann", "Bo"], **options))
    assert (result["totals"], result["eliminated"]) == ([56, 36], {"Ann": 3, "Bo": 3})
    assert (result["finished"], result["winners"]) == (True, ["Bo"])
    # level: both win; and Chen, out in an earlier round, is not among them
    level = [declare(0, 1, 30, 31), declare(0, 5, 5, None)]
    options |= {"threshold": 30}
    result = score(match(*level, **options))
    assert result["eliminated"] == {"Ann": 2, "Bo": 2, "Chen": 1}
    assert result["totals"] == [35, 35, 31]
    assert (result["finished"], result["winners"]) == (True, ["Ann", "Bo"])


@pytest.mark.parametrize(
    "exact_totals, rounds, totals",
    [
        # scoring 10 from 40 lands on 50, which becomes 25 (the rule book's worked line)
        ([[50, 25]], [declare(0, 1, 41, 2), declare(0, 1, 11, 2)], [0, 25, 2]),
        ([[50, 0]], [declare(0, 1, 41, 2), declare(0, 1, 11, 2)], [0, 0, 2]),
        ([[50, 49]], [declare(0, 1, 41, 2), declare(0, 1, 11, 2)], [0, 49, 2]),
        # passing over 50, or a pair for another total: nothing happens
        ([[50, 25]], [declare(0, 1, 41, 2), declare(0, 1, 12, 2)], [0, 51, 2]),
        ([[60, 25]], [declare(0, 1, 41, 2), declare(0, 1, 11, 2)], [0, 50, 2]),
        # once: 100 becomes 50, not then 0
        (
            [[100, 50], [50, 0]],
            [declare(0, 1, 50, 2), declare(0, 1, 50, 2), declare(0, 1, 3, 2)],
            [0, 50, 3],
        ),
        # sitting on 50 and scoring nothing: it stays
        ([[50, 25]], [declare(0, 1, 50, 2), declare(1, 1, 1, 2)], [0, 49, 2]),
    ],
)
def test_a_total_landing_exactly_on_an_exact_total_becomes_its_pair(exact_totals, rounds, totals):
    assert score(match(*rounds, exact_totals=exact_totals))["totals"] == totals


def test_an_exact_total_applies_before_the_elimination_check():
    # threshold 45: Bo's 50 would put him out, but it becomes 25 first
    rounds = [declare(0, 1, 41, 2), declare(0, 1, 11, 2)]
    kept = score(match(*rounds, threshold=45, exact_totals=[[50, 25]]))
    assert (kept["totals"], kept["eliminated"]) == ([0, 25, 2], {})
    assert score(match(*rounds, threshold=45))["eliminated"] == {"Bo": 2}


def test_the_named_exact_total_rules_are_offered_as_presets():
    [exact_totals] = [o for o in GAME.options if o.name == "exact_totals"]
    assert [(str(label), value) for label, value in exact_totals.presets] == [
        ("halve on every fifty", [[50, 25], [100, 50], [150, 75], [200, 100]]),
        ("minus 50 on every fifty", [[50, 0], [100, 50], [150, 100], [200, 150]]),
        ("exactly 200 back to 150", [[200, 150]]),
        ("back to 0 on 50 or 100", [[50, 0], [100, 0]]),
    ]
    for _label, value in exact_totals.presets:
        assert score(match(exact_totals=value))["options"]["exact_totals"] == value


def test_halve_on_and_exact_totals_are_one_rule_given_one_way():
    with pytest.raises(RulesError) as error:
        score(match(halve_on=[50], exact_totals=[[100, 50]]))
    assert str(error.value) == "options 'halve_on' and 'exact_totals' cannot both be given"
    assert error.value.phrase.params["name"] == "exact_totals"
    assert score(match(halve_on=[], exact_totals=[[100, 50]]))["options"]["halve_on"] == []
    assert score(match(halve_on=[50], exact_totals=[]))["options"]["halve_on"] == [50]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"scoring": "asaf"}, "option 'How a hand scores' cannot be \"asaf\""),
        ({"declare_max": 0}, "option 'Declare only with a hand of at most' cannot be 0"),
        ({"declare_max": 51}, "option 'Declare only with a hand of at most' cannot be 51"),
        ({"asaf_lowest": "all"}, "option 'On an Asaf, the lowest other hand' cannot be \"all\""),
        (
            {"exact_totals": [[50, 50]]},
            "option 'Totals that change when landed on exactly' cannot be [[50, 50]]",
        ),
        (
            {"exact_totals": [[10001, 0]]},
            "option 'Totals that change when landed on exactly' cannot be [[10001, 0]]",
        ),
        (
            {"exact_totals": [[0, 0]]},
            "option 'Totals that change when landed on exactly' cannot be [[0, 0]]",
        ),
        (
            {"exact_totals": [[50, 0], [50, 25]]},
            "option 'Totals that change when landed on exactly' cannot be [[50, 0], [50, 25]]",
        ),
    ],
)
def test_a_house_rule_out_of_range_is_refused(options, message):
    assert refused(match(**options)) == message


def test_the_limits_of_the_house_rules_are_allowed():
    options = {"declare_max": 50, "exact_totals": [[10000, 9999], [1, 0]]}
    assert score(match(**options))["options"] | options == score(match(**options))["options"]
    assert score(match(declare_max=1))["options"]["declare_max"] == 1


# ---- players


@pytest.mark.parametrize(
    "players, names",
    [
        (["A" * 40, "Bo"], ["A" * 40, "Bo"]),
        (["  " + "A" * 40 + " ", "Bo"], ["A" * 40, "Bo"]),  # trimmed first, then counted
        (["张" * 40, "Бат"], ["张" * 40, "Бат"]),  # characters, not bytes
        (["X", "Bo"], ["X", "Bo"]),
        ([f"P{k}" for k in range(8)], [f"P{k}" for k in range(8)]),
    ],
)
def test_names_of_1_to_40_characters_and_2_to_8_players(players, names):
    assert score(match(players=players))["players"] == names


@pytest.mark.parametrize(
    "players, message",
    [
        (["A" * 41, "Bo"], "A" * 40 + "… is longer than 40 characters"),
        (["Ann", "  " + "B" * 41], "B" * 40 + "… is longer than 40 characters"),
        (["Ann", "   "], "a player's name is empty"),
        (["Ann", ""], "a player's name is empty"),
        (["Ann"], "Least Score is for 2 to 8 players"),
        ([f"P{k}" for k in range(9)], "Least Score is for 2 to 8 players"),
        (["Ann", " Ann "], "two players are called Ann"),
    ],
)
def test_names_and_player_counts_out_of_range_are_refused(players, message):
    assert refused(match(players=players)) == message


# ---- what the table reads


def test_the_breakdown_says_whether_the_declaration_stood_and_any_halving():
    after = table(declare(0, 1, 39, 11), declare(0, 10, 13, 2), halve_on=[50])
    # round 2: Ann 10 against Chen's 2 fails, 20 + 8 = 28; Bo scores nothing
    assert [str(p) for p in GAME.breakdown(after, 0)] == [
        "Ann declared: the declaration stands",
        "Bo +38",
        "Chen +10",
    ]
    assert [str(p) for p in GAME.breakdown(after, 1)] == [
        "Ann declared: the declaration fails",
        "Ann +28",
    ]
    halved = table(declare(0, 1, 39, 11), declare(0, 1, 13, 2), halve_on=[50])
    assert [str(p) for p in GAME.breakdown(halved, 1)] == [
        "Ann declared: the declaration stands",
        "Bo +12",
        "Chen +1",
        "Bo landed on 50 → 25",
    ]


def test_the_breakdown_names_the_asaf_and_the_exact_landing():
    yaniv = table(declare(0, 5, 3, 10), declare(2, 5, 5, 5), **YANIV)
    assert [str(p) for p in GAME.breakdown(yaniv, 0)] == [
        "Asaf: Bo had 3, lower than Ann's 5 → Ann 5 + 30",
        "Ann +35",
        "Chen +10",
    ]
    assert [str(p) for p in GAME.breakdown(yaniv, 1)] == [
        "Asaf: Ann, Bo had 5, as low as Chen's 5 → Chen 5 + 30",
        "Chen +35",
    ]
    landed = table(declare(1, 50, 2, 7), declare(1, 50, 1, 7), exact_totals=[[100, 50]], **YANIV)
    assert [str(p) for p in GAME.breakdown(landed, 1)] == [
        "Bo declared: the declaration stands",
        "Ann +50",
        "Chen +7",
        "Ann landed on 100 → 50",
    ]


def test_a_failed_declaration_that_scores_nothing_is_still_said_to_fail():
    # penalty 0, Ann ties Bo with tie: declarer_fails: she scores 0 + 0, and it failed
    failed = table(declare(0, 6, 6, 9), tie="declarer_fails", penalty=0)
    assert [str(p) for p in GAME.breakdown(failed, 0)] == ["Ann declared: the declaration fails"]


def test_the_status_says_the_declaring_limit_when_there_is_one():
    assert [str(p) for p in GAME.status(table(**YANIV))][-1] == (
        "Declare with a hand total of 7 or less."
    )
    assert [str(p) for p in GAME.status(table(declare_max=5))][-1] == (
        "Declare with a hand total of 5 or less."
    )
    assert not any("Declare" in str(p) for p in GAME.status(table()))


def summary(**options):
    """A match's rules in words, as its "Rules and options" says them."""
    return " ".join(str(p) for p in GAME.rules_summary(table(**options).options))


def test_the_rules_of_a_yaniv_match_say_the_yaniv_way_with_its_defaults():
    assert summary(**YANIV) == (
        "Scored the Yaniv way. Declare when your hand is low. If every other hand still in is "
        "higher, the declaration stands: the declarer scores 0 and everyone else scores their "
        "hand total. Otherwise it is an Asaf: the declarer scores their hand total plus 30, "
        "whoever has the lowest hand scores 0, and everyone else scores their hand total. "
        "Declare with a hand total of 7 or less. A player whose total passes 200 is out."
    )


def test_the_rules_of_a_yaniv_match_follow_its_house_rules():
    said = summary(
        **YANIV,
        tie="declarer_wins",
        asaf_lowest="hand",
        penalty=20,
        declare_max=None,
        exact_totals=[[200, 150], [100, 50]],
        eliminate_at="reach",
        threshold=250,
    )
    assert said == (
        "Scored the Yaniv way. Declare when your hand is low. If no other hand still in is "
        "lower, the declaration stands: the declarer scores 0 and everyone else scores their "
        "hand total. Otherwise it is an Asaf: the declarer scores their hand total plus 20, and "
        "everyone else scores their hand total. When a player scores and their total lands "
        "exactly on the first number of a pair, it becomes the second: 200 → 150, 100 → 50. "
        "A player whose total reaches 250 is out."
    )
    assert "first number of a pair, it becomes the second: 50 → 25." in summary(
        **YANIV, halve_on=[50]
    )


def test_the_rules_of_a_match_scored_by_the_difference_are_the_rule_books():
    assert summary() == summary(declare_max=5) == str(GAME.summary)
    assert "minus the declarer's" in summary()


def test_the_standings_show_the_distance_to_the_threshold_and_who_is_out():
    after = table(declare(0, 1, 30, 9), threshold=25)
    assert [str(GAME.to_go(after, seat)) for seat in range(3)] == [
        "25 to go",
        "out",
        "17 to go to 25",
    ]
    assert [str(GAME.to_go(table(), seat)) for seat in range(3)] == ["100 to go"] * 3
    assert GAME.status(table()) == []


def test_the_chart_marks_the_threshold():
    [(value, label)] = GAME.chart_marks(table(threshold=60))
    assert (value, str(label)) == (60, "threshold 60")


def test_leaders_and_ranking_put_the_lowest_total_still_in_first():
    after = table(declare(0, 1, 30, 9), declare(2, 4, None, 3), threshold=25)
    # totals 1, 29 (out), 8: Ann leads; Chen second; Bo, out with the highest, third
    assert GAME.leaders(after) == [0]
    assert GAME.ranking(after) == [1, 3, 2]


def table(*rounds, **options):
    document = {
        "game": "least_score",
        "players": ["Ann", "Bo", "Chen"],
        "options": options,
        "rounds": list(rounds),
    }
    return replay(document)[1]


def posted(**fields):
    """A posted form: field name (cards_2 for cards-2) -> list of strings."""
    return {
        name.replace("_", "-"): value if isinstance(value, list) else [value]
        for name, value in fields.items()
    }


def test_picked_and_typed_cards_make_one_hand():
    form = posted(
        declarer="1",
        hand_0="9",
        cards_1=["AH", "2C"],
        cardtext_1=" 3s,4♦  5D",
        cards_2=["KS"],
    )
    entry = GAME.entry_from_form(form, table())
    assert entry == {"declarer": 1, "hands": [9, ["AH", "2C", "3s", "4♦", "5D"], ["KS"]]}


def test_a_typed_total_with_picked_cards_is_kept_as_both_for_the_engine_to_ask():
    form = posted(declarer="0", hand_0="7", cards_0=["10C"], hand_1="", cardtext_1=" ", hand_2="x")
    hands = GAME.entry_from_form(form, table())["hands"]
    assert hands == [{"total": 7, "cards": ["10C"]}, None, "x"]
    assert GAME.entry_context(table(), {"hands": hands})["pickers"][0]["shown"] == ["10♣"]


def test_text_that_is_not_a_card_is_passed_on_for_the_engine_to_refuse():
    form = posted(declarer="0", cards_0=["AH"], cardtext_0="1Z", hand_1="5", hand_2="6")
    entry = GAME.entry_from_form(form, table())
    assert entry["hands"][0] == ["AH", "1Z"]
    with pytest.raises(RulesError, match="is not a card"):
        score({"game": "least_score", "players": ["Ann", "Bo", "Chen"], "rounds": [entry]})


def test_a_player_who_is_out_has_no_hand_even_when_cards_are_posted():
    after = table(
        {"declarer": 0, "hands": [7, 30, 9]}, {"declarer": 1, "hands": [9, 5, 4]}, threshold=25
    )
    form = posted(declarer="0", hand_0="3", cards_1=["AH"], cardtext_1="2H", hand_2="8")
    assert GAME.entry_from_form(form, after)["hands"] == [3, None, 8]


def test_the_picker_is_refilled_from_a_hand_of_cards():
    entry = {"declarer": 0, "hands": [["AH", "k♠", "AH", "X9"], 12, ["KS", "10D"]]}
    pickers = GAME.entry_context(table(), entry)["pickers"]
    ann, bo, chen = ({c["card"]: c for c in p["cards"]} for p in pickers)
    assert [c for c, card in ann.items() if card["checked"]] == ["KS", "AH"]
    assert pickers[0]["typed"] == "AH X9"  # the repeated card and the text that is not a card
    assert (pickers[0]["shown"], pickers[0]["total"]) == (["K♠", "A♥"], 11)
    assert ann["KS"]["elsewhere"] and chen["KS"]["elsewhere"] and not ann["10D"]["checked"]
    assert ann["10D"]["elsewhere"] and not bo["AH"]["checked"] and bo["AH"]["elsewhere"]
    assert pickers[1]["typed"] == "" and pickers[1]["total"] == 0
    assert (ann["10D"]["label"], ann["10D"]["red"], ann["10D"]["value"]) == ("10♦", True, 10)


def test_a_fresh_picker_has_the_52_cards_from_the_ace_up_in_each_suit():
    pickers = GAME.entry_context(table())["pickers"]
    assert len(pickers) == 3
    cards = [c["card"] for c in pickers[0]["cards"]]
    assert len(set(cards)) == 52 and cards[:3] == ["AS", "2S", "3S"] and cards[12] == "KS"
    assert not any(c["checked"] or c["elsewhere"] for p in pickers for c in p["cards"])


def test_a_hand_total_of_0_is_posted_as_0_and_the_form_says_from_where():
    form = posted(declarer="1", hand_0="0", hand_1="3", hand_2="7")
    assert GAME.entry_from_form(form, table(**YANIV))["hands"] == [0, 3, 7]
    assert GAME.entry_context(table(**YANIV))["lowest"] == 0
    assert GAME.entry_context(table())["lowest"] == 1


@pytest.mark.parametrize(
    "entry, invalid",
    [
        (None, None),
        (declare(0, 5, 6, 7), None),
        (declare(0, 5, 60, 7), 1),
        (declare(0, 5, 6, ["ZZ"]), 2),
        (declare(0, 5, None, 7), 1),
        (declare(2, 5, 6, 9), 2),  # over the declaring limit: the declarer's hand
        (declare(None, 5, 6, 7), None),  # nobody tapped: no hand to mark
    ],
)
def test_the_form_marks_the_hand_a_refused_entry_is_about(entry, invalid):
    assert GAME.entry_context(table(declare_max=8), entry)["invalid"] == invalid


def test_the_form_leaves_out_the_players_who_are_out():
    # Threshold 25: Bo's 30 - 1 = 29 puts him out after round 1.
    _game, table, _closed = replay(match(declare(0, 1, 30, 9), threshold=25))
    assert GAME.entry_context(table)["out"] == [1]
