"""A season at the table: its leaderboards, a person's page, two people head to head, and
every match, paged and filtered. Each is read with the table's score link (/t/<public_id>/...)
or, read only, its watch link (/tw/<watch_id>/...), whose pages lead to watch links only.

Everything is summed from the matches' stored results (Table.played(): one query) and the
table's ratings, worked out once per table state (Table.season, games/ratings.py).
"""

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import ledger, memo, ratings, rules
from games.chart import balance_charts
from games.drawn import DrawnPage
from games.forms import UNITS
from games.links import get_table
from games.models import Table
from games.templatetags.scorekeeper import currency_of

# The URL names of what a page links, by the link it was opened with.
LINKS = {
    "public_id": {
        "table": "table",
        "person": "table_person",
        "pair": "table_pair",
        "matches": "table_matches",
        "match": "match",
    },
    "watch_id": {
        "table": "table_watch",
        "person": "table_watch_person",
        "pair": "table_watch_pair",
        "matches": "table_watch_matches",
        "match": "watch",
    },
}
MATCHES_A_PAGE = 20
EVENINGS_ON_A_PERSON = 10  # their latest evenings; every match is in the list of matches


class Links:
    """The addresses a page opened with link ("public_id" or "watch_id") token may show."""

    def __init__(self, link, token, people):
        self.names, self.token, self.people = LINKS[link], token, people
        self.link = link
        self.table_url = self.to("table")

    def to(self, name, *args):
        """The page name (LINKS) of this table, with args after its token."""
        return reverse(self.names[name], args=[self.token, *args])

    def person(self, name):
        """A person's page (None for a name that is none of the table's people)."""
        number = self.people.index(name) + 1 if name in self.people else None
        return number and self.to("person", number)

    def match(self, match):
        """A match's page by its link of the same kind (match: Table.played()'s "match")."""
        return reverse(self.names["match"], args=[match[self.link]])


def table_at(link, token):
    """(table, state) of the table behind the link; a watch link under /t/ is refused (403),
    anything else not found."""
    state = Table.state_of(link, token)
    if state is None:
        if link == "public_id":
            get_table(token)
        raise Http404(_("There is no such table."))
    return Table.objects.get(**{link: token}), state


def game_name(game):
    """The name of a rated game in the reader's language (a score sheet's title as typed)."""
    if game.startswith("sheet:"):
        return game[len("sheet:") :] or _(rules.GAMES["sheet"].name)
    return _(rules.GAMES[game].name)


def leaderboards(season, links):
    """Each rated game's leaderboard, the one last played first, each row with its person's
    page, and the chart of the figures over its evenings (when it was rated on two or more)."""
    boards = []
    for game in season.games():
        name = game_name(game)
        charts = balance_charts({game: season.running(game)}, {game: name})
        rows = [{**row, "url": links.person(row["name"])} for row in season.leaderboard(game)]
        boards.append({"game": game, "name": name, "rows": rows, "chart": next(iter(charts), None)})
    return boards


def drawn(request, key, template, context, table, *args):
    """A read-only page of table drawn once per key (its table's state among it) and language,
    from context(table, *args), its money in the table's currency."""

    def draw():
        with currency_of(table.currency):
            return DrawnPage(render_to_string(template, context(table, *args), request))

    return memo.drawn((template, *key, get_language()), draw).response(request, {})


# ---- a person's page


@require_GET
def person(request, public_id, number):
    """A person's page at the table: balance, ratings, records, head to head, evenings."""
    return person_page(request, "public_id", public_id, number)


@require_GET
def watch_person(request, watch_id, number):
    """The same, read only."""
    return person_page(request, "watch_id", watch_id, number)


def person_page(request, link, token, number):
    """The person numbered number (from 1, in the table's order), drawn once per state."""
    table, state = table_at(link, token)
    if not 1 <= number <= len(table.people):
        raise Http404(_("There is no such person at this table."))
    links = Links(link, token, table.people)
    key = (link, token, state, number)
    context = (table, links, number)
    return drawn(request, key, "games/table_person.html", person_context, *context)


def person_context(table, links, number):
    """Everything a person's page draws, from the table's stored results and its ratings."""
    name = table.people[number - 1]
    played = table.played()
    season = table.season(played)
    people = ledger.People(table.people)
    payments = [p.as_paid() for p in table.payments.filter(deleted=None)]
    settled = ledger.moves(people, played, [])  # what each match's settlement gave each person
    moved = settled + ledger.moves(people, [], payments)
    rows = ratings.head_to_head(table.people, played, name)
    rival, nemesis = ratings.rival_and_nemesis(rows)
    return {
        "table": table,
        "links": links,
        "name": name,
        "number": number,
        "balances": [
            {
                "name": UNITS[unit],
                "amount": balance[name],
                "places": decimals(unit, [balance[name]]),
            }
            for unit, balance in ledger.balances(people, moved).items()
            if name in balance
        ],
        "charts": balance_charts(own_lines(ledger.running(people, moved), name), UNITS),
        "games": person_games(season, played, name, people),
        "others": [
            {**row, "name": other, "url": links.to("pair", number, table.people.index(other) + 1)}
            for other, row in shown_money(rows).items()
            if other in table.people
        ],
        "rival": rival,
        "nemesis": nemesis,
        "evenings": person_evenings(played, settled, name, links, people),
        "matches_url": links.to("matches") + f"?person={number}",
    }


def own_lines(running, name):
    """ledger running() with the person's line alone, in the units they have one."""
    return {
        unit: (dates, {name: lines[name]})
        for unit, (dates, lines) in running.items()
        if name in lines
    }


def person_games(season, played, name, people):
    """Per game they finished a match of: its name, their record and their rating's row."""
    records = {}
    for match in played:
        placed = ratings.places(match, people)
        if placed and name in placed:
            row = records.setdefault(ratings.game_of(match), {"played": 0, "won": 0, "places": 0})
            row["played"] += 1
            row["won"] += name in {people.of(n) for n in match["result"]["winners"]}
            row["places"] += placed[name]
    rated = {game: season.leaderboard(game) for game in season.games()}
    return [
        {
            "name": game_name(game),
            **row,
            "average_place": row["places"] / row["played"],
            "rating": next((r for r in rated.get(game, []) if r["name"] == name), None),
        }
        for game, row in records.items()
    ]


def shown_money(rows):
    """Head-to-head rows with each unit's money shaped for the page."""
    return {
        other: {
            **row,
            "money": [
                {
                    "name": UNITS[unit],
                    "mine": mine,
                    "theirs": theirs,
                    "places": decimals(unit, [mine, theirs]),
                }
                for unit, (mine, theirs) in sorted(row["money"].items())
            ],
        }
        for other, row in rows.items()
    }


def person_evenings(played, settled, name, links, people):
    """Their latest evenings, latest first: each match they played there (its game, their
    place, its link) and what the evening's settlements gave them in each unit (settled:
    ledger moves() of the matches)."""
    theirs = {}
    for match in played:
        if name in {people.of(n) for n in match["result"]["players"]}:
            theirs.setdefault(match["date"], []).append(match)
    days = sorted(theirs, reverse=True)[:EVENINGS_ON_A_PERSON]
    nets = ledger.summed([m for m in settled if m[2] == name and m[0] in days], lambda d, u: (d, u))
    return [
        {
            "date": day,
            "matches": [shown_match(match, links, people, name) for match in theirs[day]],
            "nets": [
                {"name": UNITS[unit], "amount": amount, "places": decimals(unit, [amount])}
                for (date, unit), by_name in sorted(nets.items())
                if date == day
                for amount in by_name.values()
            ],
        }
        for day in days
    ]


def shown_match(match, links, people=None, name=None):
    """A match as a list shows it: the table_match_link partial's fields, and name's place."""
    place = name and (ratings.places(match, people) or {}).get(name)
    return {
        **match,
        "url": links.match(match["match"]),
        "game": rules.GAMES[match["result"]["game"]],
        "title": game_name(ratings.game_of(match)),
        "place": place,
    }


def decimals(unit, amounts):
    """How amounts of unit are shown, "money:2": money with cents (5.00), beans whole unless one
    has a fraction."""
    count = 2 if unit == ledger.MONEY or any(amount % 1 for amount in amounts) else 0
    return f"{unit}:{count}"  # as the money filters read it, in the table's currency


# ---- two people head to head


@require_GET
def pair(request, public_id, number, other):
    """Two of the table's people head to head: who finished ahead, the money between them."""
    return pair_page(request, "public_id", public_id, number, other)


@require_GET
def watch_pair(request, watch_id, number, other):
    """The same, read only."""
    return pair_page(request, "watch_id", watch_id, number, other)


def pair_page(request, link, token, number, other):
    """Two people (numbered from 1, in the table's order), drawn once per state."""
    table, state = table_at(link, token)
    people = len(table.people)
    if not (1 <= number <= people and 1 <= other <= people) or number == other:
        raise Http404(_("There is no such person at this table."))
    links = Links(link, token, table.people)
    key = (link, token, state, number, other)
    return drawn(request, key, "games/table_pair.html", pair_context, table, links, number, other)


def pair_context(table, links, number, other):
    """The matches two people finished together and how they went, from the stored results."""
    name, them = table.people[number - 1], table.people[other - 1]
    played = table.played()
    people = ledger.People(table.people)
    together = [m for m in played if {name, them} <= set(ratings.places(m, people) or {})]
    row = ratings.head_to_head(table.people, together, name).get(them)
    return {
        "table": table,
        "links": links,
        "name": name,
        "them": them,
        "row": row and shown_money({them: row})[them],
        "charts": balance_charts(money_running(together, people, (name, them)), UNITS),
        "latest": [shown_match(m, links) for m in reversed(together[-EVENINGS_ON_A_PERSON:])],
        "name_url": links.person(name),
        "them_url": links.person(them),
        "matches_url": links.to("matches") + f"?person={number}&person={other}",
    }


def money_running(played, people, names):
    """{unit: (evenings, {name: [what their settlements gave them, summed after each]})} of
    names over the matches played (as ledger running() has it for a table)."""
    moved = [m for m in ledger.moves(people, played, []) if m[2] in names]
    return ledger.running(ledger.People(names), moved)


# ---- every match, paged


@require_GET
def matches(request, public_id):
    """Every match of the table by evening, latest first, paged, by game and by person."""
    return matches_page(request, "public_id", public_id)


@require_GET
def watch_matches(request, watch_id):
    """The same, read only: each match opens by its watch link."""
    return matches_page(request, "watch_id", watch_id)


def matches_page(request, link, token):
    """A page of the table's matches, latest first, those of game and of the people asked."""
    table, _state = table_at(link, token)
    links = Links(link, token, table.people)
    played = table.played()
    people = ledger.People(table.people)
    games = {}
    for match in played:
        games.setdefault(ratings.game_of(match), game_name(ratings.game_of(match)))
    game = request.GET.get("game", "")
    game = game if game in games else ""
    chosen = chosen_people(request.GET.getlist("person"), table.people)
    shown = [
        m
        for m in reversed(played)
        if (not game or ratings.game_of(m) == game)
        and {table.people[k - 1] for k in chosen}
        <= {people.of(name) for name in m["result"]["players"]}
    ]
    page = Paginator(shown, MATCHES_A_PAGE).get_page(request.GET.get("page"))
    context = {
        "table": table,
        "links": links,
        "page": page,
        "matches": [shown_match(m, links) for m in page],
        "games": sorted(games.items(), key=lambda item: item[1].casefold()),
        "game": game,
        "people": list(enumerate(table.people, 1)),
        "chosen": chosen,
        "count": len(shown),
    }
    with currency_of(table.currency):
        return render(request, "games/table_match_list.html", context)


def chosen_people(numbers, people):
    """The people's numbers asked for (at most two), those that are some person's."""
    chosen = []
    for number in numbers[:2]:
        if number.isdecimal() and 1 <= int(number) <= len(people) and int(number) not in chosen:
            chosen.append(int(number))
    return chosen
