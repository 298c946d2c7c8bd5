"""What a reader sees of a drawn page: its text, without tags or bidi isolation marks."""

import html
import re

ISOLATES = dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069])


def visible(page):
    """page's text as read: tags dropped, entities decoded, isolation marks removed."""
    return html.unescape(re.sub(r"<[^>]+>", "", page)).translate(ISOLATES)
