"""The match document around every game (games/rules/__init__.py) and what the games share
(games/rules/base.py, cards.py, settle.py): exact messages, the seat or option they point at,
and the small helpers the web layer relies on. Least Score stands in for any game."""

from decimal import Decimal

import pytest

from games.rules import MAX_ROUNDS, RulesError, get_game, play_round, replay, running_totals, score
from games.rules.base import Game, Option, Phrase, Table, Term, plain
from games.rules.cards import is_red, parse_card
from games.rules.settle import amounts_at, settlement

PLAYERS = ["Ann", "Bo", "Chen"]
A_ROUND = {"declarer": 0, "hands": [1, 5, 9]}


def match(rounds=(), players=PLAYERS, **more):
    return {"game": "least_score", "players": players, "rounds": list(rounds), **more}


def refused(document):
    """The RulesError a match document is refused with."""
    with pytest.raises(RulesError) as error:
        score(document)
    return error.value


# ---- the document


@pytest.mark.parametrize(
    "document, message",
    [
        ([], "a match must be a JSON object"),
        ("least_score", "a match must be a JSON object"),
        ({"players": PLAYERS}, "unknown game None"),
        (match() | {"game": "chess"}, "unknown game 'chess'"),
        (match() | {"game": 7}, "unknown game 7"),
        (match() | {"game": ["least_score"]}, "unknown game ['least_score']"),
        (match(players="Ann, Bo"), "players must be a list of names"),
        (match(players=["Ann", 5]), "players must be a list of names"),
        (match(options=["threshold"]), "options must be a JSON object"),
        (match(options={"colour": "red"}), "unknown option 'colour'"),
        (match() | {"rounds": {"1": A_ROUND}}, "rounds must be a list"),
        (match() | {"rounds": "none"}, "rounds must be a list"),
        (match(closed="yes"), "closed must be true or false"),
        (match(closed=0), "closed must be true or false"),
        (match([A_ROUND, 7]), "round 2: a round must be a JSON object"),
        (match([A_ROUND | {"note": "x"}]), "round 1: a round cannot hold 'note'"),
        # several unknown fields: the first in alphabetical order, cut to 40 characters
        (match([A_ROUND | {"zz": 1, "aa": 1}]), "round 1: a round cannot hold 'aa'"),
        (match([A_ROUND | {"k" * 50: 1}]), f"round 1: a round cannot hold '{'k' * 40}'"),
    ],
)
def test_a_broken_document_is_refused_with_its_reason(document, message):
    assert str(refused(document)) == message


def test_rounds_and_closed_may_be_missing_or_null():
    for document in ({"game": "least_score", "players": PLAYERS}, match(closed=None)):
        result = score(document)
        assert (result["rounds"], result["finished"], result["winners"]) == ([], False, [])
    assert score(match([A_ROUND], closed=True))["finished"] is True


def test_at_most_max_rounds_in_a_document():
    # exactly MAX_ROUNDS rounds pass the count (the first one is then checked for itself)
    assert str(refused(match([None] * MAX_ROUNDS))) == "round 1: a round must be a JSON object"
    assert str(refused(match([None] * (MAX_ROUNDS + 1)))) == (
        f"a match holds at most {MAX_ROUNDS} rounds, this one has {MAX_ROUNDS + 1}"
    )


def test_a_round_after_max_rounds_is_refused():
    """The web layer adds rounds one by one: the round after MAX_ROUNDS asks for a rematch."""
    game, table, _closed = replay(match())
    table.rounds = [{"points": [0, 0, 0]}] * (MAX_ROUNDS - 1)
    play_round(game, table, A_ROUND)
    assert len(table.rounds) == MAX_ROUNDS
    with pytest.raises(RulesError) as error:
        play_round(game, table, A_ROUND)
    assert str(error.value) == (
        f"round {MAX_ROUNDS + 1}: a match holds at most {MAX_ROUNDS} rounds: start a rematch"
    )


def test_running_totals_add_up_the_points_round_by_round():
    scored = [{"points": [1, 2, 0]}, {"points": [3, -4, 0]}, {"points": [0, 0, 5]}]
    assert list(running_totals(scored)) == [[1, 2, 0], [4, -2, 0], [4, -2, 5]]
    assert list(running_totals([])) == []


# ---- players


@pytest.mark.parametrize(
    "players, message, seat",
    [
        (["Ann", "   "], "a player's name is empty", 1),
        (["", "Bo"], "a player's name is empty", 0),
        (["Ann", "Bo", "C" * 41], "C" * 40 + "… is longer than 40 characters", 2),
        (["Ann", "B\no"], "a player's name cannot hold line breaks or control characters", 1),
        (["A\tnn", "Bo"], "a player's name cannot hold line breaks or control characters", 0),
        (["Ann", "Bo\ud800"], "a player's name cannot hold line breaks or control characters", 1),
        (["Ann", "Bo", "ANN"], "two players are called ANN", 2),
        (["Straße", "Bo", "STRASSE"], "two players are called STRASSE", 2),
        (["Ann", "A\u200bnn"], "two players are called Ann", 1),
        (["Ann", "Bo", "Chen", "\u200bBo"], "two players are called Bo", 3),
    ],
)
def test_a_bad_name_points_at_its_seat(players, message, seat):
    error = refused(match(players=players))
    assert (str(error), error.phrase.params["seat"]) == (message, seat)


def test_too_many_players_is_said_whatever_the_names_past_the_limit():
    """Only one name past the game's most is read: enough to say there are too many."""
    nine = [f"P{k}" for k in range(9)]
    for players in (nine, [*nine, ""], [*nine, "x" * 50], [*nine, "P0"]):
        assert str(refused(match(players=players))) == "Least Score is for 2 to 8 players"
    assert str(refused(match(players=[*nine[:8], ""]))) == "a player's name is empty"


@pytest.mark.parametrize(
    "name, kept",
    [
        # zero-width characters go, except a joiner between two letters (Persian writes so)
        ("A\u200bnn", "Ann"),
        ("\u200cAnn", "Ann"),
        ("Ann\u200c", "Ann"),
        ("A\u200cnn", "A\u200cnn"),
        ("An\u200cn", "An\u200cn"),
        ("A\u200dB", "A\u200dB"),
        ("1A\u200cB", "1A\u200cB"),
        ("A1\u200cB", "A1B"),
        ("A\u200c1B", "A1B"),
        ("A\u200cB1", "A\u200cB1"),
        ("Z\u202eoe", "Zoe"),
        ("\ufeffZoe", "Zoe"),
        (" Zoe\u200b ", "Zoe"),
        (
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
        ),
    ],
)
def test_invisible_characters_are_dropped_from_names(name, kept):
    assert score(match(players=[name, "Bo"]))["players"] == [kept, "Bo"]


# ---- options


def test_an_option_error_names_the_option():
    error = refused(match(options={"threshold": None}))
    assert (str(error), error.phrase.params["name"]) == (
        "option 'Out past this total' cannot be null",
        "threshold",
    )


@pytest.mark.parametrize(
    "value, shown",
    [
        ("红", '"红"'),  # as typed, not \u7ea2
        ({1}, "{1}"),  # not JSON at all (only from Python): its repr
        (2.5, "2.5"),
        (False, "false"),
    ],
)
def test_a_refused_option_value_is_shown_as_written(value, shown):
    with pytest.raises(RulesError) as error:
        get_game("least_score").read_options({"eliminate_at": value}, 3)
    assert str(error.value) == f"option 'Out when a total' cannot be {shown}"


@pytest.mark.parametrize(
    "option, good, bad",
    [
        (Option("n", None, "", "whole_or_null", low=1, high=9), [None, 1, 9], [0, 10, 2.0, "1"]),
        (Option("n", 1, "", "whole", low=1, high=9), [1, 9], [None, 0, 10, True]),
        (Option("b", True, "", "bool"), [True, False], [None, 0, 1, "true"]),
        (Option("x", 0, "", "number", low=0, high=5), [0, 2.5, 5], [-0.1, 5.01, None, True]),
        (Option("c", "a", "", choices=("a", 2)), ["a", 2], ["b", 2.0, True, None]),
        (Option("e", [], "", "evens"), [[], [2, 100]], [[3], [0], [2.0], 2, None]),
        (
            Option("p", [], "", "pairs", low=1, high=100),
            [[], [[1, 0]], [[100, 99], [50, 25]]],
            [
                [[0, 0]],  # a total below low
                [[101, 0]],  # above high
                [[50, 50]],  # becomes must be below the total
                [[50, -1]],  # and at least 0
                [[50, 25], [50, 0]],  # a total twice
                [[50, 25.0]],
                [[50, True]],
                [[50]],
                [[50, 25, 0]],
                [50, 25],
                (50, 25),
                None,
            ],
        ),
    ],
)
def test_each_kind_of_option_takes_its_values_only(option, good, bad):
    assert [option.read(value, option.name) for value in good] == good
    for value in bad:
        with pytest.raises(RulesError):
            option.read(value, option.name)


def test_a_default_may_depend_on_an_option_listed_after_it():
    game = Bare()
    game.options = (
        Option("first", lambda o: o["second"] * 2, "", "whole", low=1, high=99),
        Option("second", 1, "", "whole", low=1, high=9),
    )
    assert game.read_options({}, 2) == {"first": 2, "second": 1}
    assert game.read_options({"second": 4}, 2) == {"first": 8, "second": 4}
    assert game.read_options({"first": 3, "second": 4}, 2) == {"first": 3, "second": 4}


def test_variant_options_are_listed_only_when_the_match_gives_one():
    game = Bare()
    game.options = (
        Option("plain", 1, "", "whole", low=1, high=9),
        Option("house", 0, "", "whole", low=0, high=9, variant=True),
        Option("rule", "a", "", choices=("a", "b"), variant=True),
    )
    options = game.read_options({}, 2)
    assert options == {"plain": 1, "house": 0, "rule": "a"}
    assert game.listed(options, {}) == {"plain": 1}
    assert game.listed(options, {"plain": 2}) == {"plain": 1}
    assert game.listed(options, {"rule": "a"}) == options
    assert game.listed(options, {"house": 0}) == options


# ---- what every game inherits


class Bare(Game):
    """A game that overrides nothing it need not."""

    labels = {"eliminate_at": Term("out at")}


def test_a_game_s_defaults():
    game = Bare()
    table = game.new_table(["A", "B"], {"x": 1})
    assert (type(table), table.players, table.options, table.totals) == (
        Table,
        ["A", "B"],
        {"x": 1},
        [0, 0],
    )
    assert game.is_over(table) is False
    assert (game.chart_marks(table), game.settle(table), game.extra(table, True)) == ([], None, {})
    assert (game.leaders(table), game.breakdown(table, 0), game.status(table)) == ([], [], [])


def test_a_label_is_the_game_s_word_else_the_key_with_spaces():
    game = Bare()
    assert game.label("eliminate_at") == "out at"
    assert game.label("last_standing") == "last standing"
    assert isinstance(game.label("last_standing"), Term)
    assert get_game("least_score").label("eliminate_at") == "Out when a total"


def test_an_option_s_value_has_its_own_words_where_the_word_means_another_option():
    gongzhu = get_game("gongzhu")
    assert gongzhu.label("floor") == "Ends at minus this many card points"
    assert gongzhu.choice_label("end", "floor") == "at a limit of card points"
    assert gongzhu.choice_label("mode", "pairs") == gongzhu.label("pairs")


def test_leaders_before_any_round_are_nobody():
    game, table, _closed = replay(match())
    assert game.leaders(table) == []
    game, table, _closed = replay(match([A_ROUND]))
    assert game.leaders(table) == [0]


def test_ranking_puts_higher_totals_first_when_the_winners_are_highest():
    """Gongzhu wins high: after this hand Dee (4236) wins, then Chen 1680, Bo -1524, Ann -4404."""
    game = get_game("gongzhu")
    hearts = "KH QH JH 10H 9H 8H 7H 6H 4H 3H 2H".split()
    entry = {
        "captured": [["QS", "AH", "KH"], hearts[1:], [], ["10C", "JD", "5H"]],
        "exposed": ["QS", "AH"],
    }
    table = replay({"game": "gongzhu", "players": ["Ann", "Bo", "Chen", "Dee"], "rounds": [entry]})[
        1
    ]
    assert table.totals == [-4404, -1524, 1680, 4236]
    assert game.ranking(table) == [4, 3, 2, 1]


# ---- messages


def test_a_phrase_without_parameters_is_shown_as_written():
    assert Phrase("done: 100%").render() == "done: 100%"
    assert Phrase("%(n)s%% done", n=5).render() == "5% done"


def test_a_list_parameter_is_shown_with_commas_each_part_translated():
    mark = "<{}>".format
    cards = [Term("pig"), Phrase("%(card)s exposed", card=Term("Q"))]
    assert Phrase("%(cards)s", cards=cards).render(mark) == "<<pig>, <<Q> exposed>>"


def test_what_a_player_typed_is_quoted_on_one_line():
    error = refused(match([{"declarer": 0, "hands": [["Z\nQ", "AS"], 5, 9]}]))
    assert str(error) == "round 1: in Ann's hand, Z Q is not a card"
    assert error.phrase.params["card"] == "Z Q"


@pytest.mark.parametrize(
    "number, shown",
    [
        (3, 3),
        (2.0, 2),
        (2.5, 2.5),
        (Decimal("2.00"), 2),
        (Decimal("-2.50"), -2.5),
        (Decimal("0.01"), 0.01),
    ],
)
def test_plain_numbers_for_json(number, shown):
    assert plain(number) == shown
    assert type(plain(number)) is type(shown)


# ---- cards


@pytest.mark.parametrize(
    "text, card",
    [
        ("10C", "10C"),
        ("tc", "10C"),
        (" q♠ ", "QS"),
        ("A♥\ufe0f", "AH"),
        ("A♥\ufe0e", "AH"),
        ("J♢", "JD"),
        ("k♧", "KC"),
    ],
)
def test_cards_in_any_accepted_notation(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text, message",
    [
        (5, "5 is not a card"),
        (None, "None is not a card"),
        ("1S", "1S is not a card"),
        ("A", "A is not a card"),
        (" 11H ", "11H is not a card"),
        ("A♥\ufe0eX", "A♥\ufe0eX is not a card"),
    ],
)
def test_anything_else_is_not_a_card(text, message):
    with pytest.raises(RulesError) as error:
        parse_card(text)
    assert str(error.value) == message


def test_red_suits():
    assert [is_red(card) for card in ("AH", "2D", "QS", "10C")] == [True, True, False, False]


# ---- settlement


def test_amounts_round_half_cents_away_from_zero():
    assert amounts_at([1, -1, 3, 2], "0.125") == [
        Decimal("0.13"),
        Decimal("-0.13"),
        Decimal("0.38"),
        Decimal("0.25"),
    ]


def test_a_settlement_document():
    assert settlement(["A", "B", "C"], [5, -3, -2], "0.5", stake=0.5) == {
        "stake": 0.5,
        "results": [5, -3, -2],
        "amounts": [2.5, -1.5, -1],
        "transfers": [
            {"from": "B", "to": "A", "amount": 1.5},
            {"from": "C", "to": "A", "amount": 1},
        ],
        "remainder": 0,
    }
