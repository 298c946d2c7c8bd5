"""Score sheet: any other game, as points per player per round, totals and who wins."""

from .base import (
    LATE_START_LABELS,
    MAX_ROUNDS,
    Game,
    Option,
    Phrase,
    RulesError,
    best_of,
    form_value,
    hands_played,
    late_start_option,
    per_seat,
    points_to_go,
    rate_note,
    reached,
    whole,
    whole_or_text,
)
from .base import gettext_noop as _
from .settle import settlement

MOST = 1_000_000  # the most points a player scores in a round, either way, and the top target
WINS = {"high": _("the highest total wins"), "low": _("the lowest total wins")}
TITLED = {
    "high": _("%(title)s: the highest total wins"),
    "low": _("%(title)s: the lowest total wins"),
}


class Sheet(Game):
    slug = "sheet"
    entry_fields = {"points": "per_seat"}
    name = _("Score sheet (any game)")
    min_players, max_players = 2, 20
    seats_change = True
    summary = _(
        "For any other game: each round, type the points each player scored. The highest or "
        "the lowest total wins; a target or a number of hands ends the match, else close it by "
        "hand. On a zero-sum sheet every round adds up to 0, and the totals can be paid out."
    )
    labels = {
        "points": _("points"),
        "title": _("Name of the game"),
        "win": _("Who wins"),
        "high": _("the highest total"),
        "low": _("the lowest total"),
        "target": _("Total that ends the match"),
        "hands": _("How many rounds"),
        "zero_sum": _("Every round adds up to 0"),
        "stake": _("Money a point"),
        **LATE_START_LABELS,
    }
    options = (
        Option(
            "title",
            "",
            _("The game's name as the table calls it (Hearts, Rummy)."),
            "text",
            high=40,
        ),
        Option(
            "win", "high", _("Whether the highest or the lowest total wins."), choices=tuple(WINS)
        ),
        Option(
            "target",
            None,
            _("The match ends after the round in which a total reaches this (empty: no target)."),
            "whole_or_null",
            low=1,
            high=MOST,
        ),
        Option(
            "hands",
            None,
            _("The match ends after this many rounds (empty: no limit)."),
            "whole_or_null",
            low=1,
            high=MAX_ROUNDS,
        ),
        Option(
            "zero_sum",
            False,
            _("What one player wins, the others lose. Tick it to play for money."),
            "bool",
            first=True,
        ),
        Option(
            "stake",
            0,
            _("What each point of the totals is worth: at 0.5, a total of 12 wins 6."),
            "number",
            low=0,
            high=MOST,
            default_help=_("not for money (0)"),
            when=("zero_sum", (True,)),
            first=True,
        ),
        late_start_option("zero"),
    )

    def check_options(self, options, n):
        if options["stake"] and not options["zero_sum"]:
            raise RulesError(
                _("option '%(option)s' is only for a zero-sum sheet: turn on '%(other)s'"),
                name="stake",
                option=self.label("stake"),
                other=self.label("zero_sum"),
            )
        if options["zero_sum"] and options["late_start"] != "zero":
            raise RulesError(
                _("option '%(option)s' must be '%(value)s' on a zero-sum sheet"),
                name="late_start",
                option=self.label("late_start"),
                value=self.choice_label("late_start", "zero"),
            )

    def play(self, table, entry):
        points = per_seat(entry.get("points"), table.n, _("points"))
        for seat in table.playing:
            name, scored = table.players[seat], points[seat]
            if scored is None:
                raise RulesError(_("%(name)s's points are missing"), name=name, seat=seat)
            try:
                whole(scored, -MOST, MOST, Phrase(_("%(name)s's points"), name=name))
            except RulesError as error:
                raise RulesError(error.phrase.text, seat=seat, **error.phrase.params) from None
        total = sum(points[seat] for seat in table.playing)
        if table.options["zero_sum"] and total:
            raise RulesError(_("the points add up to %(total)s, not 0"), total=total)
        table.add({"points": points})

    def entry_context(self, table, entry=None):
        """The seat whose points a refused entry is about (its field is marked), and the seats
        that play the round (the others are not asked)."""
        return {"invalid": self.invalid_seat(table, entry), "playing": table.seats_playing()}

    def is_over(self, table):
        target, hands = table.options["target"], table.options["hands"]
        reached = target is not None and any(table.totals[s] >= target for s in table.playing)
        return reached or (hands is not None and len(table.rounds) >= hands)

    def ending(self, table):
        """Who reached the target, and that the fixed number of rounds is played."""
        target, hands = table.options["target"], table.options["hands"]
        lines = [] if target is None else reached(table.players, table.totals, target)
        return lines + hands_played(table, hands)

    def winners(self, table):
        """The best total among the players who have not left."""
        return best_of(table, max if table.options["win"] == "high" else min)

    def settle(self, table):
        if not table.options["zero_sum"]:
            return None
        return settlement(table.players, table.totals, table.options["stake"])

    def settlement_note(self, table):
        return rate_note(self, table, "stake")

    def chart_marks(self, table):
        target = table.options["target"]
        return [] if target is None else [(target, Phrase(_("target %(target)s"), target=target))]

    def entry_from_form(self, form, table):
        """Fields: points-N, the points seat N scored, as typed ("-5" too)."""
        playing = table.seats_playing()
        return {
            "points": [
                whole_or_text(form_value(form, f"points-{s}")) if s in playing else None
                for s in range(table.n)
            ]
        }

    def breakdown(self, table, index):
        """The points each player scored, on one line (those who scored none left out)."""
        scored = [
            Phrase(_("%(name)s %(points)+d"), name=name, points=points)
            for name, points in zip(table.players, table.rounds[index]["points"])
            if points
        ]
        return [Phrase(_("this round: %(points)s"), points=scored or "0")]

    def to_go(self, table, seat):
        """Points left before the target ends the match (none without a target)."""
        target = table.options["target"]
        if target is None:
            return None
        return points_to_go(target - table.totals[seat], target)

    def status(self, table):
        """Who wins (under the table's name for the game), then what ends the match."""
        options = table.options
        title, number = options["title"], len(table.rounds) + 1
        lines = [
            Phrase(TITLED[options["win"]], title=title) if title else Phrase(WINS[options["win"]])
        ]
        if options["hands"] is not None:
            lines.append(
                Phrase(
                    _("Round %(number)s of %(hands)s next"), number=number, hands=options["hands"]
                )
            )
        if options["target"] is not None and table.present():
            top = max(table.totals[s] for s in table.present())
            lines.append(
                Phrase(
                    _("Highest total %(total)d (%(names)s): %(short)d short of %(target)d."),
                    total=top,
                    names=[table.players[s] for s in table.present() if table.totals[s] == top],
                    short=options["target"] - top,
                    target=options["target"],
                )
            )
        if options["hands"] is None and options["target"] is None:
            lines.append(Phrase(_("Round %(number)s next; close the match to stop"), number=number))
        return lines


GAME = Sheet()
