"""The result card: what the picture a phone shares of a result shows, in the reader's language.

A card is {"title", "date", "note", "standings": [{"place", "name", "total", "winner"}],
"payments": [{"heading", "why", "lines"}], "file"}, every string already in the reader's language
(names and numbers isolated by Unicode isolates): templates/games/partials/result_card.html
embeds it, static/result_card.js draws it on a canvas. Nothing here is stored. The phone draws
an ended match's card offline as the server does (games/screen.py, static/offline/phone.py).
"""

from django.utils import formats
from django.utils.html import strip_tags
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.ledger import unit_of
from games.templatetags.scorekeeper import (
    LRI,
    PDI,
    cents,
    isolate,
    money,
    money_places,
    money_signed,
    named,
    phrase_text,
    sentences,
    separator,
)


def card(title, date, file, standings, payments, note=""):
    """A card from its parts (standings and payments as standing() and paying() make them)."""
    return {
        "title": title,
        "date": date,
        "note": note,
        "standings": standings,
        "payments": payments,
        "file": file,
    }


def shown(number):
    """A number as a filter of games/templatetags/scorekeeper.py shows it, as plain text kept
    left to right in a right-to-left line (-3 stays -3 in Persian)."""
    return f"{LRI}{strip_tags(number)}{PDI}"


def standing(place, names, total, winner):
    """One line of the standings: its place, its names listed, its total as shown, a winner?"""
    listed = separator().join(isolate(name) for name in names)
    return {"place": str(place), "name": listed, "total": total, "winner": winner}


def by_amount(rows, places):
    """The standings of (name, amount) rows, highest first, amounts signed with places decimals:
    ties share a place, and the top is the winner when it is above 0."""
    ranked = sorted(rows, key=lambda row: -row[1])
    return [
        standing(
            1 + sum(other > amount for _name, other in ranked),
            [name],
            shown(money_signed(amount, places)),
            amount > 0 and amount == ranked[0][1],
        )
        for name, amount in ranked
    ]


def paying(settlement, unit, why=""):
    """Who pays whom of a settlement ({"transfers", "remainder", ...}), under its unit's name
    (a unit's key, "beans" or "money", is also its word to translate: games/tables.py UNITS),
    and why the amounts are not the totals, when they are not (one line, or empty)."""
    places = f"{unit}:{cents(settlement)}"

    def amount(number):
        return shown(money(number, places))

    lines = [
        _("%(payer)s pays %(payee)s %(amount)s")
        % {"payer": isolate(t["from"]), "payee": isolate(t["to"]), "amount": amount(t["amount"])}
        for t in settlement["transfers"]
    ] or [_("Nobody pays anybody.")]
    remainder = settlement.get("remainder") or 0
    if remainder > 0:
        lines.append(
            _("Rounding leaves %(amount)s that nobody pays.") % {"amount": amount(remainder)}
        )
    elif remainder < 0:
        lines.append(
            _("Rounding leaves %(amount)s owed to nobody.") % {"amount": amount(-remainder)}
        )
    heading = _("Who pays whom, in %(unit)s") % {"unit": _(unit)}
    return {"heading": heading, "why": why, "lines": lines}


def dated(match, game):
    """(the day the match started as the reader's language writes a date, the picture's file
    name): gongzhu-2026-11-30.png, as its exports are named; a phone's state kept before it was
    sent the day has none."""
    if match.day is None:
        return "", f"{game.slug}.png"
    return formats.date_format(match.day, "DATE_FORMAT"), f"{game.slug}-{match.day:%Y-%m-%d}.png"


def match_card(match, drawn):
    """The card of an ended match (drawn: games/screen.py's board): its standings, winners
    marked, and its own settlement."""
    game, result, standings = drawn["game"], drawn["result"], drawn["standings"]
    winners = set(result["winners"])
    lines = [
        standing(
            side["place"],
            side["names"],
            shown(formats.localize(side["total"])),
            bool(winners & set(side["names"])),
        )
        for side in standings
    ]
    settlement = result.get("settlement")
    why = sentences(*(phrase_text(line) for line in game.settlement_note(drawn["table"])))
    payments = [paying(settlement, unit_of(result), why)] if settlement else []
    return card(named(game, result["options"]), *dated(match, game), lines, payments)


def series_card(match, game, result, combined):
    """The card of an evening's series: each player's combined amount, highest first (the
    evening's winner marked), and the combined settlement."""
    lines = by_amount(zip(combined["players"], combined["amounts"]), money_places(combined, result))
    count = combined["count"]
    note = ngettext(
        "Settlement of %(matches)s finished match",
        "Settlement of %(matches)s finished matches",
        count,
    ) % {"matches": count}
    payments = [paying(combined, unit_of(result))]
    day, file = dated(match, game)
    title = named(game, result["options"])
    return card(title, day, file.replace(".png", "-series.png"), lines, payments, note)


def table_card(table, units, day):
    """The result card of a table so far: each person's balance in its first unit as the
    standings, every other unit's balances under its own heading, then who pays whom to settle
    each unit (units: as the table's page shows them); None before any balance. day: the date
    of its latest match or payment."""
    if not units:
        return None
    first, *others = units
    balances = [
        {
            "heading": _("Balance in %(unit_name)s") % {"unit_name": _(unit["name"])},
            "lines": [
                f"{isolate(name)} {shown(money_signed(amount, unit['places']))}"
                for name, amount in unit["rows"]
            ],
        }
        for unit in others
    ]
    payments = [
        paying(
            {"transfers": unit["transfers"], "amounts": [a for _n, a in unit["rows"]]}, unit["unit"]
        )
        for unit in units
    ]
    note = _("Balance in %(unit_name)s") % {"unit_name": _(first["name"])}
    return card(
        title=table.name,
        date=formats.date_format(day, "DATE_FORMAT"),
        file=f"table-{day:%Y-%m-%d}.png",
        standings=by_amount(first["rows"], first["places"]),
        payments=balances + payments,
        note=note,
    )
