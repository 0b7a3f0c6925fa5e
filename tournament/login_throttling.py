"""Login throttling that always leaves an official a way in.

django-axes locks a user name from one address after AXES_FAILURE_LIMIT wrong passwords, for
AXES_COOLOFF_HOURS. Every phone in a hall may share one address, so anyone there could lock
an official out, and again each time the lock ended. A browser in which an account has been
logged in is a *known device* of that account: a signed cookie says so, and its tries for
that account are counted apart from everyone else's, under "<user name> (device <id>)"
(AXES_USERNAME_CALLABLE). Wrong passwords typed elsewhere never lock it out; its own lock it
alone, for the same time, so it is no way round the throttling (OWASP's "device cookies").

An official on a device they never logged in on asks an organiser, who sees the failed
logins of their tournament's officials and lifts a lock in the admin (Tournament staff).
"""

import secrets
from dataclasses import dataclass
from datetime import timedelta

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.core import signing
from django.db.models import Func, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Concat
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import salted_hmac

KNOWN_DEVICE_COOKIE = "known_device"
KNOWN_DEVICE_DAYS = 365
#: The accounts a shared phone remembers, the latest first.
KNOWN_DEVICE_ACCOUNTS = 8
_SALT = "tournament.login_throttling"
#: What follows the user name in the throttling's lines of a known device. User names hold
#: no space, so no other account's line starts with "<user name> (device ".
DEVICE_LINE = " (device "


@dataclass(frozen=True)
class KnownDevice:
    id: str
    #: Keyed hashes of the user names: the cookie does not tell who used the phone.
    accounts: tuple[str, ...]


def _account_key(username: str) -> str:
    return salted_hmac(_SALT, username).hexdigest()[:16]


def known_device(request: HttpRequest) -> KnownDevice | None:
    """The device the browser's cookie names, unless it is missing, altered or too old."""
    value = request.COOKIES.get(KNOWN_DEVICE_COOKIE)
    if not value:
        return None
    try:
        data = signing.loads(value, salt=_SALT, max_age=timedelta(days=KNOWN_DEVICE_DAYS))
    except signing.BadSignature:
        return None
    return KnownDevice(id=data["id"], accounts=tuple(data["accounts"]))


def typed_username(request: HttpRequest, credentials: dict | None) -> str | None:
    """The user name of a login attempt, as typed."""
    return (credentials or request.POST).get(settings.AXES_USERNAME_FORM_FIELD)


def throttled_username(request: HttpRequest, credentials: dict | None) -> str | None:
    """The name django-axes counts a login attempt under: the user name typed and, from a
    known device of that account, the device."""
    username = typed_username(request, credentials)
    device = known_device(request)
    if username and device and _account_key(username) in device.accounts:
        return f"{username}{DEVICE_LINE}{device.id})"
    return username


class KnownDeviceMiddleware:
    """Makes the browser of every logged-in account a known device of that account."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return response
        device = known_device(request)
        key = _account_key(user.get_username())
        if device is None or key not in device.accounts:
            accounts = (key, *(device.accounts if device else ()))[:KNOWN_DEVICE_ACCOUNTS]
            value = {"id": device.id if device else secrets.token_hex(6), "accounts": accounts}
            response.set_cookie(
                KNOWN_DEVICE_COOKIE,
                signing.dumps(value, salt=_SALT),
                max_age=KNOWN_DEVICE_DAYS * 24 * 3600,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


def attempts_of(username) -> QuerySet[AccessAttempt]:
    """The throttling's lines of an account that still count (within the cool-off): its
    user name typed anywhere, and on each of its known devices. ``username`` is a string or
    an expression (OuterRef)."""
    if isinstance(username, str):
        prefix = f"{username}{DEVICE_LINE}"
    else:
        prefix = Concat(username, Value(DEVICE_LINE))
    return AccessAttempt.objects.filter(
        Q(username=username) | Q(username__startswith=prefix),
        attempt_time__gte=timezone.now() - get_cool_off(),
    )


def recent_failures(username_field: str) -> Subquery:
    """The failed logins that still count of the account in ``username_field``, summed
    over its lines (None when there are none)."""
    total = (
        attempts_of(OuterRef(username_field))
        .order_by()
        .annotate(total=Func("failures_since_start", function="SUM"))
        .values("total")
    )
    return Subquery(total)
