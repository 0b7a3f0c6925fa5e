"""The worker's periodic jobs, and how each one comes back.

Each job is a task that, once done, queues its own next run a fixed time later (`queue_next`):
the worker (`manage.py db_worker`) runs them between seating runs, with no cron and no
scheduler process beside it. `manage.py schedule_jobs` queues the first run of every job of
the PERIODIC_JOBS setting; it and `queue_next` queue nothing for a job already waiting, so
running it at every start never doubles a job.

The tasks are Django's (the django-tasks backport until Django 6, where `django.tasks` is the
same API); a job waits in the database, so it survives a worker's restart.
"""

from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks import TaskResultStatus, task
from django_tasks.base import Task
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from tournament.services.self_registration import requests_forget_unconfirmed

#: Expired sessions are purged once a day (Django's `clearsessions`), and so are the
#: registration requests never confirmed.
SESSIONS_EVERY = timedelta(days=1)


def queue_next(job: Task, after: timedelta) -> bool:
    """Queue `job` to run `after` from now, unless a run of it already waits; False when
    nothing was queued. Only the database backend keeps a task for later: with any other
    (the immediate backend of the tests) there is no worker to come back to."""
    backend = job.get_backend()
    if not isinstance(backend, DatabaseBackend):
        return False
    waiting = DBTaskResult.objects.filter(
        backend_name=backend.alias, task_path=job.module_path, status=TaskResultStatus.READY
    )
    if waiting.exists():
        return False
    job.using(run_after=timezone.now() + after).enqueue()
    return True


def schedule_periodic_jobs() -> list[str]:
    """Queue the first run of every job of the PERIODIC_JOBS setting not waiting yet, to run
    at once; the names of those queued."""
    queued = []
    for path in settings.PERIODIC_JOBS:
        if queue_next(import_string(path), timedelta(0)):
            queued.append(path)
    return queued


@task()
def clear_expired_sessions() -> None:
    """Purge the sessions that have ended (only officials who log in have one)."""
    try:
        call_command("clearsessions")
    finally:
        queue_next(clear_expired_sessions, SESSIONS_EVERY)


@task()
def back_up_tournaments() -> None:
    """Archive every tournament to BACKUP_DIRECTORY (`manage.py backup`), every
    BACKUP_EVERY_MINUTES, so that an event has a recent copy without anyone thinking of it."""
    try:
        call_command("backup", directory=str(settings.BACKUP_DIRECTORY))
    finally:
        queue_next(back_up_tournaments, timedelta(minutes=settings.BACKUP_EVERY_MINUTES))


@task()
def forget_unconfirmed_requests() -> None:
    """Delete the registration requests whose confirmation link expired unopened
    (`requests_forget_unconfirmed`), once a day."""
    try:
        requests_forget_unconfirmed(acting_user=None)
    finally:
        queue_next(forget_unconfirmed_requests, SESSIONS_EVERY)
