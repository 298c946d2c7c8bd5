"""Random and malformed input never gives a traceback; valid random matches keep their sums."""

import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Match, Round
from games.rules import GAMES, RulesError, play_round, score, start
from games.rules.gongzhu import SCORING as SCORING_CARDS
from scorekeeper.middleware import CONTROL

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=25,
)
GAME_NAMES = st.sampled_from(sorted(GAMES) + ["chess", ""])
PLAYERS = st.lists(st.text(min_size=0, max_size=45), min_size=0, max_size=11)


def documents():
    """Match documents of roughly the right shape with random contents."""
    return st.fixed_dictionaries(
        {
            "game": GAME_NAMES,
            "players": PLAYERS | JSON,
            "options": st.dictionaries(
                st.sampled_from(["decks", "threshold", "end", "target", "title", "stake", "x"]),
                JSON,
            )
            | JSON,
            "rounds": st.lists(
                st.dictionaries(
                    st.sampled_from(
                        [
                            "hands",
                            "declarer",
                            "captured",
                            "exposed",
                            "winner",
                            "cards_left",
                            "bombed",
                            "bidder",
                            "bid",
                            "high",
                            "low",
                            "taken",
                            "bullheads",
                            "points",
                        ]
                    ),
                    JSON,
                ),
                max_size=4,
            )
            | JSON,
        }
    )


def assert_readable(error):
    message = str(error)
    assert message and "\n" not in message and "Traceback" not in message


@settings(max_examples=400, deadline=None)
@given(documents() | JSON)
def test_the_engine_rejects_anything_malformed_with_one_sentence(document):
    try:
        score(document)
    except RulesError as error:
        assert_readable(error)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_the_command_never_shows_a_traceback(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "match.json"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("score", str(path), stdout=out, stderr=err)
    except SystemExit as exit_:
        assert exit_.code == 2
        assert out.getvalue() == "" and len(err.getvalue().strip().splitlines()) == 1
    else:
        json.loads(out.getvalue())


def gongzhu_hands():
    """Random complete one-deck hands: every scoring card goes to some seat."""
    return st.tuples(
        st.lists(st.integers(0, 3), min_size=len(SCORING_CARDS), max_size=len(SCORING_CARDS)),
        st.lists(st.sampled_from(["QS", "JD", "10C", "AH"]), unique=True, max_size=4),
    ).map(
        lambda pair: {
            "captured": [
                [card for card, seat in zip(SCORING_CARDS, pair[0]) if seat == s] for s in range(4)
            ],
            "exposed": pair[1],
        }
    )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(gongzhu_hands(), min_size=1, max_size=6),
    st.sampled_from([3, 6, 12, 30]),
    st.sampled_from(["individual", "pairs"]),
)
def test_exact_gongzhu_points_sum_to_zero(hands, multiplier, mode):
    match = {
        "game": "gongzhu",
        "players": ["A", "B", "C", "D"],
        "rounds": hands,
        "options": {"rounding": "exact", "multiplier": multiplier, "mode": mode, "end": "open"},
    }
    result = score(match)
    for played in result["rounds"]:
        assert sum(played["points"]) == 0
    assert sum(result["totals"]) == 0


def sanming_hands():
    return st.tuples(
        st.integers(0, 2),
        st.lists(st.integers(1, 17), min_size=2, max_size=2),
        st.lists(st.integers(0, 3), min_size=3, max_size=3),
    ).map(
        lambda t: {
            "winner": t[0],
            "bombed": t[2],
            "cards_left": [0 if s == t[0] else t[1][s - (s > t[0])] for s in range(3)],
        }
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(sanming_hands(), min_size=1, max_size=12), st.sampled_from([1, 5, 0.5, 0.1]))
def test_sanming_settlements_sum_to_zero(hands, rate):
    match = {
        "game": "sanming",
        "players": ["A", "B", "C"],
        "options": {"bean_rate": rate},
        "rounds": [],
        "closed": True,
    }
    for hand in hands:
        match["rounds"].append(hand)
        try:
            score(match)
        except RulesError:  # the match ended before this hand
            match["rounds"].pop()
            break
    result = score(match)
    settlement = result["settlement"]
    assert sum(settlement["results"]) == 0
    assert sum(Decimal(str(a)) for a in settlement["amounts"]) == 0
    paid = {p: Decimal(0) for p in result["players"]}
    for transfer in settlement["transfers"]:
        paid[transfer["from"]] -= Decimal(str(transfer["amount"]))
        paid[transfer["to"]] += Decimal(str(transfer["amount"]))
    assert [paid[p] for p in result["players"]] == [Decimal(str(a)) for a in settlement["amounts"]]


FORM_FIELDS = st.dictionaries(
    st.sampled_from(
        [
            "declarer",
            "hand-0",
            "hand-1",
            "hand-2",
            "cards-0",
            "cards-2",
            "cardtext-0",
            "cardtext-2",
            "winner",
            "cards_left-1",
            "bombed-2",
            "bidder",
            "bid",
            "high",
            "low",
            "jack",
            "game",
            "taken-0",
            "bullheads-1",
            "owner-QS",
            "exposed",
            "rest",
            "version",
            "mode",
            "points-0",
            "points-2",
        ]
    ),
    st.text(max_size=12),
    max_size=10,
)


@pytest.mark.django_db
@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(sorted(GAMES)), FORM_FIELDS)
def test_random_entry_forms_are_answered_without_a_traceback(client, slug, form):
    players = ["A", "B", "C", "D"][: max(3, GAMES[slug].min_players)][: GAMES[slug].max_players]
    match = Match.objects.create(game=slug, players=players)
    response = client.post(reverse("round_create", args=[match.public_id]), form)
    # A control character no keyboard types is refused before the view reads anything.
    controls = any(CONTROL.search(text) for text in [*form, *form.values()])
    assert response.status_code in ((400,) if controls else (302, 422))
    if response.status_code == 422:
        assert 'role="alert"' in response.content.decode()
        assert not Round.objects.filter(match=match).exists()


def test_a_name_with_a_line_break_is_refused_in_one_line():
    with pytest.raises(RulesError) as error:
        score({"game": "least_score", "players": ["Ann\nBo", "Chen"], "rounds": []})
    assert str(error.value) == "a player's name cannot hold line breaks or control characters"


def test_a_persian_name_with_a_zero_width_non_joiner_is_a_name():
    result = score({"game": "least_score", "players": ["نیم\u200cفاصله", "Zahra"], "rounds": []})
    assert result["players"][0] == "نیم\u200cفاصله"


@pytest.mark.django_db
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(documents().map(json.dumps) | st.text(max_size=60))
def test_random_imports_are_refused_with_a_message_or_stored_whole(client, text):
    response = client.post(reverse("import_match"), {"document": text})
    assert response.status_code in ((400,) if CONTROL.search(text) else (302, 422))
    if response.status_code == 422:
        assert 'role="alert"' in response.content.decode()
        assert not Match.objects.exists()
    else:
        Match.objects.all().delete()


# ---- random valid matches drawing every house-rule variant, scored alike by `manage.py score`

LEAST_SCORE = GAMES["least_score"]
EXACT_PRESETS = [
    value
    for _label, value in next(o for o in LEAST_SCORE.options if o.name == "exact_totals").presets
]
RANDOM_PAIRS = st.lists(
    st.tuples(st.integers(1, 300), st.integers(0, 299)), max_size=4, unique_by=lambda p: p[0]
).map(lambda pairs: [[total, becomes % total] for total, becomes in pairs])
OPTIONS = {
    "least_score": {
        "scoring": st.sampled_from(["difference", "yaniv"]),
        "declare_max": st.none() | st.integers(1, 50),
        "asaf_lowest": st.sampled_from(["zero", "hand"]),
        "exact_totals": st.sampled_from(EXACT_PRESETS) | RANDOM_PAIRS,
        "halve_on": st.lists(st.integers(1, 150).map(lambda n: 2 * n), max_size=3),
        "threshold": st.integers(1, 250),
        "tie": st.sampled_from(["declarer_wins", "declarer_fails"]),
        "penalty": st.integers(0, 40),
        "eliminate_at": st.sampled_from(["over", "reach"]),
        "end": st.sampled_from(["last_standing", "first_out"]),
    },
    "sanming": {
        "deal": st.sampled_from([17, 16, 15]),
        "card_points": st.sampled_from(["sanming", "flat"]),
        "baodan": st.booleans(),
        "bomb": st.sampled_from(["double", "pay"]),
        "bomb_points": st.integers(1, 30),
        "settle": st.sampled_from(["pairwise", "winner"]),
        "target": st.integers(20, 200),
        "kid_below": st.integers(0, 19),
        "bean_rate": st.sampled_from([1, 5, 0.5]),
    },
    "gongzhu": {
        "hearts": st.sampled_from(["standard", "face"]),
        "ceiling": st.none() | st.integers(50, 600),
        "floor": st.integers(100, 1000),
        "end": st.sampled_from(["floor", "hands", "open"]),
        "hands": st.integers(1, 6),
        "mode": st.sampled_from(["individual", "pairs"]),
    },
    "six_nimmt": {
        "end": st.sampled_from(["66", "hand", "hands"]),
        "hands": st.integers(1, 6),
        "limit": st.integers(10, 66),
    },
}
PLAYERS_OF = {"least_score": 4, "sanming": 3, "gongzhu": 4, "six_nimmt": 3}


def consistent(slug, options):
    """The options with the pairs the rule book refuses together taken apart."""
    if options.get("halve_on") and options.get("exact_totals"):
        del options["halve_on"]
    if options.get("deal", 17) != 17 and options.get("card_points") == "sanming":
        del options["card_points"]
    if options.get("ceiling") is not None and options.get("end", "floor") != "floor":
        del options["ceiling"]
    if slug in ("gongzhu", "six_nimmt") and options.get("end") == "hands":
        options.setdefault("hands", 3)
    return options


def least_score_round(data, table):
    still_in = table.still_in()
    declarer = data.draw(st.sampled_from(still_in))
    low = 0 if table.options["scoring"] == "yaniv" else 1
    hands = [None if s in table.out else data.draw(st.integers(low, 50)) for s in range(table.n)]
    most = table.options["declare_max"]
    hands[declarer] = min(hands[declarer], most or 50)
    return {"declarer": declarer, "hands": hands}


def sanming_round(data, table):
    winner = data.draw(st.integers(0, 2))
    deal = table.options["deal"]
    cards = [0 if s == winner else data.draw(st.integers(1, deal)) for s in range(3)]
    field = "bombs" if table.options["bomb"] == "pay" else "bombed"
    return {
        "winner": winner,
        "cards_left": cards,
        field: data.draw(st.lists(st.integers(0, 2), min_size=3, max_size=3)),
    }


def six_nimmt_round(data, table):
    counts = data.draw(st.lists(st.integers(0, 20), min_size=3, max_size=3))
    counts[0] += max(0, 14 - sum(counts))  # three players take 14 bullheads or more
    return {"bullheads": counts}


ROUNDS = {
    "least_score": least_score_round,
    "sanming": sanming_round,
    "gongzhu": lambda data, table: data.draw(gongzhu_hands()),
    "six_nimmt": six_nimmt_round,
}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(OPTIONS)), st.data())
def test_random_matches_with_house_rules_score_alike_in_the_engine_and_the_command(
    tmp_path_factory, slug, data
):
    options = consistent(slug, data.draw(st.fixed_dictionaries({}, optional=OPTIONS[slug])))
    players = ["Ann", "Bo", "Chen", "Dee"][: PLAYERS_OF[slug]]
    document = {"game": slug, "players": players, "options": options, "rounds": []}
    game, table, _rounds, _closed = start(document)
    for _hand in range(data.draw(st.integers(0, 10))):
        if game.is_over(table):
            break
        forked = table.fork()
        entry = ROUNDS[slug](data, forked)
        play_round(game, forked, entry)
        document["rounds"].append(entry)
        table = forked
    document["closed"] = data.draw(st.booleans())
    result = score(document)
    assert [sum(column) for column in zip(*[r["points"] for r in result["rounds"]])] == (
        result["totals"] if result["rounds"] else []
    )
    if slug == "sanming":
        assert all(sum(r.get("bomb_pay", [])) == 0 for r in result["rounds"])
        if result["settlement"]:
            assert sum(result["settlement"]["results"]) == 0
    path = tmp_path_factory.mktemp("house") / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    call_command("score", str(path), stdout=out, stderr=err)
    assert json.loads(out.getvalue()) == json.loads(json.dumps(result))
