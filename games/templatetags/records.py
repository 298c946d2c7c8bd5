"""The records drawn inside the match screen: the running-totals chart.

Its SVG is joined here rather than by template loops (every save draws the chart of the new
version); names and labels are escaped, numbers written as Python writes them (never localized:
SVG coordinates and data attributes are read by machines).
"""

from django import template
from django.utils.safestring import SafeString

from games.chart import chart
from games.templatetags.scorekeeper import escape, isolate, phrase_text

register = template.Library()


@register.simple_tag
def running_chart(game, table, result):
    """The chart of the match's running totals, with the game's reference lines."""
    return chart(result, game.chart_marks(table))


@register.simple_tag
def chart_svg(drawing, label):
    """The chart as an SVG image (label: what it shows, in words): the grid, the axis, the
    round numbers, each player's line, then the game's marks (their labels stay readable)."""
    left, right = drawing["left"], drawing["right"]

    def across(y, attributes=""):
        return f'<line{attributes} x1="{left}" x2="{right}" y1="{y}" y2="{y}"/>'

    parts = [f'<svg viewBox="0 0 {drawing["width"]} {drawing["height"]}" role="img"']
    parts.append(f' aria-label="{escape(label)}">')
    for tick in drawing["ticks"]:
        parts.append(across(tick["y"], ' class="grid"'))
        parts.append(f'<text class="tick" x="{drawing["tick_x"]}" y="{tick["y"]}">')
        parts.append(f"{tick['value']}</text>")
    parts.append(across(drawing["zero"], ' class="axis"'))
    for shown in drawing["rounds"]:
        parts.append(f'<text class="round" x="{shown["x"]}" y="{drawing["round_y"]}">')
        parts.append(f"{shown['number']}</text>")
    parts += [player_line(line, drawing["name_x"]) for line in drawing["lines"]]
    for mark in drawing["marks"]:
        parts.append(f'<g class="mark" data-mark="{mark["value"]}">{across(mark["y"])}')
        parts.append(f'<text x="{left}" y="{mark["y"]}" dy="-4">')
        parts.append(f"{escape(phrase_text(mark['label']))}</text></g>")
    for mark in drawing["beyond"]:  # named at the edge, an arrow pointing where it lies
        edge, arrow = (drawing["top"], "↑") if mark["above"] else (drawing["bottom"], "↓")
        parts.append(f'<text class="beyond" data-mark="{mark["value"]}" x="{left}" y="{edge}"')
        parts.append(f' dy="{10 if mark["above"] else -4}">{arrow} ')
        parts.append(f"{escape(phrase_text(mark['label']))}</text>")
    parts.append("</svg>")
    return SafeString("".join(parts))


def player_line(line, name_x):
    """One player's line, its end and its name, with the player and values in data- attributes."""
    name, label_y = escape(line["name"]), line["label_y"]
    end_x, end_y = line["end_x"], line["end_y"]
    return (
        f'<g class="player c{line["colour"]}" data-player="{name}" data-values="{line["values"]}">'
        f"<title>{escape(isolate(line['name']))}: {escape(isolate(line['total']))}</title>"
        f'<polyline points="{line["points"]}"/>'
        f'<line class="leader" x1="{end_x}" y1="{end_y}" x2="{name_x}" y2="{label_y}"/>'
        f'<circle cx="{end_x}" cy="{end_y}" r="3"/>'
        f'<text class="name" x="{name_x}" y="{label_y}" dx="3">{escape(line["label"])}</text></g>'
    )
