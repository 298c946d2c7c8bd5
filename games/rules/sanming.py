"""Sanming run-fast (三明跑得快, "beat the kid"): cards left cost points; kids pay at the end."""

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
from .base import gettext_noop as _
from .settle import settlement

PLAYERS = 3
MOST_CARDS = 17
MOST_BOMBS = 13

# A loser's line in the breakdown, by cards-left band and whether the loser was bombed.
LOSER_LINES = {
    ("one", False): _("%(name)s: 1 card = 1"),
    ("one", True): _("%(name)s: 1 card = 1, bombed %(times)s ×%(factor)d = %(points)d"),
    ("few", False): _("%(name)s: %(cards)d cards = %(points)d"),
    ("few", True): _(
        "%(name)s: %(cards)d cards = %(base)d, bombed %(times)s ×%(factor)d = %(points)d"
    ),
    ("many", False): _("%(name)s: %(cards)d cards ×2 = %(points)d"),
    ("many", True): _(
        "%(name)s: %(cards)d cards ×2 = %(base)d, bombed %(times)s ×%(factor)d = %(points)d"
    ),
    ("all", False): _("%(name)s: 17 cards, never played = 68"),
    ("all", True): _(
        "%(name)s: 17 cards, never played = 68, bombed %(times)s ×%(factor)d = %(points)d"
    ),
}
TIMES = (
    _("once"),
    _("twice"),
    _("3 times"),
    _("4 times"),
    _("5 times"),
    _("6 times"),
    _("7 times"),
    _("8 times"),
    _("9 times"),
    _("10 times"),
    _("11 times"),
    _("12 times"),
    _("13 times"),
)


def band(cards):
    """The cards-left band: one, few (1-9), many (10-16) or all (17)."""
    if cards == MOST_CARDS:
        return "all"
    if cards >= 10:
        return "many"
    return "one" if cards == 1 else "few"


def card_points(cards):
    """A loser's points for cards left before bombs: n for 1-9, 2n for 10-16, 68 for 17."""
    return {"all": 68, "many": 2 * cards}.get(band(cards), cards)


def loser_points(cards, bombs):
    """A loser's points: the cards-left points doubled for every bomb (the form's live sum)."""
    return card_points(cards) * 2**bombs


class SanmingTable(Table):
    """Adds the hands as entered: each with winner, cards_left and bombed (0 for the winner)."""

    def __post_init__(self):
        super().__post_init__()
        self.hands = []


class Sanming(Game):
    slug = "sanming"
    entry_fields = {"winner": "seat", "cards_left": "per_seat", "bombed": "per_seat"}
    name = _("Sanming run-fast")
    min_players = max_players = PLAYERS
    summary = _(
        "The first player out of cards wins the hand and scores 0; the others score their cards "
        "left (1-9 as is, 10-16 doubled, 17 is 68), doubled again for every bomb they took. "
        "When a total reaches the target, anyone below the kid line goes to 0 and the others "
        "double; each player then wins or pays the differences to the other two."
    )
    labels = {
        "target": _("target"),
        "kid_below": _("kid below"),
        "bean_rate": _("bean rate"),
        "winner": _("who went out"),
        "cards_left": _("cards left"),
        "bombed": _("bombs"),
    }
    options = (
        Option(
            "target",
            100,
            _("The match ends when a player's total reaches this."),
            "whole",
            low=1,
            high=100000,
        ),
        Option(
            "kid_below",
            5,
            _("At the end, a total below this is a kid (0, the others double)."),
            "whole",
            low=0,
            high=100000,
        ),
        Option(
            "bean_rate",
            1,
            _("Beans (or money) paid per point of the settlement."),
            "number",
            low=0,
            high=1_000_000,
        ),
    )

    def check_options(self, options, n):
        if options["kid_below"] >= options["target"]:
            raise RulesError(
                _("option 'kid_below' must be below the target (%(target)s)"),
                target=options["target"],
            )

    def new_table(self, players, options):
        return SanmingTable(players, options)

    def play(self, table, entry):
        winner = seat(entry.get("winner"), table.n, _("the winner"), _("Tap who went out first."))
        cards = per_seat(entry.get("cards_left"), table.n, _("cards left"))
        bombed = entry.get("bombed")
        bombed = [0] * table.n if bombed is None else per_seat(bombed, table.n, _("bombed"))
        if cards[winner] is not None:
            whole(cards[winner], 0, 0, _("the winner's cards left"))
        hand = {"winner": winner, "cards_left": [0] * table.n, "bombed": [0] * table.n}
        for s in range(table.n):
            if s != winner:
                name = table.players[s]
                if cards[s] is None:
                    raise RulesError(_("Tap how many cards %(name)s has left."), name=name)
                hand["cards_left"][s] = whole(
                    cards[s], 1, MOST_CARDS, Phrase(_("%(name)s's cards left"), name=name)
                )
                hand["bombed"][s] = whole(
                    bombed[s], 0, MOST_BOMBS, Phrase(_("%(name)s's bombs"), name=name)
                )
        table.hands.append(hand)
        losses = zip(hand["cards_left"], hand["bombed"])
        table.add(
            {
                "points": [
                    0 if s == winner else loser_points(c, b) for s, (c, b) in enumerate(losses)
                ]
            }
        )

    def is_over(self, table):
        return max(table.totals) >= table.options["target"]

    def kids(self, table):
        """Per seat, whether that player is a kid: below kid_below once the target is reached."""
        return [self.is_over(table) and t < table.options["kid_below"] for t in table.totals]

    def adjusted(self, table):
        """The totals after the kid rule: kids to 0 and the others doubled, when there is a kid."""
        kids = self.kids(table)
        if not any(kids):
            return list(table.totals)
        return [0 if kid else 2 * t for kid, t in zip(kids, table.totals)]

    @staticmethod
    def results(adjusted):
        """Each player's sum of differences to the other two: positive wins, negative pays."""
        return [sum(adjusted) - len(adjusted) * a for a in adjusted]

    def winners(self, table):
        results = self.results(self.adjusted(table))
        return [s for s, r in enumerate(results) if r == max(results)]

    def settle(self, table):
        adjusted = self.adjusted(table)
        return settlement(
            table.players, self.results(adjusted), table.options["bean_rate"], adjusted=adjusted
        )

    def entry_from_form(self, form, table):
        """Fields: winner (a seat); cards_left-N, cards left per seat; bombed-N, times bombed per
        seat (empty means 0). The winner's row is hidden on the form, so whatever it holds is
        left out: the winner's cards left are null and bombs 0."""
        winner = whole_or_text(form_value(form, "winner"))
        losers = [s for s in range(table.n) if s != winner]
        cards, bombed = [None] * table.n, [0] * table.n
        for s in losers:
            cards[s] = whole_or_text(form_value(form, f"cards_left-{s}"))
            bombed[s] = whole_or_text(form_value(form, f"bombed-{s}") or "0")
        return {"winner": winner, "cards_left": cards, "bombed": bombed}

    def breakdown(self, table, index):
        hand, points = table.hands[index], table.rounds[index]["points"]
        winner = hand["winner"]
        lines = [Phrase(_("%(name)s went out first: 0"), name=table.players[winner])]
        for s, (cards, bombs) in enumerate(zip(hand["cards_left"], hand["bombed"])):
            if s != winner:
                lines.append(
                    Phrase(
                        LOSER_LINES[band(cards), bombs > 0],
                        name=table.players[s],
                        cards=cards,
                        base=card_points(cards),
                        times=TIMES[bombs - 1] if bombs else None,
                        factor=2**bombs,
                        points=points[s],
                    )
                )
        return lines

    def status(self, table):
        if self.is_over(table):
            return self.final_status(table)
        target = table.options["target"]
        if not table.hands:
            return [
                Phrase(_("The holder of 3♠ leads the first hand.")),
                Phrase(_("The match ends when a total reaches %(target)d."), target=target),
            ]
        top = max(table.totals)
        leaders = ", ".join(p for p, t in zip(table.players, table.totals) if t == top)
        return [
            Phrase(
                _("%(name)s won the last hand and leads the next."),
                name=table.players[table.hands[-1]["winner"]],
            ),
            Phrase(
                _("Highest total %(total)d (%(names)s): %(short)d short of %(target)d."),
                total=top,
                names=leaders,
                short=target - top,
                target=target,
            ),
        ]

    def final_status(self, table):
        """The end: the kid rule's effect on each total and the payments that settle it."""
        kid_below, kids = table.options["kid_below"], self.kids(table)
        settled = self.settle(table)
        lines = [
            Phrase(
                _("A total reached %(target)d: the match is over."), target=table.options["target"]
            )
        ]
        if not any(kids):
            lines.append(
                Phrase(_("Nobody is below %(kid_below)d, so there is no kid."), kid_below=kid_below)
            )
        for name, kid, total, adjusted in zip(
            table.players, kids, table.totals, settled["adjusted"]
        ):
            if kid:
                lines.append(
                    Phrase(
                        _("%(name)s is a kid (%(total)d is below %(kid_below)d): 0."),
                        name=name,
                        total=total,
                        kid_below=kid_below,
                    )
                )
            elif any(kids):
                lines.append(
                    Phrase(
                        _("%(name)s doubles: %(total)d becomes %(adjusted)d."),
                        name=name,
                        total=total,
                        adjusted=adjusted,
                    )
                )
        lines += [
            Phrase(
                _("%(payer)s pays %(payee)s %(amount)s beans."),
                payer=t["from"],
                payee=t["to"],
                amount=t["amount"],
            )
            for t in settled["transfers"]
        ]
        return lines


GAME = Sanming()
