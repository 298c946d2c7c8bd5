"""Small template helpers: index a list, render an engine phrase, sign a number."""

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext

register = template.Library()


@register.filter
def at(sequence, index):
    """sequence[index], or None when there is no such item."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def phrase(value):
    """An engine Phrase in the reader's language."""
    return value.render(gettext)


@register.filter
def signed(number):
    """+12, -3, 0, written as the reader's language writes numbers (61,2 in Spanish)."""
    if not isinstance(number, (int, float)):
        return number
    shown = str(number) if isinstance(number, int) else number_format(number)
    return f"+{shown}" if number > 0 else shown


@register.filter
def joined(value):
    """A typed list (cards) back as the text the player typed; other values unchanged."""
    if isinstance(value, list):
        return " ".join(str(item) for item in value)
    return "" if value is None else value


@register.filter
def is_list(value):
    return isinstance(value, list)


@register.filter
def words(value, game=None):
    """An option name or value for people: the game's label, on/off, lists joined."""
    if isinstance(value, bool):
        return gettext("on") if value else gettext("off")
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "–"
    if value is None:
        return "–"
    if game is not None:
        return gettext(game.label(value))
    return str(value).replace("_", " ")
