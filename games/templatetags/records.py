"""The records drawn inside the match screen: the running-totals chart and the series."""

from django import template

from games import records
from games.chart import chart

register = template.Library()


@register.simple_tag
def running_chart(game, table, result):
    """The chart of the match's running totals, with the game's reference lines."""
    return chart(result, game.chart_marks(table))


@register.inclusion_tag("games/records/series.html")
def series(match, can_score, finished):
    """The series the match belongs to (nothing for a match on its own)."""
    # Only a rematch, or a finished match (which may have one), can belong to a series.
    part_of_one = match.rematch_of_id is not None or finished
    return {"match": match, "can_score": can_score,
            "series": records.series(match) if part_of_one else None}
