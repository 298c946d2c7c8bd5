"""The floor bench/run measures against: a bare Django app, settings, URL and view in one file.

Only SecurityMiddleware and CommonMiddleware, no database, no templates; one view answering a
short fixed text. Served by gunicorn with the project's own settings file:

    gunicorn bench.bare.app -c scorekeeper/gunicorn_conf.py   (from the project folder)
"""

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.http import HttpResponse
from django.urls import path

settings.configure(
    DEBUG=False,
    SECRET_KEY="bench-bare-app-not-secret",
    ALLOWED_HOSTS=["*"],
    ROOT_URLCONF=__name__,
    MIDDLEWARE=[
        "django.middleware.security.SecurityMiddleware",
        "django.middleware.common.CommonMiddleware",
    ],
    INSTALLED_APPS=[],
    DATABASES={},
    USE_I18N=False,
)


def ok(request, anything=""):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("", ok), path("<path:anything>", ok)]

application = WSGIMiddleware(get_wsgi_application(), workers=8)  # as scorekeeper/asgi.py serves
