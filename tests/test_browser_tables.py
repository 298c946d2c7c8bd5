"""The regulars' table on a phone: its balances at a glance, light and dark; made from Home,
a match started from it with a name that is nobody's asked about."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Match, Table
from games.records import store
from tests.conftest import ARTIFACTS, PHONE, screenshot
from tests.test_tables import EVENINGS, PEOPLE, example, on

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table():
    """Thursday Gongzhu: three evenings of Gongzhu at a stake and Sanming for beans, 2 payments."""
    made = Table.objects.create(name="Thursday Gongzhu", people=PEOPLE)
    for day, names in EVENINGS:
        for name in names:
            match = store(example(name))
            made.take_match(match)
            on(match, day)
    made.pay("Dee", "Ann", 20, "money")
    made.pay("Chen", "Ann", 100, "beans")
    return made


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_balances_are_seen_at_a_glance_on_a_phone(phone, table, scheme):
    page = phone
    page.emulate_media(color_scheme=scheme)
    page.goto(f"/t/{table.public_id}/")
    balances = page.locator(".table-balance")
    expect(balances).to_have_count(2)
    beans = balances.first
    expect(beans.locator("h2")).to_have_text("Balance in beans")
    # every person's balance in beans and who pays whom, on the first screen, nothing to scroll
    for row in beans.locator("li").all():
        box = row.bounding_box()
        assert box["y"] + box["height"] <= 844 and box["x"] + box["width"] <= 390
    expect(beans.locator(".transfers li").first).to_contain_text("Chen pays Ann")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    leader = beans.locator("li.leader")
    expect(leader).to_contain_text("Ann")
    colours = leader.evaluate(
        "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    )
    assert colours[0] != colours[1]
    chart = page.locator(".table-chart svg").first
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"table-{scheme}.png"))  # what a phone shows first
    screenshot(page, f"table-{scheme}-full")


def test_a_table_made_from_home_starts_a_match_asking_about_a_stranger(phone):
    page = phone
    page.goto("/")
    page.get_by_role("link", name="Make a table").click()
    page.get_by_label("Name").fill("Thursday Gongzhu")
    page.get_by_label("People, one a line").fill("Ann\nBo\nChen")
    page.get_by_role("button", name="Make the table").click()
    expect(page.locator("h1")).to_have_text("Thursday Gongzhu")
    page.get_by_role("link", name="Sanming run-fast").click()
    seats = page.locator("input[name^=player_]")
    expect(seats.nth(0)).to_have_value("Ann")
    expect(seats.nth(2)).to_have_value("Chen")
    seats.nth(2).fill("Dee")
    page.get_by_role("button", name="Start").click()
    question = page.locator(".table-question")
    expect(question).to_contain_text("Dee is not one of this table's people.")
    assert not Match.objects.exists()
    question.get_by_role("button", name="Dee is someone new: add to the table").click()
    expect(page).to_have_url(re.compile(r"/m/[\w-]+/$"))
    assert Table.objects.get().people == ["Ann", "Bo", "Chen", "Dee"]
    assert Match.objects.get().table == Table.objects.get()


def test_a_table_opened_once_shows_offline_as_of_that_visit(phone, table):
    page = phone
    page.goto(f"/m/{table.matches.first().public_id}/")  # a match page installs the worker
    worker_controls(page)
    page.goto(f"/t/{table.public_id}/")
    note = page.locator("[data-table-kept]")
    expect(note).to_be_hidden()
    page.context.set_offline(True)
    page.reload()
    expect(note).to_have_text(re.compile(r"^Offline: the table as of .*\d\d.*need the network\.$"))
    expect(page.locator(".table-balance").first).to_contain_text("Chen pays Ann")
    screenshot(page, "table-offline")


def worker_controls(page):
    """Wait until the service worker (registered by a match page) controls the page."""
    for _ in range(600):
        if page.evaluate(
            "navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
        ):
            return
        page.wait_for_timeout(100)
    pytest.fail("the service worker never took the page")


@pytest.mark.parametrize("language", ["en", "fa"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_table_screen_breaks_a_wcag_22_aa_rule(browser, live_server, table, language, scheme):
    table.start_match("sanming", ["Ann", "Bo", "Chen"], {})  # a match in play
    context = browser.new_context(
        base_url=live_server.url,
        color_scheme=scheme,
        locale=language,
        extra_http_headers={"Accept-Language": language},
        **PHONE,
    )
    page = context.new_page()
    found = {}
    screens = [f"/t/{table.public_id}/", f"/tw/{table.watch_id}/", "/tables/new/"]
    for path in [*screens, f"/t/{table.public_id}/new/gongzhu/"]:
        page.goto(path)
        found[path] = violations(page)
    page.locator("input[name=player_3]").fill("Eve")  # a name nobody at the table has
    page.locator("#new-match button[type=submit]").click()
    expect(page.locator(".table-question")).to_be_visible()
    found["the question"] = violations(page)
    context.close()
    assert found == {path: [] for path in found}


def violations(page):
    """axe-core's WCAG 2.2 AA violations on the page, each with its first nodes."""
    from axe_playwright_python.sync_playwright import Axe

    from tests.test_accessibility import TAGS

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS}})
    return [
        f"{v['id']}: {[node['target'] for node in v['nodes']][:3]}"
        for v in results.response["violations"]
    ]


def test_paid_next_to_a_transfer_records_it_and_the_balances_move(phone, table):
    page = phone
    page.goto(f"/t/{table.public_id}/")
    beans = page.locator(".table-balance").first
    transfers = beans.locator(".transfers li")
    expect(transfers).to_have_count(2)
    first = transfers.first.locator("span").inner_text()
    transfers.first.get_by_role("button", name="Paid").click()
    expect(transfers).to_have_count(1)
    assert first not in transfers.first.inner_text()
    payment = table.payments.order_by("pk").last()
    assert (payment.payer, payment.payee, payment.unit) == ("Chen", "Ann", "beans")
    said = f"Chen paid Ann {payment.amount:.0f} beans"  # a whole number of beans, as said
    expect(page.locator(".table-payments")).to_contain_text(said)


def test_share_the_result_on_the_table_makes_its_picture(browser, live_server, table):
    context = browser.new_context(base_url=live_server.url, accept_downloads=True, **PHONE)
    page = context.new_page()
    page.goto(f"/t/{table.watch_id}/".replace("/t/", "/tw/"))
    with page.expect_download() as downloaded:
        page.get_by_role("button", name="Share the result").click()
    path = ARTIFACTS / "table-card.png"
    downloaded.value.save_as(path)
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(header[16:20]) == 780
    context.close()
