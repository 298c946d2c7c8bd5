"""A table's ledger and statistics, summed from its matches' stored results.

Pure: a played match is {"match", "date" (its evening's), "result"}, the result being what a
table keeps of the engine's result (kept() below, stored as games.models.Result); a payment is
{"from", "to", "amount", "unit", "date"}. Each person's balance in a unit is what their
matches' settlements gave them, plus what they paid, minus what they were paid; settling it
takes the fewest transfers (games/rules/settle.py). Nothing here replays a round.
"""

from datetime import timedelta
from decimal import Decimal

from games.rules import outcome, same_name_key
from games.rules.base import decimal, plain
from games.rules.settle import transfers

# The unit a game's settlement is paid in: Sanming run-fast pays beans, a stake is money.
BEANS, MONEY = "beans", "money"
UNIT_OF_GAME = {"sanming": BEANS}
# A match started within this of the one before it is of the same evening (past midnight too).
EVENING_GAP = timedelta(hours=8)


def kept(game, table, closed):
    """What a table keeps of a match (games.models.Result): the fields of the engine's result it
    needs (the settlement's amounts and remainder only), its rounds played and each seat's
    place, from the engine's table after the match's rounds."""
    result = outcome(game, table, closed)
    settlement = result["settlement"]
    return {
        "players": result["players"],
        "rounds": len(result["rounds"]),
        "finished": result["finished"],
        "winners": result["winners"],
        "places": game.ranking(table) if table.rounds else [],
        "settlement": settlement
        and {"amounts": settlement["amounts"], "remainder": settlement["remainder"]},
    }


def unplayed(players):
    """What a table keeps of a match that nothing has played yet."""
    return {
        "players": players,
        "rounds": 0,
        "finished": False,
        "winners": [],
        "places": [],
        "settlement": None,
    }


def unit_of(result):
    """The unit the match's settlement is paid in."""
    return UNIT_OF_GAME.get(result["game"], MONEY)


def settled(result):
    """{player: amount} of a match whose settlement moves something, else None (a match
    without one, or at a stake of 0, counts in the statistics only)."""
    settlement = result.get("settlement")
    if not settlement or not any(settlement["amounts"]):
        return None
    return {name: decimal(a) for name, a in zip(result["players"], settlement["amounts"])}


def evenings_of(moments):
    """The date of the evening of each of moments (local times, in order): one within
    EVENING_GAP of the one before is of the same evening, dated by its first (a match started
    past midnight is the evening's that began the day before)."""
    dates, before = [], None
    for moment in moments:
        if before is None or moment - before > EVENING_GAP:
            day = moment.date()
        dates.append(day)
        before = moment
    return dates


class People:
    """The table's people, each name found as the engine compares names (NFC, case-folded)."""

    def __init__(self, people):
        self.names = list(people)
        self.by_key = {same_name_key(name): name for name in self.names}
        self.seen = {}  # each name as written, once found (a table's page finds thousands)

    def of(self, name):
        """The table's spelling of name; a name that is nobody's is kept as it is (listed last)."""
        found = self.seen.get(name)
        if found is None:
            key = same_name_key(name)
            found = self.by_key.get(key)
            if found is None:
                self.by_key[key] = found = name
                self.names.append(name)
            self.seen[name] = found
        return found


def moves(people, played, payments):
    """[(date, unit, person, amount)]: each amount a match's settlement gave a person, and each
    payment, which moves the payer's balance up (they owe that much less) and the payee's down.
    people: a People."""
    moved = []
    for match in played:
        for name, amount in (settled(match["result"]) or {}).items():
            moved.append((match["date"], unit_of(match["result"]), people.of(name), amount))
    for payment in payments:
        amount, unit, date = decimal(payment["amount"]), payment["unit"], payment["date"]
        moved.append((date, unit, people.of(payment["from"]), amount))
        moved.append((date, unit, people.of(payment["to"]), -amount))
    return moved


def summed(moved, key):
    """{key(date, unit): {person: sum of their amounts}} of the moves."""
    sums = {}
    for date, unit, name, amount in moved:
        by_name = sums.setdefault(key(date, unit), {})
        by_name[name] = by_name.get(name, Decimal(0)) + amount
    return sums


def summary(people, played, payments):
    """Everything a table's page shows, from its matches' results and its live payments: each
    unit's balances and the transfers settling them, what rounding left unsettled, the
    evenings, the statistics and the running balance."""
    people = People(people)
    settled_moves = moves(people, played, [])
    moved = settled_moves + moves(people, [], payments)
    evenings_played = evenings(people, played, summed(settled_moves, lambda d, u: (d, u)))
    by_unit = balances(people, moved)
    return {
        "balances": by_unit,
        "settlement": {unit: settlement(balance) for unit, balance in by_unit.items()},
        "unsettled": unsettled(played),
        "evenings": evenings_played,
        "statistics": statistics(people, played),
        "extremes": best_and_worst(people, evenings_played),
        "running": running(people, moved),
    }


def balances(people, moved):
    """{unit: {person: balance}} for every unit something was settled or paid in, of each
    person who played for it or paid in it (in the order of the table's people)."""
    units = summed(moved, lambda _date, unit: unit)
    return {
        unit: {name: by_name[name] for name in people.names if name in by_name}
        for unit, by_name in sorted(units.items())
    }


def settlement(balance):
    """The fewest transfers settling {person: balance}: [{"from", "to", "amount"}]."""
    return transfers(list(balance), list(balance.values()))


def unsettled(played):
    """[{"game", "date", "unit", "amount"}]: each match whose settlement rounding left an
    amount that nobody pays (above 0) or that is owed to nobody (below 0)."""
    return [
        {
            "game": match["result"]["game"],
            "date": match["date"],
            "unit": unit_of(match["result"]),
            "amount": decimal(match["result"]["settlement"]["remainder"]),
        }
        for match in played
        if settled(match["result"]) and match["result"]["settlement"]["remainder"]
    ]


def ledger(people, played, payments):
    """The table's balances and the transfers settling each unit, as plain JSON numbers."""
    people = People(people)
    by_unit = balances(people, moves(people, played, payments))
    return {
        "balances": {
            unit: {name: plain(amount) for name, amount in balance.items()}
            for unit, balance in by_unit.items()
        },
        "settlement": {unit: settlement(balance) for unit, balance in by_unit.items()},
    }


def evenings(people, played, amounts):
    """The evenings in play order: their date, their matches ({"game", "winners", "finished"},
    in play order) and what each person's settlements gave them in each unit ({unit: {person:
    amount}}). amounts: {(date, unit): {person: amount}}."""
    by_date = {}
    for match in played:
        result = match["result"]
        by_date.setdefault(match["date"], []).append(
            {
                "game": result["game"],
                "winners": [people.of(name) for name in result["winners"]],
                "finished": result["finished"],
            }
        )
    return [
        {
            "date": date,
            "matches": matches,
            "units": {unit: by_name for (day, unit), by_name in amounts.items() if day == date},
        }
        for date, matches in sorted(by_date.items())
    ]


def statistics(people, played):
    """Per person, per game: matches played (finished ones), won, average place (None for a
    game they only sat out), and matches sat out."""
    rows = {}

    def row_of(name, game):
        blank = {"played": 0, "won": 0, "places": 0, "sat_out": 0}
        return rows.setdefault((people.of(name), game), blank)

    for match in played:
        result = match["result"]
        for name in match.get("sat_out") or []:
            row_of(name, result["game"])["sat_out"] += 1
        if not result["finished"] or not result["places"]:
            continue
        for name, place in zip(result["players"], result["places"]):
            row = row_of(name, result["game"])
            row["played"] += 1
            row["won"] += name in result["winners"]
            row["places"] += place
    return [
        {
            "person": name,
            "game": game,
            "played": row["played"],
            "won": row["won"],
            "average_place": row["places"] / row["played"] if row["played"] else None,
            "sat_out": row["sat_out"],
        }
        for name in people.names
        for (person, game), row in rows.items()
        if person == name
    ]


def sat_out_so_far(people, played):
    """{person: (how many of the table's matches they sat out, the place in played of the last
    one; -1 for never)} of each of the table's people."""
    people = People(people)
    sat = {name: (0, -1) for name in people.names}
    for k, match in enumerate(played):
        for name in match.get("sat_out") or []:
            times, _last = sat.get(people.of(name), (0, -1))
            sat[people.of(name)] = (times + 1, k)
    return sat


def sitting_out(people, played, count):
    """The count of the table's people (in its order) to sit the next match out: who sat out
    least, then longest ago (never before once), then in the table's order."""
    sat = sat_out_so_far(people, played)
    chosen = sorted(people, key=lambda name: sat[name])[:count]
    return [name for name in people if name in chosen]


def best_and_worst(people, days):
    """{unit: {person: {"best", "worst"}}}: the evenings (of evenings()) in which the person's
    settlements gave them the most and the least, among those they played in that unit; only
    of a person who played at least two such evenings (one evening is no best or worst)."""
    found = {}
    for unit in sorted({u for day in days for u in day["units"]}):
        for name in people.names:
            played = [d for d in days if name in d["units"].get(unit, {})]
            if len(played) >= 2:
                by_amount = sorted(played, key=lambda d: d["units"][unit][name])
                best, worst = by_amount[-1], by_amount[0]
                found.setdefault(unit, {})[name] = {
                    "best": {"date": best["date"], "amount": best["units"][unit][name]},
                    "worst": {"date": worst["date"], "amount": worst["units"][unit][name]},
                }
    return found


def running(people, moved):
    """{unit: (dates, {person: [balance after each date]})}: the balances across the evenings
    and the days of payments, each payment counted on the day it was recorded (only the people
    something moved for in that unit)."""
    by_day = summed(moved, lambda date, unit: (unit, date))
    dates = sorted({date for _unit, date in by_day})
    shown = {}
    for unit in sorted({unit for unit, _date in by_day}):
        moved_for = {n for (u, _date), by_name in by_day.items() if u == unit for n in by_name}
        balance = dict.fromkeys(moved_for, Decimal(0))
        lines = {name: [] for name in people.names if name in moved_for}
        for date in dates:
            for name, amount in by_day.get((unit, date), {}).items():
                balance[name] += amount
            for name in lines:
                lines[name].append(balance[name])
        shown[unit] = (dates, lines)
    return shown
