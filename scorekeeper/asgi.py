"""The app as gunicorn's uvicorn workers serve it: each worker reads requests on an event loop,
so a phone on a slow link (or a stranger trickling bytes) holds a socket, never a thread; whole
requests go to Django's WSGI application on a fixed pool of THREADS threads (a2wsgi), which keep
their database connections from one request to the next. Static files never reach that pool:
they are sent from the event loop, so a phone reading the offline runtime slowly holds no thread;
nor does a phone's live stream, held on the event loop too (settings.ASGI_MIDDLEWARE)."""

import io
import os

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.core.wsgi import get_wsgi_application
from django.middleware.security import SecurityMiddleware
from django.utils.module_loading import import_string
from whitenoise.middleware import WhiteNoiseMiddleware

from scorekeeper.middleware import private_by_default
from scorekeeper.startup import prepare, serving


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


def static_first(app):
    """Send the files whitenoise serves (its lookup, headers, compressed variants, ranges and
    304s) from the event loop, a chunk at a time as the client reads them; other requests go
    to app. The answer passes the middleware that stands before whitenoise in settings
    (private_by_default, SecurityMiddleware), so its headers are those Django would send."""
    files = WhiteNoiseMiddleware()

    async def static(scope, receive, send):
        found = scope["type"] == "http" and static_file(files, scope["path"])
        if not found:
            return await app(scope, receive, send)
        answer = private_by_default(SecurityMiddleware(lambda request: files.serve(found, request)))
        try:
            response = answer(ASGIRequest(scope, io.BytesIO()))
        except DisallowedHost:  # the redirect to https names the Host: Django's 400 answers
            return await app(scope, receive, send)
        return await respond(response, send)

    return static


def static_file(files, path):
    """whitenoise's file for path, or None, looked up as its middleware does."""
    return files.find_file(path) if files.autorefresh else files.files.get(path)


async def respond(response, send):
    """Send a Django response from the event loop, each chunk once the client has room."""
    headers = [
        (name.encode("latin-1"), value.encode("latin-1")) for name, value in response.items()
    ]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    try:
        chunks = response.streaming_content if response.streaming else [response.content]
        for chunk in chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    finally:
        response.close()


async def refuse(send, status, text):
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text})


def served(wsgi_app):
    """A WSGI application as the uvicorn workers serve it, behind the app's own handlers on the
    event loop (settings.ASGI_MIDDLEWARE, dotted paths as Django's MIDDLEWARE: the first is
    outermost), such as the live streams."""
    app = WSGIMiddleware(wsgi_app, workers=int(os.environ.get("THREADS", "8")))
    for handler in reversed(settings.ASGI_MIDDLEWARE):
        app = import_string(handler)(app)
    return read_first(static_first(app))


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
prepare()
serving()
application = served(get_wsgi_application())
