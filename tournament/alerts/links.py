"""The addresses an alert gives: the player's page, calendar feed and unsubscribe link.

The unsubscribe link carries a key signed by the site (Django's signing, a salt of its own)
that names one registration: nothing to store, no login, and it opens that registration's
page only. A worker has no request, so the links start with the SITE_URL setting.
"""

from django.conf import settings
from django.core import signing
from django.urls import reverse

from tournament.models import Registration, Tournament

_SALT = "tournament.alerts.unsubscribe"


def absolute(path: str) -> str:
    """The path as an address a mail reader can follow."""
    return settings.SITE_URL + path


def unsubscribe_key(registration: Registration) -> str:
    """The signed key of the registration's unsubscribe link."""
    return signing.Signer(salt=_SALT).sign(str(registration.pk))


def unsubscribe_url(tournament: Tournament, registration: Registration) -> str:
    path = reverse(
        "public:alerts_stop",
        kwargs={"slug": tournament.slug, "key": unsubscribe_key(registration)},
    )
    return absolute(path)


def registration_of_key(slug: str, key: str) -> Registration | None:
    """The registration a key names in the tournament `slug`, or None: altered, another
    tournament's or deleted since."""
    try:
        pk = int(signing.Signer(salt=_SALT).unsign(key))
    except (signing.BadSignature, ValueError):
        return None
    return (
        Registration.objects.select_related("tournament", "player")
        .filter(pk=pk, tournament__slug=slug)
        .first()
    )


def player_links(tournament: Tournament, registration: Registration) -> dict[str, str]:
    """The player's public page and calendar feed."""
    kwargs = {"slug": tournament.slug, "registration_id": registration.pk}
    return {
        "page": absolute(reverse("public:player", kwargs=kwargs)),
        "calendar": absolute(reverse("public:player_calendar", kwargs=kwargs)),
    }
