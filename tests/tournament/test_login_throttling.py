"""Login throttling (django-axes): repeated failures lock the login, even the right password."""

import pytest
from django.urls import reverse


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
        ("en", ["Login refused for now", "“boss”", "Wait 15 minutes before trying again"]),
        ("fr", ["Connexion refusée pour l’instant", "« boss »", "Attendez 15 minutes"]),
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
