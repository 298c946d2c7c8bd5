"""Gongzhu (拱猪, chase the pig): avoid the pig and the hearts, take the sheep; zero-sum points."""

import math
import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from .base import (
    MAX_ROUNDS,
    Game,
    Option,
    Phrase,
    RulesError,
    Table,
    Term,
    form_value,
    hands_played,
    needs_hands,
    per_seat,
    plain,
    rate_note,
    whole_or_text,
)
from .base import (
    gettext_noop as _,
)
from .cards import is_red, parse_cards, pretty
from .settle import settlement

HEARTS = {
    "AH": -50,
    "KH": -40,
    "QH": -30,
    "JH": -20,
    "10H": -10,
    "9H": -10,
    "8H": -10,
    "7H": -10,
    "6H": -10,
    "5H": -10,
    "4H": 0,
    "3H": 0,
    "2H": 0,
}
# hearts: face, a house rule: 9♥ to 5♥, 3♥ and 2♥ at minus their face value, 4♥ -10.
FACE_HEARTS = HEARTS | {
    "9H": -9,
    "8H": -8,
    "7H": -7,
    "6H": -6,
    "5H": -5,
    "4H": -10,
    "3H": -3,
    "2H": -2,
}
SCORING = ("QS", "JD", "10C", *HEARTS)
EXPOSABLE = ("QS", "JD", "10C", "AH")
ONLY = {1: _("but there is only one"), 2: _("but two decks have only two")}
# Why a total differs from the card points (Gongzhu.saved_note), by mode and whether the match
# multiplies.
TOTALS_SAID = {
    ("individual", True): _("Totals are card points evened out so they add to 0, ×%(multiplier)s."),
    ("individual", False): _("Totals are card points evened out so they add to 0."),
    ("pairs", True): _(
        "Totals are each team's card points less the other team's, halved, ×%(multiplier)s, "
        "the same for both partners."
    ),
    ("pairs", False): _(
        "Totals are each team's card points less the other team's, halved, the same for both "
        "partners."
    ),
}


class Line(Phrase):
    """A phrase whose params may be phrases, or lists of them shown with commas."""

    def render(self, translate=str):
        def shown(value):
            if isinstance(value, list):
                return ", ".join(shown(v) for v in value)
            if isinstance(value, Phrase):
                return value.render(translate)
            return translate(value) if isinstance(value, Term) else value

        return Phrase(self.text, **{k: shown(v) for k, v in self.params.items()}).render(translate)


@dataclass(frozen=True)
class Hand:
    """One hand as entered: each seat's scoring cards, the exposures that count, the auto one."""

    captured: tuple  # per seat, canonical cards in SCORING order
    exposed: Counter  # card -> copies exposed, the auto-exposed fourth included
    auto: str = None  # the card auto_expose_fourth exposed, if any


@dataclass(frozen=True)
class Item:
    """One part of a raw score: value × factor (value None: a factor on everything else)."""

    label: str
    value: int
    factor: int
    card: str = None  # the exposable card behind the factor; None for the grand slam


class GongzhuTable(Table):
    """Adds each hand as entered and the cumulative raw scores."""

    def __post_init__(self):
        super().__post_init__()
        self.hands = []
        self.raw_totals = [0] * self.n


def at_most(counts, decks, template):
    """Raise template for a card that appears more often than there are decks."""
    for card, count in counts.items():
        if count > decks:
            raise RulesError(template, card=pretty(card), count=count, only=ONLY[decks])


def read_captured(captured, decks):
    """Each seat's scoring cards, checked: every scoring card captured once per deck."""
    per_seat(captured, 4, _("captured"))
    seats = [parse_cards(cards, _("each player's captured cards")) for cards in captured]
    counts = Counter(card for cards in seats for card in cards)
    for card in counts:
        if card not in SCORING:
            raise RulesError(_("%(card)s is not a scoring card"), card=card)
    at_most(counts, decks, _("%(card)s was captured %(count)d times, %(only)s"))
    missing = [pretty(card) for card in SCORING for _copy in range(decks - counts[card])]
    if missing:
        raise RulesError(_("still to place: %(cards)s"), cards=missing)
    return tuple(tuple(sorted(cards, key=SCORING.index)) for cards in seats)


def read_exposed(exposed, options):
    """The exposures that count (with the auto-exposed fourth) and that fourth card, if any."""
    cards = parse_cards([] if exposed is None else exposed, _("exposed"))
    for card in cards:
        if card not in EXPOSABLE:
            raise RulesError(
                _("%(card)s cannot be exposed: only Q♠, J♦, 10♣ and A♥ can"), card=card
            )
    counts = Counter(cards)
    at_most(counts, options["decks"], _("%(card)s was exposed %(count)d times, %(only)s"))
    unexposed = [card for card in EXPOSABLE if card not in counts]
    if options["decks"] == 1 and options["auto_expose_fourth"] and len(unexposed) == 1:
        return counts + Counter(unexposed), unexposed[0]
    return counts, None


def items(cards, hand, options):
    """What one player's captured cards score, item by item."""
    decks, exposed, count = options["decks"], hand.exposed, Counter(cards)
    if len(cards) == 16 * decks and options["grand_slam"] == "flat":
        return [Item(_("grand slam"), 800 * decks, 2 ** sum(exposed.values()))]
    found = []
    hearts = [card for card in cards if card in HEARTS]
    all_red = len(hearts) == 13 * decks
    if count["QS"]:
        turned = all_red and options["all_red_pig"]
        label, value = (_("pig turned by all red"), 100) if turned else (_("pig"), -100)
        found.append(Item(label, value * count["QS"], 2 ** exposed["QS"], "QS"))
    if count["JD"]:
        found.append(Item(_("sheep"), 100 * count["JD"], 2 ** exposed["JD"], "JD"))
    if all_red:
        found.append(Item(_("all red"), 200 * decks, 2 ** exposed["AH"], "AH"))
    elif hearts:
        values = FACE_HEARTS if options["hearts"] == "face" else HEARTS
        found.append(Item(_("hearts"), sum(values[c] for c in hearts), 2 ** exposed["AH"], "AH"))
    if count["10C"]:
        factor = 2 ** (count["10C"] + exposed["10C"])
        if found:
            found.append(Item(_("transformer"), None, factor, "10C"))
        else:
            found.append(Item(_("transformer alone"), 25, factor, "10C"))
    return found


def raw_of(found):
    """A raw score from its items: the sum of value × factor, times the transformer's factor."""
    base = sum(item.value * item.factor for item in found if item.value is not None)
    return base * math.prod(item.factor for item in found if item.value is None)


def shares(raws, mode):
    """Each seat's zero-sum share before the multiplier: (4·raw − S)/3, or the team's half."""
    if mode == "pairs":
        teams = [raws[0] + raws[2], raws[1] + raws[3]]
        return [Fraction(teams[s % 2] - teams[1 - s % 2], 2) for s in range(4)]
    total = sum(raws)
    return [Fraction(4 * raw - total, 3) for raw in raws]


def rounded(number):
    """A Fraction rounded to a whole number, halves away from zero."""
    away = math.floor(abs(number) + Fraction(1, 2))
    return away if number >= 0 else -away


def points_of(raws, options):
    """The zero-sum points of a hand: rounded then multiplied (nearest), or the other way."""
    multiplier = options["multiplier"]
    if options["rounding"] == "exact":
        return [rounded(multiplier * share) for share in shares(raws, options["mode"])]
    return [rounded(share) * multiplier for share in shares(raws, options["mode"])]


def shown_share(share, rounding):
    """A share as the breakdown shows it: rounded (nearest) or to two decimals (exact)."""
    if rounding == "nearest":
        return rounded(share)
    return plain(round(Decimal(share.numerator) / Decimal(share.denominator), 2))


def owner_fields(decks):
    """The entry form's owner fields and the card each names: owner-QS, or owner-QS-1/-2."""
    if decks == 1:
        return [(f"owner-{card}", card) for card in SCORING]
    return [(f"owner-{card}-{copy}", card) for card in SCORING for copy in (1, 2)]


def exposure(card, times):
    """Why a factor applies: the card exposed once or twice (None when not exposed)."""
    if not times:
        return None
    text = _("%(card)s exposed") if times == 1 else _("%(card)s exposed twice")
    return Phrase(text, card=pretty(card))


def item_phrase(item, hand):
    """One item for the breakdown: label, value, ×factor and the exposure behind it."""
    if item.card is None:
        reason = [exposure(card, times) for card, times in hand.exposed.items()]
    else:
        reason = exposure(item.card, hand.exposed[item.card])
    text = "%(label)s" + (" %(value)s" if item.value is not None else "")
    text += " %(factor)s" if item.factor != 1 else ""  # ×4, one piece in any direction
    text += " (%(reason)s)" if reason else ""
    factor = f"×{item.factor}"
    return Line(text, label=item.label, value=item.value, factor=factor, reason=reason)


class Gongzhu(Game):
    slug = "gongzhu"
    entry_fields = {"captured": "per_seat", "exposed": "cards"}
    name = _("Gongzhu")
    min_players, max_players = 4, 4
    summary = _(
        "Avoid the pig (Q♠ -100) and the hearts (-200 in all), take the sheep (J♦ +100); the "
        "transformer (10♣) doubles its taker's other cards, and all thirteen hearts turn to "
        "+200. Exposed cards count double. Each hand's card points are evened out (each "
        "player's less the average of the other three) and multiplied; the match ends when a "
        "player's card points fall to the limit (-1000 with one deck)."
    )
    terms = {
        _("pig"): _("The pig is Q♠: -100 to whoever takes it."),
        _("sheep"): _("The sheep is J♦: +100 to whoever takes it."),
        _("transformer"): _(
            "The transformer is 10♣: it doubles what its taker's other cards score (taken "
            "alone, it is worth 25, doubled)."
        ),
        _("all red"): _("All red: one player took all thirteen hearts, which then count +200."),
        _("evening out"): _(
            "Evening out: each player's card points less the average of the other three, so "
            "that the hand adds up to 0."
        ),
        _("grand slam"): _("A grand slam: one player took every scoring card."),
    }
    labels = {
        "captured": _("cards taken"),
        "exposed": _("exposed cards"),
        "decks": _("How many decks"),
        1: _("one deck"),
        2: _("two decks (every card twice)"),
        "mode": _("Who plays with whom"),
        "individual": _("each for themselves"),
        "pairs": _("in pairs, partners sitting opposite"),
        "multiplier": _("Each hand's points multiplied by"),
        "rounding": _("When a share has a fraction"),
        "nearest": _("round it, then multiply"),
        "exact": _("multiply, then round"),
        "all_red_pig": _("All thirteen hearts turn the pig to plus"),
        "grand_slam": _("All the scoring cards to one player"),
        "flat": _("800, doubled for each exposed card"),
        "formula": _("counted card by card"),
        "auto_expose_fourth": _("Three of Q♠ J♦ 10♣ A♥ exposed expose the fourth"),
        "end": _("How the match ends"),
        ("end", "floor"): _("at a limit of card points"),
        ("end", "hands"): _("after a number of hands"),
        "open": _("when you close it"),
        "floor": _("Ends at minus this many card points"),
        "hands": _("How many hands"),
        "stake": _("Money a point"),
        "hearts": _("What the hearts are worth"),
        "standard": _("10♥ to 5♥ -10 each, 4♥ 3♥ 2♥ 0"),
        "face": _("their face value"),
        "ceiling": _("Also end at plus this many card points"),
    }
    options = (
        Option("decks", 1, _("Play with one deck, or two (every card twice)."), choices=(1, 2)),
        Option(
            "mode",
            "individual",
            _("Each for themselves, or pairs: first and third seats against second and fourth."),
            choices=("individual", "pairs"),
        ),
        Option(
            "multiplier",
            lambda o: 12 if o["decks"] == 1 else 1,
            _(
                "Each hand's card points are evened out (each player's less the others' "
                "average, so the hand adds up to 0), then multiplied by this."
            ),
            "whole",
            low=1,
            high=1000,
            default_help=_("12 with one deck, 1 with two"),
        ),
        Option(
            "rounding",
            "nearest",
            _(
                "Evening out can leave a fraction: round it and multiply, or multiply first "
                "and round the result."
            ),
            choices=("nearest", "exact"),
        ),
        Option(
            "all_red_pig", True, _("A player with all the hearts turns the pig to plus."), "bool"
        ),
        Option(
            "grand_slam",
            "flat",
            _(
                "A player who takes every scoring card scores 800 doubled for each exposed "
                "card, or card by card."
            ),
            choices=("flat", "formula"),
        ),
        Option(
            "auto_expose_fourth",
            True,
            _("One deck: when three of Q♠ J♦ 10♣ A♥ are exposed, the fourth is too."),
            "bool",
            when=("decks", (1,)),
        ),
        Option(
            "end",
            "floor",
            _(
                "When a player's card points fall to a limit (such as -1000), after a number of "
                "hands, or only when you close the match."
            ),
            choices=("floor", "hands", "open"),
        ),
        Option(
            "floor",
            lambda o: 1000 if o["decks"] == 1 else 4000,
            _("1000: the match ends when a player's card points reach -1000."),
            "whole",
            low=1,
            high=10_000_000,
            default_help=_("1000 with one deck, 4000 with two"),
            when=("end", ("floor",)),
        ),
        Option(
            "hands",
            None,
            _("How many hands to play."),
            "whole_or_null",
            low=1,
            high=MAX_ROUNDS,
            when=("end", ("hands",)),
        ),
        Option(
            "stake",
            0,
            _("What each point of the totals is worth: at 0.01, a total of 1430 wins 14.30."),
            "number",
            low=0,
            high=1_000_000,
            default_help=_("not for money (0)"),
            first=True,
        ),
        Option(
            "hearts",
            "standard",
            _(
                "Heart values: 10♥ to 5♥ -10 each and 4♥ 3♥ 2♥ 0, or face value "
                "(9♥ -9 … 5♥ -5, 4♥ -10, 3♥ -3, 2♥ -2)."
            ),
            choices=("standard", "face"),
            variant=True,
        ),
        Option(
            "ceiling",
            None,
            _("The match also ends when a player's card points reach plus this (empty: never)."),
            "whole_or_null",
            low=1,
            high=10_000_000,
            variant=True,
            when=("end", ("floor",)),
        ),
    )

    def check_options(self, options, n):
        needs_hands(self, options)
        if options["ceiling"] is not None and options["end"] != "floor":
            raise RulesError(
                _("option '%(option)s' is used only when '%(end)s' is '%(floor)s'"),
                name="ceiling",
                option=self.label("ceiling"),
                end=self.label("end"),
                floor=self.choice_label("end", "floor"),
            )

    def new_table(self, players, options):
        return GongzhuTable(players, options)

    def play(self, table, entry):
        captured = read_captured(entry.get("captured"), table.options["decks"])
        hand = Hand(captured, *read_exposed(entry.get("exposed"), table.options))
        raws = [raw_of(items(cards, hand, table.options)) for cards in captured]
        table.hands.append(hand)
        table.raw_totals = [t + r for t, r in zip(table.raw_totals, raws)]
        table.add({"points": points_of(raws, table.options), "raw": raws})

    def is_over(self, table):
        options = table.options
        if options["end"] == "floor":
            ceiling = options["ceiling"]
            reached = ceiling is not None and max(table.raw_totals) >= ceiling
            return reached or min(table.raw_totals) <= -options["floor"]
        return options["end"] == "hands" and len(table.rounds) >= options["hands"]

    def ending(self, table):
        """Whose card points reached the floor or the ceiling, or that the hands are played."""
        options = table.options
        if options["end"] == "hands":
            return hands_played(table, options["hands"])
        if options["end"] != "floor":
            return []
        floor, ceiling = options["floor"], options["ceiling"]
        raw = list(zip(table.players, table.raw_totals))
        low = [name for name, points in raw if points <= -floor]
        high = [name for name, points in raw if ceiling is not None and points >= ceiling]
        lines = []
        if low:
            lines.append(
                Phrase(_("%(names)s reached -%(floor)s in card points"), names=low, floor=floor)
            )
        if high:
            lines.append(
                Phrase(
                    _("%(names)s reached +%(ceiling)s in card points"), names=high, ceiling=ceiling
                )
            )
        return lines

    def winners(self, table):
        top = max(table.totals)
        return [s for s, total in enumerate(table.totals) if total == top]

    def settle(self, table):
        return settlement(table.players, table.totals, table.options["stake"])

    def settlement_note(self, table):
        return rate_note(self, table, "stake")

    def extra(self, table, finished):
        return {"raw_totals": table.raw_totals}

    def entry_from_form(self, form, table):
        """Fields: owner-CARD (one deck) or owner-CARD-1 / owner-CARD-2 (two decks), each the
        seat ('0'-'3') that captured that scoring card, e.g. owner-QS, owner-10C-2; rest, a seat
        that takes every card left without an owner (optional); exposed, repeated, one value per
        exposed card: QS, JD, 10C, AH (with two decks QS-1, QS-2 for the copies).
        A card whose owner is not a seat is left out, so the engine names it as not captured.
        """
        rest = whole_or_text(form_value(form, "rest"))
        captured = [[] for _seat in range(4)]
        for name, card in owner_fields(table.options["decks"]):
            text = form_value(form, name)
            owner = whole_or_text(text) if text else rest
            if owner in range(4):
                captured[owner].append(card)
        exposed = [
            re.sub(r"-[12]\Z", "", text.strip()) for text in form.get("exposed", []) if text.strip()
        ]
        return {"captured": captured, "exposed": exposed}

    def entry_context(self, table, entry=None):
        """The form's cards, refilled from entry (a round typed or being edited): per owner
        field its card, label, colour and the seat that took that copy (None: nobody); the
        exposure boxes, checked from entry; and the labels of the cards nobody has yet."""
        decks = table.options["decks"]
        entry = entry or {}
        takers = {}
        for seat, cards in enumerate(entry.get("captured") or []):
            for card in cards:
                takers.setdefault(card, []).append(seat)
        cards = [
            {
                "field": field,
                "card": card,
                "label": pretty(card),
                "red": is_red(card),
                "owner": takers[card].pop(0) if takers.get(card) else None,
            }
            for field, card in owner_fields(decks)
        ]
        exposed = Counter(entry.get("exposed") or [])
        boxes = [
            {
                "value": card if decks == 1 else f"{card}-{copy}",
                "label": pretty(card),
                "red": is_red(card),
                "checked": exposed[card] >= copy,
            }
            for card in EXPOSABLE
            for copy in range(1, decks + 1)
        ]
        return {
            "cards": cards,
            "exposable": boxes,
            "unassigned": [c["label"] for c in cards if c["owner"] is None],
        }

    def breakdown(self, table, index):
        hand, scored, options = table.hands[index], table.rounds[index], table.options
        lines = []
        if hand.exposed:
            lines.append(
                Phrase(
                    _("Exposed: %(cards)s"),
                    cards=" ".join(pretty(c) for c in hand.exposed.elements()),
                )
            )
        if hand.auto:
            lines.append(
                Phrase(
                    _("%(card)s counts as exposed: the other three were."), card=pretty(hand.auto)
                )
            )
        all_shares = shares(scored["raw"], options["mode"])
        for s, cards in enumerate(hand.captured):
            lines.append(
                Line(
                    _("%(name)s %(score)s; %(share)s"),
                    name=table.players[s],
                    score=self.hand_score(cards, hand, options, scored["raw"][s]),
                    share=self.share_phrase(
                        table, s, all_shares[s], scored["points"][s], scored["raw"]
                    ),
                )
            )
        return lines

    @staticmethod
    def hand_score(cards, hand, options, raw):
        """What a player took and how it makes the raw score."""
        if not cards:
            return Phrase(_("took no scoring card: 0"))
        return Line(
            _("took %(cards)s: %(items)s = %(raw)s"),
            cards=" ".join(pretty(c) for c in cards),
            items=[item_phrase(item, hand) for item in items(cards, hand, options)],
            raw=raw,
        )

    @staticmethod
    def share_phrase(table, s, share, points, raws):
        """How a raw score becomes points: the zero-sum share (or team half) × multiplier."""
        options = table.options
        params = {
            "share": shown_share(share, options["rounding"]),
            "points": points,
            "multiplier": options["multiplier"],
        }
        if options["mode"] == "pairs":
            team, other = raws[s % 2] + raws[s % 2 + 2], raws[1 - s % 2] + raws[3 - s % 2]
            return Phrase(
                _(
                    "team %(team)s against %(other)s, after evening out "
                    "%(share)s ×%(multiplier)s = %(points)s"
                ),
                team=team,
                other=other,
                **params,
            )
        return Phrase(_("after evening out %(share)s ×%(multiplier)s = %(points)s"), **params)

    def to_go(self, table, seat):
        """With a floor, the player's card points (what the floor is counted in), beside it."""
        if table.options["end"] != "floor":
            return None
        raw, floor = table.raw_totals[seat], table.options["floor"]
        return Phrase(_("card points %(raw)s of -%(floor)s"), raw=raw, floor=floor)

    def saved_note(self, table):
        """After the first hand: why a total is not the card points beside it (evened out, in
        pairs team against team, and the multiplier the match uses)."""
        if len(table.rounds) != 1:
            return None
        options = table.options
        key = (options["mode"], options["multiplier"] != 1)
        return Phrase(TOTALS_SAID[key], multiplier=options["multiplier"])

    def status(self, table):
        """Who leads the next hand and how far the match is from its end."""
        if self.is_over(table):
            return [Phrase(_("The match is over."))]
        lines = [self.leader(table)]
        options = table.options
        if options["end"] == "floor" and table.rounds:
            low = min(table.raw_totals)
            names = [p for p, r in zip(table.players, table.raw_totals) if r == low]
            lines.append(
                Phrase(
                    _(
                        "The match ends when a player's card points reach -%(floor)s; "
                        "lowest now %(raw)s (%(names)s)."
                    ),
                    floor=options["floor"],
                    raw=low,
                    names=names,
                )
            )
            if options["ceiling"] is not None:
                high = max(table.raw_totals)
                lines.append(
                    Phrase(
                        _("It also ends at +%(ceiling)s; highest now %(raw)s (%(names)s)."),
                        ceiling=options["ceiling"],
                        raw=high,
                        names=[p for p, r in zip(table.players, table.raw_totals) if r == high],
                    )
                )
        elif options["end"] == "hands":
            lines.append(
                Phrase(
                    _("Hand %(number)s of %(hands)s is next."),
                    number=len(table.rounds) + 1,
                    hands=options["hands"],
                )
            )
        return lines

    @staticmethod
    def leader(table):
        """First hand: the holder of 2♣; later: whoever took the pig in the last hand."""
        if not table.hands:
            return Phrase(_("The holder of 2♣ leads the first hand."))
        takers = [
            table.players[s] for s, cards in enumerate(table.hands[-1].captured) if "QS" in cards
        ]
        if len(takers) == 1:
            return Phrase(_("%(name)s took the pig and leads the next hand."), name=takers[0])
        return Phrase(
            _(
                "%(first)s and %(second)s each took a pig: one of them leads the next "
                "hand, as the table agrees."
            ),
            first=takers[0],
            second=takers[1],
        )


GAME = Gongzhu()
