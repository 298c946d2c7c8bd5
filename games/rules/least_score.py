"""Least Score: declare a low hand; penalties; elimination over a threshold."""

from .base import (
    LATE_START_LABELS,
    Game,
    Option,
    Phrase,
    RulesError,
    Table,
    away_error,
    form_value,
    late_start_option,
    listed,
    per_seat,
    points_to_go,
    seat,
    whole,
    whole_or_text,
)
from .base import (
    gettext_noop as _,
)
from .cards import RANKS, is_red, parse_card, pretty, rank_of

CARD_VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10}
# The picker's deck: suits alternating in colour, each from the ace (1) up to the king.
PICKER_DECK = tuple(rank + suit for suit in "SHCD" for rank in ("A",) + RANKS[:-1])
MOST = 50  # the highest hand total: five tens
VERDICTS = {True: _("the declaration stands"), False: _("the declaration fails")}
# An Asaf in the breakdown: someone else lower than the declarer, or level with them.
ASAF = {
    True: _(
        "Asaf: %(lowest)s had %(low)s, lower than %(name)s's %(mine)s → %(name)s %(mine)s + "
        "%(penalty)s"
    ),
    False: _(
        "Asaf: %(lowest)s had %(low)s, as low as %(name)s's %(mine)s → %(name)s %(mine)s + "
        "%(penalty)s"
    ),
}
# Scoring the Yaniv way in words (least_score.md, House-rule variants): when the declaration
# stands (by tie), what an Asaf scores (by asaf_lowest), any declaring limit, exact landings, and
# who is out (by eliminate_at).
YANIV_STANDS = {
    "declarer_fails": _(
        "Scored the Yaniv way. Declare when your hand is low. If every other hand still in is "
        "higher, the declaration stands: the declarer scores 0 and everyone else scores their "
        "hand total."
    ),
    "declarer_wins": _(
        "Scored the Yaniv way. Declare when your hand is low. If no other hand still in is "
        "lower, the declaration stands: the declarer scores 0 and everyone else scores their "
        "hand total."
    ),
}
YANIV_ASAF = {
    "zero": _(
        "Otherwise it is an Asaf: the declarer scores their hand total plus %(penalty)s, whoever "
        "has the lowest hand scores 0, and everyone else scores their hand total."
    ),
    "hand": _(
        "Otherwise it is an Asaf: the declarer scores their hand total plus %(penalty)s, and "
        "everyone else scores their hand total."
    ),
}
DECLARE_MAX = _("Declare with a hand total of %(most)s or less.")
LANDINGS = _(
    "When a player scores and their total lands exactly on the first number of a pair, it "
    "becomes the second: %(pairs)s."
)
OUT = {
    "over": _("A player whose total passes %(threshold)s is out."),
    "reach": _("A player whose total reaches %(threshold)s is out."),
}
# The exact-total house rules players name (least_score.md), for a form to offer.
EXACT_PRESETS = (
    (_("halve on every fifty"), [[50, 25], [100, 50], [150, 75], [200, 100]]),
    (_("minus 50 on every fifty"), [[50, 0], [100, 50], [150, 100], [200, 150]]),
    (_("exactly 200 back to 150"), [[200, 150]]),
    (_("back to 0 on 50 or 100"), [[50, 0], [100, 0]]),
)


# A declarer not at the table for the round (players.md).
CANNOT_DECLARE = {
    "later": _("%(name)s has not joined yet and cannot declare"),
    "gone": _("%(name)s left after round %(last)s and cannot declare"),
}


class LeastScoreTable(Table):
    """Adds who is out (seat -> the round, from 1, in which that player went out) and each
    round's hand totals."""

    def __post_init__(self):
        super().__post_init__()
        self.out = {}
        self.hands = []

    def in_game(self, seat):
        return seat not in self.out

    def still_in(self):
        """The seats neither out nor gone (those still to sit down included)."""
        return [s for s in range(self.n) if s not in self.out and not self.gone(s)]


def card_value(card):
    rank = rank_of(card)
    return CARD_VALUES.get(rank) or int(rank)


def is_yaniv(options):
    return options["scoring"] == "yaniv"


def lowest_total(options):
    """The lowest hand total a player may enter: 0 the Yaniv way (a joker), else 1."""
    return 0 if is_yaniv(options) else 1


def hand_total(hand, seen, table, s):
    """Seat s's hand total from a number or its cards; seen maps the round's cards to seats."""
    name = table.players[s]
    if not isinstance(hand, list):
        what = Phrase(_("%(name)s's hand total"), name=name)
        return whole(hand, lowest_total(table.options), MOST, what, seat=s)
    if not 1 <= len(hand) <= 5:
        raise RulesError(_("%(name)s's hand must hold 1 to 5 cards"), name=name, seat=s)
    total = 0
    for text in hand:
        card = hand_card(text, name, s)
        if seen.get(card) == s:
            raise RulesError(
                _("%(name)s's hand holds %(card)s twice"), name=name, card=pretty(card), seat=s
            )
        if card in seen:
            raise RulesError(
                _("%(card)s is in %(other)s's hand and in %(name)s's"),
                card=pretty(card),
                other=table.players[seen[card]],
                name=name,
                seat=s,
            )
        seen[card] = s
        total += card_value(card)
    return total


def hand_card(text, name, s):
    """One card of seat s's hand, or an error naming the player."""
    try:
        return parse_card(text)
    except RulesError as error:
        raise RulesError(
            _("in %(name)s's hand, %(card)s is not a card"),
            seat=s,
            name=name,
            **error.phrase.params,
        ) from None


def hand_totals(table, hands):
    """Each seat's hand total (None for players who do not play the round: out, not joined
    yet or gone), checked against who plays."""
    per_seat(hands, table.n, _("hands"))
    seen, totals = {}, []
    for s, hand in enumerate(hands):
        name = table.players[s]
        if s not in table.playing:
            if hand is not None:  # not joined or gone: refused before (check_who_plays)
                raise RulesError(_("%(name)s is out and has no hand"), name=name, seat=s)
            totals.append(None)
        elif hand is None:
            raise RulesError(_("%(name)s's hand is missing"), name=name, seat=s)
        elif isinstance(hand, dict):
            raise RulesError(
                _("%(name)s has a total and picked cards: keep one of them"), name=name, seat=s
            )
        else:
            totals.append(hand_total(hand, seen, table, s))
    return totals


def lowest_other(totals, declarer):
    """L: the lowest hand among the players still in other than the declarer."""
    return min(t for s, t in enumerate(totals) if t is not None and s != declarer)


def stands(options, totals, declarer):
    """Whether the declaration stands: D below L, or level with it when tie is declarer_wins."""
    mine, lowest = totals[declarer], lowest_other(totals, declarer)
    return mine < lowest or (mine == lowest and options["tie"] == "declarer_wins")


def difference_scored(options, totals, declarer):
    """Standing, the others score their hand minus D; failing, the declarer penalty + D - L."""
    mine = totals[declarer]
    if stands(options, totals, declarer):
        return [0 if t is None or s == declarer else t - mine for s, t in enumerate(totals)]
    penalty = options["penalty"] + mine - lowest_other(totals, declarer)
    return [penalty if s == declarer else 0 for s in range(len(totals))]


def yaniv_scored(options, totals, declarer):
    """The others score their own hand; on an Asaf the declarer scores D + penalty, and the
    lowest other hand 0 (asaf_lowest zero) or its own total (hand)."""
    standing = stands(options, totals, declarer)
    spared = lowest_other(totals, declarer)
    if standing or options["asaf_lowest"] == "hand":
        spared = None
    points = [0 if t is None or t == spared else t for t in totals]
    points[declarer] = 0 if standing else totals[declarer] + options["penalty"]
    return points


def landings(options):
    """Where a total landing exactly on a key by scoring goes: exact_totals, or halve_on's
    halves."""
    return dict(options["exact_totals"]) or {t: t // 2 for t in options["halve_on"]}


class LeastScore(Game):
    slug = "least_score"
    entry_fields = {"declarer": "seat", "hands": "per_seat"}
    name = _("Least Score")
    min_players, max_players = 2, 8
    seats_change = True
    summary = _(
        "Declare when your hand is low. The declaration stands if nobody still in is lower: "
        "the declarer scores 0, everyone else their hand minus the declarer's. Otherwise the "
        "declarer scores the penalty plus the difference. Above the threshold you are out."
    )
    labels = {
        "declarer": _("who declared"),
        "hands": _("hand"),
        "threshold": _("Out past this total"),
        "eliminate_at": _("Out when a total"),
        "over": _("goes past it"),
        "reach": _("reaches it"),
        "tie": _("When the declarer ties the lowest hand"),
        "declarer_wins": _("the declarer wins"),
        "declarer_fails": _("the declarer fails"),
        "penalty": _("Added to a failed declarer"),
        "end": _("How the match ends"),
        "last_standing": _("when one player is left"),
        "first_out": _("when the first player is out"),
        "halve_on": _("Totals halved when landing exactly on"),
        "scoring": _("How a hand scores"),
        "difference": _("the difference to the declarer"),
        "yaniv": _("the Yaniv way"),
        "declare_max": _("Declare only with a hand of at most"),
        "asaf_lowest": _("On an Asaf, the lowest other hand"),
        "zero": _("scores 0"),
        "hand": _("scores its hand"),
        "exact_totals": _("Totals that change when landed on exactly"),
        **LATE_START_LABELS,
    }
    options = (
        Option(
            "threshold",
            lambda o: 200 if is_yaniv(o) else 100,
            _("A player whose total passes this is out."),
            "whole",
            low=1,
            high=1000,
            default_help=_("100, or 200 the Yaniv way"),
        ),
        Option(
            "eliminate_at",
            "over",
            _("Out when strictly above the threshold, or on reaching it."),
            choices=("over", "reach"),
        ),
        Option(
            "tie",
            lambda o: "declarer_fails" if is_yaniv(o) else "declarer_wins",
            _("When the declarer ties the lowest hand."),
            choices=("declarer_wins", "declarer_fails"),
            default_help=_("declarer wins; declarer fails the Yaniv way"),
        ),
        Option(
            "penalty",
            lambda o: 30 if is_yaniv(o) else 20,
            _("Added to a failed declarer's score."),
            "whole",
            low=0,
            high=1000,
            default_help=_("20, or 30 the Yaniv way"),
        ),
        Option(
            "end",
            "last_standing",
            _("Play until one player is left, or stop at the first out."),
            choices=("last_standing", "first_out"),
        ),
        Option(
            "halve_on", [], _("Totals landing exactly here are halved (even numbers)."), "evens"
        ),
        Option(
            "scoring",
            "difference",
            _(
                "Score the Yaniv way: everyone else scores their own hand, and a failed "
                "declaration (Asaf) costs the declarer their hand plus the penalty."
            ),
            choices=("difference", "yaniv"),
            variant=True,
        ),
        Option(
            "declare_max",
            lambda o: 7 if is_yaniv(o) else None,
            _("A player may declare only with a hand total of at most this (empty: any hand)."),
            "whole_or_null",
            low=1,
            high=MOST,
            default_help=_("no limit; 7 the Yaniv way"),
            variant=True,
        ),
        Option(
            "asaf_lowest",
            "zero",
            _("On an Asaf, the player with the lowest hand scores 0, or their hand like the rest."),
            choices=("zero", "hand"),
            variant=True,
            when=("scoring", ("yaniv",)),
        ),
        Option(
            "exact_totals",
            [],
            _(
                "A total landing exactly on one of these by scoring becomes the number paired "
                "with it."
            ),
            "pairs",
            low=1,
            high=10000,
            variant=True,
            presets=EXACT_PRESETS,
        ),
        late_start_option("highest"),
    )

    def check_options(self, options, n):
        if options["halve_on"] and options["exact_totals"]:
            raise RulesError(
                _("options 'halve_on' and 'exact_totals' cannot both be given"),
                name="exact_totals",
            )

    def new_table(self, players, options):
        return LeastScoreTable(players, options)

    def play(self, table, entry):
        declarer = seat(entry.get("declarer"), table.n, _("the declarer"), _("Tap who declared."))
        number = len(table.rounds) + 1
        if table.away(declarer, number):
            raise away_error(table, declarer, number, CANNOT_DECLARE)
        if declarer in table.out:
            raise RulesError(_("the declarer must be a player still in the game"))
        totals = hand_totals(table, entry.get("hands"))
        options = table.options
        most = options["declare_max"]
        if most is not None and totals[declarer] > most:
            raise RulesError(
                _(
                    "%(name)s declared with %(total)s; a declaration needs a hand total of at "
                    "most %(most)s"
                ),
                name=table.players[declarer],
                total=totals[declarer],
                most=most,
                seat=declarer,
            )
        scoring = yaniv_scored if is_yaniv(options) else difference_scored
        scored = scoring(options, totals, declarer)
        landed = [t + p for t, p in zip(table.totals, scored)]
        goes_to = landings(options)
        after = [goes_to.get(t, t) if p > 0 else t for t, p in zip(landed, scored)]
        points = [a - t for a, t in zip(after, table.totals)]
        table.hands.append(totals)
        here = [not table.away(s, number) for s in range(table.n)]  # out players score 0
        table.add(
            {
                "points": [p if at else None for p, at in zip(points, here)],
                "scored": [p if at else None for p, at in zip(scored, here)],
            }
        )
        self.eliminate(table)

    def eliminate(self, table):
        """Put out whoever played the round and passed (or reached) the threshold in it."""
        for s in table.playing:
            if self.over_threshold(table.options, table.totals[s]):
                table.out[s] = len(table.rounds)

    def check_left(self, table):
        """Leaving is not going out: nobody leaves after the round they went out in."""
        for s, last in enumerate(table.left):
            if s in table.out and last is not None and last > table.out[s]:
                raise RulesError(
                    _("%(name)s leaves after round %(last)s but went out in round %(out)s"),
                    name=table.players[s],
                    last=last,
                    out=table.out[s],
                    seat=s,
                )

    @staticmethod
    def over_threshold(options, total):
        if options["eliminate_at"] == "reach":
            return total >= options["threshold"]
        return total > options["threshold"]

    def is_over(self, table):
        if table.options["end"] == "first_out":
            return bool(table.out)
        return len(table.still_in()) <= 1

    def ending(self, table):
        """Who went out (first out), who is the one left in, or that nobody is left."""
        if not self.is_over(table):
            return []
        if table.options["end"] == "first_out":
            out = [table.players[s] for s in sorted(table.out)]
            return [Phrase(_("%(names)s went out"), names=out)]
        left = table.still_in()
        if left:
            return [Phrase(_("Only %(name)s is left in"), name=table.players[left[0]])]
        if self.out_last(table):
            return [Phrase(_("Everyone left went out in the same round"))]
        return [Phrase(_("Nobody is left at the table"))]

    def winners(self, table):
        """The lowest total still in; when every player still in went out in the last round,
        the lowest among them (never a player who left)."""
        candidates = table.still_in() or self.out_last(table)
        if not candidates:
            return []
        lowest = min(table.totals[s] for s in candidates)
        return [s for s in candidates if table.totals[s] == lowest]

    @staticmethod
    def out_last(table):
        """The seats put out in the last round played that have not left."""
        return sorted(
            s
            for s, number in table.out.items()
            if number == len(table.rounds) and not table.gone(s)
        )

    def chart_marks(self, table):
        threshold = table.options["threshold"]
        return [(threshold, Phrase(_("threshold %(threshold)s"), threshold=threshold))]

    def extra(self, table, finished):
        return {"eliminated": {table.players[s]: r for s, r in sorted(table.out.items())}}

    def entry_from_form(self, form, table):
        """Fields: declarer (a seat); per seat hand-N (a total), or the cards: cards-N (picked,
        repeated) and cardtext-N (typed, separated by spaces or commas)."""
        playing = table.seats_playing()
        hands = [typed_hand(form, s) if s in playing else None for s in range(table.n)]
        return {"declarer": whole_or_text(form_value(form, "declarer")), "hands": hands}

    def entry_context(self, table, entry=None):
        """One card picker per seat, refilled from entry: every card with its label, colour and
        value, checked when in that seat's hand, elsewhere when in another's; what the seat
        typed that is not a card (or repeats one); the picked cards' labels and total; the
        seats that are out; the lowest hand total; the seat a refused entry is about."""
        hands = entry.get("hands") if isinstance(entry, dict) else None
        hands = hands if isinstance(hands, list) else []
        split = [picked_and_typed(hands[s] if s < len(hands) else None) for s in range(table.n)]
        pickers = []
        for me, (picked, typed) in enumerate(split):
            others = set().union(*(p for s, (p, _t) in enumerate(split) if s != me))
            cards = [
                {
                    "card": card,
                    "label": pretty(card),
                    "red": is_red(card),
                    "value": card_value(card),
                    "checked": card in picked,
                    "elsewhere": card in others,
                }
                for card in PICKER_DECK
            ]
            chosen = [c for c in cards if c["checked"]]
            pickers.append(
                {
                    "cards": cards,
                    "typed": typed,
                    "shown": [c["label"] for c in chosen],
                    "total": sum(c["value"] for c in chosen),
                }
            )
        return {
            "pickers": pickers,
            "out": sorted(table.out),
            "playing": table.seats_playing(),
            "lowest": lowest_total(table.options),
            "invalid": self.invalid_seat(table, entry),
        }

    def rules_summary(self, options):
        """The Yaniv way in words, as this match's options have it (else the summary)."""
        if not is_yaniv(options):
            return super().rules_summary(options)
        lines = [
            Phrase(YANIV_STANDS[options["tie"]]),
            Phrase(YANIV_ASAF[options["asaf_lowest"]], penalty=options["penalty"]),
        ]
        if options["declare_max"] is not None:
            lines.append(Phrase(DECLARE_MAX, most=options["declare_max"]))
        goes_to = landings(options)
        if goes_to:
            lines.append(Phrase(LANDINGS, pairs=[f"{t} → {b}" for t, b in goes_to.items()]))
        return [*lines, Phrase(OUT[options["eliminate_at"]], threshold=options["threshold"])]

    def to_go(self, table, seat):
        """Points left before the threshold puts the player out, or that they are out."""
        if seat in table.out:
            return Phrase(_("out"))
        threshold = table.options["threshold"]
        return points_to_go(threshold - table.totals[seat], threshold)

    def status(self, table):
        """Any declaring limit (the standings say how far each player is from the threshold)."""
        most = table.options["declare_max"]
        return [] if most is None else [Phrase(DECLARE_MAX, most=most)]

    def breakdown(self, table, index):
        """Whether the declaration stood (the Asaf named), each score, any exact landing."""
        totals, scored = table.hands[index], table.rounds[index]["scored"]
        declarer = table.entries[index]["declarer"]
        lines = [self.verdict(table, totals, declarer)]
        lines += [
            Phrase(_("%(name)s %(points)+d"), name=table.players[s], points=p)
            for s, p in enumerate(scored)
            if p
        ]
        before = [
            table.start[s] + sum(r["points"][s] or 0 for r in table.rounds[:index])
            for s in range(table.n)
        ]
        points = table.rounds[index]["points"]
        lines += [
            Phrase(
                _("%(name)s landed on %(landed)s → %(becomes)s"),
                name=table.players[s],
                landed=before[s] + scored[s],
                becomes=before[s] + points[s],
            )
            for s in range(table.n)
            if points[s] != scored[s]
        ]
        return lines

    @staticmethod
    def verdict(table, totals, declarer):
        """The declaration stood or failed; the Yaniv way, a failure is an Asaf, told in full."""
        options, name = table.options, table.players[declarer]
        standing = stands(options, totals, declarer)
        if standing or not is_yaniv(options):
            return Phrase(
                _("%(name)s declared: %(verdict)s"), name=name, verdict=VERDICTS[standing]
            )
        lowest, mine = lowest_other(totals, declarer), totals[declarer]
        return Phrase(
            ASAF[lowest < mine],
            lowest=[
                p for s, p in enumerate(table.players) if s != declarer and totals[s] == lowest
            ],
            low=lowest,
            name=name,
            mine=mine,
            penalty=options["penalty"],
        )


def typed_hand(form, s):
    """One player's hand: the cards picked and typed (as typed, for the engine to check), else
    the total."""
    texts = (form.get(f"cards-{s}") or []) + (form.get(f"cardtext-{s}") or [])
    cards = [card for text in texts for card in listed(text)]
    total = whole_or_text(form_value(form, f"hand-{s}"))
    if cards and total is not None:
        return {"total": total, "cards": cards}  # both: a question for the scorer
    return cards or total


def picked_and_typed(hand):
    """A hand as the picker shows it: the cards to check, and the rest (not a card, or a card
    already there) as typed text."""
    if isinstance(hand, dict):
        hand = hand.get("cards")
    picked, typed = set(), []
    for text in hand if isinstance(hand, list) else []:
        try:
            card = parse_card(text)
        except RulesError:
            card = None
        if card is None or card in picked:
            typed.append(str(text))
        else:
            picked.add(card)
    return picked, " ".join(typed)


GAME = LeastScore()
