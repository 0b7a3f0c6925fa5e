"""Inviting an official in one step from the tournament's admin: a new account or an existing
one found, the role given through the audited service, a login card whose link logs in
once and for three days only, a role taken away in one click; only the tournament's
organisers may do it."""

import re
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import make_staff, make_tournament
from tournament.login_links import LoginLinkTokens, login_link_path
from tournament.login_throttling import KNOWN_DEVICE_COOKIE
from tournament.models import AuditEntry, TournamentStaff

pytestmark = pytest.mark.django_db
Role = TournamentStaff.Role


def officials_url(tournament) -> str:
    return reverse("admin:tournament_tournament_officials", args=[tournament.pk])


def invite(client, tournament, **data):
    return client.post(officials_url(tournament), {"role": Role.REFEREE, "email": "", **data})


@pytest.fixture
def boss_client(client, organiser):
    client.force_login(organiser)
    return client


def link_of_card(card) -> str:
    path = re.search(r'href="https?://[^/]+(/accounts/welcome/[^"]+)"', card).group(1)
    return path


def test_a_new_official_gets_an_account_a_role_and_a_login_card(
    boss_client, tournament, django_user_model
):
    response = invite(boss_client, tournament, name="Anna Berg", email="anna@example.org")
    anna = django_user_model.objects.get(username="anna.berg")
    staff = TournamentStaff.objects.get(tournament=tournament, user=anna)
    assert (anna.first_name, anna.last_name, anna.email) == ("Anna", "Berg", "anna@example.org")
    assert not anna.has_usable_password()
    assert not anna.is_staff  # a referee works on the score-sheet pages, not in the admin
    assert staff.role == Role.REFEREE
    assert response["Location"] == reverse(
        "admin:tournament_tournament_login_card", args=[tournament.pk, staff.pk]
    )
    card = boss_client.get(response["Location"]).content.decode()
    assert "<svg" in card  # the QR code
    assert "anna.berg" in card
    assert link_of_card(card).startswith("/accounts/welcome/")
    actions = list(
        AuditEntry.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["staff.role_create", "staff.invite"]
    assert AuditEntry.objects.get(action="staff.invite").data == {
        "user": "anna.berg",
        "role": "referee",
        "account_created": True,
    }


def test_a_co_organiser_invited_opens_the_admin(boss_client, tournament, django_user_model):
    invite(boss_client, tournament, name="Claire Dumas", role=Role.ORGANISER)
    claire = django_user_model.objects.get(username="claire.dumas")
    assert claire.is_staff
    assert tournament.staff.get(user=claire).role == Role.ORGANISER


def test_an_existing_account_is_offered_instead_of_a_duplicate(
    boss_client, tournament, django_user_model
):
    known = django_user_model.objects.create_user(
        "bruno", email="bruno@example.org", password="pw-bruno-123"
    )
    # Found by e-mail: nothing is created, the page asks, everything typed is still there.
    response = invite(boss_client, tournament, name="Bruno Petit", email="BRUNO@example.org")
    assert response.status_code == 200
    page = response.content.decode()
    assert "An account like this one already exists" in page
    assert 'value="Bruno Petit"' in page
    assert "bruno (bruno@example.org)" in page
    assert django_user_model.objects.count() == 2
    assert not tournament.staff.exists()
    # Chosen: the role goes to that account, which keeps its password (no login link).
    response = invite(
        boss_client,
        tournament,
        name="Bruno Petit",
        email="bruno@example.org",
        role=Role.HEAD_REFEREE,
        account=str(known.pk),
    )
    assert response["Location"] == reverse(
        "admin:tournament_tournament_officials", args=[tournament.pk]
    )
    assert tournament.staff.get().user == known
    assert tournament.staff.get().role == Role.HEAD_REFEREE
    assert django_user_model.objects.count() == 2
    card = reverse(
        "admin:tournament_tournament_login_card", args=[tournament.pk, tournament.staff.get().pk]
    )
    assert boss_client.get(card)["Location"] == officials_url(tournament)


def test_an_existing_account_is_found_by_name_and_user_name(
    boss_client, tournament, django_user_model
):
    django_user_model.objects.create_user("lea.dubois")
    django_user_model.objects.create_user("ld", first_name="Léa", last_name="Dubois")
    page = invite(boss_client, tournament, name="léa  DUBOIS").content.decode()
    assert "lea.dubois" in page
    assert "ld (Léa Dubois)" in page
    # Somebody else of that name: a new account, numbered.
    invite(boss_client, tournament, name="Léa Dubois", account="new")
    assert tournament.staff.get().user.username == "lea.dubois2"


def test_an_account_with_a_role_here_already_is_refused_on_its_choice(
    boss_client, tournament, django_user_model
):
    known = django_user_model.objects.create_user("tom", first_name="Tom", last_name="Ito")
    make_staff(tournament, known, Role.REFEREE)
    page = invite(boss_client, tournament, name="Tom Ito", account=str(known.pk)).content
    assert "tom is already Referee / scorer of this tournament." in page.decode()


def test_the_login_link_logs_in_once_makes_a_known_device_and_asks_for_a_password(
    boss_client, tournament, django_user_model
):
    staff_pk = invite(boss_client, tournament, name="Anna Berg")["Location"].split("/")[-3]
    card = boss_client.get(
        reverse("admin:tournament_tournament_login_card", args=[tournament.pk, staff_pk])
    )
    link = link_of_card(card.content.decode())
    official = Client()
    # Opening the link (a QR scanner, a link preview) logs nobody in and uses nothing up.
    assert "Log in and choose my password" in official.get(link).content.decode()
    response = official.post(link)
    assert response["Location"] == reverse("login_link_password")
    assert KNOWN_DEVICE_COOKIE in response.cookies
    anna = django_user_model.objects.get(username="anna.berg")
    assert int(official.session["_auth_user_id"]) == anna.pk
    # Used once: it no longer works, in another browser either.
    assert Client().post(link).status_code == 410
    assert "This link no longer works" in Client().get(link).content.decode()
    response = official.post(
        reverse("login_link_password"),
        {"new_password1": "tile-wall-east-7", "new_password2": "tile-wall-east-7"},
    )
    assert response["Location"] == reverse("public:home")
    anna.refresh_from_db()
    assert anna.check_password("tile-wall-east-7")
    assert Client().login(username="anna.berg", password="tile-wall-east-7")


def test_the_login_link_expires_after_three_days(
    boss_client, client, tournament, django_user_model, monkeypatch
):
    invite(boss_client, tournament, name="Anna Berg")
    anna = django_user_model.objects.get(username="anna.berg")
    link = login_link_path(anna)
    boss_client.logout()
    later = datetime.now() + timedelta(days=3, hours=1)  # Django's tokens count naive time
    monkeypatch.setattr(LoginLinkTokens, "_now", lambda self: later)
    assert client.post(link).status_code == 410
    assert "_auth_user_id" not in client.session


def test_an_altered_link_logs_nobody_in(client, tournament, django_user_model):
    anna = django_user_model.objects.create_user("anna")
    anna.set_unusable_password()
    anna.save()
    link = login_link_path(anna)
    assert client.post(link[:-2] + "x/").status_code == 410
    # An account with a password gets no working link at all.
    bruno = django_user_model.objects.create_user("bruno", password="pw-bruno-123")
    assert client.post(login_link_path(bruno)).status_code == 410


def test_removing_a_role_is_one_click_audited_and_the_account_stays(
    boss_client, tournament, django_user_model
):
    invite(boss_client, tournament, name="Anna Berg")
    staff = tournament.staff.get()
    response = boss_client.post(
        reverse("admin:tournament_tournament_remove_role", args=[tournament.pk, staff.pk])
    )
    assert response["Location"] == officials_url(tournament)
    assert not tournament.staff.exists()
    assert django_user_model.objects.filter(username="anna.berg").exists()
    entry = AuditEntry.objects.get(action="staff.role_delete")
    assert (entry.tournament, entry.actor.username) == (tournament, "boss")


def test_another_tournament_s_organiser_cannot_invite_nor_remove_nor_print(
    client, tournament, django_user_model
):
    elsewhere = make_tournament()
    other = django_user_model.objects.create_user("other", password="pw-other-123", is_staff=True)
    make_staff(elsewhere, other, Role.ORGANISER)
    referee = django_user_model.objects.create_user("ref")
    referee.set_unusable_password()
    referee.save()
    staff = make_staff(tournament, referee, Role.REFEREE)
    client.force_login(other)
    assert invite(client, tournament, name="Mallory").status_code == 404
    for name in ("login_card", "remove_role"):
        url = reverse(f"admin:tournament_tournament_{name}", args=[tournament.pk, staff.pk])
        assert client.post(url).status_code == 404
    # Nor through their own tournament's pages.
    url = reverse("admin:tournament_tournament_remove_role", args=[elsewhere.pk, staff.pk])
    assert client.post(url).status_code == 404
    assert not django_user_model.objects.filter(username="mallory").exists()
    assert tournament.staff.count() == 1


def test_a_co_organiser_invites_into_their_tournament(client, tournament, django_user_model):
    co = django_user_model.objects.create_user("claire", password="pw-claire-123", is_staff=True)
    make_staff(tournament, co, Role.ORGANISER)
    client.force_login(co)
    response = invite(client, tournament, name="Anna Berg")
    assert response.status_code == 302
    assert tournament.staff.filter(user__username="anna.berg", role=Role.REFEREE).exists()


def test_no_login_card_for_an_account_with_a_role_elsewhere(client, tournament, django_user_model):
    co = django_user_model.objects.create_user("claire", password="pw-claire-123", is_staff=True)
    make_staff(tournament, co, Role.ORGANISER)
    shared = django_user_model.objects.create_user("sam")
    shared.set_unusable_password()
    shared.save()
    make_staff(make_tournament(), shared, Role.ORGANISER)
    staff = make_staff(tournament, shared, Role.REFEREE)
    client.force_login(co)
    card = reverse("admin:tournament_tournament_login_card", args=[tournament.pk, staff.pk])
    assert client.get(card)["Location"] == officials_url(tournament)


def test_a_referee_cannot_invite(client, tournament, django_user_model):
    referee = django_user_model.objects.create_user("ref", password="pw-ref-12345")
    make_staff(tournament, referee, Role.REFEREE)
    client.force_login(referee)
    response = invite(client, tournament, name="Mallory")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    assert not django_user_model.objects.filter(username="mallory").exists()
    assert tournament.staff.count() == 1


def test_the_invitation_page_in_french(boss_client, tournament):
    page = boss_client.get(officials_url(tournament), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Inviter un officiel" in page


def test_an_organiser_confirms_before_giving_up_their_own_role_and_never_the_last(
    client, tournament, django_user_model
):
    # Removing one's own organiser role closes the tournament's admin to them at once.
    claire = django_user_model.objects.create_user("claire", password="pw-cl-123", is_staff=True)
    denis = django_user_model.objects.create_user("denis", password="pw-de-123", is_staff=True)
    own = make_staff(tournament, claire, Role.ORGANISER)
    client.force_login(claire)
    url = reverse("admin:tournament_tournament_remove_role", args=[tournament.pk, own.pk])
    # The only organiser: refused, even confirmed.
    refused = client.post(url, {"own": "confirmed"}, follow=True)
    assert "You are the only organiser" in refused.content.decode()
    assert tournament.staff.filter(pk=own.pk).exists()
    # With a co-organiser: a first click warns, the second removes.
    make_staff(tournament, denis, Role.ORGANISER)
    warned = client.post(url, follow=True)
    page = warned.content.decode()
    assert "That is your own role" in page
    assert "Remove my own role" in page
    assert tournament.staff.filter(pk=own.pk).exists()
    assert client.post(url, {"own": "confirmed"})["Location"] == reverse("admin:index")
    assert not tournament.staff.filter(pk=own.pk).exists()
