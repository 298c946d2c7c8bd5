"""The attack round on changes other than rounds (issue 48): each finding's reproduction, now a
refusal in words or the right figure, on SQLite and (with DATABASE_URL) PostgreSQL."""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import ledger, rules
from games.models import Match, Round, Table
from games.records import store, store_table
from tests.html import visible
from tests.test_views_setup import posted
from tests.views import new_least_score, post_round

pytestmark = pytest.mark.django_db

PEOPLE = ["Ann", "Bo", "Chen", "Dee"]


def sheet(players, *rounds):
    """A finished zero-sum score sheet at a stake of 1."""
    return {
        "game": "sheet",
        "players": players,
        "options": {"zero_sum": True, "stake": 1},
        "rounds": [{"points": list(points)} for points in rounds],
        "closed": True,
    }


def in_series(documents, table=None):
    """The documents stored as one series (each a rematch of the one before), in table."""
    matches = []
    for document in documents:
        match = store(document, table)
        if matches:
            Match.objects.filter(pk=match.pk).update(
                rematch_of=matches[-1], series_first=matches[0]
            )
        matches.append(Match.objects.get(pk=match.pk))
    return matches


def combined_by_name(match):
    """{name: amount} of the series' combined settlement, as the match screen shows it."""
    page = Client().get(reverse("match", args=[match.public_id])).content.decode()
    section = page.split('class="settlement series-settlement"')[1].split("</table>")[0]
    rows = re.findall(r"<th[^>]*>(.*?)</th><td>(.*?)</td>", section)
    return {visible(name): Decimal(visible(amount).replace("\u2212", "-")) for name, amount in rows}


# ---- M6: a series settles by name, never by seat


def test_m6_a_seat_swap_in_one_match_of_a_series_settles_by_name():
    first, second = in_series(
        [sheet(["Ann", "Bo", "Chen"], (5, -2, -3)), sheet(["Ann", "Bo", "Chen"], (3, 0, -3))]
    )
    first.change_setup(["Bo", "Ann", "Chen"], first.options)  # they sat the other way round
    assert combined_by_name(second) == {"Ann": 1, "Bo": 5, "Chen": -6}
    assert combined_by_name(first) == {"Ann": 1, "Bo": 5, "Chen": -6}


def test_m6_a_series_of_players_who_change_adds_up_everyone_by_name():
    _first, second = in_series(
        [sheet(["Ann", "Bo", "Chen"], (5, -2, -3)), sheet(["Dee", "Chen", "Bo"], (4, -1, -3))]
    )
    assert combined_by_name(second) == {"Dee": 4, "Chen": -4, "Bo": -5, "Ann": 5}


SERIES = st.lists(
    st.tuples(
        st.permutations(PEOPLE).map(lambda people: people[:3]),
        st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20)), min_size=1, max_size=3),
    ),
    min_size=2,
    max_size=4,
)


def figures(documents):
    """Every figure that adds people up across the matches: the series' combined settlement by
    name, and the table's balances, transfers, evenings and statistics."""
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    matches = in_series(documents, table)
    summary = ledger.summary(table.people, table.played(), [])
    statistics = sorted((row["person"], row["played"], row["won"]) for row in summary["statistics"])
    transfers = {unit: sorted(map(str, t)) for unit, t in summary["settlement"].items()}
    evenings = [day["units"] for day in summary["evenings"]]
    return combined_by_name(matches[-1]), summary["balances"], transfers, evenings, statistics


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SERIES, st.data())
def test_m6_any_seating_of_any_match_leaves_every_persons_figures_unchanged(series, data):
    """The same hands, each match's players seated in another order (their points with them):
    every person's series and table figures are what they were."""
    documents, seated = [], []
    for players, rounds in series:
        points = [(a, b, -a - b) for a, b in rounds]
        documents.append(sheet(players, *points))
        order = data.draw(st.permutations(range(3)))
        seated.append(
            sheet([players[k] for k in order], *[[row[k] for k in order] for row in points])
        )
    assert figures(seated) == figures(documents)


# ---- M3: a form drawn before another phone's change never undoes it


def setup_form(match, **changed):
    """What a phone's Names and options form posts, drawn now (with the version it was drawn
    at), with the players (players=[...]) or options changed."""
    return {**posted(match, changed.pop("players", None), **changed), "version": match.version}


def test_m3_a_stale_names_and_options_form_is_refused_and_changes_nothing(client):
    match = store({**sheet(["Ann", "Bo", "Chen"], (1, 2, -3)), "closed": False})
    url = reverse("match_setup", args=[match.public_id])
    stale = setup_form(match, stake=2)  # phone 1 opened the page, then put the stake at 2
    assert client.post(url, setup_form(match, players=["Ann", "Eve", "Chen"])).status_code == 302
    refused = client.post(url, stale)
    assert refused.status_code == 422
    shown = visible(refused.content.decode())
    assert "Changed on another phone since you opened this page: Bo → Eve" in shown
    assert "Yours: Money a point: 1 → 2" in shown
    match.refresh_from_db()
    assert match.players == ["Ann", "Eve", "Chen"] and match.options["stake"] == 1
    # Drawn again, the form holds both: Eve, and the stake at 2. Saved, both stand.
    again = refused.context["form"]
    assert again["player_1"].value() == "Eve" and str(again["stake"].value()) == "2"
    assert client.post(url, setup_form(match, stake=2)).status_code == 302
    match.refresh_from_db()
    assert match.players == ["Ann", "Eve", "Chen"] and match.options["stake"] == 2


def names_form(table, people=None, **fields):
    """What a table's names page posts, drawn now: its name, each person (people: their new
    names in their places), the version it was drawn at."""
    people = table.people if people is None else people
    form = {"name": table.name, "version": table.version, "added": ""}
    form.update({f"person_{k}": name for k, name in enumerate(people)})
    return {**form, **fields}


def test_m3_a_stale_names_of_the_table_form_is_refused_and_changes_nothing(client):
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    url = reverse("table_setup", args=[table.public_id])
    stale = names_form(table, name="Thursday Gongzhu")
    renamed = ["Ann", "Bo", "Chen", "Dana"]
    assert client.post(url, names_form(table, renamed)).status_code == 302
    refused = client.post(url, stale)
    assert refused.status_code == 422
    shown = visible(refused.content.decode())
    assert "Changed on another phone since you opened this page: Dee → Dana" in shown
    assert "Yours: Name: Thursday → Thursday Gongzhu" in shown
    table.refresh_from_db()
    assert table.people == renamed and table.name == "Thursday"
    again = refused.context["form"]
    assert again["person_3"].value() == "Dana" and again["name"].value() == "Thursday Gongzhu"


def test_m3_a_payment_recorded_meanwhile_is_shown_before_a_second_one_is(client):
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    url = reverse("table_pay", args=[table.public_id])
    paid = {"payer": "Bo", "payee": "Ann", "amount": "5", "unit": "money"}
    drawn = table.version
    assert client.post(url, {**paid, "version": drawn, "entry_key": "phone-2"}).status_code == 302
    refused = client.post(url, {**paid, "version": drawn, "entry_key": "phone-1"})
    assert refused.status_code == 422
    shown = visible(refused.content.decode())
    assert "Recorded on another phone since you opened this page: Bo paid Ann 5.00" in shown
    assert "Yours: Bo paid Ann 5.00" in shown
    assert table.payments.count() == 1
    again = {**paid, "version": Table.objects.get().version, "entry_key": "phone-1"}
    assert client.post(url, again).status_code == 302  # recorded once they have seen both
    assert table.payments.count() == 2


# ---- M4: a match's score link never adds a person to its table


def test_m4_a_matchs_score_link_never_adds_a_person_to_its_table(client):
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    match = table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    url = reverse("match_setup", args=[match.public_id])
    for k in range(3):
        form = {**setup_form(match, players=["Ann", "Bo", f"Junk{k}"]), "add_people": "1"}
        asked = client.post(url, form)
        assert asked.status_code == 422
        shown = visible(asked.content.decode())
        assert f"Chen was a typo: call Chen Junk{k} everywhere at this table" in shown
        assert f"add Junk{k} on the table's page" in shown
    table.refresh_from_db()
    assert table.people == PEOPLE and Match.objects.get().players == ["Ann", "Bo", "Chen"]


def test_m4_the_names_page_removes_a_person_with_no_match_and_no_payment(client):
    table = Table.objects.create(name="Thursday", people=[*PEOPLE, "Junk"])
    table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    url = reverse("table_setup", args=[table.public_id])
    assert client.post(url, names_form(table, remove_4="1")).status_code == 302
    table.refresh_from_db()
    assert table.people == PEOPLE
    refused = client.post(url, names_form(table, remove_1="1"))
    assert refused.status_code == 422
    assert "Bo has played or paid at this table: they stay one of its people" in visible(
        refused.content.decode()
    )
    table.refresh_from_db()
    assert table.people == PEOPLE
    shown = visible(client.get(url).content.decode())
    assert "Junk left the table" in shown


# ---- M5: a table's match is played by the table's people, whatever the order of changes


def test_m5_an_undo_never_brings_back_a_name_that_is_none_of_the_tables_people(client):
    table = Table.objects.create(name="Thursday", people=[*PEOPLE, "Eve"])
    match = table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    renamed = match.change_setup(["Eve", "Bo", "Chen"], match.options)
    table.change_setup("Thursday", ["Zed", "Bo", "Chen", "Dee", "Eve"])  # Ann plays no more
    refused = client.post(reverse("match_setup_undo", args=[match.public_id, renamed.pk]))
    assert refused.status_code == 422
    assert "Ann is not one of this table's people" in visible(refused.content.decode())
    assert Match.objects.get().players == ["Eve", "Bo", "Chen"]


# ---- L2: a table's person is one name


def test_l2_a_comma_in_a_persons_name_on_the_names_page_is_refused_in_words(client):
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    url = reverse("table_setup", args=[table.public_id])
    refused = client.post(url, names_form(table, ["Ann", "Bo,Eve", "Chen", "Dee"]))
    assert refused.status_code == 422
    assert "One name here: a comma separates two people" in visible(refused.content.decode())
    table.refresh_from_db()
    assert table.people == PEOPLE


# ---- C1: two phones, one hand


def test_c1_a_hand_another_phone_entered_first_is_shown_beside_mine_and_never_saved_twice(client):
    match = new_least_score(client, threshold="1000")
    drawn = match.version
    post_round(client, match, 0, 7, 15, 20, version=drawn)  # phone A saves round 1
    url = reverse("round_create", args=[match.public_id])
    mine = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20", "round": "1"}
    refused = client.post(url, {**mine, "version": drawn, "entry_key": "phone-b"})
    assert refused.status_code == 422
    page = refused.content.decode()
    shown = visible(page)
    assert "Round 1 was just entered from another phone." in shown
    theirs, yours = shown.split("Round 1, from the other phone")[1].split("Yours")[:2]
    assert "Bo, hand: 15" in theirs and "Bo, hand: 15" in yours
    assert "Same hand: drop mine" in shown and "A different hand: save it as round 2" in shown
    assert "Save round" not in shown  # no tap stores the same hand again by habit
    version = re.search(r'name="version" value="(\d+)"', page)[1]
    again = client.post(url, {**mine, "round": "2", "version": version, "entry_key": "phone-b"})
    assert again.status_code == 302 and match.rounds.count() == 2


# ---- M7: a table's import never holds the write lock long


def test_m7_a_tables_import_scores_outside_any_transaction_and_writes_in_short_ones(monkeypatch):
    """The engine replays each match before anything is written, and the rounds are written a
    few thousand a transaction: a save on another match waits for one of them at most."""
    replayed_in, written_in = [], {}
    replay, bulk_create = rules.replay, Round.objects.bulk_create

    def replaying(document):
        replayed_in.append(list(connection.savepoint_ids))
        return replay(document)

    def writing(rows, *args, **kwargs):
        rows = list(rows)
        key = tuple(connection.savepoint_ids)
        written_in[key] = written_in.get(key, 0) + len(rows)
        return bulk_create(rows, *args, **kwargs)

    monkeypatch.setattr(rules, "replay", replaying)
    monkeypatch.setattr(Round.objects, "bulk_create", writing)
    played = [sheet(PEOPLE, *[(k % 5, -(k % 5), 1, -1)] * 80) for k in range(20)]
    table = store_table({"table": "Thursday", "people": PEOPLE, "matches": played})
    assert table.matches.count() == 20 and Round.objects.count() == 20 * 80
    assert replayed_in and all(held == [] for held in replayed_in)
    assert len(written_in) >= 3 and max(written_in.values()) <= 250


# ---- each change signed


def test_a_named_phone_signs_its_rounds_setup_fixes_and_payments(client):
    assert client.get(reverse("name_phone")).status_code == 200
    named = client.post(reverse("name_phone") + "?next=/matches/", {"name": " Bo "})
    assert named.status_code == 302 and named.url == "/matches/"
    match = new_least_score(client, threshold="1000")
    post_round(client, match, 0, 7, 15, 20)
    edit = reverse("round_edit", args=[match.public_id, 1])
    client.post(edit, {"declarer": "0", "hand-0": "7", "hand-1": "16", "hand-2": "20"})
    match.change_setup(["Ann", "Eve", "Chen"], match.options)  # no request: no phone named
    history = visible(client.get(reverse("history", args=[match.public_id])).content.decode())
    assert "entered on Bo's phone" in history and "changed on Bo's phone" in history
    assert "Changes from here are signed “Bo's phone”." in history
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    pay = {"payer": "Bo", "payee": "Ann", "amount": "5", "unit": "money"}
    client.post(reverse("table_pay", args=[table.public_id]), pay)
    client.post(reverse("table_setup", args=[table.public_id]), names_form(table, name="Fri"))
    shown = visible(client.get(reverse("table", args=[table.public_id])).content.decode())
    assert "Bo paid Ann 5.00 on Bo's phone" in shown
    names = visible(client.get(reverse("table_setup", args=[table.public_id])).content.decode())
    assert "on Bo's phone" in names


def test_a_phone_name_is_one_line_of_at_most_40_characters(client):
    refused = client.post(reverse("name_phone"), {"name": "B" * 41})
    assert refused.status_code == 422
    assert "A name is at most 40 characters." in visible(refused.content.decode())
    away = client.post(reverse("name_phone") + "?next=https://evil.example/", {"name": "Bo"})
    assert away.url == "/"


# ---- a score link replaced from Share


def test_a_replaced_score_link_opens_nothing_and_says_so(client):
    client.post(reverse("name_phone"), {"name": "Bo"})
    match = new_least_score(client, threshold="1000")
    old = match.public_id
    share = client.get(reverse("share", args=[old])).content.decode()
    assert reverse("share_replace", args=[old]) in share
    replaced = client.post(reverse("share_replace", args=[old]))
    match.refresh_from_db()
    assert match.public_id != old
    assert replaced.url == reverse("share", args=[match.public_id]) + "?replaced=1"
    for url in (reverse("match", args=[old]), reverse("score_live", args=[old]) + "?v=0"):
        gone = client.get(url)
        assert gone.status_code == 410
        page = gone.content.decode()
        assert "This score link was replaced on Bo's phone" in visible(page)
        assert match.public_id not in page and match.watch_id not in page
    assert client.post(reverse("round_create", args=[old]), {}).status_code == 410
    assert client.post(reverse("share_replace", args=[old])).status_code == 410
    assert client.get(reverse("match", args=[match.public_id])).status_code == 200


def test_a_replaced_table_score_link_opens_nothing(client):
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    old = table.public_id
    client.post(reverse("table_share_replace", args=[old]))
    table.refresh_from_db()
    gone = client.get(reverse("table", args=[old]))
    assert gone.status_code == 410 and "This score link was replaced" in visible(
        gone.content.decode()
    )
    assert client.get(reverse("table", args=[table.public_id])).status_code == 200
