"""WSGI entry point for gunicorn."""

import os

from django.core.wsgi import get_wsgi_application

from scorekeeper.startup import prepare

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
prepare()
application = get_wsgi_application()
