"""A score-sheet evening where players come and go (issue 47's acceptance), at 390 x 844: Ann,
Bo and Chen play three rounds, Eve joins at the average, Bo leaves after round 5, the table
closes after round 6; online in English (light) and in Persian (dark), and offline, sent once.

The totals, worked by hand (late_start average: ⌊mean + ½⌋):
    round   Ann  Bo  Chen  Eve
    1        5    3    1    –       after 3 rounds: Ann 8, Bo 8, Chen 9
    2        2    4    7    –       Eve starts at (8 + 8 + 9) / 3 = 8.33 → 8
    3        1    1    1    –
    4        7   15    0    3       Ann 15, Bo 23, Chen 9, Eve 11
    5        1    2    4    2       Ann 16, Bo 25, Chen 13, Eve 13; Bo leaves with 25
    6        3    –    5    9       Ann 19, Chen 18, Eve 22: Eve wins (Bo's 25 is frozen)
"""

import pytest
from playwright.sync_api import expect

from games import memo
from games.models import Match, Round, SetupChange, Table
from games.offline import runtime_ready
from tests.conftest import phone_in, shots
from tests.test_browser_offline import READY_MS, ready, rounds_stored
from tests.test_browser_standings import totals_on_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BEFORE = [[5, 3, 1], [2, 4, 7], [1, 1, 1]]
WITH_EVE = [[7, 15, 0, 3], [1, 2, 4, 2]]
WITHOUT_BO = [3, None, 5, 9]
TOTALS = [19, 25, 18, 22]


def save(page, points):
    """Type a round's points (None: no field, the player is not asked) and save it."""
    for seat, value in enumerate(points):
        field = page.locator(f"#entry input[name=points-{seat}]")
        if value is None:
            expect(field).to_have_count(0)
        else:
            field.fill(str(value))
    heading = page.locator("[data-round-heading]").inner_text()
    page.locator("#entry button[data-save]").click()
    expect(page.locator("[data-round-heading]")).not_to_have_text(heading)
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def eve_joins(page, name="Eve"):
    """Someone joins: Eve, between Chen and Ann, at the average; the figure is said first."""
    page.locator("a[data-seats][href$='/join/']").click()
    page.locator("#join input[name=name]").fill(name)
    page.locator("label:has(input[name=late_start][value=average])").click()
    expect(page.locator("#join input[name=late_start][value=average]")).to_be_checked()
    page.locator("#join button[type=submit]:not([name])").click()
    expect(page.locator("#join .notice")).to_contain_text(name)
    figure = page.locator("#join .notice").inner_text()
    page.locator("#join button[name=confirm]").click()
    return figure


def bo_leaves(page):
    page.locator("a[data-seats][href$='/leave/']").click()
    page.locator("button[name=name][value=Bo]").click()


def result_of(match):
    match.refresh_from_db()
    memo.forget()
    return memo.board(match)["result"]


@pytest.mark.parametrize("language, scheme", [("en", "light"), ("fa", "dark")])
def test_an_evening_where_eve_joins_at_the_average_and_bo_leaves(
    browser, live_server, language, scheme
):
    match = Match.start("sheet", ["Ann", "Bo", "Chen"], {"title": "Rummy"})
    page = phone_in(browser, live_server, language, scheme)
    page.goto(f"/m/{match.public_id}/")
    for points in BEFORE:
        save(page, points)
    figure = eve_joins(page)
    assert "8" in figure or "۸" in figure  # 8.33 rounded, said before it is confirmed
    said = page.locator(".undo")
    expect(said).to_contain_text("Eve")
    expect(said.get_by_role("button")).to_be_visible()  # Undo
    shots(page, f"players-joined-{language}")
    expect(page.locator("#entry input[name^=points-]")).to_have_count(4)
    for points in WITH_EVE:
        save(page, points)
        totals_on_screen(page, 4, 844)  # every playing player's total, first screen
    bo_leaves(page)
    expect(page.locator(".undo")).to_contain_text("Bo")
    save(page, WITHOUT_BO)
    totals_on_screen(page, 4, 844)  # Bo's frozen total too, said as such
    expect(page.locator(".standings .to-go").last).to_be_visible()
    expect(page.locator(".scoreboard td.away")).to_have_count(3 + 1)  # Eve 1-3, Bo 6
    shots(page, f"players-evening-{language}")
    result = result_of(match)
    assert result["totals"] == TOTALS
    assert (result["start"], result["left"]) == ([0, 0, 0, 8], {"Bo": 5})
    if language == "en":
        assert page.locator(".scoreboard tfoot td").all_inner_texts() == list(map(str, TOTALS))
        expect(page.locator(".standings li").last).to_contain_text("left after round 5")
    match.set_closed(True)
    assert result_of(match)["winners"] == ["Eve"]
    page.context.close()


@pytest.mark.skipif(
    not runtime_ready(),
    reason="the offline runtime (Pyodide) is not fetched: `make offline-runtime` needs npm",
)
def test_the_same_evening_offline_is_sent_once_in_order(browser, live_server):
    match = Match.start("sheet", ["Ann", "Bo", "Chen"], {"title": "Rummy"})
    page = phone_in(browser, live_server, "en", "light")
    page.goto(f"/m/{match.public_id}/")
    for points in BEFORE:
        save(page, points)
    ready(page)
    page.context.set_offline(True)
    figure = eve_joins(page)
    assert "Eve starts at 8, the average total." in figure
    expect(page.locator(".undo")).to_contain_text("Eve joined: plays from round 4, starting at 8.")
    for points in WITH_EVE:
        save(page, points)
    bo_leaves(page)
    expect(page.locator(".undo")).to_contain_text("Bo left after round 5, with 25.")
    save(page, WITHOUT_BO)
    note = page.locator("[data-offline-note]")
    expect(note).to_contain_text("3 rounds and 2 changes waiting to be sent")
    assert page.locator(".scoreboard tfoot td").all_inner_texts() == list(map(str, TOTALS))
    shots(page, "players-offline")
    assert Round.objects.filter(match=match).count() == 3  # nothing sent yet

    page.context.set_offline(False)
    expect(note).to_be_hidden(timeout=READY_MS)
    expect(page.locator("[data-offline-conflict]")).to_be_hidden()
    assert rounds_stored(6, match=match)
    assert SetupChange.objects.filter(match=match).count() == 2  # the join and the leave, once
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen", "Eve"]
    numbers = list(match.rounds.values_list("number", flat=True))
    assert (match.joined, match.left) == ({"Eve": numbers[3]}, {"Bo": numbers[4]})
    result = result_of(match)
    assert result["totals"] == TOTALS
    assert [r["points"] for r in result["rounds"]][3:] == [*WITH_EVE, WITHOUT_BO]
    assert page.locator(".scoreboard tfoot td").all_inner_texts() == list(map(str, TOTALS))
    page.context.close()


FIVE = ["Ann", "Bo", "Chen", "Dee", "Eve"]


@pytest.mark.parametrize("language, scheme", [("en", "light"), ("fa", "dark")])
def test_a_gongzhu_table_of_five_rotates_who_sits_out(browser, live_server, language, scheme):
    """Each new Gongzhu match of the table suggests who sits out: who sat out least, then
    longest ago; a tap puts another out instead; the statistics count it."""
    table = Table.objects.create(name="Thursday", people=FIVE)
    page = phone_in(browser, live_server, language, scheme)
    new_gongzhu = f"/t/{table.public_id}/new/gongzhu/"
    out = []
    for number in range(3):
        page.goto(f"/t/{table.public_id}/")
        page.locator(f"a[href='{new_gongzhu}']").click()
        sitting = page.locator("input[name=sat_out]")
        if number == 1:  # Bo is suggested: a tap puts Dee out instead
            assert sitting.get_attribute("value") == "Bo"
            page.locator(".sitting-out a", has_text="Dee").click()
            shots(page, f"players-sit-out-{language}")
        out.append(sitting.get_attribute("value"))
        seats = [page.locator(f"input[name=player_{seat}]").input_value() for seat in range(4)]
        assert seats == [name for name in FIVE if name != out[-1]]
        page.locator("#new-match button[type=submit]").click()
        expect(page.locator("#entry")).to_be_visible()
    assert out == ["Ann", "Dee", "Bo"]
    assert [m.sat_out for m in table.matches.order_by("pk")] == [["Ann"], ["Dee"], ["Bo"]]
    page.goto(f"{new_gongzhu}")
    assert page.locator("input[name=sat_out]").get_attribute("value") == "Chen"
    page.context.close()
