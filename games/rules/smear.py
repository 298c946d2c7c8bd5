"""Four Point Smear (Northeastern Wisconsin): two teams bid for High, Low, Jack and Game."""

from dataclasses import dataclass

from .base import (
    Game,
    Option,
    Phrase,
    RulesError,
    Table,
    form_value,
    is_whole,
    points_to_go,
    seat,
    whole,
    whole_or_text,
)
from .base import gettext_noop as _

# The four points of a hand: the entry's field and the name players know it by.
POINTS = (("high", _("High")), ("low", _("Low")), ("jack", _("Jack")), ("game", _("Game")))
NOBODY_ALLOWED = ("jack", "game")  # the points nobody may win
BIDS = (2, 3, 4)
CARD_POINTS = 80


@dataclass(frozen=True)
class Hand:
    """One hand as entered: the bidder, the bid and the team (or None) winning each point."""

    bidder: int
    bid: int
    winners: tuple  # team 0/1 or None, in the order of POINTS
    card_points: tuple = None  # the two teams' card points, when entered

    @property
    def side(self):
        """The bidding team."""
        return self.bidder % 2

    def won(self, team):
        """How many of the four points team won."""
        return self.winners.count(team)

    @property
    def made(self):
        return self.won(self.side) >= self.bid


class SmearTable(Table):
    """Adds each hand as entered and the team that has won, once one has."""

    def __post_init__(self):
        super().__post_init__()
        self.hands = []
        self.winner = None


def team_totals(table):
    """The two teams' totals (seat 0 carries team 0's, seat 1 team 1's)."""
    return table.totals[:2]


def dealer(table):
    """The seat dealing the next hand: seat 0 first, then to the left."""
    return len(table.rounds) % table.n


def team_names(table, team):
    """The team's two players as Phrase params."""
    return {"first": table.players[team], "second": table.players[team + 2]}


def read_team(entry, key, point, optional):
    """The team (0 or 1) that won a point; None for nobody where optional."""
    value = entry.get(key)
    if value == "" or (value is None and not optional):  # "": nothing tapped, not "nobody"
        raise RulesError(_("Tap who took %(point)s."), point=point)
    if value is not None and not (is_whole(value) and value in (0, 1)):
        if optional:
            raise RulesError(_("%(point)s must be team 0 or 1, or nobody"), point=point)
        raise RulesError(_("%(point)s must be team 0 or 1"), point=point)
    return value


def tapped(text):
    """Jack's or Game's posted choice: a team, None for "nobody", "" when nothing was tapped
    (a question: untapped is not "nobody")."""
    return None if text == "nobody" else whole_or_text(text) if text else ""


def read_card_points(entry, game):
    """Game and the card points: Game is decided from the card points when they are entered."""
    card_points = entry.get("game_points")
    if card_points is None:
        return game, None
    if not (
        isinstance(card_points, list)
        and len(card_points) == 2
        and all(is_whole(p) and p >= 0 for p in card_points)
        and sum(card_points) <= CARD_POINTS
    ):
        raise RulesError(
            _("the card points must be two whole numbers, 0 or more, adding up to at most 80")
        )
    zero, one = card_points
    by_points = None if zero == one else int(one > zero)
    if game is not None and game != by_points:
        raise RulesError(_("Game must go to the team with more card points (nobody on a tie)"))
    return by_points, tuple(card_points)


def read_hand(table, entry):
    """The checked Hand of a round entry."""
    bidder = seat(entry.get("bidder"), table.n, _("the bidder"), _("Tap who won the bid."))
    if entry.get("bid") is None:
        raise RulesError(_("Tap the bid."))
    bid = whole(entry.get("bid"), BIDS[0], BIDS[-1], _("the bid"))
    high, low, jack, game = (
        read_team(entry, key, point, optional=key in NOBODY_ALLOWED) for key, point in POINTS
    )
    game, card_points = read_card_points(entry, game)
    return Hand(bidder, bid, (high, low, jack, game), card_points)


def team_scores(table, hand):
    """What each team scores for hand, with bid_only's stop at the target."""
    scores = [hand.won(0), hand.won(1)]
    if not hand.made:
        scores[hand.side] = -hand.bid
    if table.options["win"] == "bid_only":
        other = 1 - hand.side
        scores[other] = min(scores[other], table.options["target"] - team_totals(table)[other])
    return scores


def winning_team(options, hand, totals):
    """The team that has won after hand, given the teams' new totals, or None."""
    reached = [total >= options["target"] for total in totals]
    if options["win"] == "higher":
        if all(reached):
            return max((0, 1), key=lambda team: (totals[team], team == hand.side))
        return reached.index(True) if any(reached) else None
    if hand.made and reached[hand.side]:
        return hand.side
    other = 1 - hand.side
    return other if options["win"] == "bidder_out" and reached[other] else None


class Smear(Game):
    slug = "smear"
    entry_fields = {
        "bidder": "seat",
        "bid": "number",
        "high": "team",
        "low": "team",
        "jack": "team",
        "game": "team",
        "game_points": "per_team",
    }
    name = _("Four Point Smear")
    min_players, max_players = 4, 4
    summary = _(
        "Partners sit opposite; a hand has four points: High, Low, Jack and Game. The bidding "
        "team scores every point it won if that is at least its bid (2 to 4), else it loses the "
        "bid; the other team scores every point it won. The first team to reach the target wins."
    )
    labels = {
        "bidder": _("bidder"),
        "bid": _("bid"),
        "high": _("High"),
        "low": _("Low"),
        "jack": _("Jack"),
        "game": _("Game"),
        "game_points": _("card points"),
        "target": _("Score that wins"),
        "win": _("When a hand takes a team to the target"),
        "higher": _("the higher score wins"),
        "bidder_out": _("the bidders win if they made their bid"),
        "bid_only": _("only a made bid can win"),
        "undealt": _("Undealt cards the bidder may take"),
    }
    options = (
        Option("target", 15, _("The score a team must reach to win."), "whole", low=1, high=1000),
        Option(
            "win",
            "higher",
            _(
                "The higher score (the bidders when level), the bidders first if they made "
                "their bid, or a team wins only by making its bid."
            ),
            choices=("higher", "bidder_out", "bid_only"),
        ),
        Option(
            "undealt",
            0,
            _("How many undealt cards the bidder may take (then discards to six)."),
            "whole",
            low=0,
            high=3,
        ),
    )

    def new_table(self, players, options):
        return SmearTable(players, options)

    def play(self, table, entry):
        hand = read_hand(table, entry)
        scores = team_scores(table, hand)
        table.add({"points": [scores[s % 2] for s in range(table.n)]})
        table.hands.append(hand)
        table.winner = winning_team(table.options, hand, team_totals(table))

    def is_over(self, table):
        return table.winner is not None

    def ending(self, table):
        """Each team that reached the target, once a team has won."""
        if not self.is_over(table):
            return []
        target = table.options["target"]
        return [
            Phrase(
                _("%(first)s and %(second)s reached %(target)d"),
                first=table.players[team],
                second=table.players[team + 2],
                target=target,
            )
            for team, total in enumerate(team_totals(table))
            if total >= target
        ]

    def winners(self, table):
        """The team that won; for a match closed early, the team ahead (level: nobody)."""
        team = table.winner
        if team is None:
            ours, theirs = team_totals(table)
            if ours == theirs:
                return []
            team = int(theirs > ours)
        return [team, team + 2]

    def entry_from_form(self, form, table):
        """Fields: bidder (a seat 0-3), bid (2-4), high and low (team 0 or 1), jack and game
        (team 0 or 1, 'nobody', nothing when untapped), and optional game_points-0 and
        game_points-1 (the card points of team 0 and team 1; both blank to leave them out).
        """
        entry = {
            key: whole_or_text(form_value(form, key)) for key in ("bidder", "bid", "high", "low")
        }
        entry.update({key: tapped(form_value(form, key)) for key in ("jack", "game")})
        card_points = [form_value(form, f"game_points-{team}") for team in (0, 1)]
        if any(card_points):
            entry["game_points"] = [whole_or_text(text) for text in card_points]
            if entry["game"] == "":
                entry["game"] = None  # Game left to the card points
        return entry

    def entry_context(self, table, entry=None):
        """The two teams (named on their buttons), the bids, the four points and the dealer."""
        return {
            "teams": [
                {
                    "team": team,
                    "name": Phrase(_("%(first)s & %(second)s"), **team_names(table, team)),
                }
                for team in (0, 1)
            ],
            "bids": BIDS,
            "points": [
                {"key": key, "name": point, "nobody": key in NOBODY_ALLOWED}
                for key, point in POINTS
            ],
            "dealer": dealer(table),
        }

    def breakdown(self, table, index):
        """Who dealt the hand, what each team scored and who won each point."""
        hand = table.hands[index]
        dealt = Phrase(_("%(name)s dealt"), name=table.players[index % table.n])
        return [dealt, *self.describe(table, hand, table.rounds[index]["points"][:2])]

    def describe(self, table, hand, scores):
        """Phrases for a hand: what each team scores, then who won each point."""
        side, other = hand.side, 1 - hand.side
        if hand.made:
            text = _("%(first)s and %(second)s bid %(bid)d and won %(won)d: %(points)+d")
        else:
            text = _("%(first)s and %(second)s bid %(bid)d but won %(won)d: set back, %(points)d")
        phrases = [
            Phrase(
                text,
                **team_names(table, side),
                bid=hand.bid,
                won=hand.won(side),
                points=scores[side],
            )
        ]
        if scores[other] < hand.won(other):
            text = _("%(first)s and %(second)s won %(won)d but stop at %(target)d: %(points)+d")
        else:
            text = _("%(first)s and %(second)s won %(won)d: %(points)+d")
        phrases.append(
            Phrase(
                text,
                **team_names(table, other),
                won=hand.won(other),
                target=table.options["target"],
                points=scores[other],
            )
        )
        for (_key, point), team in zip(POINTS, hand.winners):
            if team is None:
                phrases.append(Phrase(_("%(point)s: nobody"), point=point))
            else:
                phrases.append(
                    Phrase(
                        _("%(point)s: %(first)s and %(second)s"),
                        point=point,
                        **team_names(table, team),
                    )
                )
        if hand.card_points:
            phrases.append(
                Phrase(
                    _(
                        "card points: %(first)s and %(second)s %(ours)d, "
                        "%(third)s and %(fourth)s %(theirs)d"
                    ),
                    first=table.players[0],
                    second=table.players[2],
                    third=table.players[1],
                    fourth=table.players[3],
                    ours=hand.card_points[0],
                    theirs=hand.card_points[1],
                )
            )
        return phrases

    def sides(self, table):
        """The two partnerships: seats 0 and 2, seats 1 and 3."""
        return [[0, 2], [1, 3]]

    def to_go(self, table, seat):
        """Points the seat's team needs to reach the target."""
        target = table.options["target"]
        return points_to_go(target - team_totals(table)[seat % 2], target)

    def status(self, table):
        """Who deals next (seat 0 first, then to the left) and each team's total."""
        phrases = []
        if not self.is_over(table):
            phrases.append(
                Phrase(
                    _("%(dealer)s deals next (if everyone passes, %(dealer)s deals again)"),
                    dealer=table.players[dealer(table)],
                )
            )
        for team, total in enumerate(team_totals(table)):
            phrases.append(
                Phrase(
                    _("%(first)s and %(second)s: %(total)d of %(target)d"),
                    **team_names(table, team),
                    total=total,
                    target=table.options["target"],
                )
            )
        return phrases


GAME = Smear()
