"""Each tournament's time zone: where its clock times and schedules are read and written.

An event in Tokyo shows 10:30 for its 10:30 round whatever the server's TIME_ZONE (which is
only the default of a new tournament). The pages that resolve a tournament (the public and
staff mixins, the admin of its objects) activate its zone for the request;
`TimeZoneResetMiddleware` puts the server's back after every request, so that no zone leaks
into the next request the same thread serves.
"""

import zoneinfo
from collections.abc import Callable
from functools import cache

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _


@cache
def time_zone_names() -> tuple[str, ...]:
    """The IANA names this server knows (its tz database), sorted: what the field accepts."""
    return tuple(sorted(zoneinfo.available_timezones()))


def default_time_zone() -> str:
    """A new tournament's zone: the server's TIME_ZONE setting."""
    return settings.TIME_ZONE


def validate_time_zone(value: str) -> None:
    """Refuse a name that is no IANA time zone ("Paris", "GMT+9", a typo)."""
    if value not in time_zone_names():
        raise ValidationError(
            _(
                "“%(value)s” is not a time zone. Give its IANA name, the region and the "
                "city, e.g. Europe/Paris or Asia/Tokyo."
            ),
            code="invalid_time_zone",
            params={"value": value},
        )


def activate_time_zone(name: str) -> None:
    """Show and read times in the zone `name` until the end of the request."""
    timezone.activate(zoneinfo.ZoneInfo(name))


class TimeZoneResetMiddleware:
    """Every request starts and ends in the server's zone: a zone activated for one
    tournament's page would otherwise stay with the thread into the next request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class TimeZoneInput(forms.TextInput):
    """A text box offering the known names as the official types ("Tok" → Asia/Tokyo)."""

    def render(self, name, value, attrs=None, renderer=None) -> str:
        list_id = f"{(attrs or {}).get('id') or name}-names"
        box = super().render(name, value, {**(attrs or {}), "list": list_id}, renderer)
        options = format_html_join(
            "", '<option value="{}">', ((zone,) for zone in time_zone_names())
        )
        return format_html('{}<datalist id="{}">{}</datalist>', box, list_id, options)
