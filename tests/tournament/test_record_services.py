"""The services behind the admin's saves: each write is validated and leaves its audit entry,
with what the row held or how it changed; nothing changed, nothing audited."""

import datetime
import importlib
import inspect
import pkgutil

import pytest
from django.core.exceptions import ValidationError

import scoring.services
import seating.services
import tournament.services
from scoring.results_held import ResultsHeldError
from scoring.services.round_status import round_status_change
from tests.conftest import (
    confirm_sheet,
    make_player,
    make_registrations,
    make_rounds,
    make_seats,
)
from tournament.models import AuditEntry, Player, Registration, Round, Team, Tournament
from tournament.services.players import player_create, player_delete, player_update
from tournament.services.registrations import (
    registration_create,
    registration_delete,
    registration_update,
)
from tournament.services.rounds import round_delete, round_update
from tournament.services.staff import staff_role_create, staff_role_delete, staff_role_update
from tournament.services.teams import team_create, team_delete, team_update
from tournament.services.tournaments import (
    tournament_create,
    tournament_delete,
    tournament_update,
)

pytestmark = pytest.mark.django_db


def _entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("id"))


def test_a_player_is_created_changed_and_deleted_with_an_entry_each(organiser):
    player = player_create(
        first_name="Zoé", last_name="Martin", country="FR", acting_user=organiser
    )
    (created,) = _entries("player.create")
    assert (created.actor, created.tournament, created.object_repr) == (
        organiser,
        None,
        "Zoé Martin",
    )
    assert created.data | {"id": None} == {
        "id": None,
        "first_name": "Zoé",
        "last_name": "Martin",
        "nickname": "",
        "public_name": "",
        "country": "FR",
        "club": "",
        "ema_number": "",
        "email": "",
    }
    player_update(player=player, data={"club": "Lyon", "country": "BE"}, acting_user=organiser)
    (changed,) = _entries("player.update")
    assert changed.data == {"club": ["", "Lyon"], "country": ["FR", "BE"]}
    player_delete(player=player, acting_user=organiser)
    assert _entries("player.delete")[0].data == {"id": created.data["id"]}
    assert not Player.objects.exists()


def test_a_save_that_changes_nothing_writes_nothing(organiser):
    player = make_player(first_name="Anna", club="Paris")
    player.club = "Lyon"  # as an admin form leaves it before the service is called
    player_update(player=player, data={"first_name": "Anna"}, acting_user=organiser)
    assert not AuditEntry.objects.exists()
    assert Player.objects.get(pk=player.pk).club == "Paris"


def test_an_invalid_change_is_refused_and_not_audited(organiser):
    player = make_player()
    with pytest.raises(ValidationError):
        player_update(player=player, data={"ema_number": "123"}, acting_user=organiser)
    assert not AuditEntry.objects.exists()


def test_a_registration_is_created_changed_and_deleted_in_its_tournament(tournament, organiser):
    team = Team.objects.create(tournament=tournament, name="Dragons")
    registration = registration_create(
        tournament=tournament, player=make_player(), acting_user=organiser
    )
    registration_update(
        registration=registration, data={"team": team, "is_substitute": True}, acting_user=organiser
    )
    registration_delete(registration=registration, acting_user=organiser)
    actions = ["registration.create", "registration.update", "registration.delete"]
    entries = list(AuditEntry.objects.order_by("id"))
    assert [entry.action for entry in entries] == actions
    assert {entry.tournament for entry in entries} == {tournament}
    assert entries[1].data == {"team": [None, "Dragons"], "is_substitute": [False, True]}


def test_a_registration_that_holds_results_is_not_deleted(tournament, organiser):
    registrations = make_registrations(tournament, 4)
    make_seats(make_rounds(tournament)[0], registrations)
    with pytest.raises(ResultsHeldError):
        registration_delete(registration=registrations[0], acting_user=organiser)
    assert Registration.objects.filter(pk=registrations[0].pk).exists()
    assert not AuditEntry.objects.exists()


def test_a_team_and_a_role_are_written_with_an_entry_each(tournament, organiser, django_user_model):
    team = team_create(tournament=tournament, name="Dragons", acting_user=organiser)
    team_update(team=team, data={"name": "Red Dragons"}, acting_user=organiser)
    team_delete(team=team, acting_user=organiser)
    user = django_user_model.objects.create_user("remi")
    staff = staff_role_create(
        tournament=tournament, user=user, role="referee", acting_user=organiser
    )
    staff_role_update(staff=staff, data={"role": "head_referee"}, acting_user=organiser)
    staff_role_delete(staff=staff, acting_user=organiser)
    entries = list(AuditEntry.objects.order_by("id"))
    assert [entry.action for entry in entries] == [
        "team.create",
        "team.update",
        "team.delete",
        "staff.role_create",
        "staff.role_update",
        "staff.role_delete",
    ]
    assert entries[1].data == {"name": ["Dragons", "Red Dragons"]}
    assert entries[3].data["user"] == "remi"
    assert entries[4].data == {"role": ["referee", "head_referee"]}
    assert not Team.objects.exists()


def test_a_tournament_is_created_with_its_rounds_and_its_deletion_is_kept(organiser):
    created = tournament_create(
        name="Lyon Open",
        slug="lyon",
        start_date=datetime.date(2026, 6, 6),
        end_date=datetime.date(2026, 6, 7),
        rounds_count=4,
        acting_user=organiser,
    )
    assert list(created.rounds.values_list("number", flat=True)) == [1, 2, 3, 4]
    entry = AuditEntry.objects.get(action="tournament.create")
    assert (entry.object_repr, entry.data["start_date"], entry.data["rounds_count"]) == (
        "Lyon Open",
        "2026-06-06",
        4,
    )
    tournament_update(tournament=created, data={"rounds_count": 2}, acting_user=organiser)
    assert created.rounds.count() == 2
    assert AuditEntry.objects.get(action="tournament.update").data == {"rounds_count": [4, 2]}
    tournament_delete(tournament=created, acting_user=organiser)
    assert not Tournament.objects.exists()
    # The tournament's own entries went with it; its creation and deletion stay.
    kept = AuditEntry.objects.order_by("id").values_list("action", "tournament", "object_repr")
    assert list(kept) == [
        ("tournament.create", None, "Lyon Open"),
        ("tournament.delete", None, "Lyon Open"),
    ]


def test_a_round_s_start_and_flag_are_audited_apart_from_its_status(tournament, organiser):
    round_ = make_rounds(tournament)[0]
    start = datetime.datetime(2026, 6, 6, 14, 0, tzinfo=datetime.UTC)
    round_update(
        round_=round_, data={"scheduled_start": start, "is_swiss": True}, acting_user=organiser
    )
    assert AuditEntry.objects.get(action="round.update").data == {
        "scheduled_start": [None, "2026-06-06T14:00:00+00:00"],
        "is_swiss": [False, True],
    }
    round_status_change(round_=round_, status=Round.Status.SEATED, acting_user=organiser)
    round_status_change(round_=round_, status=Round.Status.SEATED, acting_user=organiser)
    (status,) = _entries("round.status")
    assert status.data == {"from": "planned", "to": "seated"}


def test_a_round_status_the_admin_form_refuses_is_refused_by_the_service(tournament, organiser):
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    played, unseated = make_rounds(tournament)[:2]
    make_seats(played, make_registrations(tournament, 4))
    confirm_sheet(played, 1, organiser)
    played.refresh_from_db()
    with pytest.raises(ValidationError, match="already has score sheets"):
        round_status_change(round_=played, status=Round.Status.SEATED, acting_user=organiser)
    with pytest.raises(ValidationError, match="no results to lock"):
        round_status_change(round_=unseated, status=Round.Status.LOCKED, acting_user=organiser)
    assert not _entries("round.status")
    round_status_change(round_=played, status=Round.Status.LOCKED, acting_user=organiser)
    played.refresh_from_db()
    assert (played.status, played.lock_changed_by) == (Round.Status.LOCKED, organiser)


def test_a_deleted_round_is_audited(tournament, organiser):
    round_ = make_rounds(tournament)[-1]
    round_delete(round_=round_, acting_user=organiser)
    assert AuditEntry.objects.get(action="round.delete").tournament == tournament
    assert not Round.objects.filter(pk=round_.pk).exists()


def _services():
    for package in (tournament.services, scoring.services, seating.services):
        for module_info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{module_info.name}")
            for name, function in inspect.getmembers(module, inspect.isfunction):
                parameters = inspect.signature(function).parameters
                public = function.__module__ == module.__name__ and not name.startswith("_")
                if public and "acting_user" in parameters:
                    yield pytest.param(parameters["acting_user"], id=f"{module.__name__}.{name}")


@pytest.mark.parametrize("acting_user", list(_services()))
def test_every_service_asks_who_acts(acting_user):
    # A default of None let a caller forget it, and the entry named nobody.
    assert acting_user.kind is inspect.Parameter.KEYWORD_ONLY
    assert acting_user.default is inspect.Parameter.empty
