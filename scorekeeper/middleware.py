"""Guards in front of every view: no cache keeps what a view answers unless it says so, the
Content-Security-Policy, a size limit on request bodies, no control characters, a 503 in words
when the database cannot write, and quiet logs for 4xx."""

import logging
import re

from csp.constants import HEADER
from csp.utils import build_policy
from django.conf import settings
from django.db import OperationalError
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from scorekeeper.errors import error_page

# C0 controls and DEL, except tab and line breaks (which a pasted document may hold).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def private_by_default(get_response):
    """A response that says nothing about caching is kept by no cache (private, no-store):
    pages hold score links and this phone's own matches. Static files, the offline bundles and
    the service worker say their own."""

    def middleware(request):
        response = get_response(request)
        if not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        return response

    return middleware


def content_security_policy(get_response):
    """settings.CONTENT_SECURITY_POLICY on every response that sets none, built once by
    django-csp (its middleware builds the same policy twice for each request: this app has no
    nonce and no view with a policy of its own, so the policy never changes)."""
    policy = build_policy()

    def middleware(request):
        response = get_response(request)
        response.headers.setdefault(HEADER, policy)
        return response

    return middleware


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


def no_control_characters(get_response):
    """Answer 400 to a path, query or form field (name or value) holding a control character,
    before any view asks the database about it (PostgreSQL refuses NUL outright)."""

    def middleware(request):
        texts = [request.path]
        for fields in (request.GET, request.POST):
            texts += [text for name, values in fields.lists() for text in (name, *values)]
        if any(CONTROL.search(text) for text in texts):
            return error_page(request, 400, _("Scorekeeper could not read this request."))
        return get_response(request)

    return middleware


def query_read_when_asked(sender, environ, **kwargs):
    """A query string of more fields than Django reads (DATA_UPLOAD_MAX_NUMBER_FIELDS) is read
    by the middleware, which refuses it in words (400), never while Django makes the request: a
    charset in the Content-Type has Django read the query at once, where its refusal would be
    a bare 500. The charset is dropped from such a request (refused whatever its body says)."""
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    if limit is not None and environ.get("QUERY_STRING", "").count("&") >= limit:
        environ["CONTENT_TYPE"] = environ.get("CONTENT_TYPE", "").split(";")[0]


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
