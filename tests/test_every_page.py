"""Every page in every language reads as a native reader expects: no doubled space, no sentence
that starts in lower case, in Persian no sign or full stop on the wrong side of a number, and one
digit system on a page. Rendered HTML, read as a reader sees it (no browser: fast)."""

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.models import Table
from games.records import store
from tests.test_accessibility import EXAMPLES, screens, stored

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "zh-hans", "es", "fa", "mn"]
# Where a sentence (or a label read as one) begins.
BLOCKS = {
    *"p li h1 h2 h3 h4 dt dd th td button label legend summary caption figcaption option".split(),
    "title",
}
# What is typed or code, never a sentence: names, links, the players' own text.
VERBATIM = {"code", "pre", "script", "style", "textarea", "bdi"}
ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
LATIN_DIGIT = re.compile(r"[0-9]")
PERSIAN_DIGIT = re.compile(r"[\u06f0-\u06f9\u0660-\u0669]")
LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
# A sign beside a number, a full stop after one: both move in a right-to-left line.
LOOSE_SIGN = re.compile(r"(?<![\w-])[-+\u2212]\d|\d[-+\u2212](?![\w-])")


class Reader(HTMLParser):
    """Collects a page's text as read: its sentence starts, doubled spaces, digits, and (in a
    right-to-left page) the pieces of text not isolated left to right."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, isolated left to right, verbatim)
        self.starts = []  # text that begins a block
        self.at_start = False
        self.texts = []  # every piece of text and attribute
        self.loose = []  # text outside any left-to-right isolation (bidi only)
        self.isolated = []  # text inside <bdi dir="ltr">

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ATTRIBUTES & attrs.keys():
            self.texts.append(attrs[name] or "")
        # dir="ltr" isolates (HTML's own style sheet); a chart's SVG is left to right (app.css).
        ltr = attrs.get("dir") == "ltr" or tag == "svg" or self.ltr()
        verbatim = tag in VERBATIM or "link" in (attrs.get("class") or "") or self.verbatim()
        if tag in {"br", "img", "input", "meta", "link", "hr", "wbr", "source"}:
            return
        self.stack.append((tag, ltr, verbatim))
        if tag in BLOCKS:
            self.at_start = True

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break
        if tag in BLOCKS:
            self.at_start = False

    def ltr(self):
        return bool(self.stack) and self.stack[-1][1]

    def verbatim(self):
        return bool(self.stack) and self.stack[-1][2]

    def handle_data(self, data):
        if any(tag in {"script", "style", "template"} for tag, *_ in self.stack):
            return
        self.texts.append(data)
        if self.ltr():
            self.isolated.append(data)
        else:
            self.loose.append(data)
        if self.at_start and data.strip():
            self.at_start = False
            if not self.verbatim():
                self.starts.append(data.strip())


def outside_isolates(text):
    """text without what U+2066 ... U+2069 isolates left to right."""
    return re.sub(f"{LRI}[^{PDI}]*{PDI}", " ", text)


def findings(page, bidi):
    reader = Reader()
    reader.feed(page)
    text = "\n".join(reader.texts)
    found = [f"doubled space: {m.group(0)!r}" for m in re.finditer(r"\S[ \u00a0]{2,}\S", text)]
    found += [f"space after {m.group(0)!r}" for m in re.finditer(r"[。：；！？，] \S", text)]
    found += [f"lower-case start: {s[:40]!r}" for s in reader.starts if s[0].islower()]
    found += [
        f"lower-case sentence: {m.group(0)!r}"
        for m in re.finditer(r"\w[.!?。] ([^\W\d_])\w*", text)
        if m.group(1).islower()
    ]
    if LATIN_DIGIT.search(text) and PERSIAN_DIGIT.search(text):
        found.append(f"two digit systems: {PERSIAN_DIGIT.findall(text)[:3]}")
    if bidi:
        loose = outside_isolates("\n".join(reader.loose))
        found += [f"loose sign: {m.group(0)!r}" for m in LOOSE_SIGN.finditer(loose)]
        found += [
            f"full stop inside a number's isolation: {piece!r}"
            for piece in reader.isolated
            if re.search(r"\d[.。]\s*$|^\s*[.。]\d", piece)
        ]
    return found


def example(name):
    return json.loads((EXAMPLES / f"{name}.match.json").read_text(encoding="utf-8"))


def pages():
    """(name, path) of every page a player reaches, with a table that plays for money."""
    paths = screens()
    money = Table.objects.create(
        name="Thursday Gongzhu", people=["Ann", "Bo", "Chen", "Dee"], currency="تومان"
    )
    ended = store(example("gongzhu-match-to-floor"))
    money.take_match(ended)
    money.pay("Dee", "Ann", 5, "money")
    at_table = money.start_match("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {"stake": 0.01})
    match = stored("sheet-mahjong-stake")
    paths += [
        ("phone name", reverse("name_phone")),
        ("offline phone page", reverse("offline_match")),
        ("stake match", reverse("match", args=[match.public_id])),
        ("stake share", reverse("share", args=[match.public_id])),
        ("stake watch", reverse("watch", args=[match.watch_id])),
        ("money table", reverse("table", args=[money.public_id])),
        ("a table's match", reverse("match", args=[at_table.public_id])),
        ("a table's ended match", reverse("match", args=[ended.public_id])),
        ("its watch page (the TV board)", reverse("watch", args=[ended.watch_id])),
        ("the table's person", reverse("table_person", args=[money.public_id, 1])),
        ("the table's setup", reverse("table_setup", args=[money.public_id])),
    ]
    return paths


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_reads_right(client, language):
    found = {}
    for name, path in pages():
        response = client.get(path, headers={"accept-language": language})
        assert response.status_code == 200, (name, path, response.status_code)
        problems = findings(response.content.decode(), bidi=language == "fa")
        if problems:
            found[name] = sorted(set(problems))[:8]
    assert found == {}
