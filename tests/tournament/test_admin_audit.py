"""Every save and deletion in the admin goes through a service and leaves its audit entry,
by the organiser who made it: the audit log is the one trail of who changed what."""

import pytest
from django.urls import reverse

from tests.conftest import admin_form_data, make_player, make_registration, make_rounds
from tournament.models import (
    AuditEntry,
    Player,
    Registration,
    Round,
    Team,
    Tournament,
    TournamentStaff,
)

pytestmark = pytest.mark.django_db


def _audited(action: str, actor) -> AuditEntry:
    entry = AuditEntry.objects.get(action=action)
    assert entry.actor == actor
    return entry


def _save(client, url: str, **changes):
    data = admin_form_data(client.get(url)) | changes
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    return response


def _delete(client, model_name: str, pk: int) -> None:
    url = reverse(f"admin:tournament_{model_name}_delete", args=[pk])
    assert client.post(url, {"post": "yes"}).status_code == 302


def test_a_player_added_changed_and_deleted_in_the_admin(admin_client, admin_user):
    data = {"first_name": "Zoé", "last_name": "Martin", "nickname": "", "country": "FR"}
    data |= {"club": "", "ema_number": ""}
    assert admin_client.post(reverse("admin:tournament_player_add"), data).status_code == 302
    player = Player.objects.get()
    assert _audited("player.create", admin_user).data["country"] == "FR"
    _save(admin_client, reverse("admin:tournament_player_change", args=[player.pk]), club="Lyon")
    assert _audited("player.update", admin_user).data == {"club": ["", "Lyon"]}
    _delete(admin_client, "player", player.pk)
    assert _audited("player.delete", admin_user).data == {"id": player.pk}


def test_a_registration_added_changed_and_deleted_in_the_admin(
    admin_client, admin_user, tournament
):
    player = make_player()
    add = reverse("admin:tournament_registration_add")
    assert admin_client.post(add, {"tournament": tournament.pk, "player": player.pk}).status_code
    registration = Registration.objects.get(player=player)
    assert _audited("registration.create", admin_user).tournament == tournament
    change = reverse("admin:tournament_registration_change", args=[registration.pk])
    _save(admin_client, change, is_substitute="on")
    assert _audited("registration.update", admin_user).data == {"is_substitute": [False, True]}
    _delete(admin_client, "registration", registration.pk)
    assert not Registration.objects.exists()
    assert _audited("registration.delete", admin_user).tournament == tournament


def test_delete_selected_deletes_each_registration_through_the_service(
    admin_client, admin_user, tournament
):
    registrations = [make_registration(tournament), make_registration(tournament)]
    admin_client.post(
        reverse("admin:tournament_registration_changelist"),
        {
            "action": "delete_selected",
            "_selected_action": [r.pk for r in registrations],
            "post": "yes",
        },
    )
    assert not Registration.objects.exists()
    assert AuditEntry.objects.filter(action="registration.delete", actor=admin_user).count() == 2


def test_teams_and_roles_on_the_tournament_s_page_are_audited(
    admin_client, admin_user, tournament, django_user_model
):
    Team.objects.create(tournament=tournament, name="Dragons")
    user = django_user_model.objects.create_user("remi")
    role = TournamentStaff.objects.create(tournament=tournament, user=user, role="referee")
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    data = admin_form_data(admin_client.get(url))
    data |= {"teams-0-name": "Red Dragons", "teams-TOTAL_FORMS": "2", "teams-1-name": "Tigers"}
    data |= {"staff-0-DELETE": "on"}
    assert admin_client.post(url, data).status_code == 302
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Red Dragons", "Tigers"]
    assert not TournamentStaff.objects.filter(pk=role.pk).exists()
    assert _audited("team.update", admin_user).data == {"name": ["Dragons", "Red Dragons"]}
    assert _audited("team.create", admin_user).data["name"] == "Tigers"
    assert _audited("staff.role_delete", admin_user).tournament == tournament
    # The settings did not change: no entry for them.
    assert not AuditEntry.objects.filter(action="tournament.update").exists()


def test_the_tournament_s_settings_are_audited(admin_client, admin_user, tournament):
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    _save(admin_client, url, venue="Salle des fêtes", rounds_count="3")
    assert _audited("tournament.update", admin_user).data == {
        "venue": ["", "Salle des fêtes"],
        "rounds_count": [8, 3],
    }
    assert tournament.rounds.count() == 3


def test_a_tournament_added_by_mistake_is_deleted_and_both_are_audited(admin_client, admin_user):
    add = reverse("admin:tournament_tournament_add")
    data = admin_form_data(admin_client.get(add)) | {"name": "Lyon Open", "slug": "lyon"}
    data |= {"start_date": "2026-06-06", "end_date": "2026-06-07", "rounds_count": "4"}
    assert admin_client.post(add, data).status_code == 302
    tournament = Tournament.objects.get(slug="lyon")
    assert tournament.rounds.count() == 4
    assert _audited("tournament.create", admin_user).object_repr == "Lyon Open"
    _delete(admin_client, "tournament", tournament.pk)
    assert not Tournament.objects.exists()
    assert _audited("tournament.delete", admin_user).tournament is None


def test_a_team_and_a_role_in_their_own_lists_are_audited(
    admin_client, admin_user, tournament, django_user_model
):
    add = reverse("admin:tournament_team_add")
    assert admin_client.post(add, {"tournament": tournament.pk, "name": "Dragons"}).status_code
    _delete(admin_client, "team", Team.objects.get().pk)
    user = django_user_model.objects.create_user("remi")
    add = reverse("admin:tournament_tournamentstaff_add")
    data = {"tournament": tournament.pk, "user": user.pk, "role": "organiser"}
    assert admin_client.post(add, data).status_code == 302
    role = TournamentStaff.objects.get(user=user)
    change = reverse("admin:tournament_tournamentstaff_change", args=[role.pk])
    assert admin_client.post(change, data | {"role": "referee"}).status_code == 302
    actions = list(AuditEntry.objects.order_by("id").values_list("action", flat=True))
    assert actions == [
        "team.create",
        "team.delete",
        "staff.role_create",
        "staff.admin_opened",
        "staff.role_update",
        "staff.admin_closed",
    ]


def test_a_round_s_page_records_its_start_and_its_status_apart(
    admin_client, admin_user, tournament
):
    round_ = make_rounds(tournament)[0]
    url = reverse("admin:tournament_round_change", args=[round_.pk])
    _save(admin_client, url, is_swiss="on", status=Round.Status.SEATED)
    assert _audited("round.update", admin_user).data == {"is_swiss": [False, True]}
    assert _audited("round.status", admin_user).data == {"from": "planned", "to": "seated"}
    _delete(admin_client, "round", round_.pk)
    assert _audited("round.delete", admin_user).tournament == tournament
