"""A table's ledger and statistics, computed from its matches' results: nothing here is stored.

Pure: a played match is {"date", "result", "places"} (the engine's result, as
games/records.replayed gives it, and each seat's finishing place from Game.ranking); a payment
is {"from", "to", "amount", "unit"}. Each person's balance in a unit is what their matches'
settlements gave them, plus what they paid, minus what they were paid; settling it takes the
fewest transfers the engine's settlement finds (games/rules/settle.py).
"""

from decimal import Decimal

from games.rules import same_name_key
from games.rules.base import decimal, plain
from games.rules.settle import transfers

# The unit a game's settlement is paid in: Sanming run-fast pays beans, a stake is money.
BEANS, MONEY = "beans", "money"
UNIT_OF_GAME = {"sanming": BEANS}


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


class People:
    """The table's people, each name found as the engine compares names (NFC, case-folded)."""

    def __init__(self, people):
        self.names = list(people)
        self.by_key = {same_name_key(name): name for name in self.names}

    def of(self, name):
        """The table's spelling of name; a name that is nobody's is kept as it is (listed last)."""
        found = self.by_key.get(same_name_key(name))
        if found is None:
            self.by_key[same_name_key(name)] = found = name
            self.names.append(name)
        return found


def moves(people, played, payments):
    """(date, unit, person, amount) of each amount a match's settlement gave a person, and of
    each payment: it moves the payer's balance up (they owe that much less) and the payee's
    down. people: a People."""
    for match in played:
        for name, amount in (settled(match["result"]) or {}).items():
            yield match["date"], unit_of(match["result"]), people.of(name), amount
    for payment in payments:
        amount, unit, date = decimal(payment["amount"]), payment["unit"], payment.get("date")
        yield date, unit, people.of(payment["from"]), amount
        yield date, unit, people.of(payment["to"]), -amount


def summed(moved, key):
    """{key(date, unit): {person: sum of their amounts}} of the moves."""
    sums = {}
    for date, unit, name, amount in moved:
        by_name = sums.setdefault(key(date, unit), {})
        by_name[name] = by_name.get(name, Decimal(0)) + amount
    return sums


def balances(people, played, payments):
    """{unit: {person: balance}} for every unit something was settled or paid in, of each
    person who played for it or paid in it (in the order of the table's people)."""
    people = People(people)
    units = summed(moves(people, played, payments), lambda _date, unit: unit)
    return {
        unit: {name: by_name[name] for name in people.names if name in by_name}
        for unit, by_name in sorted(units.items())
    }


def settlement(balance):
    """The fewest transfers settling {person: balance}: [{"from", "to", "amount"}]."""
    return transfers(list(balance), list(balance.values()))


def ledger(people, played, payments):
    """The table's balances and the transfers settling each unit, as plain JSON numbers."""
    by_unit = balances(people, played, payments)
    return {
        "balances": {
            unit: {name: plain(amount) for name, amount in balance.items()}
            for unit, balance in by_unit.items()
        },
        "settlement": {unit: settlement(balance) for unit, balance in by_unit.items()},
    }


def evenings(people, played):
    """The evenings in play order: the matches of one calendar date, with their games, winners
    and what each person's settlements gave them in each unit ({unit: {person: amount}})."""
    people = People(people)
    amounts = summed(moves(people, played, []), lambda date, unit: (date, unit))
    shown = []
    for date in sorted({match["date"] for match in played}):
        results = [match["result"] for match in played if match["date"] == date]
        shown.append(
            {
                "date": date,
                "matches": len(results),
                "games": list(dict.fromkeys(r["game"] for r in results)),
                "winners": list(dict.fromkeys(people.of(w) for r in results for w in r["winners"])),
                "units": {unit: by_name for (day, unit), by_name in amounts.items() if day == date},
            }
        )
    return shown


def statistics(people, played):
    """Per person, per game: matches played (finished ones), won, average place."""
    people = People(people)
    rows = {}
    for match in played:
        result = match["result"]
        if not result["finished"] or not match["places"]:
            continue
        for name, place in zip(result["players"], match["places"]):
            row = rows.setdefault(
                (people.of(name), result["game"]), {"played": 0, "won": 0, "places": 0}
            )
            row["played"] += 1
            row["won"] += name in result["winners"]
            row["places"] += place
    return [
        {
            "person": name,
            "game": game,
            "played": row["played"],
            "won": row["won"],
            "average_place": row["places"] / row["played"],
        }
        for name in people.names
        for (person, game), row in rows.items()
        if person == name
    ]


def best_and_worst(people, days):
    """{unit: {person: (best evening, worst evening)}}: the evenings (of evenings()) in which
    the person's settlements gave them the most and the least, among those they played."""
    found = {}
    for unit in sorted({u for day in days for u in day["units"]}):
        for name in People(people).names:
            played = [d for d in days if name in d["units"].get(unit, {})]
            if played:
                by_amount = sorted(played, key=lambda d: d["units"][unit][name])
                best, worst = by_amount[-1], by_amount[0]
                found.setdefault(unit, {})[name] = {
                    "best": {"date": best["date"], "amount": best["units"][unit][name]},
                    "worst": {"date": worst["date"], "amount": worst["units"][unit][name]},
                }
    return found


def running(people, played, payments):
    """{unit: (dates, {person: [balance after each date]})}: the balances across the evenings
    and the days of payments, each payment counted on the day it was recorded (only the people
    something moved for in that unit)."""
    people = People(people)
    by_day = summed(moves(people, played, payments), lambda date, unit: (unit, date))
    dates = sorted({date for _unit, date in by_day})
    shown = {}
    for unit in sorted({unit for unit, _date in by_day}):
        moved = {name for (u, _date), by_name in by_day.items() if u == unit for name in by_name}
        balance = dict.fromkeys(moved, Decimal(0))
        lines = {name: [] for name in people.names if name in moved}
        for date in dates:
            for name, amount in by_day.get((unit, date), {}).items():
                balance[name] += amount
            for name in lines:
                lines[name].append(balance[name])
        shown[unit] = (dates, lines)
    return shown
