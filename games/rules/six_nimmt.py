"""6 nimmt! (Take 6): bullheads taken per hand, to a limit or one game per hand."""

from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

from .base import (
    CENT,
    LATE_START_LABELS,
    MAX_ROUNDS,
    Game,
    Option,
    Phrase,
    RulesError,
    Table,
    best_of,
    decimal,
    form_value,
    hands_played,
    late_start_option,
    listed,
    needs_hands,
    per_seat,
    plain,
    points_to_go,
    reached,
    whole,
    whole_or_text,
)
from .base import gettext_noop as _

MODES = ("cards", "bullheads")


class SixNimmtTable(Table):
    """Keeps totals exact (shared ranking points may have cents) and each hand's cards."""

    def __post_init__(self):
        super().__post_init__()
        self.taken = []  # per round: each seat's cards, or None when bullheads were typed

    def add(self, round_result):
        """Record a scored round; totals are summed in decimal so cents stay exact."""
        self.rounds.append(round_result)
        points = round_result["points"]
        self.totals = [
            t if p is None else plain(decimal(t) + decimal(p)) for t, p in zip(self.totals, points)
        ]


def bullheads_of(card):
    """The bullheads a card carries."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def bullheads_in(cards):
    """The bullheads a player's cards carry in all."""
    return sum(bullheads_of(card) for card in cards)


def highest_card(options, n):
    """M, the highest card in play for n players under the deck option."""
    if options["deck"] == "tactics":
        return 10 * n + 4
    if options["deck"] == "full" or n >= 7:
        return 104
    return 64 if n == 2 else 84


def fewest_taken(n):
    """The fewest cards (and so bullheads) a hand's players take in all (4 to 20 stay in rows)."""
    return 10 * n - 16


def most_bullheads(n, high):
    """The most bullheads the 10n highest-scoring cards in 1..high carry."""
    return sum(sorted((bullheads_of(c) for c in range(1, high + 1)), reverse=True)[: 10 * n])


def cards_taken(taken, table, high):
    """Each seat's cards, checked: in 1..high, none twice, 10n - 16 to 10n in all (n: the
    players playing the hand)."""
    per_seat(taken, table.n, _("the cards taken"))
    seen = set()
    for seat in table.playing:
        name, cards = table.players[seat], taken[seat]
        if not isinstance(cards, list):
            raise RulesError(_("%(name)s's cards must be a list of card numbers"), name=name)
        for card in cards:
            whole(card, 1, high, _("a card"))
            if card in seen:
                raise RulesError(_("card %(card)s was taken twice"), card=card)
            seen.add(card)
    n = len(table.playing)
    low, most = fewest_taken(n), 10 * n
    if not low <= len(seen) <= most:
        raise RulesError(
            _("a hand's players take %(low)s to %(high)s cards in all, not %(count)s"),
            low=low,
            high=most,
            count=len(seen),
        )
    return taken


def bullhead_counts(counts, table, high):
    """Each seat's typed bullheads, checked against what one hand can hold."""
    per_seat(counts, table.n, _("the bullheads"))
    n = len(table.playing)
    low, most = fewest_taken(n), most_bullheads(n, high)
    for seat in table.playing:
        name = table.players[seat]
        whole(counts[seat], 0, most, Phrase(_("%(name)s's bullheads"), name=name))
    total = sum(counts[seat] for seat in table.playing)
    if not low <= total <= most:
        raise RulesError(
            _("a hand's bullheads add up to %(low)s to %(high)s in all, not %(total)s"),
            low=low,
            high=most,
            total=total,
        )
    return counts


def ranking_points(counts, options):
    """Ranking points from bullhead counts: draw bonus, or the pool shared and losers by rank."""
    pool, bonus = (8, 2) if len(counts) <= 6 else (12, 3)
    if len(set(counts)) == 1:
        return [bonus] * len(counts)
    fewest = min(counts)
    share = Decimal(pool) / counts.count(fewest)
    if options["share_rounding"] == "up":
        share = share.to_integral_value(rounding=ROUND_CEILING)
    else:
        share = share.quantize(CENT, rounding=ROUND_HALF_UP)
    losing = sorted(c for c in counts if c != fewest)
    if options["loser_rank"] == "dense":
        losing = sorted(set(losing))
    return [plain(share) if c == fewest else -1 - losing.index(c) for c in counts]


def ranked_among(counts, seats, options):
    """Ranking points from the counts of seats alone (the others: None), the pool by their
    number."""
    points = dict(zip(seats, ranking_points([counts[s] for s in seats], options))) if seats else {}
    return [points.get(s) for s in range(len(counts))]


class SixNimmt(Game):
    slug = "six_nimmt"
    entry_fields = {"taken": "per_seat", "bullheads": "per_seat"}
    name = _("6 nimmt!")
    min_players, max_players = 2, 10
    seats_change = True
    summary = _(
        "Each hand every player plays 10 numbered cards onto four rows; placing a row's sixth "
        "card, or a card too low for every row, takes cards and their bullheads. Fewer bullheads "
        "is better: play until someone reaches 66, or score each hand as a game of its own."
    )
    labels = {
        "taken": _("cards taken"),
        "bullheads": _("bullheads"),
        "deck": _("Cards in play"),
        "seed": _("by the number of players"),
        "full": _("always 1 to 104"),
        "tactics": _("10 for each player, plus 4"),
        "end": _("How the match ends"),
        "66": _("when a total reaches the limit"),
        "hand": _("each hand is a game of its own"),
        ("end", "hands"): _("after a number of hands"),
        "limit": _("Bullheads that end the match"),
        "share_rounding": _("Winners sharing the points"),
        "up": _("each share rounded up"),
        "exact": _("to the cent"),
        "loser_rank": _("After losers tie"),
        "competition": _("the next skips a place"),
        "dense": _("the next takes the next place"),
        "hands": _("How many hands"),
        **LATE_START_LABELS,
    }
    options = (
        Option(
            "deck",
            "seed",
            _(
                "Cards in play: by player count (1-64, 1-84, 1-104), always "
                "1-104, or 10 per player plus 4."
            ),
            choices=("seed", "full", "tactics"),
        ),
        Option(
            "end",
            "66",
            _(
                "Play until someone reaches the limit, make each hand a game scored in ranking "
                "points, or play a fixed number of hands."
            ),
            choices=("66", "hand", "hands"),
        ),
        Option(
            "limit",
            66,
            _("The match ends after the hand in which a total reaches this."),
            "whole",
            low=1,
            high=1000,
            when=("end", ("66",)),
        ),
        Option(
            "share_rounding",
            "up",
            _(
                "In ranking points, the players with the fewest bullheads share 8 points (12 "
                "from 7 players): each share rounded up, or to two decimals."
            ),
            choices=("up", "exact"),
        ),
        Option(
            "loser_rank",
            "competition",
            _(
                "Losers level on bullheads lose the same; the one after them skips a "
                "place, or takes the next place."
            ),
            choices=("competition", "dense"),
        ),
        Option(
            "hands",
            None,
            _(
                "How many hands to play: with a fixed number of hands, or with one game per "
                "hand (empty: until the table closes the match)."
            ),
            "whole_or_null",
            low=1,
            high=MAX_ROUNDS,
            when=("end", ("hand", "hands")),
        ),
        late_start_option("highest"),
    )

    def check_options(self, options, n):
        needs_hands(self, options)

    def new_table(self, players, options):
        return SixNimmtTable(players, options)

    def play(self, table, entry):
        taken, counts = entry.get("taken"), entry.get("bullheads")
        if taken is not None and counts is not None:
            raise RulesError(_("enter the cards taken or the bullheads, not both"))
        if taken is None and counts is None:
            raise RulesError(_("enter the cards or the bullheads each player took"))
        high = highest_card(table.options, len(table.playing))
        if taken is not None:
            taken = cards_taken(taken, table, high)
            counts = [None if cards is None else bullheads_in(cards) for cards in taken]
        else:
            counts = bullhead_counts(counts, table, high)
        if table.options["end"] == "hand":
            points = ranked_among(counts, table.playing, table.options)
        else:
            points = counts
        table.taken.append(taken)
        table.add({"points": points, "bullheads": counts})

    def is_over(self, table):
        options = table.options
        if options["end"] == "66":
            return any(table.totals[s] >= options["limit"] for s in table.playing)
        return options["hands"] is not None and len(table.rounds) >= options["hands"]

    def ending(self, table):
        """Who reached the limit, or that the fixed number of hands is played."""
        options = table.options
        if options["end"] == "66":
            return reached(table.players, table.totals, options["limit"])
        return hands_played(table, options["hands"])

    def winners(self, table):
        """The best total among the players who have not left."""
        return best_of(table, max if table.options["end"] == "hand" else min)

    def chart_marks(self, table):
        if table.options["end"] != "66":
            return []
        limit = table.options["limit"]
        return [(limit, Phrase(_("limit %(limit)s"), limit=limit))]

    def extra(self, table, finished):
        if finished and table.options["end"] != "hand":
            return {"ranking_points": ranked_among(table.totals, table.present(), table.options)}
        return {}

    def entry_from_form(self, form, table):
        """Fields: mode ("cards" or "bullheads") and, per seat N, taken-N or bullheads-N.

        taken-N: the card numbers seat N took, as repeated values and/or text separated by
        spaces or commas. bullheads-N: the bullheads seat N took, typed. mode says which of the
        two is used; without it, the cards when any taken-N holds a number, else the bullheads.
        """
        playing = table.seats_playing()
        taken = [
            [
                whole_or_text(text)
                for value in form.get(f"taken-{s}") or []
                for text in listed(value)
            ]
            if s in playing
            else None
            for s in range(table.n)
        ]
        mode = form_value(form, "mode")
        if mode not in MODES:
            mode = "cards" if any(taken) else "bullheads"
        if mode == "cards":
            return {"taken": taken}
        return {
            "bullheads": [
                whole_or_text(form_value(form, f"bullheads-{s}")) if s in playing else None
                for s in range(table.n)
            ]
        }

    def entry_context(self, table, entry=None):
        """One number pad per player for the entry form, refilled from entry: every card in play
        with its bullheads, checked when that player took it, elsewhere when another player did;
        and the bullheads of the player's checked cards."""
        playing = table.seats_playing()
        in_play = range(1, highest_card(table.options, len(playing)) + 1)
        taken = entry.get("taken") if isinstance(entry, dict) else None
        if not isinstance(taken, list) or len(taken) != table.n:
            taken = [[] for _ in table.players]
        ticked = [set(in_play).intersection(c if isinstance(c, list) else []) for c in taken]
        pads = []
        for seat, name in enumerate(table.players):
            if seat not in playing:
                continue
            others = set().union(*(t for s, t in enumerate(ticked) if s != seat))
            pads.append(
                {
                    "seat": seat,
                    "name": name,
                    "bullheads": bullheads_in(ticked[seat]),
                    "cards": [
                        {
                            "number": card,
                            "bullheads": bullheads_of(card),
                            "checked": card in ticked[seat],
                            "elsewhere": card in others,
                        }
                        for card in in_play
                    ],
                }
            )
        return {"pads": pads, "playing": playing}

    def breakdown(self, table, index):
        """Each player's bullheads that hand (and the cards, when entered; nothing for a player
        who took none), and ranking points."""
        scored, taken = table.rounds[index], table.taken[index]
        phrases = []
        for s, name in enumerate(table.players):
            count = scored["bullheads"][s]
            if not count:  # none taken, or not playing the hand
                continue
            if taken is None:
                phrases.append(
                    Phrase(_("%(name)s's bullheads this hand: %(count)s"), name=name, count=count)
                )
            else:
                cards = ", ".join(str(card) for card in sorted(taken[s])) or "-"
                phrases.append(
                    Phrase(
                        _("%(name)s's bullheads this hand: %(count)s (cards %(cards)s)"),
                        name=name,
                        count=count,
                        cards=cards,
                    )
                )
        if table.options["end"] == "hand":
            phrases += [
                Phrase(
                    _("%(name)s's ranking points: %(points)+d")
                    if points
                    else _("%(name)s's ranking points: 0"),
                    name=name,
                    points=points,
                )
                for name, points in zip(table.players, scored["points"])
                if points is not None
            ]
        return phrases

    def to_go(self, table, seat):
        """Bullheads left before the limit ends the match (with the limit as its end)."""
        if table.options["end"] != "66":
            return None
        limit = table.options["limit"]
        return points_to_go(limit - table.totals[seat], limit)

    def status(self, table):
        """The cards in play, then which hand is next (the standings say how far each player
        is from the limit)."""
        options = table.options
        high = highest_card(options, len(table.seats_playing()))
        phrases = [Phrase(_("cards 1 to %(high)s are in play"), high=high)]
        return phrases if options["end"] == "66" else phrases + self.next_hand(table)

    @staticmethod
    def next_hand(table):
        """Which hand is next, of how many (none once they are played)."""
        number, hands = len(table.rounds) + 1, table.options["hands"]
        if hands is None:
            return [Phrase(_("hand %(number)s next; close the match to stop"), number=number)]
        if number <= hands:
            return [Phrase(_("hand %(number)s of %(hands)s next"), number=number, hands=hands)]
        return []


GAME = SixNimmt()
