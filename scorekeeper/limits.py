"""Limits on what one client may create: new matches and imports, per client address, and
none at all while the data folder is short of free space. Saves and pages are never limited."""

import math
import shutil
from datetime import UTC, datetime, timedelta
from functools import wraps

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from scorekeeper.errors import error_page
from scorekeeper.models import Tally

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}  # the seconds of a rate's unit


def client_address(request):
    """The client's address: the socket's, or behind a proxy (BEHIND_PROXY=1) the one it added
    last to X-Forwarded-For (what a client writes there itself comes before it)."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
    return forwarded if settings.BEHIND_PROXY and forwarded else request.META["REMOTE_ADDR"]


def limited(rate_setting):
    """A view whose POSTs create: at most the setting's rate per client address (then 429),
    and none while the data folder has less than MIN_FREE_BYTES free (then 507)."""

    def decorator(view):
        @wraps(view)
        def checked(request, *args, **kwargs):
            if request.method != "POST":
                return view(request, *args, **kwargs)
            if shutil.disk_usage(settings.DATA_DIR).free < settings.MIN_FREE_BYTES:
                return short_of_space(request)
            most, period = rate_of(getattr(settings, rate_setting))
            hits, seconds_left = counted(rate_setting, client_address(request), period)
            if hits > most:
                return too_many(request, seconds_left)
            return view(request, *args, **kwargs)

        return checked

    return decorator


def rate_of(rate):
    """(count, seconds) of a rate such as "100/h"."""
    count, unit = rate.split("/")
    return int(count), PERIODS[unit]


def counted(group, address, period):
    """(this request's number within the address's window, whole seconds until the window ends).

    The window is the time floored to the period (12:00 to 13:00 for an hourly rate): no
    request extends it. One UPDATE adds the request, under the row's write lock until the
    count is read back, so requests landing at once each get a number of their own. Windows of
    the group that have ended are deleted first (one indexed DELETE, usually of nothing)."""
    now = timezone.now().timestamp()
    start = now // period * period
    window = datetime.fromtimestamp(start, UTC)
    Tally.objects.filter(group=group, window__lt=window).delete()
    row = Tally.objects.filter(group=group, address=address[:64], window=window)
    with transaction.atomic():
        Tally.objects.bulk_create(
            [Tally(group=group, address=address[:64], window=window)], ignore_conflicts=True
        )
        row.update(hits=F("hits") + 1)
        hits = row.values_list("hits", flat=True).get()
    return hits, max(math.ceil(start + period - now), 1)


def too_many(request, seconds):
    """429: when this address may try again, in words and in Retry-After."""
    wait = timeuntil(timezone.now() + timedelta(seconds=seconds + 59))
    response = error_page(
        request,
        429,
        _("Too many new matches from this address: try again in %(time)s.") % {"time": wait},
    )
    response["Retry-After"] = str(seconds)
    return response


def short_of_space(request):
    """507: the disk is nearly full, so nothing new is started; started matches go on."""
    return error_page(
        request,
        507,
        _(
            "The server is short of disk space: it starts no new match just now. "
            "Matches already started can still be scored."
        ),
    )
