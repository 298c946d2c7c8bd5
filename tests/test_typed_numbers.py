"""Numbers as each phone keyboard types them: Persian ۵۰، ۱۰۰, Arabic ٥٠،١٠٠, Chinese 50，100,
full-width ５０ and the Arabic decimal separator ٫, read in the options and in every entry form."""

import pytest
from django.urls import reverse

from games.models import Match, Round
from games.rules import GAMES, replay
from games.rules.base import ascii_numbers, listed
from tests.html import visible
from tests.views import new_least_score, post_round

FIFTY_AND_HUNDRED = ["50, 100", "۵۰، ۱۰۰", "٥٠،١٠٠", "50，100", "５０，１００", "۵۰ ۱۰۰"]


def test_a_keyboards_digits_and_separators_are_read_in_ascii_and_the_rest_kept():
    assert ascii_numbers("۱۲٫۵، ٣٤，５６ Ann") == "12.5, 34,56 Ann"
    assert [listed(text) for text in FIFTY_AND_HUNDRED] == [["50", "100"]] * 6


@pytest.mark.django_db
@pytest.mark.parametrize("halve_on", FIFTY_AND_HUNDRED)
def test_a_list_option_takes_the_keyboards_digits_and_commas(client, halve_on):
    assert new_least_score(client, halve_on=halve_on).options["halve_on"] == [50, 100]


@pytest.mark.django_db
@pytest.mark.parametrize("threshold", ["۲۵", "٢٥", "２５"])
def test_a_whole_number_option_takes_the_keyboards_digits(client, threshold):
    assert new_least_score(client, threshold=threshold).options["threshold"] == 25


@pytest.mark.django_db
@pytest.mark.parametrize("language, stake", [("fa", "۰٫۵"), ("fa", "٠٫٥"), ("es", "0,5")])
def test_a_number_option_takes_the_keyboards_decimal_separator(client, language, stake):
    form = {f"player_{seat}": name for seat, name in enumerate(["Ann", "Bo", "Chen", "Dee"])}
    form["stake"] = stake
    url = reverse("new_match", args=["gongzhu"])
    response = client.post(url, form, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 302
    assert Match.objects.get().options["stake"] == 0.5


@pytest.mark.django_db
def test_a_refused_list_is_shown_again_as_typed(client):
    form = {"player_0": "Ann", "player_1": "Bo", "halve_on": "۵۰، ۷۵"}
    response = client.post(reverse("new_match", args=["least_score"]), form)
    assert "option 'Totals halved when landing exactly on' cannot be [50, 75]" in visible(
        response.content.decode()
    )
    assert 'value="۵۰، ۷۵"' in response.content.decode()


@pytest.mark.django_db
def test_a_round_typed_in_persian_and_arabic_digits_is_saved(client):
    match = new_least_score(client)
    assert post_round(client, match, "۰", "۷", "١٥", "２０").status_code == 302
    assert Round.objects.get().entry == {"declarer": 0, "hands": [7, 15, 20]}


def table_after(game, players):
    return replay({"game": game, "players": players, "rounds": []})[1]


@pytest.mark.parametrize(
    "game, players, form, entry",
    [
        (
            "sanming",
            3,
            {"winner": ["۱"], "cards_left-0": ["۱۲"], "cards_left-2": ["٣"], "bombed-0": ["１"]},
            {"winner": 1, "cards_left": [12, None, 3], "bombed": [1, 0, 0]},
        ),
        (
            "six_nimmt",
            3,
            {
                "mode": ["bullheads"],
                "bullheads-0": ["۱۸"],
                "bullheads-1": ["١١"],
                "bullheads-2": ["４"],
            },
            {"bullheads": [18, 11, 4]},
        ),
        (
            "smear",
            4,
            {
                **{key: ["۰"] for key in ("bidder", "high", "low", "jack", "game")},
                **{"bid": ["۳"], "game_points-0": ["۴۵"], "game_points-1": ["٣٠"]},
            },
            {
                **{key: 0 for key in ("bidder", "high", "low", "jack", "game")},
                **{"bid": 3, "game_points": [45, 30]},
            },
        ),
        (
            "least_score",
            3,
            {"declarer": ["۲"], "hand-0": ["۹"], "hand-1": ["٤٠"], "hand-2": ["３"]},
            {"declarer": 2, "hands": [9, 40, 3]},
        ),
    ],
)
def test_every_entry_form_reads_the_keyboards_digits(game, players, form, entry):
    names = ["Ann", "Bo", "Chen", "Dee"][:players]
    assert GAMES[game].entry_from_form(form, table_after(game, names)) == entry


def test_typed_cards_and_card_numbers_read_every_keyboards_separators():
    least, six = GAMES["least_score"], GAMES["six_nimmt"]
    table = least.new_table(["Ann", "Bo"], least.read_options({}, 2))
    form = {"declarer": ["0"], "cardtext-0": ["10C，3S"], "hand-1": ["9"]}
    assert least.entry_from_form(form, table)["hands"][0] == ["10C", "3S"]
    table = six.new_table(["Ann", "Bo"], six.read_options({}, 2))
    form = {"mode": ["cards"], "taken-0": ["۱۰، ۲۰"], "taken-1": ["3"]}
    assert six.entry_from_form(form, table)["taken"][0] == [10, 20]
