"""What the limits per client address count (scorekeeper/limits.py), in the database every
worker and server shares."""

from django.db import models


class Tally(models.Model):
    """How many times one client address did something limited within one window of its rate."""

    group = models.CharField(max_length=32)  # the rate's setting, e.g. RATE_NEW_MATCHES
    address = models.CharField(max_length=64)
    window = models.DateTimeField()  # when the window began: the time floored to the rate's period
    hits = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["group", "address", "window"], name="one_tally_per_window"
            )
        ]
        indexes = [models.Index(fields=["group", "window"], name="tally_windows")]

    def __str__(self):
        return f"{self.group} {self.address} {self.window:%Y-%m-%d %H:%M:%S}: {self.hits}"
