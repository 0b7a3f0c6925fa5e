"""The players' registration pages and the check-in, and the staff's check-in pages: clear
errors in the player's words, nothing saved from a refused form and nothing typed lost,
the honeypot and the rate limits, the permission ladder."""

import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from tests.conftest import make_player, make_registration, make_staff, make_tournament
from tournament.checklist import setup_checklist
from tournament.models import Registration, RegistrationRequest, TournamentStaff
from tournament.registration_links import check_in_code
from tournament.views import registration as registration_views

pytestmark = pytest.mark.django_db

FORM = {
    "first_name": "Zoé",
    "last_name": "Martin",
    "public_name": "",
    "country": "FR",
    "club": "Riichi Lyon",
    "ema_number": "",
    "email": "zoe@example.org",
    "website": "",
}


@pytest.fixture
def open_tournament():
    return make_tournament(self_registration=True, player_cap=1)


@pytest.fixture
def today_tournament():
    today = timezone.localdate()
    return make_tournament(start_date=today, end_date=today)


def _register(client, tournament, **fields):
    return client.post(reverse("public:register", args=[tournament.slug]), {**FORM, **fields})


def _link(purpose: str) -> str:
    """The path of the last mail's link for `purpose` ("confirm", "withdraw")."""
    (path,) = re.findall(rf"https?://[^/\s]+(/\S*/register/{purpose}/\S+/)", mail.outbox[-1].body)
    return path


def test_the_form_is_closed_unless_the_organiser_opens_it(client):
    closed = make_tournament()
    response = client.get(reverse("public:register", args=[closed.slug]))
    assert "Registration for this tournament is closed." in response.content.decode()
    assert "Register" not in client.get(closed.get_absolute_url()).content.decode()
    _register(client, closed)
    assert not RegistrationRequest.objects.exists()
    opened = make_tournament(self_registration=True)
    register = reverse("public:register", args=[opened.slug])
    assert register in client.get(opened.get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"first_name": ""}, "This field is required."),
        ({"first_name": "Z" * 5000}, "Ensure this value has at most 100 characters (it has 5000)."),
        ({"club": "C" * 10_000}, "Ensure this value has at most 150 characters"),
        ({"ema_number": "123"}, "An EMA number has exactly 8 digits"),
        ({"email": "not an address"}, "Enter a valid email address."),
    ],
)
def test_bad_input_gets_its_error_and_keeps_what_was_typed(client, open_tournament, fields, error):
    response = _register(client, open_tournament, **fields)
    page = response.content.decode()
    assert response.status_code == 200
    assert error in page
    assert "This field cannot be blank." not in page  # one error a field, not two
    kept = 'value="Riichi Lyon"' if "email" in fields else 'value="zoe@example.org"'
    assert kept in page
    assert not RegistrationRequest.objects.exists()
    assert not mail.outbox


def test_a_duplicate_ema_number_is_refused_on_the_form(client, open_tournament):
    make_registration(open_tournament, player=make_player(ema_number="04010001"))
    response = _register(client, open_tournament, ema_number="04010001")
    assert "A player with this EMA number is already registered." in response.content.decode()
    assert 'value="zoe@example.org"' in response.content.decode()
    assert not RegistrationRequest.objects.exists()


def test_the_honeypot_answers_a_bot_as_registered_and_saves_nothing(client, open_tournament):
    response = _register(client, open_tournament, website="http://spam.example")
    assert response.status_code == 302
    assert response["Location"] == reverse("public:register_sent", args=[open_tournament.slug])
    assert not RegistrationRequest.objects.exists()
    assert not mail.outbox


def test_registrations_from_one_address_are_limited(client, open_tournament, monkeypatch):
    monkeypatch.setattr(registration_views, "REGISTRATIONS_PER_HOUR", 1)
    assert _register(client, open_tournament).status_code == 302
    response = _register(client, open_tournament, email="other@example.org", first_name="Eva")
    assert "Too many registrations came from your network" in response.content.decode()
    assert RegistrationRequest.objects.count() == 1


def test_register_confirm_then_withdraw_from_the_mails_links(
    client, open_tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert _register(client, open_tournament).status_code == 302
    confirm = _link("confirm")
    # Opening the link (or a mail scanner opening it) changes nothing: a button does.
    assert "Confirm my registration" in client.get(confirm).content.decode()
    assert not Registration.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        page = client.get(client.post(confirm)["Location"]).content.decode()
    registration = Registration.objects.get()
    assert check_in_code(registration) in page
    assert "<svg" in page
    withdraw = _link("withdraw")
    client.post(withdraw)
    registration.refresh_from_db()
    assert registration.status == Registration.Status.WITHDRAWN
    assert "Your registration is withdrawn." in client.get(withdraw).content.decode()


def test_an_altered_link_opens_nothing(client, open_tournament, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _register(client, open_tournament)
    assert client.get(_link("confirm")[:-3] + "xx/").status_code == 404


def test_check_in_opens_on_the_first_day(client):
    later = make_tournament()
    registration = make_registration(later)
    url = reverse("public:check_in", args=[later.slug])
    assert "opens on the tournament" in client.get(url).content.decode()
    client.post(url, {"code": check_in_code(registration)})
    registration.refresh_from_db()
    assert registration.status == Registration.Status.REGISTERED


def test_a_player_checks_in_with_their_code(client, today_tournament):
    registration = make_registration(today_tournament)
    url = reverse("public:check_in", args=[today_tournament.slug])
    code = check_in_code(registration)
    assert f'value="{code}"' in client.get(url, {"code": code}).content.decode()
    page = client.post(url, {"code": code.lower()}).content.decode()
    registration.refresh_from_db()
    assert registration.status == Registration.Status.CHECKED_IN
    assert "you are checked in" in page


def test_a_wrong_code_is_refused_and_wrong_codes_are_limited(client, today_tournament, monkeypatch):
    registration = make_registration(today_tournament)
    url = reverse("public:check_in", args=[today_tournament.slug])
    page = client.post(url, {"code": "AAAA-AAAA"}).content.decode()
    assert "No player of this tournament has this code." in page
    assert 'value="AAAA-AAAA"' in page
    monkeypatch.setattr(registration_views, "WRONG_CODES_PER_WINDOW", 1)
    page = client.post(url, {"code": check_in_code(registration)}).content.decode()
    assert "Too many wrong codes" in page
    registration.refresh_from_db()
    assert registration.status == Registration.Status.REGISTERED


def test_the_missing_list_walks_the_permission_ladder(client, today_tournament, django_user_model):
    here = make_registration(today_tournament, player=make_player(first_name="Here"))
    missing = make_registration(today_tournament, player=make_player(first_name="Missing"))
    here.status = Registration.Status.CHECKED_IN
    here.save()
    url = reverse("staff:check_in", args=[today_tournament.slug])
    assert client.get(url).status_code == 302  # anonymous → login
    other = django_user_model.objects.create_user("other", password="pw-other-12345")
    make_staff(make_tournament(), other, TournamentStaff.Role.ORGANISER)
    client.force_login(other)
    assert client.get(url).status_code == 403
    referee = django_user_model.objects.create_user("ref", password="pw-ref-12345")
    make_staff(today_tournament, referee, TournamentStaff.Role.REFEREE)
    client.force_login(referee)
    page = client.get(url).content.decode()
    assert "Missing" in page
    assert check_in_code(missing) in page
    assert "Here" not in page
    client.post(url, {"registration": missing.pk})
    missing.refresh_from_db()
    assert missing.status == Registration.Status.CHECKED_IN
    poster = client.get(reverse("staff:check_in_poster", args=[today_tournament.slug]))
    assert "<svg" in poster.content.decode()
    assert reverse("public:check_in", args=[today_tournament.slug]) in poster.content.decode()


def test_the_checklist_links_the_requests_and_who_is_missing(admin_client):
    tournament = make_tournament(self_registration=True)
    checklist = {step.key: step for step in setup_checklist(tournament)}
    requests = [link.url for link in checklist["players"].links if "request" in link.url]
    assert requests == [
        reverse("admin:tournament_registrationrequest_changelist")
        + f"?tournament__id__exact={tournament.pk}"
    ]
    assert admin_client.get(requests[0]).status_code == 200
    urls = [link.url for link in checklist["seating"].links]
    assert reverse("staff:check_in", args=[tournament.slug]) in urls
