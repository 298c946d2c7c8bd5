"""The match as the server drew it, for a scoring phone's offline engine (static/offline/).

Every match body a score link gets (the page, a save's answer) carries the match document at the
version drawn, so the rounds a phone enters offline follow exactly what its screen showed.
"""

import json

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()
ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


@register.simple_tag(takes_context=True)
def offline_state(context):
    """The version, the match document and the stored number of each round, as JSON in a
    <template> (inert, and no script of any kind under the CSP; <, > and & are escaped inside
    the JSON as json_script escapes them, so the text holds no markup). Nothing when the body is
    drawn on the phone itself, which keeps its own."""
    match = context["match"]
    if getattr(match, "drawn_on_phone", False):
        return ""
    document = {
        "game": match.game,
        "players": match.players,
        "options": match.options,
        "rounds": context["table"].entries,
        "closed": match.closed,
    }
    state = {
        "public_id": match.public_id,
        "version": match.version,
        "document": document,
        "numbers": [row["number"] for row in context["rows"]],
    }
    text = json.dumps(state, ensure_ascii=False).translate(ESCAPES)
    return format_html('<template id="offline-state">{}</template>', mark_safe(text))
