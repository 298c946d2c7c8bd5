"""Fixing a match's setup after Start (issue 41): a player renamed, the stake or bean rate and
the target changed, in every game; the engine plays every round again under the new setup and
refuses, naming the round, a change the rounds do not fit; History says each change in words and
undoes it."""

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games import ledger, memo, models, rules
from games.forms import CUSTOM, SetupForm
from games.models import Match, Refused, Result, SetupChange, Table
from games.records import store
from tests.html import visible

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).parent / "examples"
# (example, the money and the end changed as a table would change them, what History says of it)
CHANGES = [
    ("gongzhu-match-to-floor", {"stake": 0.05, "floor": 2000}, "Money a point: 0.01 → 0.05"),
    ("sanming-16-card", {"bean_rate": 2, "target": 200}, "Beans a point: 1 → 2"),
    ("sheet-mahjong-stake", {"stake": 1, "target": 1000}, "Money a point: 0.5 → 1"),
    ("six-nimmt-to-66", {"limit": 100}, "100"),
    ("smear-hands", {"target": 21}, "21"),
    ("least-score-to-the-end", {"penalty": 40}, "→ 40"),
]
# (example, a change its rounds do not fit, the round it names)
REFUSED = [
    ("gongzhu-match-to-floor", {"end": "hands", "hands": 1}, 2),
    ("sanming-16-card", {"target": 20}, 2),
    ("sheet-mahjong-stake", {"hands": 1}, 2),
    ("six-nimmt-to-66", {"limit": 20}, 2),
    ("least-score-to-the-end", {"threshold": 50}, 3),
]


def example(name):
    return json.loads((EXAMPLES / f"{name}.match.json").read_text(encoding="utf-8"))


def posted(match, players=None, **options):
    """What the setup form of match posts with players and options changed, every other field
    as the form shows it."""
    form = SetupForm(match)
    data = {}
    for field in form:
        value = field.value()
        if field.widget_type == "checkbox":
            if value:
                data[field.html_name] = "on"
        elif field.widget_type == "pairs":
            custom = bool(value) and value[0] == CUSTOM
            data[field.html_name] = CUSTOM if custom else json.dumps(value) if value else ""
            data[f"{field.html_name}_custom"] = value[1] if custom else ""
        elif value is not None:
            data[field.html_name] = str(value)
    for seat, name in enumerate(players or []):
        data[f"player_{seat}"] = name
    for name, value in options.items():
        choice = next(o for o in match.rules.options if o.name == name).kind == "choice"
        data[name] = json.dumps(value) if choice else str(value)
    return data


def scored(match):
    """What the match screen shows of the match now: the engine's result of its rounds."""
    match.refresh_from_db()
    return memo.board(match)["result"]


@pytest.mark.parametrize("name, options, said", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_renamed_player_and_changed_options_score_the_match_as_the_rule_book_does(
    client, name, options, said
):
    document = example(name)
    match = store(document)
    players = ["Zed", *document["players"][1:]]
    response = client.post(
        reverse("match_setup", args=[match.public_id]), posted(match, players, **options)
    )
    assert response.status_code == 302, visible(response.content.decode())[-600:]
    expected = rules.score(
        {**document, "players": players, "options": {**document.get("options", {}), **options}}
    )
    result = scored(match)
    for key in ("players", "totals", "finished", "winners", "settlement"):
        assert result[key] == expected[key], key
    game, board, closed = rules.replay(match.document())
    row = Result.objects.get(match=match)
    assert row.kept == ledger.kept(game, board, closed) and row.finished == row.kept["finished"]
    history = visible(client.get(reverse("history", args=[match.public_id])).content.decode())
    assert f"{document['players'][0]} → Zed" in history and said in history


@pytest.mark.parametrize("name, options, number", REFUSED, ids=[c[0] for c in REFUSED])
def test_a_change_the_rounds_do_not_fit_is_refused_naming_the_round(client, name, options, number):
    match = store(example(name))
    before = scored(match)
    response = client.post(reverse("match_setup", args=[match.public_id]), posted(match, **options))
    assert response.status_code == 422
    shown = visible(response.content.decode())
    assert f"round {number}" in shown
    assert not SetupChange.objects.exists() and scored(match) == before
    # the refusal is a sentence naming the options changed, as the form calls them
    game = rules.GAMES[match.game]
    said = re.search(r"Changing “([^”]*)” (would end|does not fit)[^\n]*\.", shown)
    assert said, shown[-400:]
    assert set(said.group(1).split(", ")) == {str(game.label(name)) for name in options}


def test_a_refusal_of_the_engine_says_which_option_caused_it(client):
    """Least Score's limit lowered so that Bo is out before a round he played: the refusal
    names the option and then the engine's reason."""
    match = store(example("least-score-to-the-end"))
    response = client.post(
        reverse("match_setup", args=[match.public_id]), posted(match, threshold=50)
    )
    shown = visible(response.content.decode())
    assert "Changing “Out past this total” does not fit round 3: Bo's hand is missing." in shown


def test_history_undoes_a_change_and_a_later_one_first():
    match = store(example("gongzhu-match-to-floor"))
    first = match.change_setup(["Bbo", "Bo", "Chen", "Dee"], {"stake": 0.01})
    later = match.change_setup(["Ann", "Bo", "Chen", "Dee"], {"stake": 0.05})
    client = Client()
    refused = client.post(reverse("match_setup_undo", args=[match.public_id, first.pk]))
    assert refused.status_code == 422
    assert "undo the later change first" in visible(refused.content.decode())
    client.post(reverse("match_setup_undo", args=[match.public_id, later.pk]))
    client.post(reverse("match_setup_undo", args=[match.public_id, first.pk]))
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen", "Dee"] and match.options == {"stake": 0.01}
    history = visible(client.get(reverse("history", args=[match.public_id])).content.decode())
    assert history.count("Ann → Bbo") == history.count("Bbo → Ann") == 2
    assert SetupChange.objects.count() == 4  # each undo is a change of its own


def test_nothing_changed_is_no_change(client):
    """The form posts every option, defaults too: played as the match was, it changes nothing."""
    match = store(example("sanming-16-card"))
    response = client.post(reverse("match_setup", args=[match.public_id]), posted(match))
    assert response.status_code == 302 and not SetupChange.objects.exists()
    assert Match.objects.get(pk=match.pk).options == {"deal": 16}


def test_a_name_none_of_the_tables_people_is_asked_about(client):
    """A typo of the seat's person is renamed everywhere at the table; someone new is added only
    with the table's score link, which the phone holding it sends along with the match's."""
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen"])
    match = table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    url = reverse("match_setup", args=[match.public_id])
    asked = visible(client.post(url, posted(match, ["Ann", "Bo", "Zed"])).content.decode())
    assert "Zed is not one of this table's people." in asked
    assert "Chen was a typo: call Chen Zed everywhere at this table" in asked
    assert "add Zed on the table's page" in asked
    assert Match.objects.get(pk=match.pk).players == ["Ann", "Bo", "Chen"]
    client.get(reverse("table", args=[table.public_id]))  # the phone holds the table's link
    adding = reverse("table_match_setup", args=[match.public_id, table.public_id])
    asked = client.post(url, posted(match, ["Ann", "Bo", "Zed"])).content.decode()
    assert f'formaction="{adding}"' in asked
    assert "Zed is someone new: add to the table" in visible(asked)
    client.post(adding, {**posted(match, ["Ann", "Bo", "Zed"]), "add_people": "1"})
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen", "Zed"]
    assert Match.objects.get(pk=match.pk).players == ["Ann", "Bo", "Zed"]


def test_a_typo_fixed_in_a_tables_match_is_fixed_everywhere_at_the_table_and_undone(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bbo", "Chen"])
    first = table.start_match("sanming", ["Ann", "Bbo", "Chen"], {})
    match = table.start_match("sanming", ["Chen", "Ann", "Bbo"], {})
    table.pay("Bbo", "Ann", 5, "beans")
    url = reverse("match_setup", args=[match.public_id])
    fixed = client.post(url, {**posted(match, ["Chen", "Ann", "Bo"]), "typo": "1"})
    assert fixed.status_code == 302
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen"] and table.payments.get().payer == "Bo"
    assert Match.objects.get(pk=first.pk).players == ["Ann", "Bo", "Chen"]
    history = client.get(reverse("history", args=[match.public_id]))
    assert "Bbo → Bo (everywhere at this table)" in visible(history.content.decode())
    [change] = history.context["setups"]
    client.post(reverse("match_setup_undo", args=[match.public_id, change[0].pk]))
    table.refresh_from_db()
    assert table.people == ["Ann", "Bbo", "Chen"] and table.payments.get().payer == "Bbo"
    assert Match.objects.get(pk=first.pk).players == ["Ann", "Bbo", "Chen"]
    assert Match.objects.get(pk=match.pk).players == ["Chen", "Ann", "Bbo"]


def test_the_setup_needs_the_score_link(client):
    match = store(example("sanming-16-card"))
    assert client.get(reverse("match_setup", args=[match.watch_id])).status_code == 403


def test_the_phones_following_the_match_see_the_new_names_on_their_next_live_check(client):
    match = store(example("sanming-16-card"))
    live = reverse("live", args=[match.watch_id])
    seen = client.get(live, {"v": match.version})
    assert seen.status_code == 204  # nothing new yet
    client.post(
        reverse("match_setup", args=[match.public_id]), posted(match, ["Zed", "Bo", "Chen"])
    )
    news = client.get(live, {"v": match.version})
    assert news.status_code == 200 and "Zed" in visible(news.content.decode())


def test_a_match_keeps_at_most_so_many_changes_of_its_setup(monkeypatch):
    monkeypatch.setattr(models, "MAX_SETUP_CHANGES", 2)
    match = store(example("sanming-16-card"))
    match.change_setup(["Zed", "Bo", "Chen"], match.options)
    match.change_setup(["Ann", "Bo", "Chen"], match.options)
    with pytest.raises(Refused) as refused:
        match.change_setup(["Zed", "Bo", "Chen"], match.options)
    assert str(refused.value.error) == "the names and options have been changed 2 times: no more"
    assert Match.objects.get(pk=match.pk).players == ["Ann", "Bo", "Chen"]


def test_a_typo_is_fixed_at_the_table_however_the_match_wrote_its_case(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bbo", "Chen"])
    match = table.start_match("sanming", ["Ann", "bbo", "Chen"], {})
    url = reverse("match_setup", args=[match.public_id])
    client.post(url, {**posted(match, ["Ann", "Bo", "Chen"]), "typo": "1"})
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen"]
    assert Match.objects.get(pk=match.pk).players == ["Ann", "Bo", "Chen"]


def test_a_typo_renamed_at_the_table_is_said_back_in_one_line_and_undone_with_its_undo(client):
    """Bbo → Bo: the match page says it in one line with Undo; the Undo puts Bbo back in every
    match and payment of the table (names compared as the engine compares them)."""
    table = Table.objects.create(name="Thursday", people=["Ann", "Bbo", "Chen", "Dee"])
    first = table.start_match("gongzhu", ["Ann", "bbo", "Chen", "Dee"], {"stake": 0.01})
    match = table.start_match("gongzhu", ["Ann", "Bbo", "Chen", "Dee"], {})
    table.pay("Bbo", "Ann", 5, "money")
    table.pay("Dee", "BBO", 2, "beans")
    url = reverse("match_setup", args=[match.public_id])
    fixed = client.post(url, {**posted(match, ["Ann", "Bo", "Chen", "Dee"]), "typo": "1"})
    change = Match.objects.get(pk=match.pk).setup_changes.get()
    assert fixed.url == reverse("match", args=[match.public_id]) + f"?said={change.pk}"
    page = client.get(fixed.url).content.decode()
    assert "Bbo is now Bo everywhere at this table: in every match and payment." in visible(page)
    undo = reverse("match_setup_undo", args=[match.public_id, change.pk])
    assert f'action="{undo}"' in page
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen", "Dee"]
    assert [(p.payer, p.payee) for p in table.payments.all()] == [("Bo", "Ann"), ("Dee", "Bo")]
    assert Match.objects.get(pk=first.pk).players == ["Ann", "Bo", "Chen", "Dee"]
    version = Match.objects.get(pk=match.pk).version
    client.post(undo, {"next": "match", "version": version})
    table.refresh_from_db()
    assert table.people == ["Ann", "Bbo", "Chen", "Dee"]
    assert [(p.payer, p.payee) for p in table.payments.all()] == [("Bbo", "Ann"), ("Dee", "Bbo")]
    assert Match.objects.get(pk=first.pk).players == ["Ann", "Bbo", "Chen", "Dee"]
    assert Match.objects.get(pk=match.pk).players == ["Ann", "Bbo", "Chen", "Dee"]
    assert "everywhere at this table" not in visible(client.get(fixed.url).content.decode())


def test_a_typo_fixed_on_a_form_drawn_before_another_change_is_refused_and_renames_nothing(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bbo", "Chen", "Dee"])
    match = table.start_match("gongzhu", ["Ann", "Bbo", "Chen", "Dee"], {})
    drawn = posted(match, ["Ann", "Bo", "Chen", "Dee"])
    match.change_setup(["Ann", "Bbo", "Chen", "Dee"], {"stake": 0.05})  # another phone's
    url = reverse("match_setup", args=[match.public_id])
    stale = client.post(url, {**drawn, "typo": "1"})
    assert stale.status_code == 422
    assert "Money a point" in visible(stale.content.decode())
    table.refresh_from_db()
    assert table.people == ["Ann", "Bbo", "Chen", "Dee"]
    assert Match.objects.get(pk=match.pk).players == ["Ann", "Bbo", "Chen", "Dee"]


def test_a_rename_in_a_match_of_no_table_is_not_said_as_a_join(client):
    match = store(example("sanming-16-card"))
    url = reverse("match_setup", args=[match.public_id])
    fixed = client.post(url, posted(match, ["Zed", "Bo", "Chen"]))
    said = visible(client.get(fixed.url).content.decode())
    assert "Names and options changed" in said and "joined" not in said


def test_a_typo_on_a_tables_new_match_form_is_offered_first_and_renamed_everywhere(client):
    """The form draws Bbo in seat 2, Bo is typed there: Bo is offered first as Bbo's typo
    (renamed in every match and payment, said with Undo), then as someone new."""
    table = Table.objects.create(name="Thursday", people=["Ann", "Bbo", "Chen", "Dee"])
    earlier = table.start_match("gongzhu", ["Ann", "Bbo", "Chen", "Dee"], {})
    table.pay("Bbo", "Ann", 5, "money")
    url = reverse("table_new_match", args=[table.public_id, "gongzhu"])
    typed = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "player_3": "Dee"}
    asked = client.post(url, typed).content.decode()
    offers = re.findall(r'name="(typo|add_people)" value="(\d)"', asked)
    assert offers == [("typo", "1"), ("add_people", "1")]
    shown = " ".join(visible(asked).split())
    assert "Bbo was a typo: call Bbo Bo everywhere at this table Bo is someone new" in shown
    assert Match.objects.count() == 1
    started = client.post(url, {**typed, "typo": "1"})
    match = Match.objects.latest("pk")
    change = match.setup_changes.get()
    assert started.url == reverse("match", args=[match.public_id]) + f"?said={change.pk}"
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen", "Dee"] and table.payments.get().payer == "Bo"
    assert Match.objects.get(pk=earlier.pk).players == match.players == typed_names(typed)
    undo = reverse("match_setup_undo", args=[match.public_id, change.pk])
    client.post(undo, {"next": "match", "version": Match.objects.get(pk=match.pk).version})
    table.refresh_from_db()
    assert table.people == ["Ann", "Bbo", "Chen", "Dee"] and table.payments.get().payer == "Bbo"
    assert [m.players for m in Match.objects.order_by("pk")] == [table.people, table.people]


def typed_names(form):
    return [form[f"player_{seat}"] for seat in range(4)]


def test_a_new_name_beside_someone_drawn_who_still_plays_is_no_typo(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bbo", "Chen", "Dee", "Eve"])
    url = reverse("table_new_match", args=[table.public_id, "gongzhu"]) + "?out=Eve"
    typed = {"player_0": "Ann", "player_1": "Zed", "player_2": "Chen", "player_3": "Bbo"}
    asked = client.post(url, typed).content.decode()
    assert 'name="typo"' not in asked
    assert "Zed is not one of this table's people: add Zed to the table?" in visible(asked)


def test_a_typo_answered_after_another_phone_renamed_that_person_is_refused_and_asked_again(
    client,
):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bbo", "Chen", "Dee"])
    url = reverse("table_new_match", args=[table.public_id, "gongzhu"])
    typed = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "player_3": "Dee"}
    asked = client.post(url, typed).content.decode()
    [drawn] = re.findall(r'name="version" value="(\d+)"', asked)
    table.change_setup("Thursday", ["Ann", "Bob", "Chen", "Dee"])  # another phone
    answer = client.post(url, {**typed, "typo": "1", "version": drawn})
    assert answer.status_code == 422
    shown = " ".join(visible(answer.content.decode()).split())
    assert "Changed on another phone since you opened this page: Bbo → Bob" in shown
    assert not Match.objects.exists()
    table.refresh_from_db()
    assert table.people == ["Ann", "Bob", "Chen", "Dee"]


def test_after_a_typo_is_fixed_the_balances_add_up_by_the_new_name(client):
    """Two finished matches and a payment with Bo in them; a third match's Bo was a typo of
    Bob: the table's balance has Bob with all of Bo's money, and no Bo."""
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen", "Dee"])
    for _ in range(2):
        table.take_match(store(example("gongzhu-match-to-floor")))
    table.pay("Bo", "Ann", 1, "money")
    before = balance(table)
    match = table.start_match("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {})
    url = reverse("match_setup", args=[match.public_id])
    client.post(url, {**posted(match, ["Ann", "Bob", "Chen", "Dee"]), "typo": "1"})
    table.refresh_from_db()
    after = balance(table)
    assert "Bo" not in after and after["Bob"] == before["Bo"] != 0
    assert {k: v for k, v in after.items() if k != "Bob"} == {
        k: v for k, v in before.items() if k != "Bo"
    }


def balance(table):
    """The table's balance in money, by name, as its page adds it up."""
    payments = [p.as_paid() for p in table.payments.all()]
    return ledger.summary(table.people, table.played(), payments)["balances"]["money"]
