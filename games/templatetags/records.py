"""The records drawn inside the match screen: the running-totals chart."""

from django import template

from games.chart import chart

register = template.Library()


@register.simple_tag
def running_chart(game, table, result):
    """The chart of the match's running totals, with the game's reference lines."""
    return chart(result, game.chart_marks(table))
