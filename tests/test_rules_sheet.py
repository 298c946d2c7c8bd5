"""The score sheet (games/rules/sheet.py) as score_sheet.md tells it; every figure worked by hand,
and random sheets scored by the engine, by `manage.py score` and by the rule book's own sums."""

import io
import json
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import GAMES, RulesError, replay, score

GAME = GAMES["sheet"]
NAMES = [f"P{k}" for k in range(21)]
FOUR = NAMES[:4]


def match(*rounds, players=FOUR, closed=False, **options):
    """A sheet whose rounds are the points lists given."""
    return {
        "game": "sheet",
        "players": players,
        "options": options,
        "rounds": [{"points": list(points)} for points in rounds],
        "closed": closed,
    }


def rejected(document):
    with pytest.raises(RulesError) as error:
        score(document)
    return str(error.value)


def rendered(phrases):
    return [str(phrase) for phrase in phrases]


# ---- the end of the match and who wins


@pytest.mark.parametrize(
    "options, rounds, closed, finished, winners",
    [
        # No target, no hands: only the table ends it; the highest total wins.
        ({}, [(3, 5, 0, 0)], False, False, []),
        ({}, [(3, 5, 0, 0)], True, True, ["P1"]),
        ({"win": "low"}, [(3, 5, 1, 1)], True, True, ["P2", "P3"]),
        # A target is reached (>=), whichever way win points.
        ({"target": 10}, [(9, 0, 0, 0)], False, False, []),
        ({"target": 10}, [(9, 0, 0, 0), (1, 2, 0, 0)], False, True, ["P0"]),
        ({"target": 10, "win": "low"}, [(9, 0, 3, 3), (1, 2, 0, 0)], False, True, ["P1"]),
        # A negative total never reaches a target.
        ({"target": 1}, [(-5, -5, -5, 0)], False, False, []),
        # A number of hands; with both, whichever comes first.
        ({"hands": 2}, [(1, 2, 3, 4)], False, False, []),
        ({"hands": 2}, [(1, 2, 3, 4), (4, 3, 2, 0)], False, True, ["P0", "P1", "P2"]),
        ({"hands": 5, "target": 5}, [(1, 2, 3, 4), (4, 3, 2, 0)], False, True, ["P0", "P1", "P2"]),
        ({"hands": 2, "target": 3}, [(1, 2, 3, 4)], False, True, ["P3"]),
        # Closed before the first round: nobody wins.
        ({}, [], True, True, []),
    ],
)
def test_the_match_ends_as_the_table_said_and_the_best_total_wins(
    options, rounds, closed, finished, winners
):
    result = score(match(*rounds, closed=closed, **options))
    assert (result["finished"], result["winners"]) == (finished, winners)


def test_points_are_kept_as_entered_and_totalled():
    result = score(match((12, -3, 0, 7), (-1_000_000, 1_000_000, 0, 0)))
    assert [r["points"] for r in result["rounds"]] == [
        [12, -3, 0, 7],
        [-1_000_000, 1_000_000, 0, 0],
    ]
    assert result["totals"] == [-999_988, 999_997, 0, 7]


def test_a_round_after_the_end_is_refused():
    assert rejected(match((1, 0, 0, 0), (0, 1, 0, 0), hands=1)) == (
        "round 2: the match is already finished"
    )


# ---- zero-sum sheets and their settlement


@pytest.mark.parametrize(
    "stake, amounts, transfers",
    [
        (0.5, [4, 20, -12, -12], [("P2", "P1", 12), ("P3", "P1", 8), ("P3", "P0", 4)]),
        (0, [0, 0, 0, 0], []),
        (0.05, [0.4, 2, -1.2, -1.2], [("P2", "P1", 1.2), ("P3", "P1", 0.8), ("P3", "P0", 0.4)]),
    ],
)
def test_a_finished_zero_sum_sheet_is_paid_out_at_its_stake(stake, amounts, transfers):
    rounds = [(24, -8, -8, -8), (-16, 48, -16, -16)]
    result = score(match(*rounds, closed=True, zero_sum=True, stake=stake))
    settlement = result["settlement"]
    assert settlement["results"] == [8, 40, -24, -24]
    assert settlement["amounts"] == amounts
    assert [(t["from"], t["to"], t["amount"]) for t in settlement["transfers"]] == transfers
    assert settlement["remainder"] == 0


def test_amounts_are_rounded_to_the_cent_halves_away_from_zero():
    result = score(match((1, -1), players=NAMES[:2], hands=1, zero_sum=True, stake=0.125))
    assert result["settlement"]["amounts"] == [0.13, -0.13]


@pytest.mark.parametrize(
    "document",
    [
        match((1, -1, 0, 0), zero_sum=True),  # not finished
        match(closed=True, zero_sum=True),  # no rounds
        match((1, 2, 0, 0), closed=True),  # not zero-sum
    ],
)
def test_there_is_no_settlement_before_the_end_without_rounds_or_without_zero_sum(document):
    assert score(document)["settlement"] is None


# ---- options


def test_every_option_is_listed_with_its_default():
    assert score(match())["options"] == {
        "title": "",
        "win": "high",
        "target": None,
        "hands": None,
        "zero_sum": False,
        "stake": 0,
    }


def test_the_title_is_trimmed_and_kept_as_typed():
    assert score(match(title="  Mahjong 麻將  "))["options"]["title"] == "Mahjong 麻將"
    assert score(match(title="گل یا پوچ"))["options"]["title"] == "گل یا پوچ"


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"stake": 1},
            "option 'Money a point' is only for a zero-sum sheet: turn on 'Every round adds up "
            "to 0'",
        ),
        ({"title": "x" * 41}, f"option 'Name of the game' cannot be \"{'x' * 41}\""),
        ({"title": "Hearts\nRummy"}, "option 'Name of the game' cannot be \"Hearts\\nRummy\""),
        ({"title": 7}, "option 'Name of the game' cannot be 7"),
        # a lone surrogate (JSON's "\ud800"), half a character: no text a page can show
        ({"title": "Hearts\ud800"}, "option 'Name of the game' cannot be \"Hearts\ud800\""),
        ({"win": "most"}, "option 'Who wins' cannot be \"most\""),
        ({"target": 0}, "option 'Total that ends the match' cannot be 0"),
        ({"target": 1_000_001}, "option 'Total that ends the match' cannot be 1000001"),
        ({"hands": 1001}, "option 'How many rounds' cannot be 1001"),
        ({"zero_sum": 1}, "option 'Every round adds up to 0' cannot be 1"),
        ({"stake": -1, "zero_sum": True}, "option 'Money a point' cannot be -1"),
    ],
)
def test_an_option_out_of_its_range_is_refused_in_words(options, message):
    assert rejected(match(**options)) == message


def test_a_stake_without_zero_sum_is_refused_at_the_stake_field():
    with pytest.raises(RulesError) as error:
        score(match(stake=1))
    assert error.value.phrase.params["name"] == "stake"


def test_a_title_of_forty_characters_after_trimming_is_allowed():
    assert score(match(title=" " + "x" * 40 + " "))["options"]["title"] == "x" * 40


# ---- what a round may hold


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"points": [1, 2, 3]}, "round 1: points must list one entry per player"),
        ({"points": "1 2 3 4"}, "round 1: points must list one entry per player"),
        ({}, "round 1: points must list one entry per player"),
        ({"points": [1, None, 3, 4]}, "round 1: P1's points are missing"),
        (
            {"points": [1, 2, 2.5, 4]},
            "round 1: P2's points must be a whole number from -1000000 to 1000000",
        ),
        (
            {"points": [1, 2, 3, True]},
            "round 1: P3's points must be a whole number from -1000000 to 1000000",
        ),
        (
            {"points": [1_000_001, 2, 3, 4]},
            "round 1: P0's points must be a whole number from -1000000 to 1000000",
        ),
        ({"points": [1, 2, 3, 4], "bid": 3}, "round 1: a round cannot hold 'bid'"),
    ],
)
def test_a_round_that_is_not_one_whole_number_per_player_is_refused(entry, message):
    document = match() | {"rounds": [entry]}
    assert rejected(document) == message


@pytest.mark.parametrize("points, total", [((5, -3), 2), ((-5, 3), -2), ((0, -1), -1)])
def test_a_zero_sum_round_that_does_not_add_up_says_what_it_adds_up_to(points, total):
    document = match((1, -1), points, players=NAMES[:2], zero_sum=True)
    assert rejected(document) == f"round 2: the points add up to {total}, not 0"


@pytest.mark.parametrize("n", [1, 21])
def test_a_sheet_is_for_2_to_20_players(n):
    assert rejected(match(players=NAMES[:n])) == "Score sheet (any game) is for 2 to 20 players"


# ---- what the screen says


def test_the_status_says_who_wins_and_what_ends_the_match():
    table = replay(match((30, 10, 0, 30), title="Hearts", win="low", target=100, hands=10))[1]
    assert rendered(GAME.status(table)) == [
        "Hearts: the lowest total wins",
        "Round 2 of 10 next",
        "Highest total 30 (P0, P3): 70 short of 100.",
    ]
    table = replay(match((3, 5, 0, 0)))[1]
    assert rendered(GAME.status(table)) == [
        "the highest total wins",
        "Round 2 next; close the match to stop",
    ]


def test_the_breakdown_lists_who_scored_this_round():
    table = replay(match((24, -8, 0, -16), (0, 0, 0, 0)))[1]
    assert rendered(GAME.breakdown(table, 0)) == ["this round: P0 +24, P1 -8, P3 -16"]
    assert rendered(GAME.breakdown(table, 1)) == ["this round: 0"]


def test_the_chart_marks_the_target():
    assert [(v, str(p)) for v, p in GAME.chart_marks(replay(match(target=500))[1])] == [
        (500, "target 500")
    ]
    assert GAME.chart_marks(replay(match())[1]) == []


@pytest.mark.parametrize(
    "form, points",
    [
        ({"points-0": ["12"], "points-1": [" -3 "], "points-2": ["0"]}, [12, -3, 0, None]),
        ({"points-0": ["+4"], "points-1": ["x"], "points-3": ["۵"]}, [4, "x", None, 5]),
    ],
)
def test_the_entry_form_gives_each_player_what_they_typed(form, points):
    assert GAME.entry_from_form(form, replay(match())[1]) == {"points": points}


# ---- random sheets: the engine, the command and the rule book's sums agree


@st.composite
def sheets(draw):
    """A valid sheet with random options, 2 to 20 players and up to 12 rounds."""
    n = draw(st.integers(2, 20))
    zero_sum = draw(st.booleans())
    options = {
        "title": draw(st.text(max_size=40).map(str.strip).filter(str.isprintable)),
        "win": draw(st.sampled_from(["high", "low"])),
        "target": draw(st.none() | st.integers(1, 300)),
        "hands": draw(st.none() | st.integers(1, 12)),
        "zero_sum": zero_sum,
        "stake": draw(st.sampled_from([0, 1, 0.5, 0.05, 2.5, 0.125])) if zero_sum else 0,
    }
    points = st.integers(-100, 100) if draw(st.booleans()) else st.integers(-(10**6), 10**6)
    rounds = []
    for _ in range(draw(st.integers(0, 12))):
        row = draw(st.lists(points, min_size=n, max_size=n))
        if zero_sum:
            row[-1] = -sum(row[:-1])
        if abs(row[-1]) > 10**6:
            continue
        rounds.append(row)
    return match(*rounds, players=NAMES[:n], closed=draw(st.booleans()), **options)


def expected(document):
    """The result worked from score_sheet.md directly, for a sheet with no round after its end."""
    options = document["options"]
    rounds = [r["points"] for r in document["rounds"]]
    totals = [sum(column) for column in zip(*rounds)] or [0] * len(document["players"])
    target, hands = options["target"], options["hands"]
    ended = (target is not None and any(t >= target for t in totals)) or (
        hands is not None and len(rounds) >= hands
    )
    finished = document["closed"] or ended
    best = max(totals) if options["win"] == "high" else min(totals)
    decided = finished and bool(rounds)
    winners = [p for p, t in zip(document["players"], totals) if t == best] if decided else []
    amounts = [
        (Decimal(t) * Decimal(str(options["stake"]))).quantize(Decimal("0.01"), ROUND_HALF_UP)
        for t in totals
    ]
    return totals, finished, winners, amounts if decided and options["zero_sum"] else None


def within_its_end(document):
    """The document cut after the round that ends it (a later round is refused)."""
    for k in range(len(document["rounds"]) + 1):
        cut = document | {"rounds": document["rounds"][:k], "closed": False}
        if expected(cut)[1]:
            return document | {"rounds": document["rounds"][:k]}
    return document


def command(tmp_path_factory, document):
    path = tmp_path_factory.mktemp("sheet") / "match.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    call_command("score", str(path), stdout=out, stderr=err)
    return json.loads(out.getvalue())


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sheets())
def test_random_sheets_are_scored_by_the_rule_book_and_the_command_alike(
    tmp_path_factory, document
):
    document = within_its_end(document)
    result = score(document)
    assert command(tmp_path_factory, document) == result
    totals, finished, winners, amounts = expected(document)
    assert (result["totals"], result["finished"], result["winners"]) == (totals, finished, winners)
    settlement = result["settlement"]
    if amounts is None:
        assert settlement is None
        return
    assert [Decimal(str(a)) for a in settlement["amounts"]] == amounts
    paid = dict.fromkeys(document["players"], Decimal(0))
    for transfer in settlement["transfers"]:
        paid[transfer["from"]] -= Decimal(str(transfer["amount"]))
        paid[transfer["to"]] += Decimal(str(transfer["amount"]))
    # Rounding to the cent may leave a remainder: all but it is settled.
    remainder = sum(amounts, Decimal(0))
    assert Decimal(str(settlement["remainder"])) == remainder
    assert sum(abs(a - p) for a, p in zip(amounts, paid.values())) == abs(remainder)
    assert len(settlement["transfers"]) < len(document["players"])


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sheets(), st.integers(0, 19), st.sampled_from([1, -1, 0.5, None, "7", 10**6 + 1]))
def test_random_broken_rounds_are_refused_by_the_command_with_a_sentence(
    tmp_path_factory, document, seat, change
):
    document = within_its_end(document) | {"closed": False}
    if not document["rounds"]:
        return
    points = document["rounds"][-1]["points"]
    seat %= len(points)
    if isinstance(change, int) and change in (1, -1):
        if not document["options"]["zero_sum"] or abs(points[seat] + change) > 10**6:
            return
        points[seat] += change
    else:
        points[seat] = change
    message = rejected(document)
    assert message.startswith(f"round {len(document['rounds'])}: ") and "\n" not in message
    path = tmp_path_factory.mktemp("broken") / "match.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("score", str(path), stdout=out, stderr=err)
    assert (exit_.value.code, out.getvalue(), err.getvalue().strip()) == (2, "", message)


@pytest.mark.parametrize(
    "options, ends",
    [
        ({"target": 100}, "short of 100"),
        ({"hands": 5}, "Round 1 of 5 next"),
        ({}, "Round 1 next; close the match to stop"),
    ],
)
def test_the_status_says_only_what_ends_this_sheet(options, ends):
    game, table, _closed = replay(match(**options))
    lines = rendered(game.status(table))
    assert lines[0] == "the highest total wins" and lines[1:] == [lines[-1]]
    assert ends in lines[-1]


def test_the_field_a_refused_round_is_about_is_the_named_players():
    game, table, _closed = replay(match())

    def invalid(*entry):
        return game.entry_context(table, *entry)["invalid"]

    assert invalid({"points": [5, None, 3, 1]}) == 1
    assert invalid({"points": [5, "x", 3, 1]}) == 1
    assert invalid({"points": [5, 2, 3, 1]}) is None
    assert invalid() is None
    assert game.entry_context(table)["playing"] == [0, 1, 2, 3]


def test_the_game_is_called_by_the_title_the_table_typed():
    game = GAMES["sheet"]
    assert game.title(game.read_options({"title": " Hearts "}, 4)) == "Hearts"
    assert game.title(game.read_options({}, 4)) is None
    assert GAMES["gongzhu"].title(GAMES["gongzhu"].read_options({}, 4)) is None
