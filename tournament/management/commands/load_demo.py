from django.core.management.base import BaseCommand
from django.urls import reverse

from scoring.demo import add_demo_results, demo_official_logins
from seating.demo import seat_demo
from tournament.demo import create_demo_tournament


class Command(BaseCommand):
    help = (
        "Load the demo tournament: players, seating of every round and the first rounds' "
        "results, and print its referees' logins. Idempotent: an existing demo is kept as it is."
    )

    def handle(self, *args, **options) -> None:
        tournament, created = create_demo_tournament()
        seat_demo(tournament)
        add_demo_results(tournament)
        verb = "Created" if created else "Kept existing"
        self.stdout.write(f"{verb} demo tournament “{tournament.name}” ({tournament.slug}).")
        sheets = reverse("scoring:rounds", args=[tournament.slug])
        for label, username, password in demo_official_logins():
            shown = password or "(the one you set)"
            self.stdout.write(
                self.style.SUCCESS(f"{label} login: {username} / {shown}  →  {sheets}")
            )
        self.stdout.write("Before a real event, remove the demo: python manage.py remove_demo")
