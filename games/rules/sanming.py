"""Sanming run-fast (三明跑得快, "beat the kid"): cards left cost points; kids pay at the end."""

from .base import (
    Game,
    Option,
    Phrase,
    RulesError,
    Table,
    form_value,
    per_seat,
    points_to_go,
    rate_note,
    reached,
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
    ("shut", False): _("%(name)s: %(cards)d cards, never played ×2 = %(points)d"),
    ("shut", True): _(
        "%(name)s: %(cards)d cards, never played ×2 = %(base)d, bombed %(times)s ×%(factor)d "
        "= %(points)d"
    ),
    ("baodan", False): _("%(name)s: 1 card, announced (baodan) = 0"),
    ("baodan", True): _("%(name)s: 1 card, announced (baodan) = 0"),
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
# What the cards left of a band are worth (any other band: one point a card).
BAND_POINTS = {"baodan": lambda n: 0, "all": lambda n: 68, "many": lambda n: 2 * n}
BAND_POINTS["shut"] = BAND_POINTS["many"]


def band(cards, options):
    """The cards-left band: baodan (an announced single), one, few, many (10-16, the Sanming
    table), all (17, never played, the Sanming table) or shut (never played, flat)."""
    flat = options["card_points"] == "flat"
    if options["baodan"] and cards == 1:
        return "baodan"
    if cards == options["deal"]:
        return "shut" if flat else "all"
    if cards >= 10 and not flat:
        return "many"
    return "one" if cards == 1 else "few"


def card_points(cards, options):
    """A loser's points for the cards left before bombs, by the card_points table: Sanming (n
    for 1-9, 2n for 10-16, 68 for 17) or flat (n, 2n never played); 0 for a baodan single."""
    points = BAND_POINTS.get(band(cards, options))
    return points(cards) if points else cards


def loser_points(cards, bombs, options):
    """A loser's points: the cards-left points doubled for every time bombed."""
    return card_points(cards, options) * 2**bombs


def count(form, field):
    """A typed count: empty means 0."""
    return whole_or_text(form_value(form, field) or "0")


def bomb_pay(bombs, points):
    """Per seat, what the bombs of a hand pay: each bomb earns points from every other player."""
    total = sum(bombs)
    return [points * ((len(bombs) - 1) * b - (total - b)) for b in bombs]


class SanmingTable(Table):
    """Adds the hands as entered: each with winner, cards_left, bombed (0 for the winner) and
    bombs (the bombs each played, with bomb: pay)."""

    def __post_init__(self):
        super().__post_init__()
        self.hands = []


class Sanming(Game):
    slug = "sanming"
    entry_fields = {
        "winner": "seat",
        "cards_left": "per_seat",
        "bombed": "per_seat",
        "bombs": "per_seat",
    }
    name = _("Sanming run-fast")
    min_players = max_players = PLAYERS
    summary = _(
        "The first player out of cards wins the hand and scores 0; the others score their cards "
        "left (1-9 as is, 10-16 doubled, 17 is 68), doubled again for every bomb they took. "
        "When a total reaches the target, a player below the kid rule's limit (a kid) counts 0 "
        "and the others' totals double; each player then wins or pays the differences to the "
        "other two."
    )
    labels = {
        "target": _("Total that ends the match"),
        "kid_below": _("Kid rule: totals below"),
        "bean_rate": _("Beans a point"),
        "winner": _("who went out"),
        "cards_left": _("cards left"),
        "bombed": _("bombs"),
        "bombs": _("bombs played"),
        "deal": _("Cards dealt to each player"),
        "card_points": _("Points for the cards left"),
        "sanming": _("the Sanming table"),
        "flat": _("one a card"),
        "baodan": _("A single card left scores 0"),
        "bomb": _("A bomb"),
        "double": _("doubles the bombed"),
        "pay": _("is paid by the others"),
        "bomb_points": _("What each pays for a bomb"),
        "settle": _("Who pays whom at the end"),
        "pairwise": _("everyone pays everyone the difference"),
        ("settle", "winner"): _("in every hand, the losers pay its winner"),
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
            _(
                "At the end, a player whose total is below this is a kid: it counts 0 and the "
                "others' totals count double."
            ),
            "whole",
            low=0,
            high=100000,
            when=("settle", ("pairwise",)),
        ),
        Option(
            "bean_rate",
            1,
            _("What each point of the settlement is paid in beans (0: not for beans)."),
            "number",
            low=0,
            high=1_000_000,
            default_help=_("1 bean a point"),
            first=True,
        ),
        Option(
            "deal",
            MOST_CARDS,
            _("Cards dealt to each player: 17 in Sanming, 16 or 15 in other run-fast games."),
            choices=(17, 16, 15),
            variant=True,
        ),
        Option(
            "card_points",
            lambda o: "sanming" if o["deal"] == MOST_CARDS else "flat",
            _(
                "Points for the cards left: the Sanming table (10 or more count double, 17 is "
                "68), or one a card, doubled for a player who never played."
            ),
            choices=("sanming", "flat"),
            default_help=_("the Sanming table with 17 cards, one a card with 16 or 15"),
            variant=True,
        ),
        Option(
            "baodan",
            False,
            _("A loser left with a single card (announced: 报单) scores 0."),
            "bool",
            variant=True,
        ),
        Option(
            "bomb",
            "double",
            _("A bomb doubles the points of the player it hit, or the other two pay the bomber."),
            choices=("double", "pay"),
            variant=True,
        ),
        Option(
            "bomb_points",
            10,
            _("When the others pay the bomber: what each pays for a bomb."),
            "whole",
            low=1,
            high=1000,
            variant=True,
            when=("bomb", ("pay",)),
        ),
        Option(
            "settle",
            "pairwise",
            _(
                "Settle everyone with everyone at the end (with the kid rule), or each loser "
                "pays the hand's winner their points."
            ),
            choices=("pairwise", "winner"),
            variant=True,
        ),
    )

    def check_options(self, options, n):
        if options["kid_below"] >= options["target"]:
            raise RulesError(
                _("option '%(option)s' must be below the target (%(target)s)"),
                option=self.label("kid_below"),
                target=options["target"],
            )
        if options["card_points"] == "sanming" and options["deal"] != MOST_CARDS:
            raise RulesError(
                _("option 'card_points': the Sanming table needs a 17-card deal"),
                name="card_points",
            )

    def new_table(self, players, options):
        return SanmingTable(players, options)

    def play(self, table, entry):
        winner = seat(entry.get("winner"), table.n, _("the winner"), _("Tap who went out first."))
        cards = per_seat(entry.get("cards_left"), table.n, _("cards left"))
        if cards[winner] is not None:
            whole(cards[winner], 0, 0, _("the winner's cards left"))
        options = table.options
        hand = {"winner": winner, "cards_left": [0] * table.n}
        for s in range(table.n):
            if s != winner:
                name = table.players[s]
                if cards[s] is None:
                    raise RulesError(_("Tap how many cards %(name)s has left."), name=name)
                hand["cards_left"][s] = whole(
                    cards[s], 1, options["deal"], Phrase(_("%(name)s's cards left"), name=name)
                )
        hand["bombed"], hand["bombs"] = self.bombs_of(table, entry, winner)
        table.hands.append(hand)
        losses = zip(hand["cards_left"], hand["bombed"])
        points = [
            0 if s == winner else loser_points(c, b, options) for s, (c, b) in enumerate(losses)
        ]
        if options["bomb"] == "pay":
            table.add(
                {"points": points, "bomb_pay": bomb_pay(hand["bombs"], options["bomb_points"])}
            )
        else:
            table.add({"points": points})

    @staticmethod
    def bombs_of(table, entry, winner):
        """Per seat, the times bombed (losers, with bomb: double) and the bombs played (every
        seat, with bomb: pay); the other list is all 0."""
        pay = table.options["bomb"] == "pay"
        if pay and entry.get("bombed") is not None:
            raise RulesError(
                _("with bomb: pay, record the bombs each player played (bombs), not bombed")
            )
        field, what = ("bombs", _("bombs")) if pay else ("bombed", _("bombed"))
        counts = entry.get(field)
        counts = [0] * table.n if counts is None else per_seat(counts, table.n, what)
        checked = [
            0
            if s == winner and not pay
            else whole(counts[s], 0, MOST_BOMBS, Phrase(_("%(name)s's bombs"), name=name))
            for s, name in enumerate(table.players)
        ]
        none = [0] * table.n
        return (none, checked) if pay else (checked, none)

    def is_over(self, table):
        return max(table.totals) >= table.options["target"]

    def ending(self, table):
        """Who reached the target."""
        return reached(table.players, table.totals, table.options["target"])

    def kids(self, table):
        """Per seat, whether that player is a kid: below kid_below once the target is reached
        (settling everyone with everyone: the kid rule belongs to that settlement)."""
        options = table.options
        pairwise = options["settle"] == "pairwise" and self.is_over(table)
        return [pairwise and t < options["kid_below"] for t in table.totals]

    def adjusted(self, table):
        """The totals after the kid rule: kids to 0 and the others doubled, when there is a kid."""
        kids = self.kids(table)
        if not any(kids):
            return list(table.totals)
        return [0 if kid else 2 * t for kid, t in zip(kids, table.totals)]

    def results(self, table):
        """Each player's settled points (positive wins, negative pays): the differences to the
        other two (pairwise) or what they collected as winners less their total (winner),
        plus the bomb payments."""
        if table.options["settle"] == "winner":
            settled = self.collected(table)
        else:
            adjusted = self.adjusted(table)
            settled = [sum(adjusted) - len(adjusted) * a for a in adjusted]
        pays = [bomb_pay(hand["bombs"], table.options["bomb_points"]) for hand in table.hands]
        return [r + sum(pay[s] for pay in pays) for s, r in enumerate(settled)]

    @staticmethod
    def collected(table):
        """settle: winner: each hand's losers pay its winner their points."""
        received = [0] * table.n
        for hand, scored in zip(table.hands, table.rounds):
            received[hand["winner"]] += sum(scored["points"])
        return [r - t for r, t in zip(received, table.totals)]

    def winners(self, table):
        results = self.results(table)
        return [s for s, r in enumerate(results) if r == max(results)]

    def settle(self, table):
        return settlement(
            table.players,
            self.results(table),
            table.options["bean_rate"],
            adjusted=self.adjusted(table),
        )

    def settlement_note(self, table):
        """How the totals became what each pays or wins: the hands' winners paid, or the
        differences with the kid rule's kids named; bomb payments; the beans a point."""
        options = table.options
        if options["settle"] == "winner":
            lines = [Phrase(_("In every hand, the losers paid its winner their points."))]
        else:
            kids = [name for name, kid in zip(table.players, self.kids(table)) if kid]
            lines = [
                Phrase(
                    _(
                        "Each pays the others the difference between their totals; the kid rule "
                        "counted %(kids)s as 0 and doubled the others' totals."
                    ),
                    kids=kids,
                )
                if kids
                else Phrase(_("Each pays the others the difference between their totals."))
            ]
        if options["bomb"] == "pay":
            lines.append(Phrase(_("Each player's bomb payments are added to their result.")))
        return lines + rate_note(self, table, "bean_rate")

    def entry_from_form(self, form, table):
        """Fields: winner (a seat); cards_left-N, cards left per seat; bombed-N, times bombed per
        seat, or with bomb: pay bombs-N, the bombs each seat played (empty means 0). The
        winner's row is hidden on the form, so whatever it holds is left out: the winner's
        cards left are null and times bombed 0 (bombs played are asked of every seat)."""
        winner = whole_or_text(form_value(form, "winner"))
        losers = [s for s in range(table.n) if s != winner]
        cards, bombed = [None] * table.n, [0] * table.n
        for s in losers:
            cards[s] = whole_or_text(form_value(form, f"cards_left-{s}"))
            bombed[s] = count(form, f"bombed-{s}")
        if table.options["bomb"] == "pay":
            bombs = [count(form, f"bombs-{s}") for s in range(table.n)]
            return {"winner": winner, "cards_left": cards, "bombs": bombs}
        return {"winner": winner, "cards_left": cards, "bombed": bombed}

    def breakdown(self, table, index):
        """The winner, each loser's points in words, who paid for bombs, and what the winner
        collected when losers pay the winner."""
        hand, points, options = table.hands[index], table.rounds[index]["points"], table.options
        winner, names = hand["winner"], table.players
        lines = [Phrase(_("%(name)s went out first: 0"), name=names[winner])]
        for s, (cards, bombs) in enumerate(zip(hand["cards_left"], hand["bombed"])):
            if s != winner:
                lines.append(
                    Phrase(
                        LOSER_LINES[band(cards, options), bombs > 0],
                        name=names[s],
                        cards=cards,
                        base=card_points(cards, options),
                        times=TIMES[bombs - 1] if bombs else None,
                        factor=2**bombs,
                        points=points[s],
                    )
                )
        for s, bombs in enumerate(hand["bombs"]):
            if bombs:
                first, second = (name for other, name in enumerate(names) if other != s)
                lines.append(
                    Phrase(
                        _("%(name)s's bomb: %(first)s and %(second)s pay %(amount)s each")
                        if bombs == 1
                        else _(
                            "%(name)s's %(count)s bombs: %(first)s and %(second)s pay "
                            "%(amount)s each"
                        ),
                        name=names[s],
                        count=bombs,
                        first=first,
                        second=second,
                        amount=bombs * options["bomb_points"],
                    )
                )
        if options["settle"] == "winner":
            lines.append(
                Phrase(
                    _("The losers pay %(name)s their points: %(amount)s in all."),
                    name=names[winner],
                    amount=sum(points),
                )
            )
        return lines

    def to_go(self, table, seat):
        """Points left before the target ends the match."""
        target = table.options["target"]
        return points_to_go(target - table.totals[seat], target)

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
        """The end: the kid rule's effect on each total (settling everyone with everyone) and
        the payments that settle it."""
        kid_below, kids = table.options["kid_below"], self.kids(table)
        settled = self.settle(table)
        lines = [
            Phrase(
                _("A total reached %(target)d: the match is over."), target=table.options["target"]
            )
        ]
        if not any(kids) and table.options["settle"] == "pairwise":
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
