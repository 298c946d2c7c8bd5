"""The two capability links of a match, and the list of matches kept on this phone.

The score link (/m/<public_id>/) changes a match; the watch link (/w/<watch_id>/) only reads.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import Match

REMEMBERED_MATCHES = 30


def get_match(public_id):
    """The match behind a score link; a watch link here is refused (403), anything else 404."""
    try:
        return Match.objects.get(public_id=public_id)
    except Match.DoesNotExist:
        if Match.objects.filter(watch_id=public_id).exists():
            raise PermissionDenied(_("This is a watch link: it cannot change the match.")) from None
        raise Http404(_("There is no such match.")) from None


def remember(request, token, key="matches"):
    """Put a match's link first in this phone's list (kept in its signed session cookie)."""
    ids = request.session.get(key, [])
    if ids[:1] != [token]:  # unchanged lists leave the cookie alone
        request.session[key] = ([token] + [i for i in ids if i != token])[:REMEMBERED_MATCHES]


def on_this_phone(request, matches=Match.objects):
    """(match, link) for each match this phone has opened: score links, then watch links."""
    scoring = request.session.get("matches", [])
    watching = request.session.get("watching", [])
    found = matches.filter(Q(public_id__in=scoring) | Q(watch_id__in=watching))
    by_token = {m.public_id: m for m in found} | {m.watch_id: m for m in found}
    links = [(by_token[t], reverse("match", args=[t])) for t in scoring if t in by_token]
    return links + [(by_token[t], reverse("watch", args=[t])) for t in watching if t in by_token]
