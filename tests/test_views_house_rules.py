"""The new-match form's house rules: moved defaults, exact totals as presets or typed pairs, and
the match's "Rules and options" naming every variant in force."""

import json

import pytest
from django.urls import reverse

from games.models import Match
from tests.html import visible

pytestmark = pytest.mark.django_db

PLAYERS = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "player_3": "Dee"}


def start(client, slug, **options):
    """Post the new-match form; the response (a redirect to the match when it started)."""
    return client.post(reverse("new_match", args=[slug]), {**PLAYERS, **options})


def attribute(page, name, field):
    """The JSON in attribute name of the form field called field."""
    tag = next(t for t in page.split("<") if f'name="{field}"' in t)
    quoted = tag.split(f'{name}="')[1].split('"')[0]
    return json.loads(quoted.replace("&quot;", '"'))


def test_the_defaults_yaniv_moves_are_told_for_each_scoring(client):
    page = client.get(reverse("new_match", args=["least_score"])).content.decode()
    assert attribute(page, "data-defaults", "threshold") == {
        '"difference"': "100",
        '"yaniv"': "200",
    }
    assert attribute(page, "data-defaults", "penalty") == {'"difference"': "20", '"yaniv"': "30"}
    assert attribute(page, "data-defaults", "declare_max") == {'"difference"': "", '"yaniv"': "7"}
    assert attribute(page, "data-defaults", "tie") == {
        '"difference"': "Default: the declarer wins.",
        '"yaniv"': "Default: the declarer fails.",
    }
    assert attribute(page, "data-moves", "scoring") == {
        '"yaniv"': "By default then: Out past this total: 200; When the declarer ties the lowest "
        "hand: the declarer fails; Added to a failed declarer: 30; Declare only with a hand of "
        "at most: 7."
    }
    assert 'id="id_scoring_moves" aria-live="polite"></small>' in page  # the rule book: nothing


def test_a_refused_yaniv_form_still_says_the_moved_defaults(client):
    page = start(client, "least_score", scoring='"yaniv"', threshold="5000").content.decode()
    assert "By default then: Out past this total: 200; When the declarer ties" in visible(page)


def test_other_games_tell_their_moved_defaults_too(client):
    page = client.get(reverse("new_match", args=["sanming"])).content.decode()
    assert attribute(page, "data-defaults", "card_points") == {
        "17": "Default: the Sanming table.",
        "16": "Default: one a card.",
        "15": "Default: one a card.",
    }
    page = client.get(reverse("new_match", args=["gongzhu"])).content.decode()
    assert attribute(page, "data-defaults", "floor") == {"1": "1000", "2": "4000"}


@pytest.mark.parametrize(
    "chosen, typed, stored",
    [
        ("[[200, 150]]", "", [[200, 150]]),
        ("custom", "200 → 150, 100 → 50", [[200, 150], [100, 50]]),
        ("custom", "200 150, 100 50", [[200, 150], [100, 50]]),
        ("custom", "۲۰۰ ۱۵۰، ۱۰۰ ۵۰", [[200, 150], [100, 50]]),
        ("custom", "200->150，75=>0", [[200, 150], [75, 0]]),
        ("", "200 150", None),  # typed pairs count only with "custom"
    ],
)
def test_exact_totals_are_a_preset_or_the_pairs_typed(client, chosen, typed, stored):
    response = start(client, "least_score", exact_totals=chosen, exact_totals_custom=typed)
    assert response.status_code == 302
    assert Match.objects.get().options.get("exact_totals") == stored


@pytest.mark.parametrize(
    "typed", ["", "200", "200 → 250", "200 150, 200 100", "0 0", "200 → x", "10001 0", "2.5 1"]
)
def test_pairs_that_cannot_be_are_refused_in_words_as_typed(client, typed):
    response = start(client, "least_score", exact_totals="custom", exact_totals_custom=typed)
    page = response.content.decode()
    assert "Type pairs such as 200 → 150, 100 → 50: a total from 1 to 10000, then the smaller " in (
        visible(page)
    )
    assert f'value="{typed}"' in page or not typed
    assert '<option value="custom" selected>' in page
    assert not Match.objects.exists()


def test_exact_totals_with_halve_on_are_refused_next_to_the_exact_totals(client):
    page = start(client, "least_score", halve_on="50", exact_totals="[[200, 150]]").content.decode()
    field = page[page.index('name="exact_totals"') :].split('<div class="field">')[0]
    assert "cannot both be given" in visible(field)


@pytest.mark.parametrize(
    "slug, options, language, message",
    [
        (
            "sanming",
            {"kid_below": "100"},
            "en",
            "option 'Kid rule: totals below' must be below the target",
        ),
        (
            "sanming",
            {"kid_below": "100"},
            "es",
            "la opción Regla del «niño»: totales por debajo de tiene que ser menor",
        ),
        (
            "gongzhu",
            {"ceiling": "1", "end": '"open"'},
            "en",
            "Used only when “How the match ends” is “at a limit of card points”",
        ),
    ],
)
def test_a_refused_option_is_named_as_the_form_labels_it(client, slug, options, language, message):
    url = reverse("new_match", args=[slug])
    page = client.post(url, {**PLAYERS, **options}, HTTP_ACCEPT_LANGUAGE=language)
    assert message in visible(page.content.decode())


@pytest.mark.parametrize(
    "slug, options, shown",
    [
        (
            "least_score",
            {"scoring": '"yaniv"', "declare_max": "5", "asaf_lowest": '"hand"'},
            [
                "How a hand scoresThe Yaniv way",
                "Declare only with a hand of at most5",
                "On an Asaf, the lowest other handScores its hand",
            ],
        ),
        ("least_score", {"exact_totals": "[[50, 0], [100, 0]]"}, ["Back to 0 on 50 or 100"]),
        (
            "least_score",
            {"exact_totals": "custom", "exact_totals_custom": "200 150, 100 50"},
            ["Totals that change when landed on exactly200 → 150, 100 → 50"],
        ),
        (
            "sanming",
            {"deal": "16", "baodan": "on", "bomb": '"pay"', "settle": '"winner"'},
            [
                "Cards dealt to each player16",
                "Points for the cards leftOne a card",
                "A single card left scores 0On",
                "A bombIs paid by the others",
                "What each pays for a bomb10",
                "Who pays whom at the endIn every hand, the losers pay its winner",
            ],
        ),
        (
            "gongzhu",
            {"ceiling": "1000", "hearts": '"face"'},
            [
                "What the hearts are worthTheir face value",
                "Also end at plus this many card points1000",
            ],
        ),
        (
            "six_nimmt",
            {"end": '"hands"', "hands": "3"},
            ["How the match endsAfter a number of hands", "How many hands3"],
        ),
    ],
)
def test_rules_and_options_name_every_variant_in_force(client, slug, options, shown):
    page = client.get(start(client, slug, **options)["Location"]).content.decode()
    block = page[page.index('class="rules"') :]
    block = visible(block[: block.index("</details>")])
    for words in shown:
        assert words in block


@pytest.mark.parametrize(
    "language, said, difference",
    [
        (
            "en",
            "Scored the Yaniv way. Declare when your hand is low. If every other hand",
            "minus the declarer's",
        ),
        (
            "es",
            "Si no, es un Asaf: quien canta se anota lo que suma su mano más 30, quien",
            "menos la de quien",
        ),
    ],
)
def test_the_rules_of_a_yaniv_match_say_the_yaniv_way(client, language, said, difference):
    response = start(client, "least_score", scoring='"yaniv"', exact_totals="[[200, 150]]")
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE=language).content.decode()
    block = page[page.index('class="rules"') :]
    block = visible(block[: block.index("</dl>")])
    assert said in block and "200 → 150" in block
    assert difference not in block
