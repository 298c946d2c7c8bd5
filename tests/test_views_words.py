"""Words a player did not understand: each game term on a screen is a word a player uses or is
explained where it appears, one tap away, in every language; plurals by each language's rules;
Gongzhu's standings say which number is which; a link shown as text breaks only between its
parts."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import rules
from games.models import Match
from tests.html import ISOLATES, visible

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "zh-hans", "es", "fa", "mn"]
# Said of a Gongzhu hand: the pig to Ann, the sheep to Bo, the transformer to Chen, the hearts
# to Dee (the breakdown says "sheep", "transformer", "after evening out").
HAND = {"captured": [["QS"], ["JD"], ["10C"], [f"{r}H" for r in "AKQJ98765432"] + ["10H"]]}
# Words once on a screen that no player used, or that said the wrong thing.
NOT_SAID = ["kid line", "bean rate", "kid: zeroed", "floor", "beans a point. 1", "Result", "Amount"]


def page_text(client, url, language="en"):
    """The page's text as read, each run of white space (and each tag) one space."""
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return " ".join(visible(re.sub(r"<[^>]+>", " \\g<0>", html)).split())


def terms_block(html):
    """The text of the "What these words mean" block of a page, or ''."""
    found = re.search(r'<details class="terms">(.*?)</details>', html, re.S)
    return visible(found.group(1)) if found else ""


@pytest.mark.parametrize("language", LANGUAGES)
def test_gongzhu_s_words_are_explained_under_the_hand_that_uses_them(client, language):
    match = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {})
    match.add_round(HAND)
    html = client.get(reverse("match", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE=language)
    block = terms_block(html.content.decode())
    game = rules.GAMES["gongzhu"]
    with translation.override(language):
        said = {
            word: translation.gettext(what)
            for word, what in game.terms.items()
            if word in ("pig", "sheep", "transformer", "evening out")
        }
    assert len(said) == 4
    for sentence in said.values():
        assert sentence.translate(ISOLATES) in block, (language, sentence)


def test_only_the_words_a_breakdown_uses_are_explained(client):
    match = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {})
    match.add_round(HAND)
    block = terms_block(client.get(reverse("match", args=[match.public_id])).content.decode())
    assert "The sheep is J♦" in block and "grand slam" not in block


def test_a_game_without_such_words_explains_nothing(client):
    match = Match.start("sheet", ["Ann", "Bo"], {})
    match.add_round({"points": [3, 4]})
    assert terms_block(client.get(reverse("match", args=[match.public_id])).content.decode()) == ""


def test_history_explains_the_words_of_what_restore_brings_back(client):
    match = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {})
    match.add_round(HAND)
    match.delete_round(1)
    html = client.get(reverse("history", args=[match.public_id])).content.decode()
    assert "The transformer is 10♣" in terms_block(html)


def ended_sanming(rate=1, **options):
    """Ann a kid (0), Bo 8, Chen 136: the kid rule applies."""
    match = Match.start("sanming", ["Ann", "Bo", "Chen"], {"bean_rate": rate, **options})
    for _hand in range(2):
        match.add_round({"winner": 0, "cards_left": [None, 4, 17]})
    return match


@pytest.mark.parametrize(
    "rate, language, said",
    [
        (1, "en", "Settled at 1 bean a point."),
        (2, "en", "Settled at 2 beans a point."),
        (0.5, "en", "Settled at 0.5 beans a point."),
        (1, "es", "1 ficha por punto"),
        (2, "es", "2 fichas por punto"),
    ],
)
def test_the_beans_a_point_follow_each_language_s_plural(client, rate, language, said):
    match = ended_sanming(rate)
    assert said in page_text(client, reverse("match", args=[match.public_id]), language)


def test_the_kid_rule_says_what_happens_to_the_kid_not_zeroed(client):
    text = page_text(client, reverse("match", args=[ended_sanming().public_id]))
    assert "kid: zeroed" not in text
    assert "Ann below 5: counts 0" in text and "Bo counts double" in text
    assert "when the match ends is a kid: their total counts 0" in text


def test_the_settlement_heads_its_columns_in_points_and_what_is_paid(client):
    text = page_text(client, reverse("match", args=[ended_sanming().public_id]))
    assert "Points Beans" in text[text.index("Settlement") :]
    match = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {"end": "hands", "hands": 1})
    match.add_round(HAND)
    text = page_text(client, reverse("match", args=[match.public_id]))
    assert "Points Money" in text[text.index("Settlement") :]


@pytest.mark.parametrize(
    "slug", ["gongzhu", "sanming", "sheet", "least_score", "six_nimmt", "smear"]
)
def test_the_words_no_player_used_are_gone_from_the_new_match_form(client, slug):
    text = page_text(client, reverse("new_match", args=[slug]))
    for words in NOT_SAID:
        assert words not in text, (slug, words)


def test_the_words_no_player_used_are_gone_from_an_ended_match(client):
    gongzhu = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {"end": "hands", "hands": 1})
    gongzhu.add_round(HAND)
    for match in (ended_sanming(), gongzhu):
        text = page_text(client, reverse("match", args=[match.public_id]))
        for words in NOT_SAID:
            assert words not in text, (match.game, words)


def test_gongzhu_s_standings_say_the_card_points_are_the_other_number(client):
    match = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {})
    match.add_round(HAND)
    html = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "Ann card points -100 of -1000 -2604" in " ".join(visible(html).split())


def test_a_shared_link_breaks_only_between_its_parts(client):
    match = Match.start("sheet", ["Ann", "Bo"], {})
    html = client.get(reverse("share", args=[match.public_id])).content.decode()
    # the scheme and host whole, then a break only after each / of the path, the token whole
    assert f">http://testserver/<wbr>m/<wbr>{match.public_id}/<wbr></a>" in html
    text = visible(html)
    assert "Score link" in text and "Watch link" in text
