"""An official's login lasts a playing day: Django's two weeks kept a phone shared at the
tables logged in as whoever used it last, days after the event."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_an_official_s_session_ends_after_twelve_hours(client, organiser, settings):
    response = client.post(reverse("login"), {"username": "boss", "password": "pw-boss-123"})
    assert response.status_code == 302
    assert response.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == 12 * 3600
    assert client.session.get_expiry_age() == 12 * 3600


def test_the_length_of_a_session_comes_from_the_environment():
    code = "from django.conf import settings; print(settings.SESSION_COOKIE_AGE)"
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    environment["SESSION_COOKIE_HOURS"] = "8.5"
    printed = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed.strip() == str(8 * 3600 + 1800)
