from django.core.management.base import BaseCommand

from scoring.demo import add_demo_results
from seating.demo import seat_demo
from tournament.demo import create_demo_tournament


class Command(BaseCommand):
    help = (
        "Load the demo tournament: players, seating of every round and the first rounds' "
        "results. Idempotent: an existing demo is kept as it is."
    )

    def handle(self, *args, **options) -> None:
        tournament, created = create_demo_tournament()
        seat_demo(tournament)
        add_demo_results(tournament)
        verb = "Created" if created else "Kept existing"
        self.stdout.write(f"{verb} demo tournament “{tournament.name}” ({tournament.slug}).")
