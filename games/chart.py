"""The running-totals chart: a match result in, the geometry of a small inline SVG out.

A pure function of the result and the game's reference lines (Game.chart_marks); the template
games/partials/chart.html draws it, so names are escaped and labels translated there.
Coordinates are in SVG user units, about one CSS pixel on a 390 px phone.
"""

import math
import unicodedata

from games.rules import running_totals

WIDTH, HEIGHT = 340, 220
RIGHT, TOP, BOTTOM = 100, 10, 22  # room for the names, above the lines, for the round numbers
DIGIT = 7  # the width of a digit of the values on the left, whose margin fits the widest
LABEL_GAP = 14  # the least distance between two names at the line ends
NAME_WIDTH = 10  # names are cut to this many narrow characters (a wide CJK one counts two)
COLOURS = 10  # chart colours in static/app.css (.chart .c0 to .c9)


def chart(result, marks=()):
    """For a result with rounds: each player's line through the totals after every round, the
    axis at 0, value and round ticks, and marks: (value, label) reference lines such as a limit,
    drawn where they are within reach of the totals, else named at the edge they lie beyond."""
    start = result.get("start") or [0] * len(result["players"])
    running = list(zip(*running_totals(result["rounds"], start)))
    # a player who joined later starts their line where they started (players.md), before their
    # first round; one still to play their first has none yet
    lines = [
        (seat, name, [(first, start[seat]), *played])
        for seat, (name, line) in enumerate(zip(result["players"], running))
        if (played := [(k, v) for k, v in enumerate(line, 1) if v is not None])
        for first in [played[0][0] - 1]
    ]
    rounds = len(result["rounds"])
    totals = [0, *(v for _seat, _name, line in lines for _k, v in line)]
    near, far = within_reach(marks, min(totals), max(totals))
    values = [*totals, *(value for value, _label in near)]
    step = nice_step(max(values) - min(values))
    low, high = math.floor(min(values) / step) * step, math.ceil(max(values) / step) * step
    high = max(high, low + step)
    ticks = range(low, high + 1, step)
    left = 8 + DIGIT * max(len(str(v)) for v in ticks)

    def x(k):
        return round(left + k * (WIDTH - left - RIGHT) / rounds, 1)

    def y(value):
        return round(unrounded_y(value), 1)

    def unrounded_y(value):
        return TOP + (high - value) * (HEIGHT - TOP - BOTTOM) / (high - low)

    at_x = [f"{x(k)}," for k in range(rounds + 1)]  # each round's "x,", the same for every line
    ends = spread([y(line[-1][1]) for _seat, _name, line in lines], TOP, HEIGHT - BOTTOM)
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": left,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "zero": y(0),
        "tick_x": left - 4,
        "name_x": WIDTH - RIGHT + 6,
        "round_y": HEIGHT - 6,
        "lines": [
            {
                "name": name,
                "label": cut(name),
                "colour": seat % COLOURS,
                # one string: not escaped value by value
                "values": " ".join(str(v) for _k, v in line[1:]),
                "total": line[-1][1],
                # y(v) written to one decimal by the format, not by round() and repr()
                "points": " ".join(f"{at_x[k]}{unrounded_y(v):.1f}" for k, v in line),
                "end_x": x(rounds),
                "end_y": y(line[-1][1]),
                "label_y": label_y,
            }
            for (seat, name, line), label_y in zip(lines, ends)
        ],
        "ticks": [{"value": v, "y": y(v)} for v in ticks],
        "rounds": [
            {"number": k, "x": x(k)}
            for k in range(nice_step(rounds), rounds + 1, nice_step(rounds))
        ],
        "marks": [{"value": value, "label": label, "y": y(value)} for value, label in near],
        "beyond": [
            {"value": value, "label": label, "above": value > high}
            for value, label in sorted(far, key=lambda mark: mark[0])
        ],
    }


def within_reach(marks, low, high):
    """(near, far): the marks at most the totals' spread beyond them (drawing a nearer one
    leaves the lines at least half the chart's height), and the others."""
    spread = max(high - low, 1)
    near = [mark for mark in marks if low - spread <= mark[0] <= high + spread]
    return near, [mark for mark in marks if mark not in near]


def nice_step(span, count=4):
    """A whole step of 1, 2 or 5 times a power of ten giving about count ticks over span."""
    raw = max(span / count, 1)
    power = 10 ** math.floor(math.log10(raw))
    return next(factor * power for factor in (1, 2, 5, 10) if factor * power >= raw)


def spread(ys, top, bottom, gap=LABEL_GAP):
    """The label heights ys moved apart by at least gap, in the same order, within top..bottom."""
    order = sorted(range(len(ys)), key=lambda k: ys[k])
    placed = list(ys)
    floor = top - gap
    for k in order:  # downwards: each label at least gap below the one above
        placed[k] = floor = max(placed[k], floor + gap)
    ceiling = bottom + gap
    for k in reversed(order):  # upwards: back inside the bottom edge
        placed[k] = ceiling = min(placed[k], ceiling - gap)
    return [round(y, 1) for y in placed]


def cut(name, width=NAME_WIDTH):
    """name shortened with an ellipsis to about width narrow characters."""
    used = 0
    for k, char in enumerate(name):
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > width:
            return name[:k].rstrip() + "…"
    return name


def balance_charts(running, unit_names):
    """Per unit with two dates or more, the chart of each person's running balance (whole
    units) across the evenings and payment days: {"unit" (its name), "drawing", "dates"}.
    running: games/ledger.py running()."""
    charts = []
    for unit, (dates, lines) in running.items():
        if len(dates) < 2:
            continue
        whole = {name: [0, *map(round, line)] for name, line in lines.items()}
        steps = [
            {"points": [whole[name][k + 1] - whole[name][k] for name in lines]}
            for k in range(len(dates))
        ]
        drawing = chart({"players": list(lines), "rounds": steps})
        charts.append({"unit": unit_names[unit], "drawing": drawing, "dates": dates})
    return charts
