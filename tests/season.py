"""A season at a table, made quickly: a table's document of many matches of every game, from
the rule book's worked examples (each played by people drawn from the table's) and random score
sheets full of ties, imported whole as a phone imports a table."""

import copy
import json
import random
from datetime import date, timedelta
from functools import cache
from pathlib import Path

from games import rules

EXAMPLES = Path(__file__).parent / "examples"
PEOPLE = ["Ann", "Bo", "Chen", "Dee", "Eve", "Farhad", "Gao"]
TITLES = ["Hearts", "Rummy", ""]


@cache
def examples():
    """Every worked example the engine plays, whatever its game (finished or not)."""
    found = []
    for path in sorted(EXAMPLES.glob("*.match.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        try:
            rules.replay(document)
        except rules.RulesError:
            continue
        found.append(document)
    return found


def random_sheet(rng, names):
    """A score sheet of one to three rounds of small points: many ties."""
    return {
        "game": "sheet",
        "players": names,
        "options": {"title": rng.choice(TITLES)},
        "rounds": [
            {"points": [rng.randint(0, 2) for _ in names]} for _ in range(rng.randint(1, 3))
        ],
    }


def season_document(seed, count, people=PEOPLE, name="Season"):
    """A table's document of count matches, four an evening, weekly: examples of every game
    (most closed by hand, so finished; Gongzhu in pairs and Smear among them) and score sheets,
    each played by people drawn at random; now and then one closed before its first round."""
    rng = random.Random(seed)
    playable = [m for m in examples() if len(m["players"]) <= len(people)]
    matches = []
    for number in range(count):
        if rng.random() < 0.3:
            document = random_sheet(rng, rng.sample(people, rng.randint(2, 5)))
        else:
            document = copy.deepcopy(rng.choice(playable))
            seated = dict(zip(document["players"], rng.sample(people, len(document["players"]))))
            document["players"] = list(seated.values())
            for moves in ("joined", "left"):  # who came late or left early, by their new names
                if moves in document:
                    document[moves] = {seated[n]: r for n, r in document[moves].items()}
        document["closed"] = rng.random() < 0.9 or document.get("closed", False)
        if rng.random() < 0.03:
            document["rounds"] = []  # closed before its first round: nobody came or went
            document.pop("joined", None), document.pop("left", None)
        document["date"] = (date(2026, 1, 1) + timedelta(weeks=number // 4)).isoformat()
        matches.append(document)
    return {"table": name, "people": people, "matches": matches, "payments": []}
