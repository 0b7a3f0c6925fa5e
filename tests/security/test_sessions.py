"""An official's login lasts a playing day: Django's two weeks kept a phone shared at the
tables logged in as whoever used it last, days after the event."""

import pytest
from django.urls import reverse

from tests.conftest import django_process_output


@pytest.mark.django_db
def test_an_official_s_session_ends_after_twelve_hours(client, organiser, settings):
    response = client.post(reverse("login"), {"username": "boss", "password": "pw-boss-123"})
    assert response.status_code == 302
    assert response.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == 12 * 3600
    assert client.session.get_expiry_age() == 12 * 3600


def test_the_length_of_a_session_comes_from_the_environment():
    code = "from django.conf import settings; print(settings.SESSION_COOKIE_AGE)"
    printed = django_process_output(code, SESSION_COOKIE_HOURS="8.5")
    assert printed.strip() == str(8 * 3600 + 1800)
