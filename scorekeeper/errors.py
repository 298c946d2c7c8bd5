"""The app's own error pages: one sentence in the reader's language and a way back home."""

import logging

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


def error_page(request, status, message):
    """A page saying message, with the given status."""
    html = render_to_string("error.html", {"message": message, "status": status}, request)
    return HttpResponse(html, status=status)


def said(exception, fallback):
    """The exception's own message when the app wrote one for people (a str), else fallback."""
    message = exception.args[0] if exception is not None and exception.args else None
    return message if isinstance(message, str) and message else fallback


def bad_request(request, exception=None):
    return error_page(request, 400, _("Scorekeeper could not read this request."))


def permission_denied(request, exception=None):
    return error_page(request, 403, said(exception, _("This link cannot do that.")))


def page_not_found(request, exception=None):
    """The 404 page, or the status the exception carries (a score link replaced: 410, gone)."""
    status = getattr(exception, "status", 404)
    return error_page(request, status, said(exception, _("There is no such page.")))


def csrf_failure(request, reason=""):
    return error_page(
        request,
        403,
        _("This page was open too long: go back, reload it and try again. Nothing was changed."),
    )


def server_error(request):
    """The 500 page; if even that cannot be drawn, a plain line."""
    try:
        return error_page(
            request,
            500,
            _(
                "Something went wrong on the server. Nothing you "
                "entered before this was lost: reload and try again."
            ),
        )
    except Exception:  # drawing the page failed too: the plain line is all that is left
        log.exception("The error page itself failed")
        return HttpResponse("Server error", content_type="text/plain", status=500)
