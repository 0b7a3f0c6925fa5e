"""Public pages and their polls travel gzipped; a page holding a secret never does (BREACH:
a CSRF token or a logged-in reader's page, compressed beside a search the attacker typed,
leaks through the response's size)."""

import gzip

import pytest
from django.test import Client
from django.urls import reverse

from tests.public.test_languages import public_urls
from tests.public.test_rankings import confirm_round, make_event
from tests.public.test_seating_pages import seated_tournament

PHONE = {"accept-encoding": "gzip, deflate, br"}


@pytest.mark.django_db
def test_the_public_rankings_and_their_polls_answer_gzip_to_a_phone(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=2)
    for name in ("public:rankings", "public:rankings_rows", "public:rankings_data"):
        response = client.get(reverse(name, args=[tournament.slug]), headers=PHONE)
        assert response.status_code == 200, name
        assert response["Content-Encoding"] == "gzip", name
        assert "Accept-Encoding" in response["Vary"], name
        assert "+27.3" in gzip.decompress(response.content).decode(), name
    # A client that does not ask for it gets the plain text.
    plain = client.get(reverse("public:rankings", args=[tournament.slug]))
    assert not plain.has_header("Content-Encoding")
    assert "+27.3" in plain.content.decode()


@pytest.mark.django_db
def test_an_unchanged_compressed_poll_still_costs_a_304(client, django_user_model):
    # Compressing makes the ETag weak (W/"…"): the poll's next request sends it back so.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_round(rounds[0], referee, tables=1)
    url = reverse("public:rankings_data", args=[tournament.slug])
    etag = client.get(url, headers=PHONE)["ETag"]
    assert etag.startswith('W/"')
    assert client.get(url, headers={**PHONE, "if-none-match": etag}).status_code == 304


@pytest.mark.django_db
def test_a_staff_page_with_a_form_is_not_compressed(client, django_user_model):
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    rounds[0].status = rounds[0].Status.PLAYING
    rounds[0].save()
    client.force_login(referee)
    sheet = client.get(reverse("scoring:sheet", args=[tournament.slug, 1, 1]), headers=PHONE)
    assert sheet.status_code == 200
    assert "csrfmiddlewaretoken" in sheet.content.decode()
    assert not sheet.has_header("Content-Encoding")
    # Nor a public page read by a logged-in official (their name, the logout form's token).
    page = client.get(reverse("public:rankings", args=[tournament.slug]), headers=PHONE)
    assert page.status_code == 200
    assert not page.has_header("Content-Encoding")


@pytest.mark.django_db
def test_the_login_page_with_its_token_is_not_compressed(client):
    response = client.get(reverse("login"), headers=PHONE)
    assert "csrfmiddlewaretoken" in response.content.decode()
    assert not response.has_header("Content-Encoding")


@pytest.mark.django_db
def test_no_public_page_holds_a_csrf_token_for_a_visitor(client):
    tournament, _registrations, _rounds = seated_tournament()
    for url in public_urls(tournament):
        response = client.get(url, headers=PHONE)
        assert response.status_code == 200, url
        content = response.content
        if response.has_header("Content-Encoding"):
            content = gzip.decompress(content)
        assert b"csrfmiddlewaretoken" not in content, url
        assert "csrftoken" not in response.cookies, url


@pytest.mark.django_db
def test_the_language_switch_asks_a_token_of_a_logged_in_official_only(django_user_model):
    tournament, _registrations, _rounds = seated_tournament()
    visitor = Client(enforce_csrf_checks=True)
    url = reverse("public:seating", args=[tournament.slug, 1])
    response = visitor.post(reverse("set_language"), {"language": "fr", "next": url})
    assert response.status_code == 302
    assert "Placement de la ronde 1" in visitor.get(url).content.decode()
    official = django_user_model.objects.create_user("official", password="pw-official-1")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(official)
    response = browser.post(reverse("set_language"), {"language": "fr", "next": url})
    assert response.status_code == 403
    assert "csrfmiddlewaretoken" in browser.get(url).content.decode()  # their form has it
