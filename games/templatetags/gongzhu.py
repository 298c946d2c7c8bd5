"""Gongzhu's card grid: each scoring card with one radio per player for who took it.

Drawn here rather than by nested template loops: the grid is 16 or 32 cards times the players,
every save draws it again for the next round, and the loops were a quarter of a save's
instructions (bench/instructions). Every value is escaped once."""

from django import template
from django.utils.safestring import mark_safe

from games.templatetags.scorekeeper import escape

register = template.Library()


def card_html(card, names):
    """One card: its face (the tap target of static/gongzhu.js) and a radio per player, the
    one who took it checked; names are the players' names, escaped."""
    field, label = escape(card["field"]), escape(card["label"])
    owner = card["owner"]
    picks = "".join(
        f'<label class="gz-pick"><input type="radio" name="{field}" value="{seat}"'
        f"{' checked' if owner == seat else ''}><span>{name}</span></label>"
        for seat, name in enumerate(names)
    )
    return (
        f'<div class="gz-card{" red" if card["red"] else ""}" role="group" aria-label="{label}">'
        f'<button type="button" class="gz-face" data-field="{field}" disabled>'
        f'<span class="gz-suit" dir="ltr">{label}</span>'
        f'<span class="gz-owner">{"" if owner is None else names[owner]}</span></button>'
        f"{picks}</div>"
    )


@register.simple_tag
def card_grid(cards, players):
    """Every card of the form, in the order the engine lists them."""
    names = [escape(name) for name in players]
    return mark_safe("".join(card_html(card, names) for card in cards))
