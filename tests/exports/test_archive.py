"""The complete archive: export → import into an empty database → export gives the same JSON."""

import json
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError

from scoring.models import Penalty, ScoreSheet, SheetVersion, Stage
from scoring.selectors.standings import tournament_standings
from seating.models import SeatingRun
from tests.conftest import make_player, make_registration, make_staff
from tournament.demo import DEMO_SLUG
from tournament.exports.archive import (
    ARCHIVED_MODELS,
    DERIVED_MODELS,
    ArchiveError,
    archive_import,
    archive_json,
)
from tournament.models import AuditEntry, Player, Seat, Tournament, TournamentStaff


def demo_with_everything() -> Tournament:
    """The demo (seating, confirmed sheets, a substitute) plus staff and two penalties."""
    call_command("load_demo", verbosity=0)
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    boss = get_user_model().objects.create_user("boss", email="boss@example.org")
    make_staff(tournament, boss, TournamentStaff.Role.ORGANISER)
    registrations = list(tournament.registrations.order_by("pk")[:2])
    Penalty.objects.create(
        tournament=tournament,
        registration=registrations[0],
        round=tournament.rounds.get(number=1),
        kind=Penalty.Kind.DISCRETIONARY,
        points=Decimal("-5"),
        reason="Phone rang",
        given_by=boss,
    )
    Penalty.objects.create(
        tournament=tournament,
        registration=registrations[1],
        kind=Penalty.Kind.OTHER,
        points=Decimal("-2.5"),
        reason="Slow play",
        given_by=boss,
        cancelled_at=tournament.created_at,
        cancelled_by=boss,
        cancel_reason="Given by mistake",
    )
    return tournament


def counts() -> dict[str, int]:
    return {
        "players": Player.objects.count(),
        "seats": Seat.objects.count(),
        "sheets": ScoreSheet.objects.count(),
        "versions": SheetVersion.objects.count(),
        "penalties": Penalty.objects.count(),
        "staff": TournamentStaff.objects.count(),
        "audit": AuditEntry.objects.count(),
    }


@pytest.mark.django_db(transaction=True)
def test_archive_round_trip_through_an_empty_database():
    cache.clear()  # the database cache table outlives the flushes between tests
    tournament = demo_with_everything()
    before = counts()
    standings = tournament_standings(tournament)
    first = archive_json(tournament)
    call_command("flush", interactive=False, verbosity=0)
    assert Tournament.objects.count() == 0
    imported = archive_import(json.loads(first))
    assert archive_json(imported) == first
    assert counts() == before
    again = tournament_standings(imported)
    assert [(e.player.full_name, e.place, e.total) for e in again.entries] == [
        (e.player.full_name, e.place, e.total) for e in standings.entries
    ]
    assert not get_user_model().objects.get(username="boss").has_usable_password()
    # Rows were written with their own keys: new rows still get fresh ones (PostgreSQL).
    assert make_player().pk > max(
        Player.objects.exclude(first_name__startswith="Player").values_list("pk", flat=True)
    )


@pytest.mark.django_db(transaction=True)
def test_after_a_restore_into_a_fresh_database_the_organisers_can_log_in_again(client, monkeypatch):
    # The archive carries no password: the accounts came back unable to log in, organisers
    # without the Staff status the admin needs, and ensure_organiser said "(the one you set)"
    # of an organiser login that had no password at all.
    cache.clear()
    tournament = demo_with_everything()
    monkeypatch.setenv("ORGANISER_PASSWORD", "before-the-crash")
    call_command("ensure_organiser", verbosity=0)  # the demo's organiser is archived too
    data = json.loads(archive_json(tournament))
    call_command("flush", interactive=False, verbosity=0)
    archive_import(data)
    accounts = get_user_model().objects.in_bulk(field_name="username")
    assert not any(account.has_usable_password() for account in accounts.values())
    assert accounts["boss"].is_staff  # organiser of the tournament: back in the admin
    assert not accounts["demo-scorer"].is_staff  # referees work on the score-sheet pages
    monkeypatch.setenv("ORGANISER_PASSWORD", "after-the-restore")
    call_command("ensure_organiser", verbosity=0)
    assert client.login(username="organiser", password="after-the-restore")
    assert client.get("/admin/auth/user/").status_code == 200  # sets the officials' passwords


@pytest.mark.django_db(transaction=True)
def test_archive_imports_as_a_copy_next_to_the_original():
    cache.clear()
    tournament = demo_with_everything()
    players = Player.objects.count()
    data = json.loads(archive_json(tournament))
    copy = archive_import(data, slug="demo-copy")
    assert copy.pk != tournament.pk
    assert copy.registrations.count() == tournament.registrations.count()
    # Players are people shared between tournaments: the ones with an EMA number are reused.
    assert Player.objects.count() == players + Player.objects.filter(ema_number="").count() // 2
    assert SheetVersion.objects.filter(sheet__round__tournament=copy).count() == (
        SheetVersion.objects.filter(sheet__round__tournament=tournament).count()
    )
    # The copy's sheets name the copy's registrations (ids inside the JSON are translated).
    assert [(e.player.full_name, e.place, e.total) for e in tournament_standings(copy).entries] == [
        (e.player.full_name, e.place, e.total) for e in tournament_standings(tournament).entries
    ]
    copied_ids = set(copy.registrations.values_list("pk", flat=True))
    for version in SheetVersion.objects.filter(sheet__round__tournament=copy):
        assert {seat["registration"] for seat in version.data["seats"]} <= copied_ids
    # So do its seating runs' input and plan, which name players in lists and as keys: the
    # run's page shows the copy's players at its tables.
    runs = list(SeatingRun.objects.filter(tournament=copy))
    assert runs
    for run in runs:
        planned = {p for item in run.plan for table in item["tables"] for p in table}
        played = {p for item in run.snapshot["history"] for table in item["tables"] for p in table}
        assert set(run.snapshot["players"]) | planned | played <= copied_ids
        assert {int(key) for key in run.snapshot["teams"]} <= copied_ids


@pytest.mark.django_db
def test_archive_keeps_every_kind_of_record(tournament):
    data = json.loads(archive_json(tournament))
    assert data["format"] == "riichi-tournament-archive"
    assert [item["model"] for item in data["objects"]] == ["tournament.tournament"]


def _closure(start: set, step) -> set:
    found, pending = set(), list(start)
    while pending:
        model = pending.pop()
        if model not in found:
            found.add(model)
            pending += step(model)
    return found


def test_every_model_holding_a_tournaments_records_is_archived():
    # The export walks the foreign keys as below: the rows pointing to the tournament's, then
    # the rows those point to (players). The import writes the models of its list only: a
    # model added later that holds such rows must join it, or its archives would be refused.
    user_model = get_user_model()
    owned = _closure(
        {Tournament},
        lambda model: [
            relation.related_model
            for relation in model._meta.related_objects
            if relation.field.concrete and not relation.many_to_many
        ],
    )
    archived = _closure(
        owned,
        lambda model: [
            field.related_model
            for field in model._meta.concrete_fields
            if field.is_relation and field.related_model is not user_model
        ],
    )
    # Derived rows (the stored seat results) are not archived: the import computes them again
    # from the archived sheets.
    assert {model._meta.label_lower for model in archived} == ARCHIVED_MODELS | DERIVED_MODELS
    assert ARCHIVED_MODELS.isdisjoint(DERIVED_MODELS)


@pytest.mark.django_db
def test_importing_over_an_existing_slug_is_refused(tournament):
    data = json.loads(archive_json(tournament))
    with pytest.raises(ArchiveError, match="exists already"):
        archive_import(data)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"format": "something else"}, "not a tournament archive"),
        ({"format": "riichi-tournament-archive", "version": 99}, "version 99"),
    ],
)
def test_foreign_files_are_refused_with_a_clear_message(data, message):
    with pytest.raises(ArchiveError, match=message):
        archive_import(data)


@pytest.mark.django_db
def test_a_damaged_archive_imports_nothing(tournament):
    data = json.loads(archive_json(tournament))
    data["objects"][0]["fields"]["start_date"] = "not a date"
    tournament.delete()
    with pytest.raises(ArchiveError):
        archive_import(data)
    assert Tournament.objects.count() == 0


@pytest.mark.django_db
def test_export_import_and_backup_commands(tmp_path, tournament):
    target = tmp_path / "archive.json"
    call_command("export_archive", tournament.slug, output=str(target), verbosity=0)
    call_command("import_archive", str(target), slug="copy", verbosity=0)
    assert Tournament.objects.filter(slug="copy").exists()
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_archive", str(target), slug="copy")
    call_command("backup", directory=str(tmp_path / "backups"), verbosity=0)
    files = sorted(path.name for path in (tmp_path / "backups").iterdir())
    assert len(files) == 2
    assert files[0].endswith("-copy.json")
    assert not any(name.endswith(".partial") for name in files)
    # Players' names and EMA numbers: readable by the backup's own account only.
    assert (tmp_path / "backups").stat().st_mode & 0o777 == 0o700
    assert {path.stat().st_mode & 0o777 for path in (tmp_path / "backups").iterdir()} == {0o600}


@pytest.mark.django_db
def test_a_backup_of_a_slug_that_does_not_exist_fails(tmp_path, tournament, capsys):
    # A typo in a cron line backed nothing up every 15 minutes, with exit status 0.
    command = ["manage.py", "backup", "--slug", "paris-opne", "--directory", str(tmp_path)]
    with pytest.raises(SystemExit) as exit_status:
        ManagementUtility(command).execute()
    assert exit_status.value.code == 1
    assert "No tournament with the slug “paris-opne”." in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.django_db
def test_times_keep_their_microseconds(tournament):
    entry = AuditEntry.objects.create(tournament=tournament, action="test")
    moment = entry.created_at.replace(microsecond=123)
    AuditEntry.objects.filter(pk=entry.pk).update(created_at=moment)
    data = json.loads(archive_json(tournament))
    tournament.delete()
    archive_import(data)
    assert AuditEntry.objects.get(action="test").created_at == moment


@pytest.mark.django_db
def test_a_stage_copied_with_its_tournament_names_the_copys_players(tournament):
    registrations = [make_registration(tournament) for _ in range(2)]
    Stage.objects.create(
        tournament=tournament,
        name="Final",
        first_round=2,
        chosen=[registration.pk for registration in registrations],
    )
    copy = archive_import(json.loads(archive_json(tournament)), slug="copy")
    (stage,) = Stage.objects.filter(tournament=copy)
    assert stage.chosen  # the two players, under their new ids
    assert sorted(stage.chosen) == sorted(copy.registrations.values_list("pk", flat=True))
