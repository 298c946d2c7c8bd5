"""6 nimmt! as games/rules/six_nimmt.py tells it; every figure worked by hand."""

import pytest

from games.rules import RulesError, get_game, replay, score
from games.rules.six_nimmt import bullheads_of

GAME = get_game("six_nimmt")
NAMES = ["Ann", "Bo", "Chen", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim"]


def match(n, *rounds, closed=False, **options):
    """A match document for the first n players of NAMES."""
    return {
        "game": "six_nimmt",
        "players": NAMES[:n],
        "options": options,
        "rounds": list(rounds),
        "closed": closed,
    }


def hands(n, *counts, **options):
    """A match of one round of typed bullheads per count list."""
    return match(n, *({"bullheads": list(c)} for c in counts), **options)


def table_after(document):
    """The scored table of a match, for status and breakdown."""
    return replay(document)[1]


def rejected(document):
    with pytest.raises(RulesError) as error:
        score(document)
    return str(error.value)


def fewest_cards_with(n, card):
    """A legal hand of cards for n players: Ann took card plus low cards up to 10n - 16."""
    filler = [c for c in range(1, 105) if c != card][: 10 * n - 17]
    return {"taken": [filler + [card]] + [[] for _ in range(n - 1)]}


# ---- bullheads per card

SEVEN = [55]
FIVE = [11, 22, 33, 44, 66, 77, 88, 99]
THREE = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
TWO = [5, 15, 25, 35, 45, 65, 75, 85, 95]


@pytest.mark.parametrize("card", range(1, 105))
def test_each_card_carries_the_bullheads_of_its_category(card):
    expected = (
        7
        if card in SEVEN
        else 5
        if card in FIVE
        else 3
        if card in THREE
        else (2 if card in TWO else 1)
    )
    assert bullheads_of(card) == expected


def test_the_categories_hold_171_bullheads_in_all():
    ones = 104 - len(SEVEN + FIVE + THREE + TWO)
    assert ones == 76
    assert 7 * 1 + 5 * 8 + 3 * 10 + 2 * 9 + 1 * ones == 171
    assert sum(bullheads_of(card) for card in range(1, 105)) == 171


@pytest.mark.parametrize(
    "cards, bullheads",
    [
        ([55], 7),
        ([11, 99], 10),
        ([10, 100], 6),
        ([5, 95], 4),
        ([1, 104], 2),
    ],
)
def test_taken_cards_are_counted_in_bullheads(cards, bullheads):
    rest = [c for c in range(1, 30) if c not in cards][: 4 - len(cards)]
    result = score(match(2, {"taken": [cards, rest]}, deck="full"))
    assert result["rounds"][0]["bullheads"] == [bullheads, len(rest)]


def test_ten_players_taking_cards_1_to_100_take_171_less_the_four_top_ones():
    taken = [list(range(10 * s + 1, 10 * s + 11)) for s in range(10)]
    result = score(match(10, {"taken": taken}))
    assert result["rounds"][0]["bullheads"] == [
        # 1-10: 5 (2), 10 (3), eight ones; each later ten: its 11s multiple (5), its 5 (2),
        # its 10 (3), seven ones; 51-60: 55 (7), 60 (3), eight ones
        13,
        17,
        17,
        17,
        17,
        18,
        17,
        17,
        17,
        17,
    ]
    assert sum(result["totals"]) == 171 - 4


def test_the_worked_cards_example():
    result = score(
        match(
            3, {"taken": [[5, 10, 11, 55, 17], [1, 2, 3, 4, 6, 7, 8, 9, 12, 13, 14], [15, 16, 18]]}
        )
    )
    # Ann 2 + 3 + 5 + 7 + 1, Bo eleven ones, Chen 2 + 1 + 1
    assert result["rounds"] == [{"points": [18, 11, 4], "bullheads": [18, 11, 4]}]


# ---- which cards are in play


@pytest.mark.parametrize(
    "deck, n, high",
    [
        ("seed", 2, 64),
        ("seed", 3, 84),
        ("seed", 6, 84),
        ("seed", 7, 104),
        ("seed", 10, 104),
        ("full", 2, 104),
        ("full", 3, 104),
        ("full", 10, 104),
        ("tactics", 2, 24),
        ("tactics", 5, 54),
        ("tactics", 10, 104),
    ],
)
def test_the_deck_sets_the_highest_card(deck, n, high):
    assert score(match(n, fewest_cards_with(n, high), deck=deck))["rounds"]
    assert rejected(match(n, fewest_cards_with(n, high + 1), deck=deck)) == (
        f"round 1: a card must be a whole number from 1 to {high}"
    )


def test_card_zero_is_out_of_range():
    assert rejected(match(2, fewest_cards_with(2, 0))) == (
        "round 1: a card must be a whole number from 1 to 64"
    )


def test_the_default_options_are_filled_in():
    assert score(match(3))["options"] == {
        "deck": "seed",
        "end": "66",
        "limit": 66,
        "hands": None,
        "share_rounding": "up",
        "loser_rank": "competition",
    }


@pytest.mark.parametrize(
    "options, message",
    [
        ({"deck": "short"}, "option 'Cards in play' cannot be \"short\""),
        ({"end": 66}, "option 'How the match ends' cannot be 66"),
        ({"limit": 0}, "option 'Bullheads that end the match' cannot be 0"),
        ({"limit": 1001}, "option 'Bullheads that end the match' cannot be 1001"),
        ({"hands": 0}, "option 'How many hands' cannot be 0"),
        ({"hands": 10001}, "option 'How many hands' cannot be 10001"),
        ({"share_rounding": "down"}, "option 'Winners sharing the points' cannot be \"down\""),
        ({"loser_rank": "olympic"}, "option 'After losers tie' cannot be \"olympic\""),
    ],
)
def test_options_outside_their_range_are_rejected(options, message):
    assert rejected(match(3, **options)) == message


@pytest.mark.parametrize("n", [1, 11])
def test_two_to_ten_players(n):
    assert rejected(match(n)) == "6 nimmt! is for 2 to 10 players"


# ---- ending at 66


def test_the_worked_match_to_66():
    result = score(hands(4, [5, 12, 9, 20], [14, 8, 22, 3], [10, 25, 6, 18], [11, 23, 15, 9]))
    assert result["totals"] == [40, 68, 52, 50]
    assert (result["finished"], result["winners"]) == (True, ["Ann"])
    assert result["ranking_points"] == [8, -3, -2, -1]
    assert result["settlement"] is None


def test_points_are_the_bullheads_and_totals_add_up_until_the_limit():
    result = score(hands(2, [10, 5], [9, 5], limit=20))
    assert [r["points"] for r in result["rounds"]] == [[10, 5], [9, 5]]
    assert result["totals"] == [19, 10]
    assert (result["finished"], result["winners"]) == (False, [])
    assert "ranking_points" not in result


def test_reaching_the_limit_ends_the_match_and_fewest_bullheads_win():
    result = score(hands(2, [10, 5], [10, 5], limit=20))
    assert result["totals"] == [20, 10]
    assert (result["finished"], result["winners"]) == (True, ["Bo"])
    assert result["ranking_points"] == [-1, 8]


def test_no_hand_after_the_limit_is_reached():
    assert rejected(hands(2, [10, 5], [10, 5], [4, 0], limit=20)) == (
        "round 3: the match is already finished"
    )


def test_a_match_closed_by_hand_ranks_the_totals_as_they_stand():
    result = score({**hands(3, [20, 10, 10]), "closed": True})
    assert (result["finished"], result["winners"]) == (True, ["Bo", "Chen"])
    assert result["ranking_points"] == [-1, 4, 4]


def test_a_match_closed_before_its_first_hand_has_no_winners_nor_ranking_points():
    result = score(match(3, closed=True))
    assert (result["finished"], result["winners"], result["settlement"]) == (True, [], None)
    assert "ranking_points" not in result


# ---- one game per hand


def test_the_worked_one_hand_games():
    result = score(hands(7, [0, 3, 3, 7, 12, 12, 25], [9] * 7, end="hand", hands=2))
    assert [r["points"] for r in result["rounds"]] == [
        [12, -1, -1, -3, -4, -4, -6],
        [3, 3, 3, 3, 3, 3, 3],
    ]
    assert result["totals"] == [15, 2, 2, 0, -1, -1, -3]
    assert (result["finished"], result["winners"]) == (True, ["Ann"])
    assert "ranking_points" not in result


def test_with_hands_set_the_match_ends_after_that_many_hands():
    document = hands(2, [3, 5], [6, 2], end="hand", hands=2)
    result = score(document)
    assert result["totals"] == [8 - 1, -1 + 8]
    assert (result["finished"], result["winners"]) == (True, ["Ann", "Bo"])
    document["rounds"].append({"bullheads": [4, 4]})
    assert rejected(document) == "round 3: the match is already finished"


def test_without_hands_the_table_closes_the_match_and_most_ranking_points_win():
    document = hands(2, [3, 5], [6, 2], [1, 9], end="hand")
    result = score(document)
    assert result["totals"] == [8 - 1 + 8, -1 + 8 - 1]
    assert (result["finished"], result["winners"]) == (False, [])
    result = score({**document, "closed": True})
    assert (result["finished"], result["winners"]) == (True, ["Ann"])


# ---- a fixed number of hands (end: hands)


def test_a_fixed_number_of_hands_ends_whatever_the_totals_and_fewest_bullheads_win():
    document = hands(3, [40, 3, 5], [30, 12, 6], [7, 4, 11], end="hands", hands=3)
    result = score(document)
    assert [r["points"] for r in result["rounds"]] == [[40, 3, 5], [30, 12, 6], [7, 4, 11]]
    assert result["totals"] == [77, 19, 22]  # Ann passed 66: the match went on
    assert (result["finished"], result["winners"]) == (True, ["Bo"])
    assert result["ranking_points"] == [-2, 8, -1]
    document["rounds"].append({"bullheads": [4, 4, 4]})
    assert rejected(document) == "round 4: the match is already finished"


def test_before_the_last_of_the_fixed_hands_the_match_goes_on():
    result = score(hands(2, [10, 5], [10, 5], end="hands", hands=3, limit=20))
    assert (result["finished"], result["winners"]) == (False, [])
    assert "ranking_points" not in result
    assert score(hands(2, [3, 5], end="hands", hands=1))["finished"]


def test_a_fixed_number_of_hands_needs_the_number():
    with pytest.raises(RulesError) as error:
        score(match(3, end="hands"))
    assert str(error.value) == "Type how many hands: the match ends after a number of hands."
    assert error.value.phrase.params["name"] == "hands"


def test_status_with_a_fixed_number_of_hands_says_which_is_next_and_no_limit_to_go():
    table = table_after(hands(2, [3, 5], end="hands", hands=2, deck="tactics"))
    assert rendered(GAME.status(table)) == ["cards 1 to 24 are in play", "hand 2 of 2 next"]
    assert [GAME.to_go(table, seat) for seat in range(2)] == [None, None]
    table = table_after(hands(2, [3, 5], [2, 3], end="hands", hands=2, deck="tactics"))
    assert rendered(GAME.status(table)) == ["cards 1 to 24 are in play"]
    assert GAME.chart_marks(table) == []


# ---- ranking points


def test_the_spec_ranking_example_on_a_matchs_totals():
    result = score(hands(4, [15, 23, 18, 17], [15, 23, 18, 17], [10, 22, 16, 16]))
    assert result["totals"] == [40, 68, 52, 50]
    assert result["ranking_points"] == [8, -3, -2, -1]


@pytest.mark.parametrize(
    "n, bullheads, points",
    [
        (6, [8, 8, 8, 12, 12, 20], [3, 3, 3, -1, -1, -3]),
        (7, [0, 3, 3, 7, 12, 12, 25], [12, -1, -1, -3, -4, -4, -6]),
        (4, [17, 17, 17, 17], [2, 2, 2, 2]),
    ],
)
def test_the_spec_ranking_examples_on_one_hand(n, bullheads, points):
    assert score(hands(n, bullheads, end="hand"))["rounds"][0]["points"] == points


@pytest.mark.parametrize(
    "n, bullheads, up, exact",
    [
        (6, [8, 8, 8, 12, 12, 20], [3, 3, 3], [2.67, 2.67, 2.67]),  # 8 / 3
        (4, [5, 5, 5, 12], [3, 3, 3], [2.67, 2.67, 2.67]),  # 8 / 3
        (7, [2, 2, 2, 2, 2, 20, 30], [3] * 5, [2.4] * 5),  # 12 / 5
        (10, [8] * 8 + [10, 20], [2] * 8, [1.5] * 8),  # 12 / 8
        (7, [5, 5, 10, 10, 10, 10, 10], [6, 6], [6, 6]),  # 12 / 2
    ],
)
def test_winners_share_the_pool_rounded_up_or_to_hundredths(n, bullheads, up, exact):
    shares = len(up)
    assert score(hands(n, bullheads, end="hand"))["rounds"][0]["points"][:shares] == up
    points = score(hands(n, bullheads, end="hand", share_rounding="exact"))["rounds"][0]["points"]
    assert points[:shares] == exact


def test_exact_shares_add_up_exactly():
    result = score(
        hands(4, [5, 5, 5, 12], [5, 5, 5, 12], [5, 5, 5, 12], end="hand", share_rounding="exact")
    )
    assert result["totals"] == [8.01, 8.01, 8.01, -3]
    assert result["winners"] == []
    result = score(
        {
            **hands(4, [5, 5, 5, 12], [5, 5, 5, 12], end="hand", share_rounding="exact"),
            "closed": True,
        }
    )
    assert result["totals"] == [5.34, 5.34, 5.34, -2]
    assert result["winners"] == ["Ann", "Bo", "Chen"]


def test_exact_shares_in_the_match_ranking_points():
    result = score(hands(4, [5, 5, 5, 60], [5, 5, 5, 10], share_rounding="exact"))
    assert result["totals"] == [10, 10, 10, 70]
    assert result["ranking_points"] == [2.67, 2.67, 2.67, -1]


@pytest.mark.parametrize(
    "loser_rank, points",
    [
        ("competition", [8, -1, -1, -3]),
        ("dense", [8, -1, -1, -2]),
    ],
)
def test_tied_losers_lose_the_same(loser_rank, points):
    result = score(hands(4, [5, 10, 10, 12], end="hand", loser_rank=loser_rank))
    assert result["rounds"][0]["points"] == points


def test_dense_ranks_keep_counting_after_the_tie():
    result = score(hands(7, [1, 5, 5, 9, 9, 9, 20], end="hand", loser_rank="dense"))
    assert result["rounds"][0]["points"] == [12, -1, -1, -2, -2, -2, -3]
    result = score(hands(7, [1, 5, 5, 9, 9, 9, 20], end="hand"))
    assert result["rounds"][0]["points"] == [12, -1, -1, -3, -3, -3, -6]


@pytest.mark.parametrize("n, each, bonus", [(2, 5, 2), (6, 8, 2), (7, 9, 3), (10, 9, 3)])
def test_a_full_draw_gives_everyone_the_bonus(n, each, bonus):
    assert score(hands(n, [each] * n, end="hand"))["rounds"][0]["points"] == [bonus] * n


@pytest.mark.parametrize(
    "n, bullheads, points",
    [
        (2, [3, 5], [8, -1]),
        (6, [20, 5, 9, 9, 5, 1], [-5, -1, -3, -3, -1, 8]),
        (7, [9, 9, 9, 9, 9, 9, 0], [-1, -1, -1, -1, -1, -1, 12]),
        (10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 40], [12, -1, -2, -3, -4, -5, -6, -7, -8, -9]),
    ],
)
def test_pool_and_losers_by_player_count(n, bullheads, points):
    assert score(hands(n, bullheads, end="hand"))["rounds"][0]["points"] == points


# ---- rejected entries


@pytest.mark.parametrize(
    "entry, message",
    [
        (
            {"taken": [[5, 10, 11, 55, 17], [1, 2, 3, 4, 6, 7, 8, 9, 12, 13, 14], [15, 16, 90]]},
            "a card must be a whole number from 1 to 84",
        ),
        (
            {"taken": [[5, 10, 11, 55, 17], [1, 2, 3, 4, 6, 7, 8, 9, 12, 13, 14], [15, 16, 17]]},
            "card 17 was taken twice",
        ),
        ({"taken": [[5, 5], list(range(20, 35)), []]}, "card 5 was taken twice"),
        (
            {"taken": [list(range(1, 14)), [], []]},
            "a hand's players take 14 to 30 cards in all, not 13",
        ),
        (
            {"taken": [list(range(1, 32)), [], []]},
            "a hand's players take 14 to 30 cards in all, not 31",
        ),
        (
            {"taken": [list(range(1, 15)), [], []], "bullheads": [14, 0, 0]},
            "enter the cards taken or the bullheads, not both",
        ),
        ({}, "enter the cards or the bullheads each player took"),
        ({"taken": None, "bullheads": None}, "enter the cards or the bullheads each player took"),
        ({"bullheads": [-1, 10, 10]}, "Ann's bullheads must be a whole number from 0 to 83"),
        ({"bullheads": [10, 2.0, 10]}, "Bo's bullheads must be a whole number from 0 to 83"),
        ({"bullheads": [10, 10, True]}, "Chen's bullheads must be a whole number from 0 to 83"),
        ({"bullheads": [13, 0, 0]}, "a hand's bullheads add up to 14 to 83 in all, not 13"),
        ({"bullheads": [40, 40, 4]}, "a hand's bullheads add up to 14 to 83 in all, not 84"),
        ({"bullheads": [10, 10]}, "the bullheads must list one entry per player"),
        ({"taken": [[1] * 14, []]}, "the cards taken must list one entry per player"),
        ({"taken": [list(range(1, 15)), 3, []]}, "Bo's cards must be a list of card numbers"),
        (
            {"taken": [list(range(1, 14)) + ["14"], [], []]},
            "a card must be a whole number from 1 to 84",
        ),
    ],
)
def test_a_bad_hand_is_rejected(entry, message):
    assert rejected(match(3, entry)) == "round 1: " + message


@pytest.mark.parametrize(
    "n, low, high",
    [
        (3, 14, 83),  # 1-84: 55 (7), six 11s (30), eight 10s (24), seven 5s (14), eight ones
        (2, 4, 59),  # 1-64: 55 (7), four 11s (20), six 10s (18), five 5s (10), four ones
        (10, 84, 167),  # 1-104: all 171 less four ones
    ],
)
def test_the_hand_total_lies_between_10n_minus_16_and_the_10n_richest_cards(n, low, high):
    def total(t):
        return [t] + [0] * (n - 1)

    assert score(hands(n, total(low), total(high), limit=1000))["totals"][0] == low + high
    assert rejected(hands(n, total(low - 1))).endswith(
        f"add up to {low} to {high} in all, not {low - 1}"
    )
    assert rejected(hands(n, total(high + 1))) == (
        f"round 1: Ann's bullheads must be a whole number from 0 to {high}"
    )


def test_a_player_may_take_no_card_at_all():
    assert score(match(2, {"taken": [[1, 2, 3, 4], []]}))["totals"] == [4, 0]
    assert score(hands(2, [4, 0]))["totals"] == [4, 0]


def test_a_hand_that_is_not_an_object_is_rejected():
    assert rejected(match(3, [1, 2, 3])) == "round 1: a round must be a JSON object"


# ---- the entry form


def test_a_cards_form_becomes_the_entry_the_engine_accepts():
    table = table_after(match(3))
    form = {
        "mode": ["cards"],
        "taken-0": ["5", "10", "11", "55", "17"],
        "taken-1": ["1 2 3, 4,6 7", "8 9 12 13 14"],
        "taken-2": ["15,16,18"],
        "bullheads-0": ["99"],
    }
    entry = GAME.entry_from_form(form, table)
    assert entry == {
        "taken": [[5, 10, 11, 55, 17], [1, 2, 3, 4, 6, 7, 8, 9, 12, 13, 14], [15, 16, 18]]
    }
    assert score(match(3, entry))["totals"] == [18, 11, 4]


def test_a_bullheads_form_becomes_the_entry_the_engine_accepts():
    table = table_after(match(3))
    form = {
        "mode": ["bullheads"],
        "bullheads-0": [" 18 "],
        "bullheads-1": ["11"],
        "bullheads-2": ["4"],
        "taken-0": ["55"],
    }
    entry = GAME.entry_from_form(form, table)
    assert entry == {"bullheads": [18, 11, 4]}
    assert score(match(3, entry))["totals"] == [18, 11, 4]


@pytest.mark.parametrize(
    "form, entry",
    [
        ({"taken-0": ["1 2 3 4"]}, {"taken": [[1, 2, 3, 4], []]}),
        ({"bullheads-0": ["4"], "bullheads-1": ["0"]}, {"bullheads": [4, 0]}),
        ({"mode": ["other"], "bullheads-0": ["4"], "bullheads-1": ["0"]}, {"bullheads": [4, 0]}),
        ({"mode": ["cards"]}, {"taken": [[], []]}),
    ],
)
def test_without_a_mode_the_cards_are_used_when_any_were_typed(form, entry):
    assert GAME.entry_from_form(form, table_after(match(2))) == entry


@pytest.mark.parametrize(
    "form, entry, message",
    [
        (
            {"mode": ["cards"], "taken-0": ["1 2 three 4"]},
            {"taken": [[1, 2, "three", 4], []]},
            "a card must be a whole number from 1 to 64",
        ),
        (
            {"mode": ["bullheads"], "bullheads-0": ["ten"], "bullheads-1": ["0"]},
            {"bullheads": ["ten", 0]},
            "Ann's bullheads must be a whole number from 0 to 59",
        ),
        (
            {"mode": ["bullheads"], "bullheads-0": ["10"]},
            {"bullheads": [10, None]},
            "Bo's bullheads must be a whole number from 0 to 59",
        ),
    ],
)
def test_badly_typed_text_is_kept_and_rejected_by_the_engine(form, entry, message):
    assert GAME.entry_from_form(form, table_after(match(2))) == entry
    assert rejected(match(2, entry)) == "round 1: " + message


# ---- at the table


def rendered(phrases):
    return [str(phrase) for phrase in phrases]


def test_the_standings_say_how_far_each_player_is_from_the_limit():
    table = table_after(hands(4, [5, 12, 9, 20], [14, 8, 22, 3]))
    assert rendered(GAME.status(table)) == ["cards 1 to 84 are in play"]
    assert rendered(GAME.to_go(table, seat) for seat in range(4)) == [
        "47 to go to 66",
        "46 to go to 66",
        "35 to go to 66",
        "43 to go to 66",
    ]


def test_the_standings_name_who_reached_the_limit():
    table = table_after(hands(2, [10, 5], [10, 5], limit=20, deck="full"))
    assert rendered(GAME.to_go(table, seat) for seat in range(2)) == [
        "reached 20",
        "10 to go to 20",
    ]


def test_status_in_one_game_per_hand_says_which_hand_is_next():
    table = table_after(hands(2, [3, 5], end="hand", hands=3, deck="tactics"))
    assert rendered(GAME.status(table)) == ["cards 1 to 24 are in play", "hand 2 of 3 next"]
    table = table_after(hands(2, [3, 5], end="hand"))
    assert rendered(GAME.status(table))[1:] == ["hand 2 next; close the match to stop"]


def test_breakdown_shows_each_players_bullheads_and_cards_and_nothing_for_none_taken():
    table = table_after(
        match(
            3,
            {"taken": [[55, 5, 10, 11, 17], [1, 2, 3, 4, 6, 7, 8, 9, 12, 13, 14], []]},
            {"bullheads": [10, 2, 2]},
        )
    )
    assert rendered(GAME.breakdown(table, 0)) == [
        "Ann's bullheads this hand: 18 (cards 5, 10, 11, 17, 55)",
        "Bo's bullheads this hand: 11 (cards 1, 2, 3, 4, 6, 7, 8, 9, 12, 13, 14)",
    ]
    assert rendered(GAME.breakdown(table, 1)) == [
        "Ann's bullheads this hand: 10",
        "Bo's bullheads this hand: 2",
        "Chen's bullheads this hand: 2",
    ]


def test_breakdown_in_one_game_per_hand_adds_the_ranking_points():
    table = table_after(hands(4, [5, 10, 10, 12], end="hand"))
    assert rendered(GAME.breakdown(table, 0))[4:] == [
        "Ann's ranking points: +8",
        "Bo's ranking points: -1",
        "Chen's ranking points: -1",
        "Dee's ranking points: -3",
    ]


# ---- the number pads


@pytest.mark.parametrize(
    "n, deck, high", [(2, "seed", 64), (4, "seed", 84), (4, "full", 104), (3, "tactics", 34)]
)
def test_each_player_has_a_pad_of_the_cards_in_play_with_their_bullheads(n, deck, high):
    pads = GAME.entry_context(table_after(match(n, deck=deck)))["pads"]
    assert [p["name"] for p in pads] == NAMES[:n]
    for pad in pads:
        assert [c["number"] for c in pad["cards"]] == list(range(1, high + 1))
        assert all(c["bullheads"] == bullheads_of(c["number"]) for c in pad["cards"])


def test_each_pad_checks_its_players_cards_and_marks_those_another_player_took():
    entry = {"taken": [[55, 5], [5, 10, "x", 999], []]}  # as typed: 5 twice, text, out of range
    pads = GAME.entry_context(table_after(match(3)), entry)["pads"]
    assert [(p["seat"], p["name"], p["bullheads"]) for p in pads] == [
        (0, "Ann", 9),
        (1, "Bo", 5),
        (2, "Chen", 0),
    ]
    marks = [{c["number"]: (c["checked"], c["elsewhere"]) for c in p["cards"]} for p in pads]
    assert marks[0][55] == (True, False) and marks[0][5] == (True, True)
    assert marks[1][5] == (True, True) and marks[1][10] == (True, False)
    assert marks[2][55] == (False, True) and marks[2][1] == (False, False)
    assert all(not checked for checked, _ in marks[2].values())


@pytest.mark.parametrize("entry", [None, {"bullheads": [1, 2, 3]}])
def test_a_fresh_or_typed_hand_leaves_every_pad_empty(entry):
    pads = GAME.entry_context(table_after(match(3)), entry)["pads"]
    assert all(p["bullheads"] == 0 for p in pads)
    assert not any(c["checked"] or c["elsewhere"] for p in pads for c in p["cards"])


def test_status_names_the_last_hand_too():
    table = table_after(hands(2, [3, 5], end="hand", hands=2, deck="tactics"))
    assert rendered(GAME.status(table)) == ["cards 1 to 24 are in play", "hand 2 of 2 next"]
    table = table_after(hands(2, [3, 5], [4, 0], end="hand", hands=2, deck="tactics"))
    assert rendered(GAME.status(table)) == ["cards 1 to 24 are in play"]


def test_the_chart_marks_the_limit_when_there_is_one():
    [(value, label)] = GAME.chart_marks(table_after(hands(2, [3, 5], limit=40)))
    assert (value, str(label)) == (40, "limit 40")
    assert GAME.chart_marks(table_after(hands(2, [3, 5], end="hand"))) == []


@pytest.mark.parametrize(
    "counts, message",
    [
        # tactics with 3 players: cards 1-34 carry 55 bullheads; 30 are dealt, and the 4 left in
        # the rows carry at least 1 each: 51 at most, the top card (34) counted too
        ([51, 0, 0], None),
        ([30, 21, 0], None),
        ([52, 0, 0], "round 1: Ann's bullheads must be a whole number from 0 to 51"),
        ([30, 22, 0], "round 1: a hand's bullheads add up to 14 to 51 in all, not 52"),
    ],
)
def test_the_most_bullheads_of_a_small_deck(counts, message):
    document = hands(3, counts, deck="tactics")
    if message is None:
        assert score(document)["totals"] == counts
    else:
        assert rejected(document) == message
