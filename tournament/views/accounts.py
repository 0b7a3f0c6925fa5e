"""The page of a login refused by the throttling (django-axes), in the site's look."""

import math

from axes.helpers import get_client_username, get_cool_off
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials=None
) -> HttpResponse:
    """Say for how long, and who can lift it. axes' own answer was a bare English line,
    "Please try again later", on the staff login and the admin's alike: an official locked
    out by mistyped passwords on a phone had no page to go back to and no idea how long."""
    cool_off = get_cool_off(request)
    minutes = math.ceil(cool_off.total_seconds() / 60) if cool_off else None
    context = {"username": get_client_username(request, credentials) or "", "minutes": minutes}
    return render(request, "registration/locked_out.html", context, status=429)
