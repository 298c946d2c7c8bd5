"""Every input has a size limit, hostile input gets a 4xx with a sentence, never a 500, and a
retried save is stored once."""

import json
import time

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import memo, rules
from games.models import Match, Round
from tests.html import visible

pytestmark = pytest.mark.django_db

# An open-ended Gongzhu hand: the pig alone, every heart to one player.
HEARTS = ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]
GONGZHU_HAND = {"captured": [["QS"], ["JD"], ["10C"], HEARTS], "exposed": []}


def gongzhu_document(rounds):
    return {
        "game": "gongzhu",
        "players": ["Ann", "Bo", "Chen", "Dee"],
        "options": {"end": "open"},
        "rounds": [GONGZHU_HAND] * rounds,
    }


def import_text(client, text, **extra):
    return client.post(reverse("import_match"), {"document": text, **extra})


def message(response):
    return visible(response.content.decode())


# ---- sizes


def test_an_import_over_two_megabytes_is_refused_at_once():
    client = Client()
    started = time.monotonic()
    big = json.dumps(gongzhu_document(1)) + " " * 2_000_001
    response = import_text(client, big)
    assert time.monotonic() - started < 1
    assert response.status_code == 422
    assert "at most 2 MB" in message(response)
    assert Match.objects.count() == 0


def test_an_uploaded_file_over_two_megabytes_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.match.json"
    path.write_bytes(b"[" + b"0," * 1_000_001 + b"0]")
    with path.open("rb") as upload:
        response = Client().post(reverse("import_match"), {"file": upload})
    assert response.status_code == 422
    assert "at most 2 MB" in message(response)


def test_a_body_over_the_request_limit_is_refused_before_it_is_parsed():
    response = Client().generic(
        "POST",
        reverse("import_match"),
        b"x" * (3 * 2**20),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413
    assert "too large" in message(response)


def test_a_match_of_more_than_the_most_rounds_is_refused_in_well_under_a_second():
    client = Client()
    started = time.monotonic()
    response = import_text(client, json.dumps(gongzhu_document(rules.MAX_ROUNDS + 1)))
    assert time.monotonic() - started < 1
    assert response.status_code == 422
    assert "at most 1000 rounds" in message(response)
    assert Match.objects.count() == 0


def test_a_match_at_the_most_rounds_takes_no_more():
    client = Client()
    assert import_text(client, json.dumps(gongzhu_document(rules.MAX_ROUNDS))).status_code == 302
    match = Match.objects.get()
    form = {
        "captured-0": "QS",
        "captured-1": "JD",
        "captured-2": "10C",
        **{"captured-3": HEARTS},
        "version": str(match.version),
    }
    response = client.post(reverse("round_create", args=[match.public_id]), form)
    assert response.status_code == 422
    assert "at most 1000 rounds: start a rematch" in message(response)
    assert match.rounds.count() == rules.MAX_ROUNDS


def test_unknown_keys_in_a_round_are_refused_not_stored():
    document = {
        "game": "least_score",
        "players": ["Ann", "Bo", "Chen"],
        "rounds": [{"declarer": 0, "hands": [7, 15, 20], "note": "x" * 1000}],
    }
    response = import_text(Client(), json.dumps(document))
    assert response.status_code == 422
    assert "round 1: a round cannot hold 'note'" in message(response)
    assert Round.objects.count() == 0


def test_query_parameters_the_page_does_not_use_do_not_grow_the_memo():
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    client = Client()
    client.get(reverse("match", args=[match.public_id]) + "?rounds=all")
    held = len(memo.DRAWN)
    for k in range(150):
        client.get(reverse("match", args=[match.public_id]) + f"?rounds=all&z={k}")
        client.get(reverse("watch", args=[match.watch_id]) + f"?z={k}")
    assert len(memo.DRAWN) <= held + 3  # the watch page's own, once


def test_the_drawn_pages_kept_are_weighed_by_their_size_and_bounded(monkeypatch):
    bounded = type(memo.DRAWN)(maxsize=60_000, ttl=600, getsizeof=lambda page: page.size())
    monkeypatch.setattr(memo, "DRAWN", bounded)
    client = Client()
    for _ in range(12):
        match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
        assert client.get(reverse("watch", args=[match.watch_id])).status_code == 200
    assert 0 < len(memo.DRAWN) < 12
    assert memo.DRAWN.currsize == sum(page.size() for page in memo.DRAWN.values()) <= 60_000


# ---- no 500 from input


def new_match(client, slug, players, **options):
    form = {f"player_{seat}": name for seat, name in enumerate(players)}
    return client.post(reverse("new_match", args=[slug]), {**form, **options})


@pytest.mark.parametrize(
    "text, said",
    [
        ("[" * 50_000, "it is not JSON"),
        (
            '{"game": "sanming", "players": ["A", "B", "C"], "options": {"bean_rate": 1e400}}',
            "bean_rate",
        ),
        (
            '{"game": "sanming", "players": ["A", "B", "C"], "options": {"bean_rate": 1%s}}'
            % ("0" * 400),
            "bean_rate",
        ),
        (
            '{"game": "gongzhu", "players": ["A", "B", "C", "D"], "options": {"stake": 1%s}}'
            % ("0" * 400),
            "stake",
        ),
        (
            '{"game": "least_score", "players": ["A", "B", "C"], '
            '"rounds": [{"declarer": 0, "hands": [NaN, 2, 3]}]}',
            "it is not JSON",
        ),
        ('{"game": "least_score", "players": ["a\\ud800", "B", "C"]}', "broken character"),
    ],
)
def test_hostile_imports_get_a_sentence_and_store_nothing(text, said):
    response = import_text(Client(), text)
    assert response.status_code == 422
    assert said in message(response)
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    "slug, options, field",
    [
        ("sanming", {"bean_rate": "1" + "0" * 400}, "bean_rate"),
        ("sanming", {"bean_rate": "1e400"}, "bean_rate"),
        ("least_score", {"halve_on": "²"}, "halve_on"),
        ("least_score", {"halve_on": "2" * 5000}, "halve_on"),
        ("least_score", {"threshold": "9" * 5000}, "threshold"),
        ("smear", {"target": "ten"}, "target"),
    ],
)
def test_hostile_options_are_refused_next_to_the_field(slug, options, field):
    players = ["Ann", "Bo", "Chen", "Dee"]
    response = new_match(Client(), slug, players, **options)
    assert response.status_code == 200
    assert Match.objects.count() == 0
    form = response.context["form"]
    assert form.errors.get(field), form.errors


def test_the_spanish_decimal_comma_is_read_as_a_decimal():
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    assert new_match(client, "sanming", ["Ann", "Bo", "Chen"], bean_rate="1,5").status_code == 302
    assert Match.objects.get().options["bean_rate"] == 1.5


def test_a_stale_save_with_a_strange_round_number_is_a_conflict_not_a_crash():
    client = Client()
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    form = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20"}
    for version, number in [("99", "²"), ("²", "1"), ("9" * 5000, "9" * 5000)]:
        response = client.post(
            reverse("round_create", args=[match.public_id]),
            {**form, "version": version, "round": number},
        )
        assert response.status_code == 422
        assert "another phone" in message(response)
    match.add_round({"declarer": 0, "hands": [7, 15, 20]}, "")
    for name in ("round_edit", "round_delete"):
        response = client.post(
            reverse(name, args=[match.public_id, 1]), {**form, "version": "²", "round": "²"}
        )
        assert response.status_code == 422, name


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL never stores such a name")
def test_a_match_stored_with_a_lone_surrogate_in_a_name_opens_after_the_repair():
    from importlib import import_module

    from django.apps import apps

    match = Match.objects.create(game="least_score", players=["a\ud800", "Bo", "Chen"])
    import_module("games.migrations.0003_entry_key_unique_clean_names").repair_names(apps, None)
    client = Client()
    response = client.get(reverse("match", args=[match.public_id]))
    assert response.status_code == 200
    assert "a\ufffd" in response.content.decode()
    assert client.get(reverse("matches")).status_code == 200
    assert client.get(reverse("export_csv", args=[match.public_id])).status_code == 200


# ---- names


@pytest.mark.parametrize(
    "names, said",
    [
        (["Ann", "ann", "Bo"], "two players are called ann"),
        (["Ann", "A\u200bnn", "Bo"], "two players are called Ann"),
        (["Ann", "\u202eAnn", "Bo"], "two players are called Ann"),
        (["Jose\u0301", "José", "Bo"], "two players are called José"),
    ],
)
def test_names_equal_after_clean_up_and_case_folding_are_duplicates(names, said):
    response = new_match(Client(), "least_score", names)
    assert Match.objects.count() == 0
    assert said in message(response)


def test_names_are_stored_clean_and_in_nfc():
    new_match(Client(), "least_score", ["Jose\u0301", "\u2067Bo\u2069", "میر\u200cعلی"])
    assert Match.objects.get().players == ["José", "Bo", "میر\u200cعلی"]


def test_a_name_too_long_is_refused_next_to_its_own_field():
    response = new_match(Client(), "least_score", ["Ann", "B" * 41, "Chen"])
    assert [visible(e) for e in response.context["form"].errors["player_1"]] == [
        "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB… is longer than 40 characters"
    ]


# ---- retries


def save_form(match, key, with_version=True):
    form = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20", "entry_key": key}
    if with_version:
        form["version"] = str(match.version)
    return form


def test_a_retried_save_without_a_version_is_stored_once():
    client = Client()
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    url = reverse("round_create", args=[match.public_id])
    for _ in range(3):
        assert client.post(url, save_form(match, "key-1", with_version=False)).status_code == 302
    assert match.rounds.count() == 1
