"""The Least Score card picker, drawn in Python: 52 toggles per player would cost a template
loop several milliseconds on every save."""

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

register = template.Library()

TOGGLE = (
    '<label class="ls-card"><input type="checkbox" name="cards-{seat}" value="{card}" '
    'data-value="{value}"{marks}><span class="{colour}">{label}</span></label>'
)


@register.simple_tag
def card_toggles(seat, picker):
    """One checkbox per card for the player in seat, checked and marked as picker says."""
    return mark_safe(
        "".join(
            TOGGLE.format(
                seat=int(seat),
                card=escape(card["card"]),
                value=int(card["value"]),
                marks=(' class="ls-elsewhere"' if card["elsewhere"] else "")
                + (" checked" if card["checked"] else ""),
                colour="red" if card["red"] else "black",
                label=escape(card["label"]),
            )
            for card in picker["cards"]
        )
    )
