"""Settings, all from environment variables; a bad value stops the start with a clear error.

SECRET_KEY    kept in DATA_DIR/secret_key (made at start, mode 0600) unless set
DEBUG         off unless "1"/"true"
DATA_DIR      where SQLite and the secret key live (default ./data, ignored by git)
DATABASE_URL  e.g. postgres://postgres@127.0.0.1:5432/scorekeeper (default: SQLite in DATA_DIR)
ALLOWED_HOSTS comma-separated (default "*": phones reach the table's laptop by its LAN address;
              required with HTTPS=1, where share links and QR codes are built from the Host)
HTTPS         "1" when served over HTTPS: secure cookies, HSTS, redirect to HTTPS
BEHIND_PROXY  "1" behind a reverse proxy: its X-Forwarded-Proto and X-Forwarded-For are believed
CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://scores.example.org
TIME_ZONE     e.g. Asia/Shanghai: the times shown in round history (default UTC)
RATE_NEW_MATCHES  new matches one client address may start (default 100/h; s, m, h or d)
RATE_IMPORTS      matches one client address may import (default 30/h)
MIN_FREE_MB   below this many MB free in DATA_DIR, no new match or import (default 200)
STREAMS_PER_WORKER   live streams one worker holds (default 5000)
STREAMS_PER_ADDRESS  live streams one client address holds on a worker (default 50)
"""

import os

import dj_database_url
from csp.constants import NONE, SELF, WASM_UNSAFE_EVAL
from django.core.exceptions import ImproperlyConfigured

from scorekeeper import languages
from scorekeeper.environment import env_flag, env_int, env_list, env_rate
from scorekeeper.startup import BASE_DIR, data_dir, key_file


def secret_key():
    """SECRET_KEY from the environment, else the one kept in the data folder (made at start)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    try:
        return key_file().read_text().strip()
    except OSError:
        raise ImproperlyConfigured(
            f"No secret key in {key_file()}: start with `make run` or manage.py, "
            "which make it, or set SECRET_KEY."
        ) from None


DATA_DIR = data_dir()
SECRET_KEY = secret_key()
DEBUG = env_flag("DEBUG")
HTTPS = env_flag("HTTPS")
BEHIND_PROXY = env_flag("BEHIND_PROXY")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "*")
if HTTPS and (not os.environ.get("ALLOWED_HOSTS") or "*" in ALLOWED_HOSTS):
    raise ImproperlyConfigured(
        "With HTTPS=1, set ALLOWED_HOSTS to the names the app is served "
        "as (share links and QR codes are built from the Host header)."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "django_htmx",
    "scorekeeper",  # its one model: what the limits per client address count
    "games",
]

MIDDLEWARE = [
    "scorekeeper.middleware.private_by_default",
    "django.middleware.security.SecurityMiddleware",
    # A live check with nothing new (most requests at a table) is answered here: an empty 204.
    "games.live.nothing_new",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages go out compressed (the CSRF token is masked per response, so BREACH finds nothing).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Refuses an over-large body before anything (the CSRF check included) reads it.
    "scorekeeper.middleware.request_size_limit",
    # Refuses NUL and other control characters in the path or a field before any view reads it.
    "scorekeeper.middleware.no_control_characters",
    "django.middleware.csrf.CsrfViewMiddleware",
    "scorekeeper.middleware.StorageTrouble",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "scorekeeper.middleware.content_security_policy",
    "django_htmx.middleware.HtmxMiddleware",
    # A change is signed with the name this phone was given (games/signing.py).
    "games.signing.signing",
]

# What each uvicorn worker answers on its event loop, before Django's thread pool
# (scorekeeper/asgi.py): each a function of the app taking the ASGI application after it.
# The live streams (each a socket and a few kB, never a thread), at most STREAMS_PER_WORKER on a
# worker and STREAMS_PER_ADDRESS of one client address there; beyond them a page keeps to its
# live check.
ASGI_MIDDLEWARE = ["games.stream.streams_first"]
STREAMS_PER_WORKER = env_int("STREAMS_PER_WORKER", 5000)
STREAMS_PER_ADDRESS = env_int("STREAMS_PER_ADDRESS", 50)

ROOT_URLCONF = "scorekeeper.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers go on while a round is written; IMMEDIATE takes the write lock up front.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Every input has a size limit: a request body (an imported match document is at most 1 MB),
# one uploaded file; form fields keep Django's limit of 1000.
MAX_REQUEST_BYTES = 2 * 2**20
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
DATA_UPLOAD_MAX_NUMBER_FILES = 1

# What one client address may create (scorekeeper/limits.py): a table starts a handful of
# matches an evening; a flood of them would fill the disk. Saves and pages are never limited.
# The counts live in the database (scorekeeper.models.Tally): every worker and machine shares
# them, each request adds one in a single UPDATE, and a window is fixed (the hour, say, from its
# start on the clock): no request extends it.
RATE_NEW_MATCHES = env_rate("RATE_NEW_MATCHES", "100/h")
RATE_IMPORTS = env_rate("RATE_IMPORTS", "30/h")
# Below this much free space in the data folder, new matches and imports are refused (saves go on).
MIN_FREE_BYTES = env_int("MIN_FREE_MB", 200) * 2**20

# This phone's list of matches lives in a signed cookie: nothing to store on the server.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

LANGUAGE_CODE = "en"
# The phone's Accept-Language picks among these; the switcher on every screen remembers a choice.
LANGUAGES = languages.LANGUAGES
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["scorekeeper.formats"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")  # the table's clock for round history

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# The offline runtime (games/offline.py) lives in a folder named by its version: a phone may
# keep it for good. Other static files keep whitenoise's short default.
WHITENOISE_IMMUTABLE_FILE_TEST = r"^/static/offline/pyodide/[0-9][0-9.]*/"

# No inline scripts or styles anywhere: scripts and the stylesheet come from /static/.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        # 'wasm-unsafe-eval' lets the phone compile WebAssembly (the Pyodide runtime that scores
        # offline, static/offline/worker.js); it allows no eval() of JavaScript and no inline code.
        "script-src": [SELF, WASM_UNSAFE_EVAL],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "scorekeeper.errors.csrf_failure"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused request (4xx) is one line in the log; only a server error carries its trace.
    "filters": {"no_client_traces": {"()": "scorekeeper.middleware.NoClientErrorTraces"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["no_client_traces"]}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
