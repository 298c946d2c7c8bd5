"""Records: export and import, rematches and their series, this phone's history and a player's
record, every figure from the engine."""

import csv
import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F
from django.urls import reverse

from games import rules
from games.models import Match, Round, RoundEvent
from tests.html import visible
from tests.views import refuses

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).parent / "examples"
MATCHES = sorted(EXAMPLES.glob("*.match.json"))
INVALID = sorted(EXAMPLES.glob("*.invalid.json"))


WORLD_TABLE = {
    "game": "least_score",
    "players": ["张伟", "Zahra", "Бат"],
    "rounds": [
        {"declarer": 0, "hands": [7, 15, 20]},
        {"declarer": 1, "hands": [9, 5, 4]},
        {"declarer": 2, "hands": [3, 12, 2]},
    ],
}


def load(name):
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def import_document(client, document):
    """Import a match document through the import page; return the response."""
    text = document if isinstance(document, str) else json.dumps(document, ensure_ascii=False)
    return client.post(reverse("import_match"), {"document": text})


def imported(client, document):
    response = import_document(client, document)
    assert response.status_code == 302, response.content.decode()
    return Match.objects.get(public_id=response.url.strip("/").split("/")[-1])


def exported(client, match):
    response = client.get(reverse("export_json", args=[match.public_id]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    return json.loads(response.content.decode("utf-8"))


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_export_then_import_of_every_example_gives_the_same_result(client, path):
    original = json.loads(path.read_text(encoding="utf-8"))
    match = imported(client, original)
    document = exported(client, match)
    assert document["closed"] == original.get("closed", False)
    assert rules.score(document) == rules.score(original)
    again = imported(client, document)
    assert rules.score(exported(client, again)) == rules.score(original)


def test_an_import_from_a_file_is_stored_with_its_rounds_and_their_history(client):
    text = (EXAMPLES / "sanming-one-kid.match.json").read_bytes()
    upload = SimpleUploadedFile("evening.match.json", b"\xef\xbb\xbf" + text, "application/json")
    response = client.post(reverse("import_match"), {"file": upload})
    match = Match.objects.get()
    assert response.url == reverse("match", args=[match.public_id])
    assert [r.entry for r in match.rounds.all()] == load("sanming-one-kid.match.json")["rounds"]
    assert RoundEvent.objects.filter(action=RoundEvent.CREATED).count() == 3
    assert match.public_id in client.get(reverse("matches")).content.decode()


def test_deleted_rounds_are_left_out_of_the_export(client):
    match = imported(client, WORLD_TABLE)
    client.post(reverse("round_delete", args=[match.public_id, 2]))
    assert Round.objects.get(number=2).deleted
    assert exported(client, match)["rounds"] == [WORLD_TABLE["rounds"][0], WORLD_TABLE["rounds"][2]]


@pytest.mark.parametrize(
    "posted, message",
    [
        ({"document": "{'game': 'gongzhu'"}, "This is not a match document: it is not JSON."),
        ({"document": ""}, "This is not a match document: it is not JSON."),
        (
            {"file": SimpleUploadedFile("m.json", '{"game": "猪"}'.encode("gb18030"))},
            "This is not a match document: it is not JSON.",
        ),
        (
            {"document": json.dumps({**load("gongzhu-plain.match.json"), "game": "chess"})},
            "This match cannot be imported: unknown game 'chess'",
        ),
        (
            {"document": json.dumps(load("gongzhu-card-twice.invalid.json"))},
            "This match cannot be imported: "
            "round 1: A♥ was captured 2 times, but there is only one",
        ),
        ({"document": "[1, 2]"}, "This match cannot be imported: a match must be a JSON object"),
        (
            {"document": json.dumps({**WORLD_TABLE, "options": {"exact_totals": [[50, 50]]}})},
            "This match cannot be imported: option 'Totals that change when landed on exactly' "
            "cannot be [[50, 50]]",
        ),
    ],
)
def test_a_malformed_import_is_refused_with_a_message_and_creates_nothing(client, posted, message):
    response = client.post(reverse("import_match"), posted)
    assert response.status_code == 422
    assert message in visible(response.content.decode())
    assert not Match.objects.exists() and not Round.objects.exists()


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_every_invalid_example_is_refused_on_import(client, path):
    response = import_document(client, path.read_text(encoding="utf-8"))
    assert response.status_code == 422
    assert "This match cannot be imported: " in response.content.decode()
    assert not Match.objects.exists()


def test_the_csv_has_a_row_per_round_a_column_per_player_and_the_totals(client):
    match = imported(client, WORLD_TABLE)
    response = client.get(reverse("export_csv", args=[match.public_id]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body[1:])))
    assert rows[0] == ["Round", "张伟", "Zahra", "Бат"]
    # Ann's declaration stands; Bo's fails (4 is lower: 20 + 5 - 4); Chen's stands.
    assert rows[1:4] == [["1", "0", "8", "13"], ["2", "0", "21", "0"], ["3", "1", "10", "0"]]
    assert rows[4] == ["Total", "1", "39", "13"]


def test_exports_need_the_score_link(client):
    match = imported(client, load("gongzhu-plain.match.json"))
    for name in ["export_json", "export_csv"]:
        assert client.get(reverse(name, args=[match.watch_id])).status_code == 403


# ---- rematch and series


def finished_sanming(client):
    return imported(client, load("sanming-one-kid.match.json"))


def rematch(client, match):
    response = client.post(reverse("rematch", args=[match.public_id]))
    assert response.status_code == 302
    return Match.objects.get(public_id=response.url.strip("/").split("/")[-1])


def play(match, example):
    for number, entry in enumerate(load(example)["rounds"], 1):
        Round.objects.create(match=match, number=number, entry=entry)


def test_a_rematch_has_the_same_game_players_seats_and_options(client):
    match = finished_sanming(client)
    again = rematch(client, match)
    assert (again.game, again.players, again.options) == (
        "sanming",
        ["Ann", "Bo", "Chen"],
        {"bean_rate": 5},
    )
    assert again.rematch_of == match and again.rounds.count() == 0 and not again.closed
    assert rematch(client, match) == again  # a second tap joins the same rematch
    assert again.public_id in client.get("/").content.decode()


def test_the_rematch_button_shows_once_the_match_is_finished(client):
    finished = finished_sanming(client)
    going = imported(client, load("gongzhu-plain.match.json"))
    assert (
        reverse("rematch", args=[finished.public_id])
        in client.get(reverse("match", args=[finished.public_id])).content.decode()
    )
    assert "rematch" not in client.get(reverse("match", args=[going.public_id])).content.decode()


def test_a_rematch_needs_the_score_link(client):
    match = finished_sanming(client)
    assert client.post(reverse("rematch", args=[match.watch_id])).status_code == 403
    assert Match.objects.count() == 1


def test_three_matches_of_sanming_settle_as_one_evening(client):
    first = finished_sanming(client)  # Ann 1280, Bo 560, Chen -1840 beans
    second = rematch(client, first)
    play(second, "sanming-two-kids.match.json")  # Ann 1280, Bo 1280, Chen -2560
    third = rematch(client, second)
    play(third, "sanming-one-kid.match.json")  # Ann 1280, Bo 560, Chen -1840
    fourth = rematch(client, third)  # not played yet: not in the settlement
    series = client.get(reverse("match", args=[third.public_id])).context["series"]

    assert [m.pk for m, _result in series["played"]] == [first.pk, second.pk, third.pk, fourth.pk]
    combined = series["combined"]
    assert combined["count"] == 3
    assert combined["amounts"] == [1280 * 3, 560 + 1280 + 560, -1840 - 2560 - 1840]
    net = {name: Decimal(0) for name in first.players}
    for payment in combined["transfers"]:
        net[payment["from"]] -= Decimal(str(payment["amount"]))
        net[payment["to"]] += Decimal(str(payment["amount"]))
    assert list(net.values()) == combined["amounts"]
    assert combined["transfers"] == [
        {"from": "Chen", "to": "Ann", "amount": 3840},
        {"from": "Chen", "to": "Bo", "amount": 2400},
    ]

    page = client.get(reverse("match", args=[fourth.public_id])).content.decode()
    assert "Settlement of 3 finished matches" in page
    assert "Chen pays Ann 3840" in visible(page) and "Chen pays Bo 2400" in visible(page)
    for match in (first, second, third):
        assert reverse("match", args=[match.public_id]) in page


def test_the_watch_link_shows_the_series_with_watch_links(client):
    first = finished_sanming(client)
    second = rematch(client, first)
    page = client.get(reverse("watch", args=[second.watch_id])).content.decode()
    assert reverse("watch", args=[first.watch_id]) in page
    assert first.public_id not in page


def test_a_match_of_a_series_needs_few_queries(client, django_assert_max_num_queries):
    """The page's own three, one per step along the series, and the series' rounds at once."""
    first = finished_sanming(client)
    second = rematch(client, first)
    with django_assert_max_num_queries(7):
        client.get(reverse("match", args=[second.public_id]))


# ---- this phone's history and a player's record


@pytest.fixture
def evening(client):
    """Four matches opened on this phone: Ann wins two of the three finished ones."""
    for name in ["sanming-one-kid", "sanming-two-kids", "least-score-to-the-end", "gongzhu-plain"]:
        imported(client, load(f"{name}.match.json"))
    # sanming-one-kid: Ann 1st (3 against Bo's 24); sanming-two-kids: Ann and Bo share 1st;
    # least-score-to-the-end: Ann 1st (18 against Bo's 29); gongzhu-plain is not finished.


def test_history_lists_this_phones_matches_and_searches_them(client, evening):
    everything = client.get(reverse("matches")).context["shown"]
    assert len(everything) == 4
    gongzhu = client.get(reverse("matches"), {"q": "gongZHU"}).context["shown"]
    assert [result["game"] for _m, _u, result in gongzhu] == ["gongzhu"]
    # Typed on an English screen, a game's name in another language finds it too.
    for chinese, games in [("拱猪", ["gongzhu"]), ("三明", ["sanming", "sanming"])]:
        found = client.get(reverse("matches"), {"q": chinese}).context["shown"]
        assert [result["game"] for _m, _u, result in found] == games
    dee = client.get(reverse("matches"), {"q": "de"}).context["shown"]
    assert [result["players"][-1] for _m, _u, result in dee] == ["Dee"]
    assert client.get(reverse("matches"), {"q": "nobody"}).context["shown"] == []


def test_a_players_record_comes_from_the_engine(client, evening):
    response = client.get(reverse("matches"), {"q": "ann"})
    record = response.context["record"]
    assert response.context["named"] == "Ann"
    assert (record["played"], record["wins"], record["average_place"]) == (3, 3, 1)
    assert record["biggest"]["margin"] == 126  # sanming-two-kids: 2 against Chen's 128
    bo = client.get(reverse("matches"), {"q": "Bo"}).context["record"]
    # Bo: 2nd in sanming-one-kid, 1st (shared) in sanming-two-kids, 2nd in least-score.
    assert (bo["played"], bo["wins"], bo["average_place"]) == (3, 1, pytest.approx(5 / 3))
    assert bo["biggest"]["margin"] == 124  # sanming-two-kids: 4 against Chen's 128
    page = response.content.decode()
    assert "By 126 points, Sanming" in page


def test_a_match_on_another_phone_is_not_in_this_phones_history(client, evening):
    other = Match.objects.create(game="least_score", players=["Zed", "Yan"])
    assert other.public_id not in client.get(reverse("matches")).content.decode()
    assert client.get(reverse("matches"), {"q": "Zed"}).context["record"] is None


def test_the_default_ranking_follows_the_winners():
    cases = {
        "gongzhu-plain.match.json": [3, 3, 1, 2],  # high wins
        "least-score-declarations.match.json": [3, 1, 2],  # low wins
        "sanming-two-kids.match.json": [1, 1, 3],  # two kids share the win
        "six-nimmt-one-hand-games.match.json": [1, 2, 2, 4, 5, 5, 7],  # ranking points: high
        "six-nimmt-to-66.match.json": [1, 4, 3, 2],  # bullheads: low
        "smear-both-reach.match.json": [3, 1, 3, 1],  # level totals, the bidders win
    }
    for name, places in cases.items():
        game, table, _closed = rules.replay(load(name))
        assert game.ranking(table) == places, name


def test_every_screen_of_a_series_follows_a_change_to_any_of_its_matches(client):
    first = finished_sanming(client)
    assert (
        "This series" not in client.get(reverse("match", args=[first.public_id])).content.decode()
    )
    second = rematch(client, first)
    play(second, "sanming-two-kids.match.json")
    Match.objects.filter(pk=second.pk).update(version=F("version") + 1)
    page = client.get(reverse("match", args=[first.public_id])).content.decode()
    assert "This series" in page and "Chen pays Ann 2560" in visible(page)  # 1280 + 1280
    # Deleting the first match's last hand reopens it: the second match's screen says so too.
    client.post(reverse("round_delete", args=[first.public_id, 3]))
    page = client.get(reverse("match", args=[second.public_id])).content.decode()
    assert "Settlement of 1 finished match" in page


@pytest.mark.parametrize(
    "method, name, with_match, allowed",
    [
        ("post", "matches", False, ["GET"]),
        ("put", "import_match", False, ["GET", "POST"]),
        ("get", "rematch", True, ["POST"]),
        ("post", "export_json", True, ["GET"]),
        ("post", "export_csv", True, ["GET"]),
    ],
)
def test_a_wrong_method_is_refused(client, method, name, with_match, allowed):
    args = [finished_sanming(client).public_id] if with_match else []
    assert refuses(client, method, reverse(name, args=args), allowed)
    assert Match.objects.count() == (1 if with_match else 0)
