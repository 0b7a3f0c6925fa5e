"""The staff login, and the page of a login refused by the throttling (django-axes), in the
site's look."""

import math

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from tournament.kept_input import take_kept_input
from tournament.login_throttling import typed_username


class LoginView(auth_views.LoginView):
    """Django's login, which also takes over a score sheet the browser kept while the
    official's session had ended (`tournament.kept_input`)."""

    def form_valid(self, form) -> HttpResponse:
        response = super().form_valid(form)
        take_kept_input(self.request, response)
        return response


def _minutes_left(request: HttpRequest, throttled: str) -> int | None:
    """Whole minutes until the lock ends: it began with the failure that reached the limit
    (later tries do not restart it, settings.AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT)."""
    cool_off = get_cool_off(request)
    if not cool_off:
        return None
    attempt = (
        AccessAttempt.objects.filter(
            username=throttled, ip_address=getattr(request, "axes_ip_address", None)
        )
        .order_by("-attempt_time")
        .first()
    )
    ends = (attempt.attempt_time if attempt else timezone.now()) + cool_off
    return max(1, math.ceil((ends - timezone.now()).total_seconds() / 60))


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials=None
) -> HttpResponse:
    """Say for how long, and how to get in meanwhile. axes' own answer was a bare English
    line, "Please try again later", on the staff login and the admin's alike: an official
    locked out by mistyped passwords on a phone had no page to go back to and no idea how
    long."""
    username = typed_username(request, credentials) or ""
    throttled = get_client_username(request, credentials) or ""
    context = {
        "username": username,
        "on_known_device": throttled != username,
        "minutes": _minutes_left(request, throttled),
    }
    return render(request, "registration/locked_out.html", context, status=429)
