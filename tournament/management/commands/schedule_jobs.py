from django.core.management.base import BaseCommand

from tournament.tasks import schedule_periodic_jobs


class Command(BaseCommand):
    help = (
        "Queue the first run of each periodic job (expired sessions, backups, recovery of "
        "seating runs whose worker died) for the worker, `manage.py db_worker`. Each job then "
        "queues its own next run. Safe to run at every start: a job already queued is skipped."
    )

    def handle(self, *args, **options) -> None:
        for path in schedule_periodic_jobs():
            self.stdout.write(f"Queued {path}")
