"""What the table entered, nothing derived: a match, its rounds as typed, and their history."""

import secrets

from django.db import connection, models

from games import rules


def new_token():
    """A long random capability token for a link: not guessable, not sequential."""
    return secrets.token_urlsafe(18)


class Match(models.Model):
    # Two capabilities: the score link (public_id) changes the match, the watch link only reads.
    public_id = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    watch_id = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    game = models.CharField(max_length=32)
    players = models.JSONField()
    options = models.JSONField(default=dict, blank=True)
    closed = models.BooleanField(default=False)
    # Bumped by every change, so a phone can ask cheaply "anything new?" and a save can be
    # made conditional on the match being as the form saw it.
    version = models.PositiveIntegerField(default=0)
    # The match this one is a rematch of: a series is the original and its chain of rematches.
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="rematches")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.game}: {', '.join(self.players)}"

    @classmethod
    def version_of(cls, link, token):
        """The version of the match whose link ("public_id" or "watch_id") is token, or None.

        Every phone on a match asks this every few seconds, so it is one plain query: the ORM
        would spend more time building it (and the match) than the database spends answering.
        """
        if link not in ("public_id", "watch_id"):
            raise ValueError(link)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT version FROM {cls._meta.db_table} WHERE {link} = %s", [token])
            row = cursor.fetchone()
        return row[0] if row else None

    @property
    def rules(self):
        """The game module that scores this match."""
        return rules.GAMES[self.game]

    def series(self):
        """The original match and its chain of rematches, in play order."""
        first = self
        while first.rematch_of_id is not None:
            first = first.rematch_of
        chain = [first]
        while (following := chain[-1].rematches.first()) is not None:
            chain.append(following)
        return chain

    def live_rounds(self):
        """The rounds in play order, without deleted ones."""
        return self.rounds.filter(deleted=None)

    def document(self, entries=None):
        """The spec's match document; entries replace the stored rounds when given."""
        if entries is None:
            entries = [r.entry for r in self.live_rounds()]
        return {"game": self.game, "players": self.players, "options": self.options,
                "rounds": entries, "closed": self.closed}


class Round(models.Model):
    """One hand as the table entered it; its place in the match is its order by number."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    entry = models.JSONField()
    # The random key of the form that saved it: a retried save is recognised, not stored twice.
    entry_key = models.CharField(max_length=40, blank=True)
    deleted = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_round_per_number"),
        ]

    def __str__(self):
        return f"round {self.number} of {self.match_id}"


class RoundEvent(models.Model):
    """The audit of a round: created, edited, deleted or restored, with the entry at that time."""

    CREATED, EDITED, DELETED, RESTORED = "created", "edited", "deleted", "restored"
    ACTIONS = [(CREATED, "created"), (EDITED, "edited"), (DELETED, "deleted"), (RESTORED, "restored")]

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=10, choices=ACTIONS)
    entry = models.JSONField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
