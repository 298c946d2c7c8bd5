"""The attack round on changes other than rounds (issue 48): each finding's reproduction, now a
refusal in words or the right figure, on SQLite and (with DATABASE_URL) PostgreSQL."""

import re
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from django.test import Client
from django.urls import reverse

from games import ledger
from games.models import Match, Table
from games.records import store
from tests.html import visible

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
