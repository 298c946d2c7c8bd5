"""Settlement shared by the games that pay out: amounts at a rate, and the payments."""

from decimal import ROUND_HALF_UP, Decimal

from .base import CENT, decimal, plain


def amounts_at(results, rate):
    """results × rate, exact in decimal, rounded to cents with halves away from zero."""
    rate = decimal(rate)
    return [(decimal(r) * rate).quantize(CENT, rounding=ROUND_HALF_UP) for r in results]


def transfers(players, amounts):
    """Payments settling amounts: the biggest debtor pays the biggest creditor, repeatedly.

    At most n-1 payments; when the amounts do not sum to zero, what can be settled is.
    """
    balance = [Decimal(a) for a in amounts]
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
