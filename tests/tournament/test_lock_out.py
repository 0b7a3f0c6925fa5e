"""An official always has a way in. Five wrong passwords from the hall's shared address
locked an official for 15 minutes, and five more after it ended locked them again, for
ever. A browser they logged in on (a known device) now counts apart, and an organiser sees
their officials' failed logins and lifts a lock in the admin."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.conftest import make_staff, make_tournament
from tournament.login_throttling import KNOWN_DEVICE_COOKIE
from tournament.models import AuditEntry, TournamentStaff

pytestmark = pytest.mark.django_db
Role = TournamentStaff.Role


@pytest.fixture(autouse=True)
def _throttled(settings):
    settings.AXES_ENABLED = True


def _login(client: Client, username: str, password: str, url: str = ""):
    return client.post(url or reverse("login"), {"username": username, "password": password})


def _lock(client: Client, username: str, limit: int) -> None:
    for _attempt in range(limit):
        _login(client, username, "wrong")


def _lock_ends() -> None:
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=16))


def _phone_of(username: str, password: str) -> Client:
    """A browser the official logged in on, then logged out of (a shared phone)."""
    phone = Client()
    assert _login(phone, username, password).status_code == 302
    phone.post(reverse("logout"))
    return phone


def test_wrong_passwords_in_the_hall_never_lock_out_a_device_the_official_logged_in_on(
    organiser, settings
):
    phone, stranger = _phone_of("boss", "pw-boss-123"), Client()  # one address, the hall's
    for _lock_round in range(3):  # locked, the lock ends, locked again
        _lock(stranger, "boss", settings.AXES_FAILURE_LIMIT)
        assert _login(stranger, "boss", "pw-boss-123").status_code == 429
        assert _login(phone, "boss", "pw-boss-123").status_code == 302
        assert _login(phone, "boss", "pw-boss-123", reverse("admin:login")).status_code == 302
        phone.post(reverse("logout"))
        _lock_ends()


def test_a_known_device_s_own_wrong_passwords_lock_it_alone(organiser, settings):
    # No way round the throttling: a device's tries are counted as everyone else's are.
    phone = _phone_of("boss", "pw-boss-123")
    _lock(phone, "boss", settings.AXES_FAILURE_LIMIT)
    refused = _login(phone, "boss", "pw-boss-123")
    assert refused.status_code == 429
    assert "“boss” on this device" in refused.content.decode()
    assert _login(Client(), "boss", "pw-boss-123").status_code == 302


def test_a_device_known_for_another_account_counts_as_any_other(
    organiser, settings, django_user_model
):
    django_user_model.objects.create_user("referee-1", password="pw-referee-1")
    phone = _phone_of("referee-1", "pw-referee-1")
    _lock(Client(), "boss", settings.AXES_FAILURE_LIMIT)
    assert _login(phone, "boss", "pw-boss-123").status_code == 429
    assert _login(phone, "referee-1", "pw-referee-1").status_code == 302


def test_an_altered_device_cookie_counts_as_none(organiser, settings):
    phone = _phone_of("boss", "pw-boss-123")
    value = phone.cookies[KNOWN_DEVICE_COOKIE].value
    phone.cookies[KNOWN_DEVICE_COOKIE] = value[:-2] + ("AA" if value[-2:] != "AA" else "BB")
    _lock(Client(), "boss", settings.AXES_FAILURE_LIMIT)
    assert _login(phone, "boss", "pw-boss-123").status_code == 429


def test_the_device_cookie_names_no_account_and_lasts_a_year(organiser):
    response = _login(Client(), "boss", "pw-boss-123")
    cookie = response.cookies[KNOWN_DEVICE_COOKIE]
    assert "boss" not in cookie.value
    assert cookie["httponly"]
    assert cookie["max-age"] == 365 * 24 * 3600


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["logged in with this user name before is not locked", "Lift the login lock"]),
        ("fr", ["vous vous êtes déjà connecté", "Lever le blocage de connexion"]),
    ],
)
def test_the_lock_page_says_how_to_get_in_meanwhile(organiser, settings, language, words):
    stranger = Client()
    stranger.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    _lock(stranger, "boss", settings.AXES_FAILURE_LIMIT)
    page = _login(stranger, "boss", "pw-boss-123").content.decode()
    for word in words:
        assert word in page


@pytest.fixture
def events(django_user_model) -> dict:
    """A co-organiser's tournament with its referee, and another tournament's referee."""
    ours, other = make_tournament(slug="lyon"), make_tournament(slug="paris")
    co = django_user_model.objects.create_user("claire", password="pw-claire-123", is_staff=True)
    make_staff(ours, co, Role.ORGANISER)
    referee = django_user_model.objects.create_user("referee-1", password="pw-referee-1")
    theirs = django_user_model.objects.create_user("referee-9", password="pw-referee-9")
    return {
        "ours": ours,
        "co": co,
        "referee": make_staff(ours, referee, Role.REFEREE),
        "theirs": make_staff(other, theirs, Role.REFEREE),
    }


def test_an_organiser_sees_the_failed_logins_and_lifts_the_lock(client, events, settings):
    # An official on a borrowed phone, locked out by someone in the hall.
    _lock(Client(), "referee-1", settings.AXES_FAILURE_LIMIT)
    _lock(Client(), "referee-9", settings.AXES_FAILURE_LIMIT)
    assert _login(Client(), "referee-1", "pw-referee-1").status_code == 429
    client.force_login(events["co"])
    url = reverse("admin:tournament_tournamentstaff_changelist")
    page = client.get(url)
    rows = {row.user.username: row.failed_logins for row in page.context["cl"].result_list}
    assert rows == {"claire": None, "referee-1": settings.AXES_FAILURE_LIMIT}
    assert "Failed logins" in page.content.decode()
    selected = [events["referee"].pk, events["theirs"].pk]  # not theirs to lift
    done = client.post(url, {"action": "lift_login_lock", "_selected_action": selected})
    assert done.status_code == 302
    assert "Login lock lifted for referee-1." in client.get(url).content.decode()
    assert _login(Client(), "referee-1", "pw-referee-1").status_code == 302
    assert _login(Client(), "referee-9", "pw-referee-9").status_code == 429
    entry = AuditEntry.objects.get(action="staff.login_unlock")
    assert (entry.actor, entry.tournament) == (events["co"], events["ours"])
    assert entry.data == {"user": "referee-1", "failures": settings.AXES_FAILURE_LIMIT}


def test_only_an_administrator_lifts_an_administrator_s_lock(
    client, events, settings, django_user_model
):
    # An administrator's password opens every tournament: a co-organiser must not be able to
    # reopen its guessing by lifting the lock.
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root-123")
    make_staff(events["ours"], root, Role.HEAD_REFEREE)
    _lock(Client(), "root", settings.AXES_FAILURE_LIMIT)
    client.force_login(events["co"])
    url = reverse("admin:tournament_tournamentstaff_changelist")
    selected = list(TournamentStaff.objects.filter(user=root).values_list("pk", flat=True))
    done = client.post(url, {"action": "lift_login_lock", "_selected_action": selected})
    assert (
        "Only an administrator can lift the login lock of root."
        in client.get(done["Location"]).content.decode()
    )
    assert _login(Client(), "root", "pw-root-123").status_code == 429
    assert not AuditEntry.objects.filter(action="staff.login_unlock").exists()
