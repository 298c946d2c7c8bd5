"""Four Point Smear, rule by rule (games/rules/smear.py). Every figure is worked by hand.

Seats 0 and 2 (Ann, Chen) are team 0; seats 1 and 3 (Bo, Dee) are team 1. A round's points give
every player their team's figure, so [t0, t1, t0, t1].
"""

import pytest

from games.rules import RulesError, replay, score
from games.rules.smear import GAME

PLAYERS = ["Ann", "Bo", "Chen", "Dee"]


def match(*rounds, closed=False, **options):
    return {
        "game": "smear",
        "players": PLAYERS,
        "options": options,
        "rounds": list(rounds),
        "closed": closed,
    }


def hand(bidder, bid, high, low, jack=None, game=None, **more):
    return {
        "bidder": bidder,
        "bid": bid,
        "high": high,
        "low": low,
        "jack": jack,
        "game": game,
        **more,
    }


def table_after(*rounds, **options):
    """A table with rounds played, as the web layer holds it between hands."""
    return replay(match(*rounds, **options))[1]


def teams(zero, one):
    """Per-seat figures for team 0 and team 1."""
    return [zero, one, zero, one]


def sweep(bidder):
    """A bid of 4 that wins all four points: +4 for the bidder's team, 0 for the other."""
    team = bidder % 2
    return hand(bidder, 4, team, team, team, team)


# 12 to 12: each team bids 4 and sweeps three times.
TWELVE_ALL = [sweep(0), sweep(1), sweep(2), sweep(3), sweep(0), sweep(1)]
# then Ann and Chen bid 2 and win High and Jack (2, made); Bo and Dee Low; Game tied: 14 to 13.
FOURTEEN_THIRTEEN = TWELVE_ALL + [hand(0, 2, 0, 1, 0, None)]


# ---- scoring a hand


@pytest.mark.parametrize(
    "entry, points",
    [
        # made: the bidding team scores every point it won, even above the bid
        (hand(0, 2, 0, 0, 1, 1), teams(2, 2)),
        (hand(0, 2, 0, 0, 0, 1), teams(3, 1)),
        (hand(2, 3, 0, 0, None, 0), teams(3, 0)),
        (hand(3, 3, 1, 1, 1, 1), teams(0, 4)),
        (hand(1, 4, 1, 1, 1, 1), teams(0, 4)),
        # failed: minus the bid only; the other team still scores what it won
        (hand(1, 2, 1, 0, 0, 0), teams(3, -2)),
        (hand(2, 3, 1, 1, 0, 0), teams(-3, 2)),
        (hand(1, 4, 1, 1, 1, 0), teams(1, -4)),
        # the jack was not dealt: nobody gets Jack, 3 points at most, so a bid of 4 fails
        (hand(0, 4, 0, 0, None, 0), teams(-4, 0)),
        (hand(1, 3, 1, 1, None, 1), teams(0, 3)),
        # Game tied on card points: nobody gets it (High and Jack still make a bid of 2)
        (hand(0, 2, 0, 1, 0, None, game_points=[40, 40]), teams(2, 1)),
        (hand(0, 3, 0, 1, 0, None, game_points=[35, 35]), teams(-3, 1)),
        # Game decided from the card points, with or without `game` agreeing
        (hand(1, 2, 1, 0, 0, game_points=[30, 45]), teams(2, 2)),
        (hand(1, 2, 1, 0, 0, 1, game_points=[30, 45]), teams(2, 2)),
        (hand(1, 2, 1, 0, 0, game_points=[45, 30]), teams(3, -2)),
        (hand(0, 2, 1, 1, 0, game_points=[80, 0]), teams(2, 2)),
    ],
)
def test_a_hand_scores(entry, points):
    result = score(match(entry))
    assert result["rounds"] == [{"points": points}]
    assert result["totals"] == points
    assert (result["finished"], result["winners"], result["settlement"]) == (False, [], None)


def test_scores_go_negative():
    # Ann and Chen bid 3 and win nothing (-3; Bo and Dee +4), then bid 4 and win Low and Game
    # without a jack dealt (-4; Bo and Dee +1 for High).
    result = score(match(hand(0, 3, 1, 1, 1, 1), hand(2, 4, 1, 0, None, 0)))
    assert [r["points"] for r in result["rounds"]] == [teams(-3, 4), teams(-4, 1)]
    assert result["totals"] == teams(-7, 5)


def test_options_take_their_defaults():
    assert score(match())["options"] == {"target": 15, "win": "higher", "undealt": 0}


def test_undealt_cards_do_not_change_the_score():
    result = score(match(hand(0, 2, 0, 0, 1, 1), undealt=3, target=21, win="bid_only"))
    assert result["options"] == {"target": 21, "win": "bid_only", "undealt": 3}
    assert result["totals"] == teams(2, 2)


# ---- the end of the match


@pytest.mark.parametrize(
    "win, last, points, totals, winners",
    [
        # 14-13; Bo and Dee bid 2 and win High and Low (15), Ann and Chen Jack and Game (16)
        ("higher", hand(1, 2, 1, 1, 0, 0), teams(2, 2), teams(16, 15), ["Ann", "Chen"]),
        ("bidder_out", hand(1, 2, 1, 1, 0, 0), teams(2, 2), teams(16, 15), ["Bo", "Dee"]),
        # bid_only: Ann and Chen did not bid, so they stop at 15 (1 of their 2 points counted)
        ("bid_only", hand(1, 2, 1, 1, 0, 0), teams(1, 2), teams(15, 15), ["Bo", "Dee"]),
        # both on 15: the higher rule gives the tie to the bidding team
        ("higher", hand(1, 2, 1, 1, 0, None), teams(1, 2), teams(15, 15), ["Bo", "Dee"]),
        # Bo and Dee bid 3 but win 2 (-3 to 10); Ann and Chen win 2 (16)
        ("higher", hand(1, 3, 1, 0, 0, 1), teams(2, -3), teams(16, 10), ["Ann", "Chen"]),
        ("bidder_out", hand(1, 3, 1, 0, 0, 1), teams(2, -3), teams(16, 10), ["Ann", "Chen"]),
    ],
)
def test_reaching_the_target(win, last, points, totals, winners):
    result = score(match(*FOURTEEN_THIRTEEN, last, win=win))
    assert result["rounds"][-1] == {"points": points}
    assert result["totals"] == totals
    assert (result["finished"], result["winners"]) == (True, winners)


def test_both_reach_in_one_hand_higher_score_wins():
    # 12-12; Ann and Chen bid 2 and win High, Low, Jack (15); Bo and Dee Game (13): one team only
    result = score(match(*TWELVE_ALL, hand(0, 2, 0, 0, 0, 1)))
    assert result["totals"] == teams(15, 13)
    assert result["winners"] == ["Ann", "Chen"]


def test_bid_only_a_team_wins_only_on_its_own_made_bid():
    rounds = [
        *FOURTEEN_THIRTEEN,
        # Bo and Dee bid 3, win 2 (-3 to 10); Ann and Chen win 2 but stop at 15 (+1): no winner
        hand(1, 3, 1, 0, 0, 1),
        # Bo and Dee bid 2, win High and Low (12); Ann and Chen already at 15 count 0 for Game
        hand(3, 2, 1, 1, None, 0),
        # Ann and Chen bid 2 and make it with Jack and Game (17): they win
        hand(0, 2, 1, 1, 0, 0),
    ]
    result = score(match(*rounds, win="bid_only"))
    assert [r["points"] for r in result["rounds"][-3:]] == [teams(1, -3), teams(0, 2), teams(2, 2)]
    assert result["totals"] == teams(17, 14)
    assert (result["finished"], result["winners"]) == (True, ["Ann", "Chen"])
    # the hand before the last left the match open
    assert score(match(*rounds[:-1], win="bid_only"))["finished"] is False


def test_bidder_out_a_failed_bidder_at_the_target_does_not_win():
    # 14-13, then Bo and Dee bid 2 and make 3 (16) with Ann and Chen 1 (15): Bo and Dee win ...
    assert score(match(*FOURTEEN_THIRTEEN, hand(1, 2, 1, 1, 1, None), win="bidder_out"))[
        "winners"
    ] == ["Bo", "Dee"]
    # ... but under bid_only, reaching 15 without bidding is no win: Ann and Chen stop at 15
    result = score(match(*FOURTEEN_THIRTEEN, hand(1, 4, 1, 0, 0, 0), win="bid_only"))
    assert result["totals"] == teams(15, 9)
    assert result["finished"] is False


def test_a_round_after_the_end_is_rejected():
    with pytest.raises(RulesError, match=r"^round 9: the match is already finished$"):
        score(match(*FOURTEEN_THIRTEEN, hand(1, 2, 1, 1, 0, 0), hand(0, 2, 0, 0, 0, 0)))


@pytest.mark.parametrize(
    "rounds, winners",
    [
        ([hand(0, 2, 0, 0, 0, 1)], ["Ann", "Chen"]),  # 3 to 1
        ([hand(1, 3, 1, 0, 0, 0)], ["Ann", "Chen"]),  # 3 to -3
        ([hand(1, 2, 1, 1, 0, None)], ["Bo", "Dee"]),  # 1 to 2
        ([hand(0, 2, 0, 0, 1, 1)], []),  # 2 to 2: level, nobody
        ([], []),  # closed before the first hand
    ],
)
def test_a_match_closed_early_is_won_by_the_team_ahead(rounds, winners):
    result = score(match(*rounds, closed=True))
    assert (result["finished"], result["winners"], result["settlement"]) == (True, winners, None)


# ---- what is rejected


@pytest.mark.parametrize(
    "entry, message",
    [
        (hand(4, 2, 0, 0), "the bidder must be a whole number from 0 to 3"),
        (hand(-1, 2, 0, 0), "the bidder must be a whole number from 0 to 3"),
        (hand(None, 2, 0, 0), "Tap who won the bid."),
        (hand("Ann", 2, 0, 0), "the bidder must be a whole number from 0 to 3"),
        (hand(0, 1, 0, 0), "the bid must be a whole number from 2 to 4"),
        (hand(0, 5, 0, 0), "the bid must be a whole number from 2 to 4"),
        (hand(0, 2.0, 0, 0), "the bid must be a whole number from 2 to 4"),
        (hand(0, None, 0, 0), "Tap the bid."),
        (hand(0, 2, None, 0), "Tap who took High."),
        (hand(0, 2, 0, None), "Tap who took Low."),
        ({"bidder": 0, "bid": 2, "low": 0}, "Tap who took High."),
        # "": the form posted nothing for Jack (untapped is not "nobody")
        (hand(0, 2, 0, 0, ""), "Tap who took Jack."),
        (hand(0, 2, 2, 0), "High must be team 0 or 1"),
        (hand(0, 2, 0, True), "Low must be team 0 or 1"),
        (hand(0, 2, 0, -1), "Low must be team 0 or 1"),
        (hand(0, 2, 0, 0, 2), "Jack must be team 0 or 1, or nobody"),
        (hand(0, 2, 0, 0, 0, "1"), "Game must be team 0 or 1, or nobody"),
        (hand(0, 2, 0, 0, 0, 1.0), "Game must be team 0 or 1, or nobody"),
        (
            hand(0, 2, 0, 0, game_points=[50, 40]),
            "the card points must be two whole numbers, 0 or more, adding up to at most 80",
        ),
        (
            hand(0, 2, 0, 0, game_points=[-5, 40]),
            "the card points must be two whole numbers, 0 or more, adding up to at most 80",
        ),
        (
            hand(0, 2, 0, 0, game_points=[40]),
            "the card points must be two whole numbers, 0 or more, adding up to at most 80",
        ),
        (
            hand(0, 2, 0, 0, game_points=[40.5, 30]),
            "the card points must be two whole numbers, 0 or more, adding up to at most 80",
        ),
        (
            hand(0, 2, 0, 0, game_points="40-30"),
            "the card points must be two whole numbers, 0 or more, adding up to at most 80",
        ),
        (
            hand(0, 2, 0, 0, 0, 1, game_points=[50, 30]),
            "Game must go to the team with more card points (nobody on a tie)",
        ),
        (
            hand(0, 2, 0, 0, 0, 0, game_points=[35, 35]),
            "Game must go to the team with more card points (nobody on a tie)",
        ),
    ],
)
def test_a_bad_hand_is_rejected(entry, message):
    with pytest.raises(RulesError) as error:
        score(match(hand(0, 2, 0, 0), entry))
    assert str(error.value) == "round 2: " + message


@pytest.mark.parametrize(
    "options, message",
    [
        ({"target": 0}, "option 'Score that wins' cannot be 0"),
        ({"target": 1001}, "option 'Score that wins' cannot be 1001"),
        ({"win": "first"}, "option 'When a hand takes a team to the target' cannot be \"first\""),
        ({"undealt": 4}, "option 'Undealt cards the bidder may take' cannot be 4"),
        ({"trump": "S"}, "unknown option 'trump'"),
    ],
)
def test_bad_options_are_rejected(options, message):
    with pytest.raises(RulesError, match=f"^{message}$"):
        score(match(**options))


def test_smear_is_for_four():
    with pytest.raises(RulesError, match="^Four Point Smear is for exactly 4 players$"):
        score({"game": "smear", "players": PLAYERS[:3], "rounds": []})


# ---- the entry form

FORM = {
    "bidder": ["2"],
    "bid": ["3"],
    "high": ["0"],
    "low": ["1"],
    "jack": ["nobody"],
    "game": ["0"],
    "game_points-0": [""],
    "game_points-1": [""],
}


# Ann and Chen bid 3 and win High and Game (2 of 3): -3; Bo and Dee win Low (and Jack).
@pytest.mark.parametrize(
    "changes, entry, totals",
    [
        ({}, {"bidder": 2, "bid": 3, "high": 0, "low": 1, "jack": None, "game": 0}, teams(-3, 1)),
        (
            {"jack": ["1"], "game": [""], "game_points-0": ["45"], "game_points-1": [" 30 "]},
            {
                "bidder": 2,
                "bid": 3,
                "high": 0,
                "low": 1,
                "jack": 1,
                "game": None,
                "game_points": [45, 30],
            },
            teams(-3, 2),
        ),
    ],
)
def test_the_form_gives_the_entry_the_engine_takes(changes, entry, totals):
    assert GAME.entry_from_form({**FORM, **changes}, table_after()) == entry
    assert score(match(entry))["totals"] == totals


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"bid": ["three"]}, "the bid must be a whole number from 2 to 4"),
        ({"bidder": [""]}, "Tap who won the bid."),
        ({"jack": [""]}, "Tap who took Jack."),
        ({"game": [""]}, "Tap who took Game."),
        ({"high": [""]}, "Tap who took High."),
        ({"game": ["x"]}, "Game must be team 0 or 1, or nobody"),
        (
            {"game_points-0": ["4o"], "game_points-1": ["30"]},
            "the card points must be two whole numbers, 0 or more, adding up to at most 80",
        ),
        (
            {"game_points-0": ["45"]},
            "the card points must be two whole numbers, 0 or more, adding up to at most 80",
        ),
    ],
)
def test_bad_typed_text_is_rejected(changes, message):
    entry = GAME.entry_from_form({**FORM, **changes}, table_after())
    with pytest.raises(RulesError, match=f"^round 1: {message}$"):
        score(match(entry))


# ---- at the table


def test_the_deal_passes_left_from_seat_0():
    dealers = [GAME.status(table_after(*[hand(0, 2, 0, 0)] * k))[0].render() for k in range(5)]
    assert dealers == [
        f"{name} deals next (if everyone passes, {name} deals again)"
        for name in ["Ann", "Bo", "Chen", "Dee", "Ann"]
    ]


def test_status_shows_the_team_totals():
    table = table_after(hand(0, 3, 1, 1, 1, 1))
    assert [p.render() for p in GAME.status(table)] == [
        "Bo deals next (if everyone passes, Bo deals again)",
        "Ann and Chen: -3 of 15",
        "Bo and Dee: 4 of 15",
    ]


def test_status_after_the_match_names_no_dealer():
    table = table_after(*FOURTEEN_THIRTEEN, hand(1, 2, 1, 1, 0, 0))
    assert [p.render() for p in GAME.status(table)] == [
        "Ann and Chen: 16 of 15",
        "Bo and Dee: 15 of 15",
    ]


@pytest.mark.parametrize(
    "rounds, options, index, lines",
    [
        (
            [hand(0, 3, 1, 1, 0, 0)],
            {},
            0,
            [
                "Ann dealt",
                "Ann and Chen bid 3 but won 2: set back, -3",
                "Bo and Dee won 2: +2",
                "High: Bo and Dee",
                "Low: Bo and Dee",
                "Jack: Ann and Chen",
                "Game: Ann and Chen",
            ],
        ),
        (
            [hand(0, 2, 0, 0), hand(3, 2, 1, 1, None, game_points=[35, 35])],
            {},
            1,
            [
                "Bo dealt",
                "Bo and Dee bid 2 and won 2: +2",
                "Ann and Chen won 0: +0",
                "High: Bo and Dee",
                "Low: Bo and Dee",
                "Jack: nobody",
                "Game: nobody",
                "card points: Ann and Chen 35, Bo and Dee 35",
            ],
        ),
        (
            [*FOURTEEN_THIRTEEN, hand(1, 2, 1, 1, 0, 0)],
            {"win": "bid_only"},
            7,
            [
                "Dee dealt",  # the eighth hand: the deal has gone round twice
                "Bo and Dee bid 2 and won 2: +2",
                "Ann and Chen won 2 but stop at 15: +1",
                "High: Bo and Dee",
                "Low: Bo and Dee",
                "Jack: Ann and Chen",
                "Game: Ann and Chen",
            ],
        ),
    ],
)
def test_breakdown_explains_a_hand(rounds, options, index, lines):
    table = table_after(*rounds, **options)
    assert [p.render() for p in GAME.breakdown(table, index)] == lines


def test_point_names_are_translated():
    french = {
        "High": "Haut",
        "%(point)s: %(first)s and %(second)s": "%(point)s : %(first)s et %(second)s",
    }
    phrases = GAME.breakdown(table_after(hand(1, 2, 1, 1)), 0)
    assert phrases[3].render(lambda text: french.get(text, text)) == "Haut : Bo et Dee"


def test_entry_context_names_the_teams_and_the_dealer():
    context = GAME.entry_context(table_after(hand(0, 2, 0, 0), hand(1, 2, 1, 1)))
    assert [(team["team"], team["name"].render()) for team in context["teams"]] == [
        (0, "Ann & Chen"),
        (1, "Bo & Dee"),
    ]
    assert context["bids"] == (2, 3, 4)
    assert [(p["key"], p["name"], p["nobody"]) for p in context["points"]] == [
        ("high", "High", False),
        ("low", "Low", False),
        ("jack", "Jack", True),
        ("game", "Game", True),
    ]
    assert context["dealer"] == 2  # Chen deals the third hand


def test_card_points_are_shown_for_each_team():
    table = table_after(hand(0, 2, 0, 1, 0, None, game_points=[42, 38]))
    assert [p.render() for p in GAME.breakdown(table, 0)][-2:] == [
        "Game: Ann and Chen",
        "card points: Ann and Chen 42, Bo and Dee 38",
    ]


def test_the_winning_team_is_both_its_seats():
    # closed early at 1 to 2: Bo and Dee (seats 1 and 3) win and share first place
    table = table_after(hand(1, 2, 1, 1, 0, None))
    assert table.totals == teams(1, 2)
    assert GAME.winners(table) == [1, 3]
    assert GAME.ranking(table) == [3, 1, 3, 1]
