"""The seating's periodic job on the worker: recover the runs whose worker died.

A run's heartbeat stops when its worker is killed; this job, every RECOVER_EVERY, hands such
a run to a worker again or fails it with a message (`seating_runs_recover`). It queues its
own next run like the ground floor's jobs (`tournament.tasks`).
"""

from datetime import timedelta

from django_tasks import task

from seating.models import STALLED_AFTER_SECONDS
from seating.services.runs import seating_runs_recover
from tournament.tasks import queue_next

#: As often as a run can be seen stalled: an organiser waits at most about a minute more.
RECOVER_EVERY = timedelta(seconds=STALLED_AFTER_SECONDS)


@task()
def recover_stalled_runs() -> None:
    """Re-queue (or fail) every seating run whose worker stopped beating its heartbeat."""
    try:
        seating_runs_recover(acting_user=None)
    finally:
        queue_next(recover_stalled_runs, RECOVER_EVERY)
