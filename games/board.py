"""What the match screen draws of a scored table: its rows, leaders, status and breakdown.

Plain Python on the engine: the server (games/views.py) and the phone offline
(static/offline/phone.py) draw the same board.
"""

from games import rules


def drawn_board(numbers, game, table, closed):
    """The board of a table whose rounds are stored under numbers."""
    result = rules.outcome(game, table, closed)
    rows = [
        {"position": k + 1, "number": number, "cells": list(zip(scored["points"], running))}
        for k, (number, scored, running) in enumerate(
            zip(numbers, result["rounds"], rules.running_totals(result["rounds"]))
        )
    ]
    latest = len(table.rounds) - 1
    return {
        "table": table,
        "result": result,
        "rows": rows,
        "leaders": set(game.leaders(table)),
        "status": game.status(table),
        "breakdown": game.breakdown(table, latest) if latest >= 0 else [],
        "latest": latest + 1,
        # A game may draw more of its result at the end (ranking points, the kid rule).
        "result_templates": [f"games/result/{game.slug}.html", "games/result/default.html"],
    }
