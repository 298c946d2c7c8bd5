"""What the browser tests do at every table: start a match, save a round."""

from playwright.sync_api import expect


def start_match(page, game, players, **options):
    """From the home screen: tap the game, type the players in seat order, set options, start."""
    page.goto("/")
    page.get_by_role("link", name=game).click()
    type_players(page, players)
    if options:
        page.get_by_text("Options").click()
        for name, value in options.items():
            page.locator(f"input[name={name}]").fill(str(value))
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()


def type_players(page, names):
    """Type the players in seat order, tapping "Add a player" for a seat not shown yet."""
    expect(page.locator("input[name=player_0]")).to_be_visible()
    page.wait_for_load_state("domcontentloaded")  # static/new_match.js has shown the seats
    for seat, name in enumerate(names):
        field = page.locator(f"input[name=player_{seat}]")
        if not field.is_visible():
            page.get_by_role("button", name="Add a player").click()
        field.fill(name)


def save(page, button="Save round"):
    """Tap a save button and wait until htmx has swapped in the answer."""
    with page.expect_response(lambda r: r.request.method == "POST" and "/preview/" not in r.url):
        page.get_by_role("button", name=button).click()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
