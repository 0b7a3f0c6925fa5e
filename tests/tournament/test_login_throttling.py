"""Login throttling (django-axes): repeated failures lock the login, even the right password."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.urls import reverse
from django.utils import timezone


@pytest.mark.django_db
def test_five_failed_logins_lock_the_account_for_that_address(client, settings, organiser):
    settings.AXES_ENABLED = True
    url = reverse("login")
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(url, {"username": "boss", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    response = client.post(url, {"username": "boss", "password": "wrong"})
    assert response.status_code == 429  # the limit-th failure locks
    response = client.post(url, {"username": "boss", "password": "pw-boss-123"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_successful_login_still_works_below_the_limit(client, settings, organiser):
    settings.AXES_ENABLED = True
    url = reverse("login")
    client.post(url, {"username": "boss", "password": "wrong"})
    response = client.post(url, {"username": "boss", "password": "pw-boss-123"})
    assert response.status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Login refused for now", "“boss”", "Try again in 15 minutes."]),
        ("fr", ["Connexion refusée pour l’instant", "« boss »", "Réessayez dans 15 minutes."]),
    ],
)
def test_a_locked_login_says_for_how_long_in_the_reader_s_language(
    client, settings, organiser, language, words
):
    """axes answered with a bare English line, "Please try again later", on the staff login
    and the admin's alike: no page to go back to, no word of how long."""
    settings.AXES_ENABLED = True
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "boss", "password": "wrong"})
    for url in (reverse("login"), reverse("admin:login")):
        response = client.post(url, {"username": "boss", "password": "pw-boss-123"})
        assert response.status_code == 429
        page = response.content.decode()
        for word in words:
            assert word in page, (url, word)
        assert 'href="/"' in page, url  # back to the site


@pytest.mark.django_db
def test_tries_during_a_lock_do_not_restart_it(client, settings, organiser):
    """The hall's phones may share one address: the official's own retries (or anyone's)
    restarted the 15 minutes each time, so the lock could last as long as they kept trying."""
    settings.AXES_ENABLED = True
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "boss", "password": "wrong"})
    ten_minutes_ago = timezone.now() - datetime.timedelta(minutes=10)
    AccessAttempt.objects.filter(username="boss").update(attempt_time=ten_minutes_ago)
    for password in ("wrong", "pw-boss-123", "wrong"):
        response = client.post(reverse("login"), {"username": "boss", "password": password})
        assert response.status_code == 429
        assert "Try again in 5 minutes." in response.content.decode()
    assert AccessAttempt.objects.get(username="boss").attempt_time == ten_minutes_ago
    AccessAttempt.objects.filter(username="boss").update(
        attempt_time=timezone.now() - datetime.timedelta(minutes=16)
    )
    response = client.post(reverse("login"), {"username": "boss", "password": "pw-boss-123"})
    assert response.status_code == 302
