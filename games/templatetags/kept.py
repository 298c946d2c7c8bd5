"""{% kept key ... %}...{% endkept %}: a piece of a page drawn once per key, kept as it is.

Like Django's {% cache %} without a timeout, for a small piece drawn many times a page (a
scoreboard row): the drawn text is kept in this process's memory under the values of its key,
as they are (no pickling, no digest), so finding it costs a dictionary lookup instead of a
cache round trip. The key must name everything the piece shows.
"""

from django import template

register = template.Library()

# Each piece is a few hundred bytes: at most 20,000 are a few megabytes. Past that all are
# dropped and drawn again as they are asked for. (A plain dict: the phone's runtime has no
# cachetools, and its lookups need no lock.)
KEPT = {}
MOST_KEPT = 20_000


def forget():
    """Drop every kept piece."""
    KEPT.clear()


def hashable(value):
    """value as a dictionary key: a list as a tuple (of its items, lists as tuples too)."""
    return tuple(map(hashable, value)) if isinstance(value, list) else value


class KeptNode(template.Node):
    def __init__(self, nodelist, key):
        self.nodelist = nodelist
        self.key = key

    def render(self, context):
        key = tuple(hashable(part.resolve(context)) for part in self.key)
        drawn = KEPT.get(key)
        if drawn is None:
            drawn = self.nodelist.render(context)
            if len(KEPT) >= MOST_KEPT:
                KEPT.clear()
            KEPT[key] = drawn
        return drawn


@register.tag
def kept(parser, token):
    """{% kept "name" value ... %} the piece {% endkept %}"""
    parts = token.split_contents()[1:]
    if not parts:
        raise template.TemplateSyntaxError("{% kept %} needs a key")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(nodelist, [parser.compile_filter(part) for part in parts])
