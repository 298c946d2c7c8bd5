"""The app as gunicorn's uvicorn workers serve it: each worker reads requests on an event loop,
so a phone on a slow link (or a stranger trickling bytes) holds a socket, never a thread; whole
requests go to Django's WSGI application on a fixed pool of THREADS threads (a2wsgi), which keep
their database connections from one request to the next."""

import os

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application

from scorekeeper.startup import prepare


def read_first(app):
    """Hand app only whole requests: the body is read here, on the event loop, up to
    MAX_REQUEST_BYTES. A body declared over it is never read (the app sees none, and
    request_size_limit answers 413 in words); a body of no declared length is a 411."""

    async def whole(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        headers = dict(scope["headers"])
        if b"transfer-encoding" in headers:  # no phone sends a form or a file that way
            return await refuse(send, 411, b"Send the length of the body (Content-Length).")
        declared = headers.get(b"content-length", b"0")
        too_large = declared.isdigit() and int(declared) > settings.MAX_REQUEST_BYTES
        body = b"" if too_large else await read_body(receive)
        if body is None:
            return None  # the client went away
        return await app(scope, replay(body, receive), send)

    return whole


async def read_body(receive):
    """The request's body, or None if the client goes away first."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def replay(body, receive):
    """A receive that gives the body in one message, then waits for the client to go away."""
    given = False

    async def body_then_gone():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        while (message := await receive())["type"] != "http.disconnect":
            pass  # the bytes of a body that was not read, dropped as they come
        return message

    return body_then_gone


async def refuse(send, status, text):
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text})


def served(wsgi_app):
    """A WSGI application as the uvicorn workers serve it."""
    return read_first(WSGIMiddleware(wsgi_app, workers=int(os.environ.get("THREADS", "8"))))


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
prepare()
application = served(get_wsgi_application())
