"""The new-match form in the table's words: each option a phrase a player says, with its default
in words; what the table plays for asked first; an option the other choices leave unused marked
to be hidden, and ignored (or, when it was changed, questioned) by the server without JavaScript.
"""

import html
import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import rules
from games.forms import NewMatchForm
from games.models import Match, Table
from tests.html import visible

pytestmark = pytest.mark.django_db

PLAYERS = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "player_3": "Dee"}
# The code's words the form once showed as labels.
CODE_WORDS = {"decks", "mode", "multiplier", "rounding", "end", "floor", "hands", "stake"}
LANGUAGES = ["zh-hans", "es", "fa", "mn"]


def start(client, slug, **options):
    """Post the new-match form; the response (a redirect to the match when it started)."""
    return client.post(reverse("new_match", args=[slug]), {**PLAYERS, **options})


def option_labels(game):
    """{option: its label on the form} in the language active."""
    form = NewMatchForm(game)
    return {option.name: str(form.fields[option.name].label) for option in game.options}


@pytest.mark.parametrize("game", rules.GAMES.values(), ids=rules.GAMES)
def test_every_option_is_a_phrase_a_player_says_not_a_code_word(game):
    for name, label in option_labels(game).items():
        assert label.lower() not in CODE_WORDS, (name, label)
        assert " " in label and label[0].isupper(), (name, label)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", rules.GAMES.values(), ids=rules.GAMES)
def test_the_labels_are_in_every_language(game, language):
    english = option_labels(game)
    with translation.override(language):
        translated = option_labels(game)
    same = [name for name in english if translated[name] == english[name]]
    assert same == []


@pytest.mark.parametrize("game", rules.GAMES.values(), ids=rules.GAMES)
def test_each_option_says_its_default_in_words(game):
    form = NewMatchForm(game)
    for option in game.options:
        help_text = str(form.fields[option.name].help_text)
        assert re.search(r"Default: [^.]+\.\Z", help_text), (option.name, help_text)
        assert "_" not in help_text.split("Default:")[1], (option.name, help_text)


def test_not_for_money_is_the_default_said_in_words(client):
    page = visible(client.get(reverse("new_match", args=["gongzhu"])).content.decode())
    assert "Money a point" in page and "Default: not for money (0)." in page


@pytest.mark.parametrize(
    "slug, asked",
    [("gongzhu", ["stake"]), ("sanming", ["bean_rate"]), ("sheet", ["zero_sum", "stake"])],
)
def test_what_the_table_plays_for_is_asked_before_the_folded_options(client, slug, asked):
    page = client.get(reverse("new_match", args=[slug])).content.decode()
    plays_for = page.index("What you play for")
    folded = page.index("<summary>Options</summary>")
    seats = page.index('name="player_0"')
    for name in asked:
        assert seats < plays_for < page.index(f'name="{name}"') < folded


@pytest.mark.parametrize("slug", ["least_score", "six_nimmt", "smear"])
def test_a_game_that_plays_for_nothing_asks_nothing_of_it(client, slug):
    page = client.get(reverse("new_match", args=[slug])).content.decode()
    assert "What you play for" not in page


def test_a_table_s_new_match_asks_what_it_plays_for_too(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen", "Dee"])
    url = reverse("table_new_match", args=[table.public_id, "gongzhu"])
    page = client.get(url).content.decode()
    assert page.index("What you play for") < page.index("<summary>Options</summary>")
    response = client.post(url, {**PLAYERS, "stake": "0.01", "end": '"hands"', "hands": "4"})
    assert response.status_code == 302
    options = Match.objects.get().options
    assert (options["stake"], options["end"], options["hands"]) == (0.01, "hands", 4)


@pytest.mark.parametrize(
    "slug, name, when",
    [
        ("gongzhu", "floor", ("end", ['"floor"'])),
        ("gongzhu", "hands", ("end", ['"hands"'])),
        ("gongzhu", "ceiling", ("end", ['"floor"'])),
        ("gongzhu", "auto_expose_fourth", ("decks", ["1"])),
        ("six_nimmt", "limit", ("end", ['"66"'])),
        ("six_nimmt", "hands", ("end", ['"hand"', '"hands"'])),
        ("sanming", "kid_below", ("settle", ['"pairwise"'])),
        ("sanming", "bomb_points", ("bomb", ['"pay"'])),
        ("least_score", "asaf_lowest", ("scoring", ['"yaniv"'])),
        ("sheet", "stake", ("zero_sum", ["true"])),
    ],
)
def test_an_option_used_only_with_another_s_value_is_marked_to_hide(client, slug, name, when):
    page = client.get(reverse("new_match", args=[slug])).content.decode()
    field = page[: page.index(f'name="{name}"')].rsplit('<div class="field"', 1)[1]
    marked = json.loads(html.unescape(field.split('data-when="')[1].split('"')[0]))
    assert (marked["name"], marked["values"]) == when


def test_an_option_used_whatever_the_other_choices_is_not_marked(client):
    page = client.get(reverse("new_match", args=["gongzhu"])).content.decode()
    field = page[: page.index('name="multiplier"')].rsplit('<div class="field"', 1)[1]
    assert "data-when" not in field


def test_a_floor_left_as_it_was_with_a_number_of_hands_is_ignored(client):
    response = start(client, "gongzhu", end='"hands"', hands="8", floor="", ceiling="")
    assert response.status_code == 302
    options = Match.objects.get().options
    assert (options["end"], options["hands"]) == ("hands", 8) and "floor" not in options


def test_a_floor_typed_with_a_number_of_hands_is_questioned_next_to_it(client):
    page = start(client, "gongzhu", end='"hands"', hands="8", floor="2000").content.decode()
    field = page[page.index('name="floor"') :].split('<div class="field"')[0]
    assert (
        "Used only when “How the match ends” is “at a limit of card points”: choose that, or "
        "put this back to its default." in visible(field)
    )
    assert 'value="2000"' in field  # what was typed stays
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    "options, stored",
    [
        ({"zero_sum": "on", "stake": "0.5"}, {"zero_sum": True, "stake": 0.5}),
        ({"stake": "0"}, {"zero_sum": False}),  # the money field as drawn, zero sum left off
    ],
)
def test_a_sheet_plays_for_money_only_when_it_adds_up_to_zero(client, options, stored):
    response = client.post(reverse("new_match", args=["sheet"]), {**PLAYERS, **options})
    assert response.status_code == 302
    assert Match.objects.get().options == stored


def test_money_on_a_sheet_that_does_not_add_up_to_zero_is_questioned(client):
    page = client.post(reverse("new_match", args=["sheet"]), {**PLAYERS, "stake": "0.5"})
    assert "Used only with “Every round adds up to 0” ticked" in visible(page.content.decode())
    assert not Match.objects.exists()


def test_a_bomb_price_left_at_its_default_is_ignored_when_bombs_double(client):
    response = start(client, "sanming", player_3="", bomb_points="10", kid_below="5")
    assert response.status_code == 302
    assert "bomb_points" not in Match.objects.get().options


def test_a_box_hidden_with_the_choice_that_leaves_it_unused_is_not_questioned(client):
    # Two decks: "three exposed expose the fourth" is hidden and its box, disabled, not sent.
    response = start(client, "gongzhu", decks="2", all_red_pig="on")
    assert response.status_code == 302
    assert "auto_expose_fourth" not in Match.objects.get().options


def test_a_tables_next_match_starts_from_what_its_last_one_of_the_game_played_for(client):
    """The second Gongzhu of a table starts with the first one's stake and options as they
    stand (a stake added after Start included), said on the form; another game, and a table
    that never played Gongzhu, start from the game's defaults."""
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen", "Dee"])
    url = reverse("table_new_match", args=[table.public_id, "gongzhu"])
    fresh = client.get(url)
    assert "As last time" not in visible(fresh.content.decode()) and unfolded(fresh) == []
    assert fresh.context["form"]["stake"].value() == 0
    first = table.start_match("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {"mode": "pairs"})
    first.change_setup(first.players, {"mode": "pairs", "stake": 0.05, "multiplier": 10})
    table.start_match("sanming", ["Ann", "Bo", "Chen"], {"bean_rate": 3})
    again = client.get(url)
    assert "As last time: what you play for and the options, from this table's last Gongzhu" in (
        visible(again.content.decode())
    )
    assert unfolded(again) == ["Options"]  # the rule book's options it set are seen
    form = again.context["form"]
    assert (form["stake"].value(), form["multiplier"].value()) == (0.05, 10)
    assert form["mode"].value() == '"pairs"'
    answer = client.post(url, {**PLAYERS, **{k: form[k].value() for k in ("stake", "mode")}})
    assert answer.status_code == 302
    started = Match.objects.latest("pk").options
    assert (started["mode"], started["stake"]) == ("pairs", 0.05)
    other = client.get(reverse("table_new_match", args=[table.public_id, "least_score"]))
    assert "As last time" not in visible(other.content.decode())
    table.start_match("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {"hearts": "face", "stake": 1})
    assert unfolded(client.get(url)) == ["House rules"]


def unfolded(page):
    """The summaries of the form's sections drawn open."""
    return re.findall(
        r'<details class="options" open>\s*<summary>([^<]+)</summary>', page.content.decode()
    )
