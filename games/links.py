"""The two capability links of a match and of a table, their share page, and the matches and
tables kept on this phone.

The score link (/m/<public_id>/) changes a match; the watch link (/w/<watch_id>/) only reads.
A table's are /t/<public_id>/ and /tw/<watch_id>/.
"""

import segno
from django.core.exceptions import PermissionDenied
from django.db.models import Max, Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from games.models import Conflict, Match, ReplacedLink, Table
from games.signing import phone_of

REMEMBERED_MATCHES = 30


def get_match(public_id):
    """The match behind a score link; a watch link here is refused (403), a replaced score link
    says so (410), anything else 404."""
    try:
        return Match.objects.get(public_id=public_id)
    except Match.DoesNotExist:
        if Match.objects.filter(watch_id=public_id).exists():
            raise PermissionDenied(_("This is a watch link: it cannot change the match.")) from None
        refuse_if_replaced(public_id)
        raise Http404(_("There is no such match.")) from None


def get_table(public_id):
    """The table behind a score link; its watch link here is refused (403), a replaced score
    link says so (410), anything else 404."""
    try:
        return Table.objects.get(public_id=public_id)
    except Table.DoesNotExist:
        if Table.objects.filter(watch_id=public_id).exists():
            raise PermissionDenied(_("This is a watch link: it cannot change the table.")) from None
        refuse_if_replaced(public_id)
        raise Http404(_("There is no such table.")) from None


def replaced(request, changed, share, key):
    """A new score link for changed (a match or a table, by the link the request named): this
    phone goes on with it (remembered under key) on its share page, saying so; a link another
    phone replaced first opens nothing."""
    try:
        new = changed.replace_link()
    except Conflict:
        refuse_if_replaced(changed.public_id)
        raise
    remember(request, new, key=key)
    return redirect(reverse(share, args=[new]) + "?replaced=1")


class Replaced(Http404):
    """A score link replaced from Share: gone (410), never drawn from a copy on the phone."""

    status = 410


def refuse_if_replaced(token):
    """A 410 saying when, and on which phone, the score link token was replaced, if it was:
    it opens nothing, not even the way to the new one."""
    replaced = ReplacedLink.objects.filter(token=token).first()
    if replaced is None:
        return
    when = formats.date_format(timezone.localtime(replaced.at), "SHORT_DATETIME_FORMAT")
    if replaced.by:
        said = _(
            "This score link was replaced on %(name)s's phone (%(when)s): it opens nothing now. "
            "Ask someone at the table for the new one."
        ) % {"name": replaced.by, "when": when}
    else:
        said = _(
            "This score link was replaced (%(when)s): it opens nothing now. Ask someone at the "
            "table for the new one."
        ) % {"when": when}
    raise Replaced(said)


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


def tables_on_this_phone(request):
    """(table, link) for each table this phone has opened, by its score link, then watch link;
    each table with `last`, when its latest match started (None before any)."""
    scoring = request.session.get("tables", [])
    watching = request.session.get("watching_tables", [])
    found = Table.objects.filter(Q(public_id__in=scoring) | Q(watch_id__in=watching)).annotate(
        last=Max("matches__created")
    )
    by_token = {t.public_id: t for t in found} | {t.watch_id: t for t in found}
    links = [(by_token[t], reverse("table", args=[t])) for t in scoring if t in by_token]
    return links + [
        (by_token[t], reverse("table_watch", args=[t])) for t in watching if t in by_token
    ]


def holds_table(request, table_public_id):
    """Whether this phone has opened the table by its score link."""
    return table_public_id in request.session.get("tables", [])


def share_page(request, heading, links, back, replace=None):
    """The share page: a QR code, the address and Copy for each of links (title, note, url
    name, token); back: (url, label); replace: where the score link is replaced."""
    codes = []
    for title, note, name, token in links:
        url = request.build_absolute_uri(reverse(name, args=[token]))
        svg = segno.make(url, error="m").svg_inline(border=2, omitsize=True)
        codes.append((title, note, url, svg))
    context = {
        "heading": heading,
        "codes": codes,
        "back": back,
        "replace": replace,
        "replaced": request.GET.get("replaced") == "1",
        "phone_name": phone_of(request),
    }
    return render(request, "games/share.html", context)
