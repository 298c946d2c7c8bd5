"""A season at the table: each person's rating per game, and who beats whom, from the matches'
stored results (places, keyed by name); nothing here replays a round.

Ratings are OpenSkill's (the `openskill` package): its Plackett-Luce model, with its defaults,
rates each finished match of the table that has places, oldest first (by when it ended, then by
id), from its final places (ties share a rank; Smear's partners and Gongzhu's in pairs rated as
a team of two). A match not finished, or closed before its first round, is not rated. A rating
is a skill estimate (mu) and how unsure it still is (sigma); the figure shown is the
conservative one on a friendly scale, FIGURE_SCALE x (mu - 3 sigma) (openskill's ordinal): 0
for someone new, rising as they finish ahead of others and as more matches make it surer.
Someone with fewer than NEW_UNTIL rated matches in a game is new there: not ranked yet.
"""

import hashlib
import sys

from openskill.models import PlackettLuce

from games.ledger import People, settled, unit_of

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300: the package's defaults
FIGURE_SCALE = 10  # the figure shown: 10 x (mu - 3 sigma), a whole number
NEW_UNTIL = 5  # rated matches in a game before a person is ranked in it
PARTNERS = [[0, 2], [1, 3]]  # the seats of the two partnerships, sitting opposite


def game_of(match):
    """The game a match is rated in: its slug, or a score sheet's "sheet:" and its title."""
    game = match["result"]["game"]
    if game != "sheet":
        return game
    return "sheet:" + str(match["match"]["options"].get("title") or "").strip()


def sides(match):
    """The seats rated together: Smear's partners, Gongzhu's in pairs, else each player alone."""
    result, options = match["result"], match["match"]["options"]
    pairs = result["game"] == "smear" or (
        result["game"] == "gongzhu" and options.get("mode") == "pairs"
    )
    if pairs and len(result["players"]) == 4:
        return PARTNERS
    return [[seat] for seat in range(len(result["players"]))]


def places(match, people):
    """{name: place} of a finished match with places (1 first, ties equal), each name as the
    table spells it; None for a match not finished or closed before its first round."""
    result = match["result"]
    if not result["finished"] or not result["places"]:
        return None
    found = zip(result["players"], result["places"])
    return {people.of(name): place for name, place in found if place is not None}


def teams(match, people, placed):
    """[(names, place)]: each side with a place (a team's place: its best seat's)."""
    players = [people.of(name) for name in match["result"]["players"]]
    found = []
    for seats in sides(match):
        names = [players[seat] for seat in seats if players[seat] in placed]
        if names:
            found.append((names, min(placed[name] for name in names)))
    return found


def in_rating_order(played):
    """The matches (Table.played()) in the order they are rated: by when they ended, then by
    id; those that have not ended last (they are rated once they end), as they started."""
    return sorted(
        played, key=lambda m: (m["match"]["ended"] is None, rating_time(m), m["match"]["pk"])
    )


def rating_time(match):
    """When a match ended, else when it started."""
    return match["match"]["ended"] or match["match"]["created"]


def in_canonical_order(sided):
    """[(names, place, ratings)] of a match's sides by place, then by their ratings: the same
    whatever the seats or the names, so the sums the model adds up in that order are too."""
    return sorted(sided, key=lambda side: (side[1], sorted((r.mu, r.sigma) for r in side[2])))


def figure(rating):
    """The whole number shown for a rating: the conservative estimate on the friendly scale."""
    return round(rating.ordinal(alpha=FIGURE_SCALE))


def rated_matches(people, played):
    """[(match id, game, evening, sides, places)] of each match rated, in the order rated: its
    sides [(names, place)] and {name: place}. people: a ledger People."""
    found = []
    for match in in_rating_order(played):
        placed = places(match, people)
        sided = teams(match, people, placed) if placed else []
        if len(sided) >= 2:
            found.append((match["match"]["pk"], game_of(match), match["date"], sided, placed))
    return found


def digest(people, rated):
    """What a season is worked out from (the table's people, its rated matches), in 32 bytes:
    the key it is kept under, the same for two states of the table that rate alike (a payment,
    a round of a match in play)."""
    text = repr((people, [(pk, game, str(day), sided) for pk, game, day, sided, _ in rated]))
    return hashlib.blake2b(text.encode(), digest_size=32).hexdigest()


class Season:
    """Every rating of a table, worked out in one pass over its rated matches (rated_matches):
    kept once for what it is worked out from (games/models.py Table.season), for its page, its
    people's pages, its board and its export."""

    def __init__(self, people, rated):
        self.people = list(people)  # the table's people, in its order
        self.rated = {}  # {match id: (game, {name: place})} of each rated match
        self.ratings = {}  # {game: {name: openskill rating}}
        self.counts = {}  # {game: {name: rated matches}}
        self.latest = {}  # {game: {name: (evening, figure before their latest evening)}}
        self.after = {}  # {game: {evening: {name: figure after their last match of it}}}
        self.last = {}  # {game: when it was last played, as the position of its last match}
        for position, (pk, game, evening, sided, placed) in enumerate(rated):
            self.rate(game, evening, sided)
            self.rated[pk] = (game, placed)
            self.last[game] = position

    def rate(self, game, evening, sided):
        """Rate one match of game played on evening: sided, [(names, place)] of each side."""
        ratings = self.ratings.setdefault(game, {})
        counts = self.counts.setdefault(game, {})
        before = self.latest.setdefault(game, {})
        shown = self.after.setdefault(game, {}).setdefault(evening, {})
        sided = in_canonical_order(
            [
                (names, place, [ratings.get(n) or MODEL.rating() for n in names])
                for names, place in sided
            ]
        )
        teams_now = [team for _names, _place, team in sided]
        rated = MODEL.rate(teams_now, ranks=[place for _names, place, _team in sided])
        for (names, _place, _team), team, old in zip(sided, rated, teams_now):
            for name, rating, was in zip(names, team, old):
                if before.get(name, (None,))[0] != evening:
                    before[name] = (evening, figure(was))
                ratings[name] = rating
                counts[name] = counts.get(name, 0) + 1
                shown[name] = figure(rating)

    def size(self):
        """The bytes it keeps, at most (weighed by the memo that keeps it): the big table's
        499 rated matches, 331 KB; tracemalloc measured 99 KB beside the places it holds."""
        entries = sum(len(placed) for _game, placed in self.rated.values())
        entries += sum(len(by_name) for shown in self.after.values() for by_name in shown.values())
        return sys.getsizeof(self) + 200 * entries + 400 * sum(map(len, self.ratings.values()))

    def games(self):
        """The games rated, the one last played first."""
        return sorted(self.last, key=lambda game: -self.last[game])

    def leaderboard(self, game):
        """[{"name", "figure", "matches", "new", "trend", "rank"}] of everyone rated in game:
        the ranked first, highest figure first (equal figures share a rank), then the new."""
        rows = [
            {
                "name": name,
                "figure": figure(rating),
                "matches": self.counts[game][name],
                "new": self.counts[game][name] < NEW_UNTIL,
                "trend": figure(rating) - self.latest[game][name][1],
            }
            for name, rating in self.ratings[game].items()
        ]
        rows.sort(key=lambda row: (row["new"], -row["figure"]))
        for row in rows:
            ahead = [r for r in rows if not r["new"] and r["figure"] > row["figure"]]
            row["rank"] = None if row["new"] else 1 + len(ahead)
        return rows

    def running(self, game):
        """(evenings, {name: [figure after each]}) of game: each rated person's figure after
        every evening the game was rated (0 before their first match)."""
        evenings = sorted(self.after[game])
        rated = self.ratings[game]
        lines = {name: [] for name in [*self.people, *rated] if name in rated}
        for evening in evenings:
            shown = self.after[game][evening]
            for name, line in lines.items():
                line.append(shown.get(name, line[-1] if line else 0))
        return evenings, lines

    def document(self):
        """{game: {name: {"mu", "sigma", "matches"}}}: the ratings, as the export lists them."""
        return {
            game: {
                name: {"mu": r.mu, "sigma": r.sigma, "matches": self.counts[game][name]}
                for name, r in by_name.items()
            }
            for game, by_name in self.ratings.items()
        }


def head_to_head(people, played, name):
    """{other: {"together", "ahead", "behind", "level", "money": {unit: [mine, theirs]}}}: name
    against each other person in the finished matches with places they both played (ahead:
    name finished ahead of them; money: what each one's settlements gave them there)."""
    people = People(people)
    found = {}
    for match in played:
        placed = places(match, people)
        if not placed or name not in placed:
            continue
        amounts = {people.of(n): a for n, a in (settled(match["result"]) or {}).items()}
        for other, place in placed.items():
            if other == name:
                continue
            row = found.setdefault(
                other, {"together": 0, "ahead": 0, "behind": 0, "level": 0, "money": {}}
            )
            row["together"] += 1
            mine = placed[name]
            row["ahead" if mine < place else "behind" if mine > place else "level"] += 1
            if amounts:
                money = row["money"].setdefault(unit_of(match["result"]), [0, 0])
                money[0] += amounts.get(name, 0)
                money[1] += amounts.get(other, 0)
    return {other: found[other] for other in people.names if other in found}


def rival_and_nemesis(rows):
    """(rival, nemesis) of a person's head_to_head rows: the one whose record against them is
    closest (most matches together breaks a tie), and the one who finished ahead of them most
    often (None when nobody did)."""
    if not rows:
        return None, None
    rival = min(
        rows, key=lambda o: (abs(rows[o]["ahead"] - rows[o]["behind"]), -rows[o]["together"])
    )
    nemesis = max(rows, key=lambda o: rows[o]["behind"])
    return rival, nemesis if rows[nemesis]["behind"] else None
