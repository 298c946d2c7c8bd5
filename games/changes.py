"""What a change to a round changed, in the table's words: "Bo, hand: 15 → 16"; and what was
typed for a round: "Bo, hand: 16".

The lines are engine Phrases, so the templates translate them and isolate each name and value.
"""

from itertools import zip_longest

from games.rules.base import Phrase, RulesError, Term, gettext_noop
from games.rules.cards import DECK, pretty

NOBODY = gettext_noop("nobody")


def changes(game, players, before, after):
    """Phrases saying how entry after differs from entry before, field by field."""
    lines = []
    for field, kind, label, names in entry_fields(game, players):
        old, new = before.get(field), after.get(field)
        if old == new:
            continue
        if names is not None:
            lines += [
                Phrase(
                    gettext_noop("%(name)s, %(field)s: %(before)s → %(after)s"),
                    name=name,
                    field=label,
                    before=shown(item(old, k), players),
                    after=shown(item(new, k), players),
                )
                for k, name in enumerate(names)
                if item(old, k) != item(new, k)
            ]
        else:
            lines.append(
                Phrase(
                    gettext_noop("%(field)s: %(before)s → %(after)s"),
                    field=label,
                    before=shown(old, players, kind),
                    after=shown(new, players, kind),
                )
            )
    return lines


def typed(game, players, entry):
    """Phrases saying what was typed for a round, field by field, as the entry form shows it
    (a field the round does not hold is left out)."""
    lines = []
    for field, kind, label, names in entry_fields(game, players):
        if field not in entry:
            continue
        value = entry[field]
        if names is not None:
            lines += [
                Phrase(
                    gettext_noop("%(name)s, %(field)s: %(value)s"),
                    name=name,
                    field=label,
                    value=shown(item(value, k), players),
                )
                for k, name in enumerate(names)
            ]
        else:
            lines.append(
                Phrase(
                    gettext_noop("%(field)s: %(value)s"),
                    field=label,
                    value=shown(value, players, kind),
                )
            )
    return lines


def entry_fields(game, players):
    """(field, kind, its label, the names it holds a value for, or None for one value) of each
    field of game's entry form, in its order."""
    for field, kind in game.entry_fields.items():
        names = {"per_seat": players, "per_team": team_names(players)}.get(kind)
        yield field, kind, Term(game.label(field)), names


def team_names(players):
    """Partners sit opposite: team 0 is seats 0 and 2, team 1 seats 1 and 3."""
    if len(players) != 4:
        return []
    return [
        Phrase(gettext_noop("%(first)s & %(second)s"), first=players[t], second=players[t + 2])
        for t in (0, 1)
    ]


def item(values, k):
    return values[k] if isinstance(values, list) and k < len(values) else None


def shown(value, players, kind="number"):
    """A stored value as the entry form shows it: a name, a team, cards with their suits."""
    if value is None:
        return NOBODY if kind in ("seat", "team") else "–"
    names = {"seat": players, "team": team_names(players)}.get(kind)
    if names and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, list):
        return " ".join(pretty(v) if v in DECK else str(v) for v in value) or "–"
    return str(value)


def setup_lines(change, game=None, places=None):
    """What a fix of a setup changed (a SetupChange of a match of game, or of a table), line by
    line: {"renamed": (before, after)} for each name, {"option", "before", "after"} for each
    option whose value changed (its default where it was left unset), and of a table
    {"name": (before, after)}, {"joined": name}, {"left": name}; of a match, a player seated
    or taken away {"came" or "gone": name, "from": the round they play from} and a leave
    {"went": name, "after": their last round} (places: at_places of the match's live rounds,
    turning {"joined", "left"} of round numbers as stored into places)."""
    before, after = change.before, change.after
    names = "players" if game is not None else "people"
    lines = (
        [{"name": (before["name"], after["name"])}]
        if before.get("name") != after.get("name")
        else []
    )
    old, new = before[names], after[names]
    if game is not None and abs(len(old) - len(new)) == 1:
        lines += seated_lines(before, after, places)
    else:
        pairs = list(zip_longest(old, new))  # None: nobody in that place (a table's people)
        lines += [{"renamed": pair} for pair in pairs if None not in pair and pair[0] != pair[1]]
        lines += [{"joined": name} for was, name in pairs if was is None and name is not None]
        lines += [{"left": was} for was, name in pairs if name is None and was is not None]
    if game is not None:
        # a leave, or a leave undone (a name renamed is neither)
        went, stayed = (
            [
                name
                for name in two.get("left", {})
                if name not in one.get("left", {}) and name in old and name in new
            ]
            for one, two in ((before, after), (after, before))
        )
        lines += [{"went": name, "after": left_place(after, name, places)} for name in went]
        lines += [{"stayed": name} for name in stayed]
        was, now = (filled(game, side["options"], len(new)) for side in (before, after))
        lines += [
            {"option": option.name, "before": was[option.name], "after": now[option.name]}
            for option in game.options
            if was[option.name] != now[option.name]
        ]
    return lines


def seated_lines(before, after, places):
    """A player seated ({"came"}) or taken away ({"gone"}) by a change, with the round they
    play from."""
    grew = len(after["players"]) > len(before["players"])  # a rename seats nobody
    came = [name for name in after["players"] if grew and name not in before["players"]]
    if came:
        return [{"came": came[0], "from": joined_place(after, came[0], places)}]
    gone = [name for name in before["players"] if name not in after["players"]]
    return [{"gone": gone[0], "from": joined_place(before, gone[0], places)}]


def joined_place(setup, name, places):
    """The round name plays from in a setup ({"joined", "left"}): 1 for the first."""
    first = setup.get("joined", {}).get(name)
    return 1 if first is None else places({name: first}, {}).get("joined", {}).get(name, 1)


def left_place(setup, name, places):
    """The last round name plays in a setup."""
    return places({}, {name: setup["left"][name]})["left"][name]


def seat_said(change, drawn):
    """A join or a leave said back in one line ("Eve joined: plays from round 6, starting at
    37."), from the change and the board it made; None for another change."""
    before, after = change.before, change.after
    grew = len(after["players"]) > len(before["players"])  # a rename seats nobody
    came = [name for name in after["players"] if grew and name not in before["players"]]
    went = [name for name in after.get("left", {}) if name not in before.get("left", {})]
    if came:
        return seat_words(drawn["table"], "join", came[0])
    if went:
        return seat_words(drawn["table"], "leave", went[0])
    return None


def seat_words(table, kind, name):
    """A join or a leave (kind) of name in one line, from the table it made; None when name
    is not at it."""
    if name not in table.players:
        return None
    seat = table.players.index(name)
    if kind == "join":
        return Phrase(JOINED_SAID, name=name, number=table.joined[seat], total=table.start[seat])
    return Phrase(LEFT_SAID, name=name, number=table.left[seat], total=table.totals[seat])


def renamed_said(change):
    """A typo of a table's match renamed everywhere at its table said back in one line ("Bbo
    is now Bo everywhere at this table: in every match and payment."); None for another
    change."""
    if change.table_change_id is None:
        return None
    pairs = [
        (old, new)
        for old, new in zip(change.before["players"], change.after["players"])
        if old != new
    ]
    if len(pairs) == 1:
        return Phrase(RENAMED_SAID, before=pairs[0][0], after=pairs[0][1])
    renamed = [Phrase(RENAMED, before=old, after=new) for old, new in pairs]
    return Phrase(ALL_RENAMED_SAID, renamed=renamed)


RENAMED_SAID = gettext_noop(
    "%(before)s is now %(after)s everywhere at this table: in every match and payment."
)
ALL_RENAMED_SAID = gettext_noop("Renamed everywhere at this table: %(renamed)s.")
RENAMED = gettext_noop("%(before)s → %(after)s")
JOINED_SAID = gettext_noop("%(name)s joined: plays from round %(number)s, starting at %(total)s.")
LEFT_SAID = gettext_noop("%(name)s left after round %(number)s, with %(total)s.")


def filled(game, options, players):
    """A match's options with the game's defaults filled in (as the engine plays them)."""
    try:
        return game.read_options(options, players)
    except RulesError:  # a setup the engine refused before: shown as it was stored
        return {option.name: options.get(option.name) for option in game.options}
