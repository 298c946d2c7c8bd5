"""Least Score: declare a low hand; penalties; elimination over a threshold."""

import re

from .base import (
    Game,
    Option,
    Phrase,
    RulesError,
    Table,
    form_value,
    per_seat,
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


class LeastScoreTable(Table):
    """Adds who is out: seat -> the round (from 1) in which that player went out."""

    def __post_init__(self):
        super().__post_init__()
        self.out = {}

    def still_in(self):
        return [s for s in range(self.n) if s not in self.out]


def card_value(card):
    rank = rank_of(card)
    return CARD_VALUES.get(rank) or int(rank)


def hand_total(hand, seen):
    """A hand's total from a number (1-50) or its cards; seen collects the round's cards."""
    if not isinstance(hand, list):
        return whole(hand, 1, 50, _("a hand total"))
    if not 1 <= len(hand) <= 5:
        raise RulesError(_("a hand holds 1 to 5 cards"))
    cards = [parse_card(text) for text in hand]
    for card in cards:
        if card in seen:
            raise RulesError(_("%(card)s appears twice"), card=pretty(card))
        seen.add(card)
    return sum(card_value(card) for card in cards)


def hand_totals(table, hands):
    """Each seat's hand total (None for players who are out), checked against who is in."""
    per_seat(hands, table.n, _("hands"))
    seen, totals = set(), []
    for s, hand in enumerate(hands):
        name = table.players[s]
        if s in table.out:
            if hand is not None:
                raise RulesError(_("%(name)s is out and has no hand"), name=name)
            totals.append(None)
        elif hand is None:
            raise RulesError(_("%(name)s's hand is missing"), name=name)
        elif isinstance(hand, dict):
            raise RulesError(
                _("%(name)s has a total and picked cards: keep one of them"), name=name
            )
        else:
            totals.append(hand_total(hand, seen))
    return totals


class LeastScore(Game):
    slug = "least_score"
    entry_fields = {"declarer": "seat", "hands": "per_seat"}
    name = _("Least Score")
    min_players, max_players = 2, 8
    summary = _(
        "Declare when your hand is low. The declaration stands if nobody still in is lower: "
        "the declarer scores 0, everyone else their hand minus the declarer's. Otherwise the "
        "declarer scores the penalty plus the difference. Above the threshold you are out."
    )
    labels = {
        "declarer": _("who declared"),
        "hands": _("hand"),
        "threshold": _("threshold"),
        "eliminate_at": _("out at"),
        "over": _("over"),
        "reach": _("reach"),
        "tie": _("tie"),
        "declarer_wins": _("declarer wins"),
        "declarer_fails": _("declarer fails"),
        "penalty": _("penalty"),
        "end": _("end"),
        "last_standing": _("last standing"),
        "first_out": _("first out"),
        "halve_on": _("halve on"),
    }
    options = (
        Option(
            "threshold",
            100,
            _("A player whose total passes this is out."),
            "whole",
            low=1,
            high=1000,
        ),
        Option(
            "eliminate_at",
            "over",
            _("Out when strictly above the threshold, or on reaching it."),
            choices=("over", "reach"),
        ),
        Option(
            "tie",
            "declarer_wins",
            _("When the declarer ties the lowest hand."),
            choices=("declarer_wins", "declarer_fails"),
        ),
        Option("penalty", 20, _("Added to a failed declarer's score."), "whole", low=0, high=1000),
        Option(
            "end",
            "last_standing",
            _("Play until one player is left, or stop at the first out."),
            choices=("last_standing", "first_out"),
        ),
        Option(
            "halve_on", [], _("Totals landing exactly here are halved (even numbers)."), "evens"
        ),
    )

    def new_table(self, players, options):
        return LeastScoreTable(players, options)

    def play(self, table, entry):
        declarer = seat(entry.get("declarer"), table.n, _("the declarer"), _("Tap who declared."))
        if declarer in table.out:
            raise RulesError(_("the declarer must be a player still in the game"))
        totals = hand_totals(table, entry.get("hands"))
        scored = self.scored(table.options, declarer, totals)
        landed = [t + p for t, p in zip(table.totals, scored)]
        halve_on = table.options["halve_on"]
        after = [t // 2 if p > 0 and t in halve_on else t for t, p in zip(landed, scored)]
        points = [a - t for a, t in zip(after, table.totals)]
        table.add({"points": points, "scored": scored})
        self.eliminate(table)

    def scored(self, options, declarer, totals):
        """Points as scored before halving: declarer's D against the lowest other hand L."""
        mine = totals[declarer]
        lowest = min(t for s, t in enumerate(totals) if t is not None and s != declarer)
        stands = mine < lowest or (mine == lowest and options["tie"] == "declarer_wins")
        if stands:
            return [0 if t is None or s == declarer else t - mine for s, t in enumerate(totals)]
        return [
            options["penalty"] + mine - lowest if s == declarer else 0 for s in range(len(totals))
        ]

    def eliminate(self, table):
        for s in table.still_in():
            if self.over_threshold(table.options, table.totals[s]):
                table.out[s] = len(table.rounds)

    @staticmethod
    def over_threshold(options, total):
        if options["eliminate_at"] == "reach":
            return total >= options["threshold"]
        return total > options["threshold"]

    def is_over(self, table):
        if table.options["end"] == "first_out":
            return bool(table.out)
        return len(table.still_in()) <= 1

    def winners(self, table):
        still_in = table.still_in()
        lowest = min(table.totals[s] for s in still_in)
        return [s for s in still_in if table.totals[s] == lowest]

    def chart_marks(self, table):
        threshold = table.options["threshold"]
        return [(threshold, Phrase(_("threshold %(threshold)s"), threshold=threshold))]

    def extra(self, table, finished):
        return {"eliminated": {table.players[s]: r for s, r in sorted(table.out.items())}}

    def entry_from_form(self, form, table):
        """Fields: declarer (a seat); per seat hand-N (a total), or the cards: cards-N (picked,
        repeated) and cardtext-N (typed, separated by spaces or commas)."""
        hands = [None if s in table.out else typed_hand(form, s) for s in range(table.n)]
        return {"declarer": whole_or_text(form_value(form, "declarer")), "hands": hands}

    def entry_context(self, table, entry=None):
        """One card picker per seat, refilled from entry: every card with its label, colour and
        value, checked when in that seat's hand, elsewhere when in another's; what the seat
        typed that is not a card (or repeats one); the picked cards' labels and total; and the
        seats that are out."""
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
        return {"pickers": pickers, "out": sorted(table.out)}

    def status(self, table):
        """How far each player still in is from the threshold."""
        threshold = table.options["threshold"]
        return [
            Phrase(
                _("%(name)s has %(total)s points, %(left)s below the threshold of %(threshold)s"),
                name=table.players[s],
                total=table.totals[s],
                left=threshold - table.totals[s],
                threshold=threshold,
            )
            for s in table.still_in()
        ] + [Phrase(_("%(name)s is out"), name=table.players[s]) for s in sorted(table.out)]

    def breakdown(self, table, index):
        """Whether the declaration stood, and any halving."""
        scored = table.rounds[index]["scored"]
        points = table.rounds[index]["points"]
        declarer = table.entries[index]["declarer"]
        verdict = (
            _("the declaration stands") if scored[declarer] == 0 else _("the declaration fails")
        )
        lines = [
            Phrase(
                _("%(name)s declared: %(verdict)s"), name=table.players[declarer], verdict=verdict
            )
        ]
        lines += [
            Phrase(_("%(name)s %(points)+d"), name=table.players[s], points=p)
            for s, p in enumerate(scored)
            if p
        ]
        lines += [
            Phrase(
                _("%(name)s landed on a halving total: %(points)+d in all"),
                name=table.players[s],
                points=points[s],
            )
            for s in range(table.n)
            if points[s] != scored[s]
        ]
        return lines


def typed_hand(form, s):
    """One player's hand: the cards picked and typed (as typed, for the engine to check), else
    the total."""
    texts = (form.get(f"cards-{s}") or []) + (form.get(f"cardtext-{s}") or [])
    cards = [card for text in texts for card in re.split(r"[\s,]+", text) if card]
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
