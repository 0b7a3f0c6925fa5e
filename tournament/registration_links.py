"""The keys of the registration mails' links and the players' check-in codes.

A link's key is signed by the site (Django's signing, a salt of its own) and names one
registration request and what it does: confirm the e-mail address (for a week) or withdraw
(while the request stands). Nothing is stored; a key altered, of another tournament or
another purpose opens nothing.

A check-in code is derived from the registration (a keyed hash of it), so every
registration has one, imported players' included, and nothing is stored either: eight
letters and digits, easy to type on a phone, too many to guess within the rate limit
(`tournament.rate_limit`).
"""

import base64
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from tournament.models import Registration, RegistrationRequest, Tournament

_SALT = "tournament.registration_links"
CONFIRM, WITHDRAW = "confirm", "withdraw"
#: How long a confirmation link works: an address not confirmed by then registers anew.
CONFIRM_DAYS = 7
CODE_LENGTH = 8


def request_key(request: RegistrationRequest, purpose: str) -> str:
    return signing.dumps([request.pk, purpose], salt=_SALT, compress=True)


def request_of_key(tournament: Tournament, key: str, purpose: str) -> RegistrationRequest | None:
    """The request a link's key names in this tournament for `purpose`, or None."""
    max_age = timedelta(days=CONFIRM_DAYS) if purpose == CONFIRM else None
    try:
        pk, signed_purpose = signing.loads(key, salt=_SALT, max_age=max_age)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if signed_purpose != purpose:
        return None
    return RegistrationRequest.objects.filter(pk=pk, tournament=tournament).first()


def request_url(request: RegistrationRequest, purpose: str) -> str:
    """The link a mail carries, absolute (`SITE_URL`)."""
    name = "public:register_confirm" if purpose == CONFIRM else "public:register_withdraw"
    path = reverse(
        name, kwargs={"slug": request.tournament.slug, "key": request_key(request, purpose)}
    )
    return settings.SITE_URL + path


def check_in_code(registration: Registration) -> str:
    """The registration's check-in code, e.g. "K7QM2XPA"."""
    digest = salted_hmac(_SALT, f"check-in:{registration.pk}").digest()
    return base64.b32encode(digest).decode()[:CODE_LENGTH]


#: The digits a player may type for the letters they look like: a code has no 0, 1 or 8.
_LOOK_ALIKES = str.maketrans({"0": "O", "1": "I", "8": "B"})


def normalised_code(typed: str) -> str:
    """A code as typed, without spaces or dashes, in capitals, a zero read as an O."""
    return "".join(typed.split()).replace("-", "").upper().translate(_LOOK_ALIKES)


def registration_of_code(tournament: Tournament, typed: str) -> Registration | None:
    """The tournament's registration that plays with this check-in code, or None."""
    code = normalised_code(typed)
    if len(code) != CODE_LENGTH:
        return None
    for registration in tournament.registrations.active().select_related("player"):
        if constant_time_compare(check_in_code(registration), code):
            return registration
    return None


def check_in_url(tournament: Tournament, code: str = "") -> str:
    """The check-in page, absolute, the code filled in if given."""
    path = reverse("public:check_in", kwargs={"slug": tournament.slug})
    return settings.SITE_URL + path + (f"?code={code}" if code else "")
