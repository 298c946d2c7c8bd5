"""The match as the server drew it, for a scoring phone's offline engine (static/offline/).

Every match body a score link gets (the page, a save's answer) carries the match document at the
version drawn, so the rounds a phone enters offline follow exactly what its screen showed.
"""

from django import template
from django.utils.html import json_script

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_state(context):
    """A JSON data block: the version, the match document and the stored number of each round
    (nothing when the body is drawn on the phone itself, which keeps its own)."""
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
    return json_script(state, "offline-state")
