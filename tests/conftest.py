"""Shared fixtures and small `make_*` factories for the Django tests."""

import datetime
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.forms import MultipleChoiceField, MultiWidget
from django.utils import translation
from django_tasks_db.management.commands.db_worker import Worker
from hypothesis import HealthCheck, settings

from tournament.models import Player, Registration, Round, Team, Tournament, TournamentStaff

_counter = itertools.count(1)


ROOT = Path(__file__).resolve().parents[1]


def django_process_output(code: str, **environment: str) -> str:
    """What ``code`` prints in a new Python process, run after ``django.setup()`` with the
    project's settings and ``environment``: the settings read the environment once, at start."""
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings", **environment}
    return subprocess.run(
        [sys.executable, "-c", f"import django\ndjango.setup()\n{code}"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def make_tournament(**fields) -> Tournament:
    number = next(_counter)
    defaults = {
        "name": f"Test Open {number}",
        "slug": f"test-open-{number}",
        "start_date": datetime.date(2026, 6, 6),
        "end_date": datetime.date(2026, 6, 7),
        "rounds_count": 8,
    }
    defaults.update(fields)
    return Tournament.objects.create(**defaults)


def make_player(**fields) -> Player:
    number = next(_counter)
    defaults = {"first_name": f"Player{number}", "last_name": f"Test{number}", "country": "FR"}
    defaults.update(fields)
    return Player.objects.create(**defaults)


def make_registration(tournament: Tournament, **fields) -> Registration:
    player = fields.pop("player", None) or make_player()
    return Registration.objects.create(tournament=tournament, player=player, **fields)


def make_registrations(tournament: Tournament, count: int, teams: int = 0) -> list[Registration]:
    team_objects = [
        Team.objects.create(tournament=tournament, name=f"Team {index + 1}")
        for index in range(teams)
    ]
    return [
        make_registration(tournament, team=team_objects[index % teams] if teams else None)
        for index in range(count)
    ]


def make_rounds(tournament: Tournament, count: int | None = None) -> list[Round]:
    return [
        Round.objects.create(tournament=tournament, number=number)
        for number in range(1, (count or tournament.rounds_count) + 1)
    ]


def make_staff(tournament: Tournament, user, role: str) -> TournamentStaff:
    return TournamentStaff.objects.create(tournament=tournament, user=user, role=role)


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the default language: a request in French (the locale
    middleware) must not leave later tests of the same worker speaking French."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _tasks_run_at_once(settings):
    """A task runs as it is queued, in the test's process (a seating run once its transaction
    commits, as its page expects), not on a worker no test starts. The worker's own tests
    take `database_tasks` and run the worker themselves (`run_worker`)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def database_tasks(settings):
    """The production backend: tasks wait in the database until a worker (`run_worker`)
    takes them."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture(autouse=True)
def _login_throttling_off(settings):
    """`client.login()` passes no request, which django-axes needs; the throttling itself
    is tested on its own with the setting back on."""
    settings.AXES_ENABLED = False


@pytest.fixture
def tournament(db) -> Tournament:
    return make_tournament()


@pytest.fixture
def organiser(db, django_user_model):
    return django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-boss-123")


def make_seats(round_: Round, registrations: list[Registration]) -> list:
    """Seat the registrations four to a table in the given order (E, S, W, N)."""
    from tournament.models import Seat

    return [
        Seat.objects.create(
            round=round_,
            table_number=index // 4 + 1,
            wind="ESWN"[index % 4],
            registration=registration,
        )
        for index, registration in enumerate(registrations)
    ]


def seat_again(round_: Round, seed: int) -> None:
    """Generate and apply the round's seating through the seating services, as the organiser
    does after a withdrawal."""
    from seating.services import seating_run_apply, seating_run_start

    run = seating_run_start(
        tournament=round_.tournament,
        rounds=[round_],
        seed=seed,
        time_limit=1,
        background=False,
        acting_user=None,
    )
    seating_run_apply(run=run, acting_user=None)


def confirm_sheet(round_: Round, table: int, user, points=(42300, 31000, 27700, 19000)):
    """Enter a final-score sheet for one table through the scoring service, as `user`.

    Under the single-entry policy it counts at once. Points are given in wind order E, S,
    W, N (WRC 2015 §5.9.2 default example: +27.3 / +6.0 / −7.3 / −26.0).
    """
    import uuid

    from scoring.entries import SeatEntry, SheetEntry
    from scoring.models import ScoreSheet
    from scoring.services.sheets import sheet_enter
    from tournament.models import WIND_ORDER, Seat

    seats = sorted(
        Seat.objects.filter(round=round_, table_number=table), key=lambda s: WIND_ORDER[s.wind]
    )
    entry = SheetEntry(
        kind="final",
        seats=tuple(
            SeatEntry(registration_id=seat.registration_id, points=value)
            for seat, value in zip(seats, points, strict=True)
        ),
    )
    sheet = ScoreSheet.objects.filter(round=round_, table_number=table).first()
    return sheet_enter(
        round_=round_,
        table_number=table,
        entry=entry,
        token=uuid.uuid4(),
        revision=sheet.revision if sheet else 0,
        acting_user=user,
    )


def admin_form_data(page) -> dict:
    """What the admin page `page` (a response) would post if saved untouched: the main form,
    every inline form and their management forms."""
    data = {}
    forms = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        data.update(
            {management.add_prefix(name): management[name].value() for name in management.fields}
        )
        forms.extend(formset.forms)
    for form in forms:
        for name, field in form.fields.items():
            value = form[name].value()
            if value is None or field.disabled:
                continue
            if isinstance(field.widget, MultiWidget):  # the uma: one input per place
                parts = field.widget.decompress(value) if not isinstance(value, list) else value
                for index, part in enumerate(parts):
                    data[f"{form.add_prefix(name)}_{index}"] = part
            elif isinstance(value, list | tuple) and not isinstance(field, MultipleChoiceField):
                data[form.add_prefix(name)] = field.prepare_value(value)  # typed as text
            else:
                data[form.add_prefix(name)] = value
    return data


def derandomised(examples: int) -> settings:
    """Hypothesis settings for the suites that drive the site: the same examples on every
    run (CI fails or passes for a reason), no deadline, fixtures shared by the examples."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def run_worker() -> None:
    """One pass of `manage.py db_worker --batch`: every task ready, then stop (the command's own
    loop, without the signal handlers it would install in the test's process)."""
    Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
    ).run()
