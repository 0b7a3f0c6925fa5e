"""Seating runs on the worker: queued in the database, computed by the worker's loop
(`manage.py db_worker`), and recovered when the worker computing one is killed: handed to a
worker again, or failed with a message for the organiser, never "running" for ever."""

import datetime
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from seating.models import SeatingRun
from seating.services import fixed_table_set, seating_run_start, seating_run_swiss
from seating.services.runs import run_error_message
from seating.tasks import recover_stalled_runs
from tests.conftest import make_registrations, make_rounds, make_tournament, run_worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("database_tasks")]


@pytest.fixture(autouse=True)
def _quick_runs(settings):
    settings.SEATING_TIME_LIMIT = 1


def seating_task() -> DBTaskResult:
    return DBTaskResult.objects.get(task_path="seating.services.runs.compute_seating_run")


@pytest.fixture
def twenty():
    tournament = make_tournament(rounds_count=2)
    registrations = make_registrations(tournament, 20)
    make_rounds(tournament)
    return tournament, registrations


def start(tournament) -> SeatingRun:
    return seating_run_start(
        tournament=tournament, rounds=list(tournament.rounds.all()), seed=1, acting_user=None
    )


def test_a_run_waits_in_the_queue_until_the_worker_computes_it(twenty):
    tournament, _registrations = twenty
    run = start(tournament)
    task = seating_task()
    assert task.status == TaskResultStatus.READY
    assert task.args_kwargs == {"args": [run.pk], "kwargs": {}}
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.RUNNING  # no web server computes it
    assert run.progress == 0

    run_worker()

    run.refresh_from_db()
    assert run.status == SeatingRun.Status.DONE
    assert run.progress == 1.0
    assert len(run.plan) == 2
    assert run.heartbeat_at is not None  # it beat while computing
    assert seating_task().status == TaskResultStatus.SUCCESSFUL


def test_a_swiss_run_is_computed_by_the_worker(twenty):
    tournament, registrations = twenty
    run = seating_run_swiss(
        tournament=tournament,
        round=tournament.rounds.get(number=2),
        standings=[r.pk for r in reversed(registrations)],
        seed=1,
        acting_user=None,
    )
    run_worker()
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.DONE
    assert run.round_numbers == [2]
    assert sorted(p for table in run.plan[0]["tables"] for p in table) == sorted(
        r.pk for r in registrations
    )


def kill_the_worker_computing(run: SeatingRun) -> None:
    """What a worker killed mid-computation (SIGKILL, out of memory, its machine restarted)
    leaves behind: its task claimed and "running" for ever, the run's last heartbeat a minute
    old."""
    task = seating_task()
    task.claim("killed-worker")
    SeatingRun.objects.filter(pk=run.pk).update(
        progress=0.4, heartbeat_at=timezone.now() - datetime.timedelta(minutes=1)
    )


def test_a_run_whose_worker_was_killed_is_computed_by_another_worker(twenty):
    tournament, _registrations = twenty
    run = start(tournament)
    kill_the_worker_computing(run)
    run_worker()  # the killed worker's task is not ready any more: nothing to do
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.RUNNING
    assert run.is_stalled

    recover_stalled_runs.call()
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.RUNNING
    assert run.recoveries == 1
    assert not run.is_stalled  # queued again: it has its time limit to start
    assert tournament.audit_entries.filter(action="seating.requeue").exists()

    run_worker()
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.DONE
    assert len(run.plan) == 2


def test_a_run_whose_worker_is_killed_again_fails_with_a_message(client, organiser, twenty):
    tournament, _registrations = twenty
    run = start(tournament)
    kill_the_worker_computing(run)
    recover_stalled_runs.call()
    # The second worker dies too: a run that kills every worker is not retried for ever.
    for task in DBTaskResult.objects.filter(status=TaskResultStatus.READY):
        task.claim("killed-again")
    SeatingRun.objects.filter(pk=run.pk).update(
        heartbeat_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    recover_stalled_runs.call()
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.FAILED
    assert run.finished_at is not None
    message = run_error_message(run)
    assert message.startswith("The generator stopped before it finished, twice")
    assert tournament.audit_entries.filter(action="seating.interrupted").exists()

    client.force_login(organiser)
    page = client.get(reverse("seating:run", args=[tournament.slug, run.pk])).text
    assert "stopped before it finished, twice" in page
    assert "<progress" not in page


def test_a_run_still_beating_is_left_to_its_worker(twenty):
    tournament, _registrations = twenty
    run = start(tournament)
    seating_task().claim("busy-worker")
    SeatingRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now())
    recover_stalled_runs.call()
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.RUNNING
    assert run.recoveries == 0
    assert not DBTaskResult.objects.filter(
        task_path="seating.services.runs.compute_seating_run", status=TaskResultStatus.READY
    ).exists()


def database_url() -> str:
    """The test database, for a worker started in another process."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def test_a_run_whose_worker_process_is_killed_is_recovered():
    # A real `manage.py db_worker`, killed with SIGKILL while it computes: no handler runs,
    # nothing is written on the way out. Teams, a fixed table and a long time limit keep the
    # generator searching (no ready-made design) until the kill.
    tournament = make_tournament(rounds_count=4)
    registrations = make_registrations(tournament, 20, teams=5)
    make_rounds(tournament)
    fixed_table_set(registration=registrations[0], table_number=1, acting_user=None)
    run = seating_run_start(
        tournament=tournament,
        rounds=list(tournament.rounds.all()),
        seed=1,
        time_limit=120,
        acting_user=None,
    )
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "DATABASE_URL": database_url(), "TASKS_BACKEND": ""},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not SeatingRun.objects.filter(pk=run.pk, progress__gt=0).exists():
            assert worker.poll() is None, "the worker stopped by itself"
            assert time.monotonic() < deadline, "the worker never started computing the run"
            time.sleep(0.1)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.RUNNING  # what the killed worker left
    assert seating_task().status == TaskResultStatus.RUNNING
    # Its heartbeat is silent from now on; half a minute later the run is stalled.
    SeatingRun.objects.filter(pk=run.pk).update(
        heartbeat_at=run.heartbeat_at - datetime.timedelta(minutes=1), time_limit=1
    )
    recover_stalled_runs.call()
    run_worker()
    run.refresh_from_db()
    assert run.status == SeatingRun.Status.DONE
    assert run.recoveries == 1
    assert len(run.plan) == 4
