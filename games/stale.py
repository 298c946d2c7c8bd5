"""A form drawn before another phone's change, refused (models.Stale): what each side changed,
in lines, and the form drawn again holding both (the other phone's change, and what this phone
typed on top of it), so a second tap saves both and nothing is undone in silence."""

from types import SimpleNamespace

from games import rules
from games.changes import filled, setup_lines


def table_as_drawn(table, seen):
    """The table's name and people as a form drawn at version seen showed them (what the first
    change of its names since replaced), with that version: its POST is read against them."""
    since = table.setup_changes.filter(version__gte=seen).first() if seen is not None else None
    if since is None:
        return table
    people = [person for person in since.before["people"] if person is not None]
    return SimpleNamespace(name=since.before["name"], people=people, version=seen)


def match_sides(match, typed, since):
    """(their lines, your lines, the setup to draw the form with) for a match's Names and
    options form (typed: its {"players", "options"}) refused by the changes since."""
    game = match.rules
    drawn = since[0].before
    now = {"players": match.players, "options": match.options}
    theirs = [line for change in since for line in setup_lines(change, game)]
    yours = setup_lines(SimpleNamespace(before=drawn, after=typed), game)
    players = [
        mine if mine != seen else current
        for mine, seen, current in zip(typed["players"], drawn["players"], now["players"])
    ]
    seats = len(players)
    mine, seen, current = (filled(game, side["options"], seats) for side in (typed, drawn, now))
    options = {name: mine[name] if mine[name] != seen[name] else current[name] for name in mine}
    return theirs, yours, {"players": players, "options": options}


def table_sides(table, typed, since):
    """(their lines, your lines, the form's initial values) for a table's names form (typed:
    its {"name", "people"}, people in the places of the people it was drawn with, None where
    removed, then the people added) refused by the changes since."""
    drawn = since[0].before
    seen = [person for person in drawn["people"] if person is not None]
    theirs = [line for change in since for line in setup_lines(change)]
    yours = setup_lines(
        SimpleNamespace(before={"name": drawn["name"], "people": seen}, after=typed)
    )
    initial = {"name": typed["name"] if typed["name"] != drawn["name"] else table.name}
    now_place = {rules.same_name_key(p): k for k, p in enumerate(table.people)}
    for person, mine in zip(seen, typed["people"]):
        current = followed(person, since)
        if current is None or rules.same_name_key(current) not in now_place:
            continue
        place = now_place[rules.same_name_key(current)]
        if mine is None:
            initial[f"remove_{place}"] = True
        elif mine != person:
            initial[f"person_{place}"] = mine
    initial["added"] = "\n".join(typed["people"][len(seen) :])
    return theirs, yours, initial


def followed(person, since):
    """What the changes since made of person: their name now, or None when removed."""
    for change in since:
        pairs = zip(change.before["people"], change.after["people"])
        moved = {rules.same_name_key(old): new for old, new in pairs if old is not None}
        person = moved.get(rules.same_name_key(person), person)
        if person is None:
            return None
    return person
