"""The live check a phone asks (static/app.js): "has the match moved on from version v?", when
its live stream says so, or every few seconds where it has none. Nearly always the answer is an
empty 204, which needs no session, language, CSRF token or htmx: this middleware, placed right
after Django's SecurityMiddleware, gives it there. Anything else (another version, another
query, an unknown link or a watch link asked for a score link's check, a Host not allowed, a
database in trouble) goes on to the whole stack and the view (games.views.live_news), which
answers the same.

Below it, what a live stream (games/stream.py) says of a match or a table, looked up on the
stream's thread: a match's version (which its page's live check carries), a table's state as a
tag its page carries.
"""

import functools
import re

from django.core.exceptions import DisallowedHost
from django.db import DatabaseError
from django.db.models import IntegerField, Value
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils.crypto import salted_hmac

from games.models import Match, Table

# The query as the page sends it (v=N, &rounds=all); the link each live check is asked with.
QUERY = re.compile(r"v=(?P<version>[0-9]{1,12})(&rounds=all)?")
LINKS = {"live": "watch_id", "score_live": "public_id"}
# No live check's path is longer (/m/<link>/live/, a link of at most 32 characters): a longer
# one is never looked up, so made-up paths keep no more than this each in the memo below.
LONGEST_PATH = len("/m//live/") + Match._meta.get_field("public_id").max_length


def nothing_new(get_response):
    """Answer 204 to a live check of a match still at the version the phone has."""

    def middleware(request):
        seen = QUERY.fullmatch(request.META.get("QUERY_STRING", ""))
        if seen is None or request.method != "GET" or still_at(request) != seen["version"]:
            return get_response(request)
        response = HttpResponse(status=204)
        response["Cache-Control"] = "private, no-store"
        return response

    return middleware


def still_at(request):
    """The version (as text) of the match a live check asks about, or None when the request
    is not a live check the whole stack need not see."""
    path = request.path_info
    asked = live_link(path) if len(path) <= LONGEST_PATH else None
    if asked is None:
        return None
    try:
        request.get_host()  # a Host not allowed gets the whole stack's 400
        version = Match.version_of(*asked)
    except (DisallowedHost, DatabaseError):
        return None
    return None if version is None else str(version)


@functools.lru_cache(maxsize=4096)  # of paths of LONGEST_PATH at most: well under 1 MB
def live_link(path):
    """(link, token) when path is a live check's, else None: the URLconf decides, once a path."""
    try:
        found = resolve(path)
    except Resolver404:
        return None
    link = LINKS.get(found.url_name)
    return (link, found.kwargs[link]) if link else None


# ---- what a live stream says (games/stream.py): the version its page's live check compares


def table_tag(state):
    """What a table's stream and page say of its state (Table.with_state): whether it moved,
    and nothing more (a watch link learns no count of changes from it)."""
    return salted_hmac("games.live.table", repr(tuple(state))).hexdigest()[:16]


def opened(kind, link, token):
    """(id, what its stream says now) of the match or table (kind) whose link is token, or
    None: the stream is then answered by Django (no_stream)."""
    if kind == "match":
        return Match.objects.filter(**{link: token}).values_list("pk", "version").first()
    state = Table.state_of(link, token)
    return None if state is None else (state[0], table_tag(state))


def now_at(keys):
    """{(kind, id): what its stream says now} for the matches and tables of keys, in one query."""
    ids = {"match": [], "table": []}
    for kind, pk in keys:
        ids[kind].append(pk)
    none = Value(None, output_field=IntegerField())
    matches = Match.objects.filter(pk__in=ids["match"]).values_list(
        Value("match"), "pk", "version", none, none
    )
    tables = Table.with_state().filter(pk__in=ids["table"])
    tables = tables.values_list(Value("table"), "pk", "version", "played", "count")
    said = {}
    for kind, *state in matches.union(tables, all=True):
        said[(kind, state[0])] = state[1] if kind == "match" else table_tag(state)
    return said
