"""Guards in front of every view: a size limit on request bodies, and quiet logs for 4xx."""

import logging

from django.conf import settings
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


class NoClientErrorTraces(logging.Filter):
    """Log a refused request (status below 500) as its one-line message, without a trace."""

    def filter(self, record):
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = record.exc_text = None
        return True
