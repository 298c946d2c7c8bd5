"""Every string marked for translation has a translation in each of the four languages."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from games.models import Match

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["zh_Hans", "es", "fa", "mn"]
SKIP = shutil.ignore_patterns(
    ".venv",
    ".git",
    "data",
    "staticfiles",
    "test-artifacts",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    "bench",
)


def untranslated(po_file):
    """The msgids of po_file that have no translation (or only a fuzzy one)."""
    entries = []
    for flag in ("--untranslated", "--only-fuzzy"):
        out = subprocess.run(
            ["msgattrib", flag, "--no-obsolete", "--no-wrap", str(po_file)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        entries += [m for m in re.findall(r'^msgid "(.+)"$', out, re.M)]
    return entries


@pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="needs gettext: apt-get install gettext"
)
def test_every_marked_string_is_translated_in_every_language(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=SKIP)
    args = [sys.executable, "manage.py", "makemessages", "--no-location", "-v0"]
    args += [f"-l{language}" for language in LANGUAGES]
    subprocess.run(
        args, cwd=tree, check=True, env={"PATH": "/usr/bin:/bin", "DATA_DIR": str(tmp_path)}
    )
    missing = {
        language: untranslated(tree / "locale" / language / "LC_MESSAGES" / "django.po")
        for language in LANGUAGES
    }
    assert missing == {language: [] for language in LANGUAGES}


@pytest.mark.django_db
def test_the_phone_language_is_used_and_rtl_for_persian(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert 'lang="fa" dir="rtl"' in page
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()
    assert 'lang="zh-hans"' in page


@pytest.mark.django_db
def test_switching_language_keeps_the_player_on_the_same_match(client):
    match = Match.objects.create(game="least_score", players=["Ann", "Bo"])
    here = reverse("match", args=[match.public_id])
    response = client.post(reverse("set_language"), {"language": "es", "next": here})
    assert response.status_code == 302 and response["Location"] == here
    page = client.get(here).content.decode()
    assert 'lang="es"' in page


@pytest.mark.django_db
def test_money_is_written_the_way_the_reader_writes_numbers(client):
    import json

    document = json.loads((ROOT / "tests/examples/gongzhu-match-to-floor.match.json").read_text())
    match = Match.objects.create(
        game="gongzhu", players=document["players"], options=document["options"]
    )
    for number, entry in enumerate(document["rounds"], 1):
        match.rounds.create(number=number, entry=entry)
    english = client.get(reverse("match", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE="en")
    spanish = client.get(reverse("watch", args=[match.watch_id]), HTTP_ACCEPT_LANGUAGE="es")
    assert "+81.96" in english.content.decode()
    assert "+81,96" in spanish.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, name",
    [("en", "Scorekeeper"), ("zh-CN", "记分器"), ("fa", "امتیازشمار"), ("mn", "Онооны дэвтэр")],
)
def test_the_tab_title_is_the_apps_name_in_the_readers_language(client, language, name):
    titles = [
        re.search(r"<title>(.*)</title>", client.get(url, HTTP_ACCEPT_LANGUAGE=language).text)[1]
        for url in ["/", reverse("new_match", args=["least_score"]), "/no-such-page/"]
    ]
    assert titles[0] == name
    assert all(title.endswith(f" · {name}") for title in titles[1:])
