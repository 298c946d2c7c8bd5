"""Names are text everywhere, writes need the CSRF and score tokens, headers are strict."""

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, Round

pytestmark = pytest.mark.django_db

EVIL_NAMES = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>']


@pytest.fixture
def match():
    match = Match.objects.create(game="least_score", players=EVIL_NAMES + ["Chen"])
    Round.objects.create(match=match, number=1, entry={"declarer": 0, "hands": [7, 15, 20]})
    Round.objects.create(match=match, number=2, entry={"declarer": 2, "hands": [9, 15, 3]})
    return match


@pytest.mark.parametrize("page", ["match", "watch", "history", "share"])
def test_player_names_are_shown_as_text(client, match, page):
    token = match.watch_id if page == "watch" else match.public_id
    html = client.get(reverse(page, args=[token])).content.decode()
    assert "<script>alert(1)" not in html
    assert "<img src=x" not in html
    if page in ("match", "watch"):
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_every_state_changing_request_needs_the_csrf_token(match):
    strict = Client(enforce_csrf_checks=True)
    form = {"declarer": "0", "hand-0": "1", "hand-1": "2", "hand-2": "3"}
    for name, args in [
        ("round_create", []),
        ("match_close", []),
        ("round_delete", [1]),
        ("round_edit", [1]),
        ("round_restore", [1]),
    ]:
        response = strict.post(reverse(name, args=[match.public_id, *args]), form)
        assert response.status_code == 403, name
    assert (
        strict.post(
            reverse("new_match", args=["least_score"]), {"player_0": "A", "player_1": "B"}
        ).status_code
        == 403
    )
    assert Round.objects.count() == 2
    assert Match.objects.count() == 1


def test_match_urls_are_long_random_tokens_not_ids(client, match):
    assert not match.public_id.isdigit()
    assert len(match.public_id) >= 24
    assert client.get(f"/m/{match.pk}/").status_code == 404
    assert client.get(f"/w/{match.pk}/").status_code == 404


def test_responses_carry_strict_security_headers(client, match):
    response = client.get(reverse("match", args=[match.public_id]))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_pages_have_no_inline_scripts_or_style_attributes(client):
    match = Match.objects.create(game="least_score", players=["Ann", "Bo"])
    for url in [
        "/",
        reverse("match", args=[match.public_id]),
        reverse("watch", args=[match.watch_id]),
        reverse("new_match", args=["gongzhu"]),
        reverse("share", args=[match.public_id]),
    ]:
        html = client.get(url).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert not re.search(r"\sstyle=", html), url
        assert not re.search(r"\son[a-z]+=", html), url


def test_behind_https_cookies_are_secure_and_hsts_is_sent(settings, client, match):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    plain = client.get(reverse("match", args=[match.public_id]))
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    secure = client.get(reverse("match", args=[match.public_id]), HTTP_X_FORWARDED_PROTO="https")
    assert secure["Strict-Transport-Security"].startswith("max-age=31536000")
    assert secure.cookies["sessionid"]["secure"]


def test_exports_keep_names_as_text(client, match):
    Match.objects.filter(pk=match.pk).update(players=['=HYPERLINK("x")', "@SUM(1)", "Chen"])
    sheet = client.get(reverse("export_csv", args=[match.public_id])).content.decode("utf-8-sig")
    header = sheet.splitlines()[0]
    assert "'=HYPERLINK" in header and "'@SUM(1)" in header
    document = client.get(reverse("export_json", args=[match.public_id])).json()
    assert document["players"][0] == '=HYPERLINK("x")'


def test_the_chart_shows_names_as_text(client, match):
    html = client.get(reverse("match", args=[match.public_id])).content.decode()
    chart = html.split("<svg", 1)[1]
    assert "<script>alert" not in chart and "<img src=x" not in chart
    assert "&lt;script&gt;" in chart


ROOT = Path(__file__).resolve().parent.parent


def test_no_template_comment_spans_lines():
    """Django's {# #} ends on its own line: one left open shows its text on the screen."""
    for path in (ROOT / "templates").rglob("*.html"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            assert line.count("{#") == line.count("#}"), f"{path.name}:{number}"
