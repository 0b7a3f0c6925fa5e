"""Settings for the tournament manager, every value read from the environment.

Development defaults are safe to run on a laptop (SQLite file, DEBUG on, localhost only).
Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and usually DATABASE_URL; with DEBUG off
the secure-cookie, HSTS and SSL settings switch on so `manage.py check --deploy` is clean.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# The right-hand side of the players' calendar events' UIDs (RFC 5545 §3.8.4.7): set it once
# to the site's domain and never change it, or calendar apps see every event as a new one.
CALENDAR_UID_DOMAIN = os.environ.get("CALENDAR_UID_DOMAIN") or next(
    (host.lstrip(".") for host in ALLOWED_HOSTS if host.strip(".*")), "localhost"
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_countries",
    "django_tables2",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "tournament",
    "scoring",
    "seating",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Each request starts in the server's zone; a tournament's page activates its own.
    "tournament.time_zones.TimeZoneResetMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Above the CSRF middleware: it sees the cookie a page holding a token sets (BREACH).
    "tournament.compression.PublicGZipMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
    "tournament.login_throttling.KnownDeviceMiddleware",
]

# The last one gives organisers their admin permissions from their tournament roles.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "tournament.permissions.OrganiserRoleBackend",
]

# Login throttling (django-axes): 5 failures for one username from one address lock it for
# 15 minutes. Counts are kept in the database, so every application server sees them. A
# browser the account logged in on counts apart: nobody else's tries lock it out.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "0.25"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A lock ends 15 minutes after it began: every phone in the hall may share one address, so
# tries during the lock (the official's own, or anyone's) must not keep restarting it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_VERBOSE = False
# Number of reverse proxies in front of the application (nginx: 1) whose X-Forwarded-For
# is trusted to name the client; 0 when clients connect directly.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "tournament.client_ip.client_ip"
AXES_USERNAME_CALLABLE = "tournament.login_throttling.throttled_username"
# The refusal in the site's look and language, saying how long it lasts.
AXES_LOCKOUT_CALLABLE = "tournament.views.accounts.locked_out"

ROOT_URLCONF = "tournament.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "tournament.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several referees save at once: every transaction takes the write lock when it starts
    # (SQLite ignores SELECT … FOR UPDATE), and waits for it instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
    # Kept between requests as on PostgreSQL: a new SQLite connection reads the schema again
    # on its first query, about 1.6 ms, more than all the queries of a kept public page.
    # The tests use a file as well, not Django's shared in-memory database: there a seating
    # run's thread writing while a request reads fails at once ("database table is locked")
    # where a file waits for the lock like the database the event runs on. One file per
    # process, so that two test runs at once never share one.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"riichi-test-{os.getpid()}.sqlite3")
    }

# The cache is shared by every application server: the database by default (nothing to run),
# Redis or memcached in production through CACHE_URL. Nothing is kept in process memory.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    }
elif CACHE_URL.startswith("memcached://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
            "LOCATION": CACHE_URL.removeprefix("memcached://"),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "riichi_cache",
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Heavy work (seating runs, the periodic jobs) runs on a worker, `manage.py db_worker`, through
# Django's task framework (the django-tasks backport until Django 6): the tasks wait in the
# database, so any number of workers can serve any number of web servers (docs/production.md).
# TASKS_BACKEND=django_tasks.backends.immediate.ImmediateBackend runs each one in the request.
TASKS = {
    "default": {
        "BACKEND": os.environ.get("TASKS_BACKEND") or "django_tasks_db.DatabaseBackend",
    }
}
# The jobs the worker runs every so often, each queuing its next run (`manage.py
# schedule_jobs` queues the first): no cron and no scheduler process to run beside it.
PERIODIC_JOBS = [
    "seating.tasks.recover_stalled_runs",
    "tournament.tasks.clear_expired_sessions",
    "tournament.tasks.forget_unconfirmed_requests",
    "tournament.tasks.back_up_tournaments",
    "tournament.alerts.tasks.send_round_start_alerts",
]
# The players' e-mail alerts (`tournament.alerts`), sent by the worker through Django's mail
# API. Without EMAIL_BACKEND the mails are printed on the worker's console, never sent.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or "django.core.mail.backends.console.EmailBackend"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# The site's address as the players reach it, for the links in the mails (a worker has no
# request to take it from): the player's page, calendar feed and unsubscribe link.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
# The worker's backups (`manage.py backup`): where, and how often during an event.
BACKUP_DIRECTORY = Path(os.environ.get("BACKUP_DIRECTORY") or BASE_DIR / "backups")
BACKUP_EVERY_MINUTES = int(os.environ.get("BACKUP_EVERY_MINUTES", "15"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = os.environ.get("LANGUAGE_CODE", "en")
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
FORMAT_MODULE_PATH = ["tournament.formats"]  # English dates day first, month by name
LOCALE_PATHS = [BASE_DIR / "locale"]
# The zone of a new tournament and of pages of no tournament; each tournament has its own.
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Officials log in on phones shared at the tables: a session lasts a playing day, not
# Django's two weeks. A sheet sent after it ended comes back after the login (kept_input).
SESSION_COOKIE_AGE = int(float(os.environ.get("SESSION_COOKIE_HOURS", "12")) * 3600)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "public:home"
LOGOUT_REDIRECT_URL = "public:home"

# Uploads: a player list is small; anything bigger is refused before it is parsed.
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# A round's admin page posts two hidden fields per seat (its seats are listed under the
# form): Django's 1,000 fields stopped an event of 500 players from saving (locking) a round.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
IMPORT_MAX_BYTES = int(os.environ.get("IMPORT_MAX_BYTES", str(2 * 1024 * 1024)))
IMPORT_MAX_ROWS = int(os.environ.get("IMPORT_MAX_ROWS", "2000"))

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
