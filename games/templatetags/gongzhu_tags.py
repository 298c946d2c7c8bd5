"""The Gongzhu entry form refilled from the round entry (the views give entry_context only the
table, so the entry template asks for the refilled form through this tag)."""

from django import template

register = template.Library()


@register.simple_tag
def gongzhu_form(game, table, entry):
    """game.entry_context for the table, with each card's owner and each exposure from entry."""
    return game.entry_context(table, entry)
