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
