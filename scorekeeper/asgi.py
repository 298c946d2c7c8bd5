"""ASGI entry point: gunicorn's uvicorn workers read each request on an event loop, so a phone
on a slow link (or a stranger trickling bytes) holds a socket, never a thread."""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

from scorekeeper.startup import prepare


def body_limited(app):
    """Django's ASGI handler reads a whole body before any middleware runs, so the size limit
    comes first: a body declared over MAX_REQUEST_BYTES is never read (the app sees none, and
    request_size_limit answers 413 in words), and a body of no declared length is a 411."""

    async def limited(scope, receive, send):
        headers = dict(scope.get("headers", ()))
        if b"transfer-encoding" in headers:  # no phone sends a form or a file that way
            return await refuse(send, 411, b"Send the length of the body (Content-Length).")
        declared = headers.get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > settings.MAX_REQUEST_BYTES:
            receive = unread(receive)
        return await app(scope, receive, send)

    return limited


def unread(receive):
    """A receive that gives the app an empty body, then waits for the client to go away."""
    given = False

    async def empty_then_gone():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": b"", "more_body": False}
        while (message := await receive())["type"] != "http.disconnect":
            pass  # the body's bytes, dropped as they come
        return message

    return empty_then_gone


async def refuse(send, status, text):
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text})


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
prepare()
application = body_limited(get_asgi_application())
