"""After every change, one line at the top of the page the phone lands on saying what changed,
with Undo where it can be undone: a round saved, changed, deleted or restored; a fix of the
names and options (a join, a leave, the stake); a payment. One function makes the line
(said_back), one partial draws it (templates/games/partials/undo.html), and its Undo posts the
version the line was drawn at: anything changed since, it is refused with a line of its own.

A change made by a form lands on its page by a redirect naming it (said_url: ?said=<token>); the
page reads the token back into the line (match_said, payment_said) only while that change is the
latest, so a reload says it again and an old link says nothing.
"""

from django.urls import reverse

from games.changes import changes, renamed_said, seat_said, setup_lines
from games.models import Payment, RoundEvent, at_places
from games.rules.base import Phrase, gettext_noop

ROUND_SAVED = gettext_noop("Round %(number)s is saved.")
ROUND_CHANGED = gettext_noop("Round %(number)s changed: %(lines)s")
ROUND_DELETED = gettext_noop("Round %(number)s deleted.")
ROUND_RESTORED = gettext_noop("Round %(number)s is back in its place.")
SETUP_CHANGED = gettext_noop("Names and options changed:")
PAID = gettext_noop("%(payer)s paid %(payee)s %(amount)s.")
PAYMENT_DELETED = gettext_noop("Deleted: %(payer)s paid %(payee)s %(amount)s.")
NOT_UNDONE = gettext_noop(
    "Not undone: the match was changed since, maybe from another phone. Here it is as it "
    "stands now."
)
TABLE_NOT_UNDONE = gettext_noop(
    "Not undone: the table was changed since, maybe from another phone. Here it is as it "
    "stands now."
)


def said_back(words, undo=None, version=None, row=None, lines=()):
    """The one line a page says a change back with: what partials/undo.html draws (the
    context's "said"), at the top of the page the phone lands on.

    words: what changed, a Phrase (its names and numbers isolated) or text; lines: Phrases, or
    setup lines (games/changes.py setup_lines), detailing it after words; undo: the URL its
    Undo button posts to (None: no Undo); version: the match's or table's version the line is
    drawn at, posted with Undo (the view undoing refuses it when anything changed since);
    row: the place of the scoreboard's row to highlight (static/app.js).

    To say a new kind of change: put said_back(...) in the page's context as "said", or
    redirect to said_url(page, token) and read the token back here into said_back(...).
    """
    return {"words": words, "undo": undo, "version": version, "row": row, "lines": list(lines)}


def said_url(url, token):
    """The page at url, saying the change token names back (?said=token)."""
    return f"{url}?said={token}"


def match_said(match, drawn, token):
    """The line saying back the change token names (the pk of a SetupChange, or r and the pk
    of a RoundEvent) on the match page drawn; None unless it is the match's latest change."""
    if token.isdigit():
        return setup_said(match, drawn, int(token))
    if token[:1] == "r" and token[1:].isdigit():
        return round_said(match, int(token[1:]))
    return None


def setup_said(match, drawn, pk):
    """A typo renamed at the table, a join or a leave in its one sentence, any other fix of the
    setup line by line."""
    change = match.setup_changes.order_by("-at", "-pk").first()
    if change is None or change.pk != pk:
        return None
    if RoundEvent.objects.filter(round__match=match, at__gt=change.at).exists():
        return None
    undo = reverse("match_setup_undo", args=[match.public_id, change.pk])
    words = renamed_said(change) or seat_said(change, drawn)
    if words is not None:
        return said_back(words, undo, match.version)
    lines = setup_lines(change, match.rules, places(match))
    return said_back(Phrase(SETUP_CHANGED), undo, match.version, lines=lines)


def round_said(match, pk):
    """A round saved, changed, deleted or restored, by its place on the scoreboard."""
    event = RoundEvent.objects.filter(round__match=match).select_related("round").last()
    if event is None or event.pk != pk or match.setup_changes.filter(at__gt=event.at).exists():
        return None
    place = match.live_rounds().filter(number__lt=event.round.number).count() + 1
    undo = reverse("round_undo", args=[match.public_id, event.pk])
    if event.action == RoundEvent.EDITED:
        before = event.round.events.filter(pk__lt=event.pk).last()
        lines = changes(match.rules, match.players, before.entry, event.entry)
        words = Phrase(ROUND_CHANGED, number=place, lines=lines)
        return said_back(words, undo, match.version, place)
    if event.action == RoundEvent.DELETED:
        return said_back(Phrase(ROUND_DELETED, number=place), undo, match.version)
    words = ROUND_SAVED if event.action == RoundEvent.CREATED else ROUND_RESTORED
    return said_back(Phrase(words, number=place), undo, match.version, place)


def undo_round(match, event, seen):
    """Undo what event did to its round, if the match is still at version seen: a change put
    back as it was, a delete restored, a save or a restore deleted. Raises Conflict,
    Round.DoesNotExist (another phone undid it first), Refused."""
    number = event.round.number
    if event.action == RoundEvent.EDITED:
        before = event.round.events.filter(pk__lt=event.pk).last()
        match.change_round(number, before.entry, seen)
    elif event.action == RoundEvent.DELETED:
        match.restore_round(number, seen)
    else:
        match.delete_round(number, seen)


def latest_round_token(match):
    """The token of the match's latest round event (what an Undo of one just made)."""
    event = RoundEvent.objects.filter(round__match=match).only("pk").last()
    return f"r{event.pk}"


def places(match):
    """at_places of the match's live rounds: round numbers as stored turned into places."""
    numbers = list(match.live_rounds().values_list("number", flat=True))
    return lambda joined, left: at_places(joined, left, numbers)


def payment_said(table, token, amount):
    """The line saying back a payment recorded or deleted (token: p and its pk) on the table's
    page, with Undo (delete it, or put it back); None unless it is the table's latest change.
    amount: how a payment's amount is said (the paid filter)."""
    if token[:1] != "p" or not token[1:].isdigit():
        return None
    payment = Payment.objects.filter(table=table, pk=int(token[1:])).first()
    if payment is None or payment.version + 1 != table.version:
        return None
    names = {"payer": payment.payer, "payee": payment.payee, "amount": amount(payment)}
    deleted = payment.deleted is not None
    undo = reverse(
        "payment_restore" if deleted else "payment_delete", args=[table.public_id, payment.pk]
    )
    return said_back(Phrase(PAYMENT_DELETED if deleted else PAID, **names), undo, table.version)
