"""Limits on what one client may create: new matches and imports, per client address, and
none at all while the data folder is short of free space. Saves and pages are never limited."""

import shutil
from datetime import timedelta
from functools import wraps

from django.conf import settings
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from scorekeeper.errors import error_page


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
            rate = getattr(settings, rate_setting)
            usage = get_usage(request, group=rate_setting, key="ip", rate=rate, increment=True)
            if usage is not None and usage["should_limit"]:
                return too_many(request, max(usage["time_left"], 1))
            return view(request, *args, **kwargs)

        return checked

    return decorator


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
