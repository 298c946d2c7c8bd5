"""Who pays whom (games/rules/settle.py transfers): every balance settled exactly, in the fewest
transfers for up to 12 people with a balance, checked against a brute force over partitions."""

from decimal import Decimal
from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.settle import greedy, transfers

FIVE = ["Ann", "Bo", "Chen", "Dee", "Eve"]
# Two tables of F10's shape and a pair: the greedy takes 9 transfers, 7 suffice.
TWELVE = [4, 3, 2, -5, -4, 40, 30, 20, -50, -40, 7, -7]
THIRTEEN = [4, 3, 2, -5, -4, 40, 30, 20, -50, -40, 7, -6, -1]


def names(count):
    return [f"P{seat}" for seat in range(count)]


def left_after(players, amounts, payments):
    """Each person's balance once the payments are made."""
    left = {name: Decimal(str(amount)) for name, amount in zip(players, amounts, strict=True)}
    for payment in payments:
        left[payment["from"]] += Decimal(str(payment["amount"]))
        left[payment["to"]] -= Decimal(str(payment["amount"]))
    return left


@cache
def most_parts(amounts):
    """Brute force: the most parts summing to zero that a sorted tuple of amounts splits into,
    trying every part that holds the first amount."""
    if not amounts:
        return 0
    first, others = amounts[0], amounts[1:]
    most = 0
    for size in range(len(others) + 1):
        for joined in combinations(range(len(others)), size):
            if first + sum(others[i] for i in joined) == 0:
                rest = tuple(a for i, a in enumerate(others) if i not in joined)
                most = max(most, 1 + most_parts(rest))
    return most


def fewest(amounts):
    """Brute force: a forest of transfers settles each of its trees' people among themselves,
    so the fewest transfers are the people with a balance minus the most parts summing to 0."""
    owing = tuple(sorted(Decimal(str(a)) for a in amounts if a))
    return len(owing) - most_parts(owing)


@st.composite
def balances(draw, most=12, spread=9):
    """Balances summing to zero of up to `most` people with a balance, some of them level,
    in whole units or cents."""
    owing = draw(st.lists(st.integers(-spread, spread).filter(bool), min_size=1, max_size=most - 1))
    if sum(owing):
        owing.append(-sum(owing))
    level = draw(st.integers(0, 2))
    unit = draw(st.sampled_from([Decimal(1), Decimal("0.01"), Decimal("2.5")]))
    return draw(st.permutations([amount * unit for amount in owing] + [Decimal(0)] * level))


def test_f10_three_transfers_settle_five_people():
    # greedy: Dee->Ann 4, Eve->Bo 3, Dee->Chen 1, Eve->Chen 1
    assert transfers(FIVE, [4, 3, 2, -5, -4]) == [
        {"from": "Eve", "to": "Ann", "amount": 4},
        {"from": "Dee", "to": "Bo", "amount": 3},
        {"from": "Dee", "to": "Chen", "amount": 2},
    ]


def test_twelve_people_with_a_balance_get_the_fewest():
    players = names(len(TWELVE))
    assert len(greedy(players, [Decimal(a) for a in TWELVE])) == 9
    payments = transfers(players, TWELVE)
    assert len(payments) == 7 == fewest(TWELVE)
    assert set(left_after(players, TWELVE, payments).values()) == {0}


def test_people_with_nothing_owed_do_not_count_towards_twelve():
    amounts = [0, *TWELVE, 0]
    payments = transfers(names(14), amounts)
    assert len(payments) == 7
    assert set(left_after(names(14), amounts, payments).values()) == {0}


def test_above_twelve_people_the_greedy_settles_in_at_most_one_fewer():
    players = names(len(THIRTEEN))
    payments = transfers(players, THIRTEEN)
    assert payments == greedy(players, [Decimal(a) for a in THIRTEEN])
    assert len(payments) == 10 <= len(THIRTEEN) - 1
    assert fewest(THIRTEEN) == 8
    assert set(left_after(players, THIRTEEN, payments).values()) == {0}


def test_a_rounding_remainder_settles_what_can_be_settled():
    # +0.60 left over: every debt is paid, the creditors are short by 0.60 between them
    amounts = ["5.20", "-3.00", "-1.60", "0"]
    payments = transfers(["Ann", "Bo", "Chen", "Dee"], amounts)
    assert payments == [
        {"from": "Bo", "to": "Ann", "amount": 3},
        {"from": "Chen", "to": "Ann", "amount": 1.6},
    ]


@settings(max_examples=300, deadline=None)
@given(balances())
def test_the_fewest_transfers_settle_every_balance_exactly(amounts):
    players = names(len(amounts))
    payments = transfers(players, amounts)
    assert set(left_after(players, amounts, payments).values()) == {0}
    owing = dict(zip(players, amounts, strict=True))
    assert all(owing[p["from"]] < 0 < owing[p["to"]] for p in payments), "a debtor pays a creditor"
    assert all(p["amount"] > 0 for p in payments)
    assert [p["amount"] for p in payments] == sorted((p["amount"] for p in payments), reverse=True)
    assert len(payments) == fewest(amounts) <= max(len([a for a in amounts if a]) - 1, 0)


@settings(max_examples=200, deadline=None)
@given(balances(spread=500))
def test_the_greedy_answer_stays_when_it_is_one_of_the_fewest(amounts):
    players = names(len(amounts))
    by_greedy = greedy(players, [Decimal(a) for a in amounts])
    if len(by_greedy) == fewest(amounts):
        assert transfers(players, amounts) == by_greedy


@settings(max_examples=100, deadline=None)
@given(balances(), st.sampled_from([Decimal("0.01"), Decimal("-0.6"), Decimal(3)]))
def test_a_remainder_leaves_nobody_overpaid(amounts, remainder):
    amounts = [*amounts, remainder]
    players = names(len(amounts))
    payments = transfers(players, amounts)
    left = left_after(players, amounts, payments)
    assert payments == greedy(players, [Decimal(a) for a in amounts])
    assert all(0 <= a for a in left.values()) or all(a <= 0 for a in left.values()), "all settled"
    for name, amount in zip(players, amounts, strict=True):
        assert left[name] * amount >= 0 and abs(left[name]) <= abs(amount), "nobody overpaid"
