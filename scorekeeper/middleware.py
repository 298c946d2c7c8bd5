"""Guards in front of every view: a size limit on request bodies, and quiet logs for 4xx; the
strict Content-Security-Policy built once; the live check with nothing new answered early; and
what a page drawn once per match version needs (DrawnPage, compressed once too)."""

import functools
import logging
import operator
import re
import struct
import zlib

from csp.constants import HEADER as CSP_HEADER
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.db import OperationalError
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from scorekeeper.errors import error_page


def request_size_limit(get_response):
    """Answer 413 to a body over MAX_REQUEST_BYTES before any of it is read or parsed."""

    def middleware(request):
        length = request.META.get("CONTENT_LENGTH") or "0"
        if not length.isascii() or not length.isdigit():
            return error_page(request, 400, _("Scorekeeper could not read this request."))
        if int(length) > settings.MAX_REQUEST_BYTES:
            return error_page(request, 413, _("This is too large for Scorekeeper to read."))
        return get_response(request)

    return middleware


class StorageTrouble:
    """A database that cannot write (disk full, read-only) is a 503 with one sentence."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OperationalError):
            logging.getLogger(__name__).error("Database trouble: %s", exception)
            return error_page(
                request,
                503,
                _(
                    "Nothing was saved: the server could not write its "
                    "data just now (its database is busy, full or "
                    "read-only). Go back and try again."
                ),
            )
        return None


class NoClientErrorTraces(logging.Filter):
    """Log a refused request (status below 500) as its one-line message, without a trace."""

    def filter(self, record):
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = record.exc_text = None
        return True


_POLICY = [None, None]  # (the settings it was built from, the header)


def csp_header():
    """The Content-Security-Policy header every response here carries, built once from the
    settings (None when django-csp must decide per response: a report-only policy or excluded
    prefixes)."""
    source = (
        settings.CONTENT_SECURITY_POLICY,
        getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None),
    )
    if _POLICY[0] is None or any(map(operator.is_not, source, _POLICY[0])):
        plain = not source[1] and not (source[0] or {}).get("EXCLUDE_URL_PREFIXES")
        _POLICY[:] = source, build_policy() if plain else None
    return _POLICY[1]


class ContentSecurityPolicy(CSPMiddleware):
    """django-csp's middleware, with the policy built once instead of for every response.

    The policy is the same for every response here: no view changes it (django-csp's
    decorators) and none asks for a nonce. A response or request with any of these, or
    settings with a report-only policy or excluded prefixes, is left to django-csp itself.
    """

    PER_RESPONSE = (
        "_csp_exempt",
        "_csp_config",
        "_csp_update",
        "_csp_replace",
        "_csp_exempt_ro",
        "_csp_config_ro",
        "_csp_update_ro",
        "_csp_replace_ro",
    )

    def process_response(self, request, response):
        policy = csp_header()
        if (
            not policy
            or settings.DEBUG
            or getattr(request, "_csp_nonce", None) is not None
            or any(hasattr(response, name) for name in self.PER_RESPONSE)
        ):
            return super().process_response(request, response)
        if CSP_HEADER not in response:
            response[CSP_HEADER] = policy
        # As django-csp does: a nonce asked for once the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response


# The query of a live check as the page asks it (static/app.js): any other goes to the view.
LIVE_QUERY = re.compile(r"v=(?P<version>[0-9]{1,12})(&rounds=all)?")


def live_check(get_response):
    """A live check that finds nothing new, answered before the rest of the stack.

    Every phone at the table asks every few seconds whether its match moved on (the views
    marked with live_link: games.views.live and score_live); nearly always it has not, and the
    answer is an empty 204. That answer needs no session, language, CSRF token or htmx, so it
    is given here, right after SecurityMiddleware, by the view's own single query, with the
    headers the rest of the stack gives it (X-Frame-Options, the CSP). Anything else (another
    version, an unknown link or a score link's check asked with a watch link, a Host not
    allowed, a body, another method, another query, a database in trouble) goes on to the whole
    stack.
    """
    from django.core.exceptions import DisallowedHost
    from django.db import DatabaseError
    from django.urls import Resolver404, resolve

    from games.models import Match

    @functools.lru_cache(maxsize=4096)
    def asked(path):
        """(link, token) when path is a live check's, else None (the URLconf decides)."""
        try:
            found = resolve(path)
        except Resolver404:
            return None
        link = getattr(found.func, "live_link", None)
        return (link, found.kwargs[link]) if link in found.kwargs else None

    def middleware(request):
        seen = LIVE_QUERY.fullmatch(request.META.get("QUERY_STRING", ""))
        if (
            seen is None
            or request.method != "GET"
            or "live/" not in request.path_info
            or request.META.get("CONTENT_LENGTH") not in (None, "", "0")
        ):
            return get_response(request)
        found = asked(request.path_info)
        if found is None:
            return get_response(request)
        try:
            request.get_host()
            version = Match.version_of(*found)
        except (DisallowedHost, DatabaseError):
            return get_response(request)  # refused by the whole stack, with its error page
        policy = csp_header()
        if version is None or seen["version"] != str(version) or not policy:
            return get_response(request)
        response = HttpResponse(status=204)
        response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()
        response[CSP_HEADER] = policy
        return response

    return middleware


# ---- A page drawn once per match version, compressed once too

ACCEPTS_GZIP = re.compile(r"\bgzip\b")
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # no name or time; best compression


class DrawnPage:
    """A page drawn once with slots for what differs per phone (its CSRF token, its entry key),
    kept as UTF-8 pieces between the slots, and compressed once.

    slots maps each slot's placeholder to the length of what fills it. response() fills them
    in. A phone that accepts gzip gets the stored compressed pieces with its own values between
    them as stored (uncompressed) deflate blocks: nothing is compressed per request. Each piece
    is compressed knowing the pieces before it (a preset dictionary), with 0xFF bytes, which
    UTF-8 text never holds, standing where the values will be: it may refer back to the page
    before it, never to a value. So no secret is compressed with the page, and the compressed
    size tells nothing about it (BREACH).
    """

    def __init__(self, html, slots=None):
        slots = slots or {}
        parts = re.split("(" + "|".join(map(re.escape, slots)) + ")", html) if slots else [html]
        self.slots = parts[1::2]
        self.lengths = [slots[slot] for slot in self.slots]
        self.pieces = [part.encode() for part in parts[0::2]]
        self.deflated, before = [], b""
        for k, piece in enumerate(self.pieces):
            deflate = zlib.compressobj(
                9, zlib.DEFLATED, -zlib.MAX_WBITS, **({"zdict": before[-32768:]} if before else {})
            )
            last = k == len(self.pieces) - 1
            # A piece ends on a byte boundary, where a stored block can follow it.
            self.deflated.append(
                deflate.compress(piece)
                + deflate.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)
            )
            before += piece + (b"" if last else b"\xff" * self.lengths[k])

    def size(self):
        """The bytes it keeps."""
        return sum(map(len, self.pieces)) + sum(map(len, self.deflated))

    def response(self, request, values):
        """The page with values[slot] in each slot: gzip-compressed when the phone accepts it."""
        filled = [values[slot].encode() for slot in self.slots]
        if (
            ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
            and list(map(len, filled)) == self.lengths
        ):
            out, crc, size = [GZIP_HEADER, self.deflated[0]], zlib.crc32(self.pieces[0]), 0
            for value, deflated, piece in zip(filled, self.deflated[1:], self.pieces[1:]):
                # A stored block: its header byte, its length and the length's complement.
                out += [struct.pack("<BHH", 0, len(value), len(value) ^ 0xFFFF), value, deflated]
                crc = zlib.crc32(piece, zlib.crc32(value, crc))
                size += len(value)
            size += sum(map(len, self.pieces))
            out.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
            response = HttpResponse(b"".join(out))
            response["Content-Encoding"] = "gzip"
        else:  # GZipMiddleware compresses it if the phone accepts gzip (a value of a new length)
            body = [self.pieces[0]]
            for value, piece in zip(filled, self.pieces[1:]):
                body += [value, piece]
            response = HttpResponse(b"".join(body))
        patch_vary_headers(response, ("Accept-Encoding",))
        return response
