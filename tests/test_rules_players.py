"""Players who come and go (the rule book's players.md): a player joins after the first round,
another leaves before the end, in the score sheet, Least Score and 6 nimmt!.

The property tests play random matches with joins and leaves (every late_start, every end mode,
Least Score's eliminations mixed with leaves) through the engine and through `Model` below, a
plain reading of players.md written apart from the engine, and ask for the same result, or the
same refusal naming the same round. The tables after them hold each rule's exact words.
"""

import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import RulesError, running_totals, score

LATE_STARTS = ("zero", "lowest", "highest", "average")
NAMES = ["Ann", "Bo", "Chen", "Dee", "Eve", "Fay"]


def refused(document):
    """The one-line message a match document is refused with."""
    with pytest.raises(RulesError) as error:
        score(document)
    return str(error.value)


# ---- the model: players.md read plainly, one round after the other


class Model:
    """A match of one of the three games as players.md describes it, scored by hand: it
    writes the match document (null where a player does not play) as it plays the plan, and
    says the result, or the refusal, the engine must give."""

    def __init__(self, plan):
        self.plan, self.options = plan, plan["options"]
        self.n = len(plan["players"])
        self.joined = [plan["joined"].get(name, 1) for name in plan["players"]]
        self.left = [plan["left"].get(name) for name in plan["players"]]
        self.totals, self.start = [0] * self.n, [0] * self.n
        self.out, self.rounds, self.last_playing = {}, [], []
        self.entries = []

    def gone_after(self, seat, count):
        return self.left[seat] is not None and self.left[seat] <= count

    def at_table(self, seat, number):
        joined_by_then = self.joined[seat] <= number
        return joined_by_then and (self.left[seat] is None or number <= self.left[seat])

    def over(self):
        """The game's end, as players.md says it among those playing or still there."""
        o, played = self.options, len(self.rounds)
        game = self.plan["game"]
        if game == "sheet":
            target = o.get("target")
            hit = target is not None and any(self.totals[s] >= target for s in self.last_playing)
            return hit or (o.get("hands") is not None and played >= o["hands"])
        if game == "least_score":
            if o["end"] == "first_out":
                return bool(self.out)
            standing = [
                s for s in range(self.n) if s not in self.out and not self.gone_after(s, played)
            ]
            return len(standing) <= 1
        if o["end"] == "66":
            return any(self.totals[s] >= o["limit"] for s in self.last_playing)
        return o.get("hands") is not None and played >= o["hands"]

    def play(self):
        """(the document, and the result or the refusal's message)."""
        try:
            outcome = self.played()
        except Refusal as refusal:
            outcome = str(refusal)
        for raw in self.plan["raw"][len(self.entries) :]:  # after a refusal: never read
            number = len(self.entries) + 1
            playing = [s for s in range(self.n) if self.at_table(s, number)]
            self.entries.append(self.entry(raw, playing))
        return self.document(), outcome

    def document(self):
        plan = self.plan
        keys = ("game", "players", "options", "joined", "left", "closed")
        return {**{key: plan[key] for key in keys}, "rounds": self.entries}

    def entry(self, raw, playing):
        """The round's entry: each playing seat's value, null for the others."""
        values = [v if s in playing else None for s, v in enumerate(raw["values"])]
        if self.options.get("zero_sum") and playing:
            values[playing[-1]] = -sum(values[s] for s in playing[:-1])
        game = self.plan["game"]
        if game == "sheet":
            return {"points": values}
        if game == "six_nimmt":
            return {"bullheads": values}
        declarer = playing[raw["declarer"] % len(playing)] if playing else 0
        return {"declarer": declarer, "hands": values}

    def played(self):
        """The result the model gives; raises Refusal."""
        names = self.plan["players"]
        for number, raw in enumerate(self.plan["raw"], 1):
            if self.over():
                raise Refusal(f"round {number}: the match is already finished")
            playing = [s for s in range(self.n) if self.at_table(s, number) and s not in self.out]
            if not playing:
                raise Refusal(
                    f"round {number}: nobody is playing; a round needs at least 2 players"
                )
            if len(playing) == 1:
                raise Refusal(f"round {number}: only 1 player is playing; a round needs at least 2")
            self.entries.append(self.entry(raw, playing))
            points = self.scored(self.entries[-1], playing)
            self.rounds.append(
                [points.get(s, 0) if self.at_table(s, number) else None for s in range(self.n)]
            )
            self.last_playing = playing
            for s, p in points.items():
                self.totals[s] += p
            if self.plan["game"] == "least_score":
                self.eliminate(playing, number)
            still_in = [s for s in playing if self.left[s] != number and s not in self.out]
            figure = self.late_start([self.totals[s] for s in still_in])
            for s in range(self.n):
                if self.joined[s] == number + 1:
                    self.start[s] = self.totals[s] = figure
        finished = self.plan["closed"] or self.over()
        for s in range(self.n):  # a join past the end first, then a leave after going out
            if finished and self.joined[s] == len(self.rounds) + 1 > 1:
                raise Refusal(
                    f"{names[s]} joins at round {self.joined[s]}, but the match is finished"
                )
        for s in range(self.n):
            if s in self.out and self.left[s] is not None and self.left[s] > self.out[s]:
                raise Refusal(
                    f"{names[s]} leaves after round {self.left[s]} but went out in round "
                    f"{self.out[s]}"
                )
        return self.result(finished)

    def late_start(self, totals):
        kind = self.options["late_start"]
        if not totals or kind == "zero":
            return 0
        if kind == "lowest":
            return min(totals)
        if kind == "highest":
            return max(totals)
        return math.floor(Fraction(sum(totals), len(totals)) + Fraction(1, 2))

    def scored(self, entry, playing):
        """{seat: points} of one round for the seats playing it."""
        game = self.plan["game"]
        if game == "sheet":
            return {s: entry["points"][s] for s in playing}
        if game == "six_nimmt":
            counts = {s: entry["bullheads"][s] for s in playing}
            return ranking_points(counts) if self.options["end"] == "hand" else counts
        return self.least_score(entry, playing)

    def least_score(self, entry, playing):
        """The difference scoring: the declaration stands when D < L (or D = L, tie
        declarer_wins); the others score hand - D, else the declarer penalty + D - L."""
        o, declarer = self.options, entry["declarer"]
        hands = {s: entry["hands"][s] for s in playing}
        mine = hands[declarer]
        lowest = min(h for s, h in hands.items() if s != declarer)
        if mine < lowest or (mine == lowest and o["tie"] == "declarer_wins"):
            return {s: (0 if s == declarer else h - mine) for s, h in hands.items()}
        return {s: (o["penalty"] + mine - lowest if s == declarer else 0) for s in hands}

    def eliminate(self, playing, number):
        o = self.options
        for s in playing:
            total = self.totals[s]
            if total >= o["threshold"] if o["eliminate_at"] == "reach" else total > o["threshold"]:
                self.out[s] = number

    def result(self, finished):
        names, count = self.plan["players"], len(self.rounds)
        staying = [s for s in range(self.n) if not self.gone_after(s, count)]
        result = {
            "points": self.rounds,
            "start": self.start,
            "totals": self.totals,
            "finished": finished,
            "winners": [names[s] for s in self.winners(staying)] if finished and count else [],
            "left": {names[s]: k for s, k in enumerate(self.left) if k is not None},
        }
        if self.plan["game"] == "least_score":
            result["eliminated"] = {names[s]: r for s, r in sorted(self.out.items())}
        if self.plan["game"] == "six_nimmt" and finished and self.options["end"] != "hand":
            ranked = ranking_points({s: self.totals[s] for s in staying}) if staying else {}
            result["ranking_points"] = [ranked.get(s) for s in range(self.n)]
        return result

    def winners(self, staying):
        game, o = self.plan["game"], self.options
        if game == "least_score":
            candidates = [s for s in staying if s not in self.out] or [
                s for s in staying if self.out.get(s) == len(self.rounds)
            ]
            best = min
        else:
            candidates = staying
            high = (game == "sheet" and o["win"] == "high") or (
                game == "six_nimmt" and o["end"] == "hand"
            )
            best = max if high else min
        if not candidates:
            return []
        top = best(self.totals[s] for s in candidates)
        return [s for s in candidates if self.totals[s] == top]


class Refusal(Exception):
    """The model's refusal of a document, in the engine's words."""


def ranking_points(counts):
    """6 nimmt!'s ranking points of {seat: bullheads} (shares rounded up, the next loser skips
    a place): the fewest share 8 (12 from 7 players), each loser -1 per place; all level, 2."""
    pool, bonus = (8, 2) if len(counts) <= 6 else (12, 3)
    if len(set(counts.values())) == 1:
        return dict.fromkeys(counts, bonus)
    fewest = min(counts.values())
    winners = [s for s, c in counts.items() if c == fewest]
    share = math.ceil(Fraction(pool, len(winners)))
    losing = sorted(c for c in counts.values() if c != fewest)
    return {s: share if c == fewest else -1 - losing.index(c) for s, c in counts.items()}


# ---- random plans


@st.composite
def plans(draw):
    """A match of the three games with random joins, leaves and entries (entries for every
    seat; the document holds null where the player does not play)."""
    game = draw(st.sampled_from(["sheet", "least_score", "six_nimmt"]))
    n = draw(st.integers(2, 6))
    count = draw(st.integers(1, 8))
    players = NAMES[:n]
    joined, left = {}, {}
    for name in players:
        if draw(st.integers(0, 3)) == 0:
            joined[name] = draw(st.integers(2, count + 1))
        first = joined.get(name, 1)
        if first <= count and draw(st.integers(0, 3)) == 0:
            left[name] = draw(st.integers(first, count))
    late_start = draw(st.sampled_from(LATE_STARTS))
    options = {"late_start": late_start}
    if game == "sheet":
        options["win"] = draw(st.sampled_from(["high", "low"]))
        options["target"] = draw(st.none() | st.integers(10, 60))
        options["hands"] = draw(st.none() | st.integers(1, count))
        if draw(st.booleans()):
            options.update(zero_sum=True, late_start="zero")
        values = st.integers(-10, 20)
    elif game == "least_score":
        options["threshold"] = draw(st.integers(8, 60))
        options["eliminate_at"] = draw(st.sampled_from(["over", "reach"]))
        options["tie"] = draw(st.sampled_from(["declarer_wins", "declarer_fails"]))
        options["penalty"] = draw(st.integers(0, 25))
        options["end"] = draw(st.sampled_from(["last_standing", "first_out"]))
        values = st.integers(1, 20)
    else:
        options["end"] = draw(st.sampled_from(["66", "hand", "hands"]))
        options["limit"] = draw(st.integers(15, 66))
        options["hands"] = draw(st.integers(1, count)) if options["end"] == "hands" else None
        values = st.integers(8, 12)  # a hand of 2 to 6 players takes 10n - 16 to 10n and more
    raw = [
        {
            "values": draw(st.lists(values, min_size=n, max_size=n)),
            "declarer": draw(st.integers(0, n - 1)),
        }
        for _ in range(count)
    ]
    closed = draw(st.booleans())
    return {
        "game": game,
        "players": players,
        "options": options,
        "joined": joined,
        "left": left,
        "raw": raw,
        "closed": closed,
    }


def engine_outcome(document):
    """What the engine gives, in the model's terms: the result's parts, or the refusal."""
    try:
        result = score(document)
    except RulesError as error:
        return str(error)
    outcome = {
        "points": [scored["points"] for scored in result["rounds"]],
        **{key: result.get(key) for key in ("start", "totals", "finished", "winners")},
        "left": result.get("left", {}),
    }
    for key in ("eliminated", "ranking_points"):
        if key in result:
            outcome[key] = result[key]
    return outcome


SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(plans())
def test_the_engine_plays_random_joins_and_leaves_as_the_rule_book_says(plan):
    document, expected = Model(plan).play()
    assert engine_outcome(document) == expected


def valid_plans():
    """Plans the model plays to a result (no refusal)."""
    return plans().filter(lambda plan: isinstance(Model(plan).play()[1], dict))


@SETTINGS
@given(valid_plans(), st.data())
def test_an_entry_for_a_player_away_that_round_is_refused_naming_the_round(plan, data):
    document, _result = Model(plan).play()
    away = [
        (number, seat)
        for number, entry in enumerate(document["rounds"], 1)
        for seat in range(len(plan["players"]))
        if not Model(plan).at_table(seat, number)
    ]
    if not away:
        return
    number, seat = data.draw(st.sampled_from(away))
    name, values = plan["players"][seat], entry_values(document["rounds"][number - 1])
    values[seat] = 5
    joined, left = plan["joined"].get(name, 1), plan["left"].get(name)
    why = (
        f"{name} has not joined yet and has no entry"
        if joined > number
        else f"{name} left after round {left} and has no entry"
    )
    assert refused(document) == f"round {number}: {why}"


@SETTINGS
@given(valid_plans(), st.data())
def test_a_missing_entry_of_a_player_playing_is_refused_naming_the_round_and_player(plan, data):
    document, result = Model(plan).play()
    playing = [
        (number, seat)
        for number, points in enumerate(result["points"], 1)
        for seat, value in enumerate(points)
        if document["rounds"][number - 1].get("declarer") != seat
        and entry_values(document["rounds"][number - 1])[seat] is not None
    ]
    number, seat = data.draw(st.sampled_from(playing))
    entry_values(document["rounds"][number - 1])[seat] = None
    message = refused(document)
    assert message.startswith(f"round {number}: ")
    assert plan["players"][seat] in message


def entry_values(entry):
    """The per-seat list of a round entry of the three games."""
    return entry.get("points") or entry.get("hands") or entry.get("bullheads")


# ---- the rule book's worked numbers and words


def sheet(rounds, closed=False, **more):
    players = more.pop("players", ["Ann", "Bo", "Chen", "Eve"])
    options = more.pop("options", {})
    points = [{"points": list(r)} for r in rounds]
    return {
        "game": "sheet",
        "players": players,
        "options": options,
        "rounds": points,
        "closed": closed,
        **more,
    }


def least(rounds, **more):
    players = more.pop("players", ["Ann", "Bo", "Chen", "Dee"])
    entries = [{"declarer": d, "hands": list(h)} for d, h in rounds]
    return {"game": "least_score", "players": players, "rounds": entries, **more}


@pytest.mark.parametrize(
    "late_start, start",
    [("zero", 0), ("lowest", 7), ("highest", 12), ("average", 10)],  # (7 + 12 + 10) / 3 = 9.67
)
def test_where_a_late_player_starts(late_start, start):
    document = sheet(
        [[7, 12, 10, None], [1, 1, 1, 1]],
        options={"late_start": late_start},
        joined={"Eve": 2},
    )
    result = score(document)
    assert result["start"] == [0, 0, 0, start]
    assert result["totals"] == [8, 13, 11, start + 1]


@pytest.mark.parametrize(
    "totals, start",
    [
        ([7, 8], 8),  # 7.5: halves up
        ([-7, -8], -7),  # -7.5: up too, towards the higher
        ([1, 1, 2], 1),  # 1.33
        ([1, 2, 2], 2),  # 1.67
    ],
)
def test_the_average_start_is_rounded_halves_up(totals, start):
    players = NAMES[: len(totals)] + ["Zoe"]
    document = sheet(
        [[*totals, None], [1] * (len(totals) + 1)],
        players=players,
        options={"late_start": "average"},
        joined={"Zoe": 2},
    )
    assert score(document)["start"][-1] == start


def test_players_joining_at_the_same_round_start_alike_and_count_nobody_who_left():
    # after round 2: Ann 10 and Chen 4 still in; Bo (20) left after round 2
    document = sheet(
        [[5, 10, 2, None, None], [5, 10, 2, None, None], [1, None, 1, 1, 1]],
        players=["Ann", "Bo", "Chen", "Eve", "Fay"],
        options={"late_start": "highest"},
        joined={"Eve": 3, "Fay": 3},
        left={"Bo": 2},
    )
    result = score(document)
    assert result["start"] == [0, 0, 0, 10, 10]
    assert result["totals"] == [11, 20, 5, 11, 11]


def test_with_nobody_still_in_a_late_player_starts_at_zero():
    # Ann and Bo both leave after round 1; Eve and Fay sit down for round 2 at 0, not at 9
    document = sheet(
        [[9, 5, None, None], [None, None, 1, 2]],
        players=["Ann", "Bo", "Eve", "Fay"],
        options={"late_start": "highest"},
        joined={"Eve": 2, "Fay": 2},
        left={"Ann": 1, "Bo": 1},
    )
    result = score(document)
    assert (result["start"], result["totals"]) == ([0, 0, 0, 0], [9, 5, 1, 2])


def test_a_pending_joiner_keeps_last_standing_open_and_is_counted_as_still_to_come():
    # Bo goes out in round 1; Ann alone would end the match, but Chen sits down for round 2
    document = least(
        [(0, [1, 30, None])],
        players=["Ann", "Bo", "Chen"],
        options={"threshold": 20},
        joined={"Chen": 2},
    )
    result = score(document)
    assert result["finished"] is False
    assert result["start"] == [0, 0, 0]  # "highest" among those still in: Ann's 0


def test_the_score_sheet_target_is_reached_by_a_player_playing_that_round():
    document = sheet(
        [[30, 45, 0, None], [None, 10, 10, 10]],
        options={"target": 50, "late_start": "lowest"},
        joined={"Eve": 2},
        left={"Ann": 1},
    )
    result = score(document)
    assert (result["finished"], result["winners"], result["left"]) == (True, ["Bo"], {"Ann": 1})


def test_a_player_who_left_is_never_a_winner_and_with_everyone_gone_nobody_wins():
    document = sheet([[9, 1, 1, 1]], closed=True, left={"Ann": 1})
    assert score(document)["winners"] == ["Bo", "Chen", "Eve"]
    everyone = sheet(
        [[9, 1, 1, 1]], closed=True, left={name: 1 for name in ["Ann", "Bo", "Chen", "Eve"]}
    )
    assert score(everyone)["winners"] == []


def test_least_score_ends_with_everyone_gone_and_nobody_wins():
    document = least([(0, [1, 5, 9, 9])], left={"Ann": 1, "Bo": 1, "Chen": 1, "Dee": 1})
    result = score(document)
    assert (result["finished"], result["winners"]) == (True, [])


def test_six_nimmt_ranking_points_of_a_match_with_everyone_gone_are_all_null():
    document = {
        "game": "six_nimmt",
        "players": ["Ann", "Bo"],
        "options": {"end": "hands", "hands": 1},
        "left": {"Ann": 1, "Bo": 1},
        "rounds": [{"bullheads": [3, 9]}],
    }
    result = score(document)
    assert (result["winners"], result["ranking_points"]) == ([], [None, None])


def test_six_nimmt_deals_each_hand_for_the_players_playing_it():
    # Dee has not joined in hand 1: three play, cards 1 to 84 (four would be the same; two: 64)
    document = {
        "game": "six_nimmt",
        "players": ["Ann", "Bo", "Dee"],
        "joined": {"Dee": 2},
        "rounds": [{"taken": [[70], list(range(1, 5)), None]}],
    }
    assert refused(document) == "round 1: a card must be a whole number from 1 to 64"
    document["rounds"] = [{"taken": [[1, 2, 3, 4], [5], None]}]
    result = score(document)
    assert result["rounds"][0]["bullheads"] == [4, 2, None]


def test_six_nimmt_one_game_per_hand_shares_the_pool_of_the_players_playing_it():
    document = {
        "game": "six_nimmt",
        "players": ["Ann", "Bo", "Chen"],
        "options": {"end": "hand", "late_start": "lowest"},
        "joined": {"Chen": 2},
        "rounds": [{"bullheads": [4, 6, None]}, {"bullheads": [6, 10, 8]}],
    }
    result = score(document)
    assert [r["points"] for r in result["rounds"]] == [[8, -1, None], [8, -2, -1]]
    assert result["start"] == [0, 0, -1]
    assert result["totals"] == [16, -3, -2]


def test_a_zero_sum_sheet_settles_with_the_player_who_left_at_their_total():
    document = sheet(
        [[10, -10, 0, None], [-4, None, -2, 6]],
        options={"zero_sum": True, "stake": 1},
        joined={"Eve": 2},
        left={"Bo": 1},
        closed=True,
    )
    settlement = score(document)["settlement"]
    assert settlement["results"] == [6, -10, -2, 6]
    assert sum(t["amount"] for t in settlement["transfers"]) == 12


def test_least_score_never_halves_a_start_only_a_total_a_hand_lands_on():
    # Ann 20, Bo 40 after round 2: Chen starts at their average, 30, a halve_on number kept as
    # it is; in round 3 Bo's hand lands him on 60 and halves him to 30
    document = least(
        [(0, [1, 41, None]), (1, [21, 1, None]), (0, [1, 21, 11])],
        players=["Ann", "Bo", "Chen"],
        options={"halve_on": [30, 60], "threshold": 200, "late_start": "average"},
        joined={"Chen": 3},
    )
    result = score(document)
    assert result["start"] == [0, 0, 30]
    assert result["rounds"][2]["points"] == [0, -10, 10]
    assert result["totals"] == [20, 30, 40]


def test_a_match_without_joins_or_leaves_has_no_start_nor_late_start():
    plain = sheet([[1, 2, 3, 4]])
    result = score(plain)
    assert "start" not in result and "left" not in result
    assert "late_start" not in result["options"]
    # an empty map, or the option alone, says the match is one where players come and go
    for more in ({"joined": {}}, {"left": {}}, {"options": {"late_start": "zero"}}):
        result = score({**plain, **more})
        assert (result["start"], result["options"]["late_start"]) == ([0, 0, 0, 0], "zero")
        assert "left" not in result
    # null is no map at all
    assert score({**plain, "joined": None, "left": None}) == score(plain)


def test_running_totals_start_where_each_player_started_and_wait_for_a_latecomer():
    rounds = [{"points": [5, 3, None]}, {"points": [1, None, 2]}]
    assert list(running_totals(rounds, [0, 0, 4])) == [[5, 3, None], [6, 3, 6]]
    assert list(running_totals([{"points": [1, 2]}, {"points": [3, 4]}])) == [[1, 2], [4, 6]]


@pytest.mark.parametrize("game", ["gongzhu", "smear", "sanming"])
@pytest.mark.parametrize("key", ["joined", "left"])
def test_a_fixed_seat_game_refuses_joins_and_leaves_even_an_empty_map(game, key):
    players = ["Ann", "Bo", "Chen"] + (["Dee"] if game != "sanming" else [])
    document = {"game": game, "players": players, key: {}}
    names = {"gongzhu": "Gongzhu", "smear": "Four Point Smear", "sanming": "Sanming run-fast"}
    message = refused(document)
    assert message.endswith("has fixed seats: nobody joins or leaves a match")
    assert refused({**document, key: None, "options": {"late_start": "zero"}}) == (
        "unknown option 'late_start'"
    )
    assert names[game].split()[0] in message


THREE = {"game": "sheet", "players": ["Ann", "Bo", "Eve"]}
TWO_ROUNDS = [{"points": [1, 2, None]}, {"points": [1, 2, 3]}]


@pytest.mark.parametrize(
    "more, message",
    [
        # the rule book's own wordings
        (
            {"joined": {"Eve": 5}, "rounds": TWO_ROUNDS[:1] * 3},
            "Eve joins at round 5, but the match has only 3 rounds",
        ),
        (
            {"joined": {"Eve": 3}, "rounds": TWO_ROUNDS[:1]},
            "Eve joins at round 3, but the match has only 1 round",
        ),
        (
            {"left": {"Bo": 2}, "joined": {"Bo": 4}, "rounds": TWO_ROUNDS[:1] * 4},
            "Bo leaves after round 2 but joins at round 4",
        ),
        (
            {"joined": {"Eve": 2}, "rounds": [{"points": [1, 2, 3]}]},
            "round 1: Eve has not joined yet and has no entry",
        ),
        (
            {"left": {"Bo": 1}, "rounds": [{"points": [1, 2, 3]}, {"points": [1, 2, 3]}]},
            "round 2: Bo left after round 1 and has no entry",
        ),
        (
            {
                "left": {"Bo": 1, "Eve": 1},
                "rounds": [{"points": [1, 2, 3]}, {"points": [1, None, None]}],
            },
            "round 2: only 1 player is playing; a round needs at least 2",
        ),
        # the maps themselves
        (
            {"joined": ["Eve"]},
            "joined must be a JSON object: each name with the round they join at",
        ),
        ({"left": "Bo"}, "left must be a JSON object: each name with the last round they play"),
        ({"joined": {"Zoe": 2}}, "Zoe joins, but is not one of the players"),
        ({"left": {" Zoe ": 1}}, "Zoe leaves, but is not one of the players"),
        ({"joined": {"Eve": 2, " eve": 2}, "rounds": TWO_ROUNDS}, "Eve joins twice"),
        ({"left": {"Bo": 1, "BO": 1}, "rounds": TWO_ROUNDS}, "Bo leaves twice"),
        ({"joined": {"Eve": 1}}, "the round Eve joins at must be a whole number from 2 to 1001"),
        ({"joined": {"Eve": "2"}}, "the round Eve joins at must be a whole number from 2 to 1001"),
        ({"joined": {"Eve": 2.0}}, "the round Eve joins at must be a whole number from 2 to 1001"),
        ({"left": {"Bo": 0}}, "the round Bo leaves after must be a whole number from 1 to 1000"),
        ({"left": {"Bo": True}}, "the round Bo leaves after must be a whole number from 1 to 1000"),
        ({"left": {"Bo": 1}}, "Bo leaves after round 1, but the match has no round yet"),
        (
            {"left": {"Bo": 3}, "rounds": [{"points": [1, 2, 3]}] * 2},
            "Bo leaves after round 3, but the match has only 2 rounds",
        ),
        # a seat taken for the next round of a match that has ended
        (
            {"joined": {"Eve": 2}, "rounds": TWO_ROUNDS[:1], "closed": True},
            "Eve joins at round 2, but the match is finished",
        ),
    ],
)
def test_a_broken_join_or_leave_is_refused_in_the_rule_books_words(more, message):
    assert refused({**THREE, **more}) == message


def test_a_trimmed_name_in_the_maps_is_the_players_name():
    result = score({**THREE, "joined": {" eve ": 2}, "left": {"bo": 2}, "rounds": TWO_ROUNDS})
    assert result["left"] == {"Bo": 2}
    assert result["start"] == [0, 0, 0]


@pytest.mark.parametrize(
    "declarer, message",
    [
        (3, "round 1: Dee has not joined yet and cannot declare"),
        (1, "round 2: Bo left after round 1 and cannot declare"),
    ],
)
def test_least_score_declarer_must_be_at_the_table(declarer, message):
    rounds = [(0, [1, 5, 9, None]), (0, [1, None, 9, 4])]
    number = int(message.split()[1].rstrip(":"))
    rounds[number - 1] = (declarer, rounds[number - 1][1])
    document = least(rounds, joined={"Dee": 2}, left={"Bo": 1})
    assert refused(document) == message


def test_least_score_leaving_is_not_going_out():
    # Bo passes 100 in round 1 and is out; he cannot leave after round 2
    document = least(
        [(0, [1, 50, 9]), (0, [1, None, 9])] * 1 + [(0, [1, None, 9])],
        players=["Ann", "Bo", "Chen"],
        options={"threshold": 40},
        left={"Bo": 2},
    )
    assert refused(document) == "Bo leaves after round 2 but went out in round 1"
    document["left"] = {"Bo": 1}
    result = score(document)
    assert result["eliminated"] == {"Bo": 1}
    assert result["rounds"][1]["points"][1] is None
