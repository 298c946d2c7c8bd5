"""The match as the server drew it, for a scoring phone's offline engine (static/offline/), and
the words a page says what waits and what was sent with.

Every match body a score link gets (the page, a save's answer) carries the match document at the
version drawn, or the round a save added to it, so the rounds a phone enters offline follow
exactly what its screen showed.
"""

import functools
import json
import re
from pathlib import Path

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from games import rules
from games.templatetags.scorekeeper import separator

register = template.Library()
ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


@register.simple_tag(takes_context=True)
def offline_state(context):
    """The version, the match document, the stored number of each round, the highest number
    stored (deleted rounds too) and the deleted rounds (a phone can restore them offline), as
    JSON in a <template> (inert, and no script of any kind under the CSP; <, > and & are escaped
    inside the JSON as json_script escapes them, so the text holds no markup). Nothing when the
    body is drawn on the phone itself, which keeps its own.

    A save's answer holds only the round it added to the version the phone saved from
    (context["appended"]: "after", "round", "number"): the phone has that version's state, and
    the whole document again in every answer would grow with the match."""
    if context.get("on_phone"):
        return ""
    match = context["match"]
    state = {"public_id": match.public_id, "version": match.version}
    appended = context.get("appended")
    if appended is not None and appended["after"] + 1 == match.version:
        state.update(appended)
    else:
        state["day"] = match.day.isoformat()  # on the result card (games/cards.py)
        entries = context["table"].entries
        state["document"] = match.document(entries, context["numbers"][: len(entries)])
        state["numbers"] = context["numbers"]
        state["last"] = context["last"]
        state["deleted"] = context["deleted"]
    text = json.dumps(state, ensure_ascii=False).translate(ESCAPES)
    return format_html('<template id="offline-state">{}</template>', mark_safe(text))


@register.simple_tag
def waiting_words():
    """How the phone counts what waits to be sent and a kept match's rounds, and says what was
    sent, by match (static/offline/outbox.js, listed.js), as JSON: each count's words for 1 and
    for more (from 2 up to a million each of the app's languages says them alike), %(...)s left
    for the phone to fill; the games' names, and what the reader's language writes between two
    items."""
    forms = {
        "rounds": lambda n: ngettext("%(count)s round", "%(count)s rounds", n),
        "changes": lambda n: ngettext("%(count)s change", "%(count)s changes", n),
        "matches": lambda n: ngettext("%(count)s match", "%(count)s matches", n),
        "inPlay": lambda n: ngettext("%(rounds)s round, in play", "%(rounds)s rounds, in play", n),
    }
    words = {name: [form(1), form(2)] for name, form in forms.items()}
    words["and"] = gettext("%(first)s and %(second)s")
    words["of"] = gettext("%(what)s of %(game)s")
    words["started"] = gettext("the match of %(game)s started on this phone")
    words["startedWith"] = gettext("%(match)s, with %(what)s")
    words["over"] = gettext("The match is over")
    words["games"] = {slug: gettext(game.name) for slug, game in rules.GAMES.items()}
    words["separator"] = separator()
    return json.dumps(words, ensure_ascii=False)


IMPORTED = re.compile(r'^import [^;]*? from "\./([\w-]+\.js)";$', re.MULTILINE)
MODULES = Path(__file__).resolve().parent.parent.parent / "static" / "offline"


@functools.cache
def modules_of(name="offline.js"):
    """The ES modules static/offline/<name> imports, itself included, each once: what a match
    page preloads, so that the browser fetches them all at once rather than a level at a time."""
    found = [name]
    for imported in IMPORTED.findall((MODULES / name).read_text()):
        found += [module for module in modules_of(imported) if module not in found]
    return found


@register.simple_tag
def offline_runtime():
    """Whether this server ships the offline runtime (`make` fetched it): phones can score with
    no network."""
    from games.runtime import runtime_ready  # here: the phone loads these tags without it

    return runtime_ready()


@register.simple_tag
def offline_preloads():
    """<link rel=modulepreload> for each module the match page's offline.js imports, at once."""
    from django.templatetags.static import static

    return format_html_join(
        "",
        '<link rel="modulepreload" href="{}">',
        ((static(f"offline/{name}"),) for name in modules_of()),
    )
