"""Settlement shared by the games that pay out: amounts at a rate, and the payments."""

from decimal import ROUND_HALF_UP, Decimal
from functools import cache

from .base import CENT, decimal, plain


def amounts_at(results, rate):
    """results × rate, exact in decimal, rounded to cents with halves away from zero."""
    rate = decimal(rate)
    return [(decimal(r) * rate).quantize(CENT, rounding=ROUND_HALF_UP) for r in results]


# Up to this many people with a balance, the fewest transfers are searched for (over the 2**n
# sets of them, under a millisecond); above it the greedy's at most n - 1 stand.
MOST_SEARCHED = 12


def transfers(players, amounts):
    """Payments settling amounts: the fewest for up to MOST_SEARCHED people with a balance (n
    minus the most groups whose balances sum to zero, each settled apart), else the greedy's.

    The greedy's own answer is kept whenever it is one of the fewest; when the amounts do not
    sum to zero, the greedy settles what can be settled.
    """
    balance = [Decimal(a) for a in amounts]
    payments = greedy(players, balance)
    owing = [seat for seat, amount in enumerate(balance) if amount]
    if sum(balance) or len(owing) > MOST_SEARCHED:
        return payments
    groups = settling_groups([balance[seat] for seat in owing])
    if len(payments) == len(owing) - len(groups):
        return payments
    apart = []
    for group in groups:
        seats = {owing[index] for index in group}
        apart += greedy(players, [a if seat in seats else 0 for seat, a in enumerate(balance)])
    return sorted(apart, key=lambda payment: -payment["amount"])


def greedy(players, balance):
    """Payments settling balance: the biggest debtor pays the biggest creditor, repeatedly.

    At most n-1 payments; when the balances do not sum to zero, what can be settled is.
    """
    balance = list(balance)
    payments = []
    while True:
        by_balance = sorted(range(len(balance)), key=lambda seat: balance[seat])
        debtor, creditor = by_balance[0], by_balance[-1]
        amount = min(-balance[debtor], balance[creditor])
        if amount <= 0:
            return payments
        payments.append({"from": players[debtor], "to": players[creditor], "amount": plain(amount)})
        balance[debtor] += amount
        balance[creditor] -= amount


# The search below handles sets of people as bits of an int (person i is bit i) and sets of such
# sets as bits of an int too (the set s is bit s): one int operation then acts on all 2**n sets.


def settling_groups(amounts):
    """The most groups that split amounts (nonzero, summing to zero) with each group's amounts
    summing to zero: a list of lists of indexes into amounts."""
    everyone = (1 << len(amounts)) - 1
    zero_sum = zero_sum_sets(amounts)
    # levels[k]: the sets of people that split into k groups summing to zero (levels[0]: the
    # empty set alone); the last holds everyone. Walking back down, each step leaves a group.
    levels = [1]
    while True:
        split_further = zero_sum & strict_supersets(levels[-1], len(amounts))
        if not split_further >> everyone & 1:
            break
        levels.append(split_further)
    groups, rest = [], everyone
    for level in reversed(levels[:-1]):
        inside = level & subsets(rest, len(amounts))
        smaller = (inside & -inside).bit_length() - 1  # the lowest is a proper subset
        groups.append([i for i in range(len(amounts)) if (rest ^ smaller) >> i & 1])
        rest = smaller
    return groups


def zero_sum_sets(amounts):
    """The sets of people whose amounts sum to zero (the empty one too), met in the middle."""
    half = len(amounts) // 2
    low_sets = {}
    for low, total in enumerate(set_sums(amounts[:half])):
        low_sets.setdefault(-total, []).append(low)
    return sum(
        1 << (high << half | low)
        for high, total in enumerate(set_sums(amounts[half:]))
        for low in low_sets.get(total, ())
    )


def set_sums(amounts):
    """The sum of each set of amounts, at the set's index."""
    sums = [0]
    for amount in amounts:
        sums += [total + amount for total in sums]
    return sums


def strict_supersets(sets, n):
    """The sets of n people holding one of sets and someone more."""
    for person, leaving_out in enumerate(without(n)):  # every superset, the sets themselves too
        sets |= (sets & leaving_out) << (1 << person)
    grown = 0
    for person, leaving_out in enumerate(without(n)):
        grown |= (sets & leaving_out) << (1 << person)
    return grown


def subsets(people, n):
    """The sets of n people that hold no one but people."""
    inside = -1  # every set
    for person, leaving_out in enumerate(without(n)):
        if not people >> person & 1:
            inside &= leaving_out
    return inside


@cache
def without(n):
    """For each of n people, the sets of them that leave that person out."""
    return tuple(
        int(("0" * (1 << i) + "1" * (1 << i)) * ((1 << n) >> (i + 1)), 2) for i in range(n)
    )


def settlement(players, results, rate, **extra):
    """The settlement document: results, amounts at rate, transfers and any remainder."""
    amounts = amounts_at(results, rate)
    return {
        **extra,
        "results": [plain(r) for r in results],
        "amounts": [plain(a) for a in amounts],
        "transfers": transfers(players, amounts),
        "remainder": plain(sum(amounts, Decimal(0))),
    }
