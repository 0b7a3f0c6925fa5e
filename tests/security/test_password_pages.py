"""No page claims to send a mail the site cannot send. The password reset pages said "We've
emailed you instructions" with no mail settings at all, and officials' accounts have no
address: a forgotten password is set again by an administrator."""

import pytest
from django.core import mail
from django.urls import NoReverseMatch, reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/MQ/set-password/",
        "/accounts/reset/done/",
    ],
)
def test_there_is_no_password_reset_page(client, organiser, path):
    assert client.get(path).status_code == 404
    assert client.post(path, {"email": "boss@example.org"}).status_code == 404
    assert mail.outbox == []


@pytest.mark.parametrize("name", ["password_reset", "admin_password_reset"])
def test_no_page_links_to_a_password_reset(client, name):
    with pytest.raises(NoReverseMatch):
        reverse(name)
    for url in (reverse("login"), reverse("admin:login")):
        assert "password_reset" not in client.get(url).content.decode()


def test_an_official_still_changes_their_own_password(client, organiser):
    client.force_login(organiser)
    url = reverse("password_change")
    data = {"old_password": "pw-boss-123"} | dict.fromkeys(
        ("new_password1", "new_password2"), "tsumo-pinfu-dora-3"
    )
    assert client.post(url, data).url == reverse("password_change_done")
    client.logout()
    assert client.login(username="boss", password="tsumo-pinfu-dora-3")
