"""What the table entered, nothing derived: a match and its rounds as typed."""

import secrets

from django.db import models

from games import rules


def new_public_id():
    """A long random id for a match's URL: not guessable, not sequential."""
    return secrets.token_urlsafe(18)


class Match(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    game = models.CharField(max_length=32)
    players = models.JSONField()
    options = models.JSONField(default=dict, blank=True)
    closed = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.game}: {', '.join(self.players)}"

    @property
    def rules(self):
        """The game module that scores this match."""
        return rules.GAMES[self.game]

    def document(self, entries=None, closed=None):
        """The spec's match document; entries and closed replace the stored ones when given."""
        if entries is None:
            entries = [r.entry for r in self.rounds.all()]
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "rounds": entries,
            "closed": self.closed if closed is None else closed,
        }


class Round(models.Model):
    """One hand as the table entered it; its place in the match is its order by number."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    entry = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_round_per_number"),
        ]

    def __str__(self):
        return f"round {self.number} of {self.match_id}"
