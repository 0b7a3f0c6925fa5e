"""The worker's periodic jobs: expired sessions purged, tournaments backed up, stalled seating
runs recovered, players told of a round about to start, each job queuing its own next run
(no cron)."""

import datetime

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tests.conftest import make_tournament, run_worker
from tournament.tasks import clear_expired_sessions, queue_next

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("database_tasks")]

JOBS = [
    "seating.tasks.recover_stalled_runs",
    "tournament.tasks.clear_expired_sessions",
    "tournament.tasks.forget_unconfirmed_requests",
    "tournament.tasks.back_up_tournaments",
    "tournament.alerts.tasks.send_round_start_alerts",
]


@pytest.fixture(autouse=True)
def _backups_in_tmp(settings, tmp_path):
    settings.BACKUP_DIRECTORY = tmp_path / "backups"


def waiting() -> list[str]:
    return sorted(
        DBTaskResult.objects.filter(status=TaskResultStatus.READY).values_list(
            "task_path", flat=True
        )
    )


def test_schedule_jobs_queues_each_job_once():
    call_command("schedule_jobs", verbosity=0)
    call_command("schedule_jobs", verbosity=0)  # at every start: nothing doubled
    assert waiting() == sorted(JOBS)


def test_the_worker_runs_the_jobs_and_each_comes_back(settings):
    tournament = make_tournament()
    expired = SessionStore()
    expired.set_expiry(-60)
    expired.create()
    live = SessionStore()
    live.create()
    call_command("schedule_jobs", verbosity=0)

    run_worker()

    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]
    (backup,) = settings.BACKUP_DIRECTORY.glob("*.json")
    assert backup.name.endswith(f"-{tournament.slug}.json")
    # Each job queued its next run for later: the worker's pass ran each once.
    assert waiting() == sorted(JOBS)
    later = DBTaskResult.objects.get(
        task_path="tournament.tasks.back_up_tournaments", status=TaskResultStatus.READY
    )
    assert later.run_after > timezone.now() + datetime.timedelta(minutes=14)


def test_a_job_that_fails_still_comes_back(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr("tournament.tasks.call_command", broken)
    with pytest.raises(RuntimeError):
        clear_expired_sessions.call()
    assert waiting() == ["tournament.tasks.clear_expired_sessions"]


def test_without_the_database_backend_nothing_is_queued_for_later(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    assert not queue_next(clear_expired_sessions, datetime.timedelta(hours=1))
    assert not DBTaskResult.objects.exists()
