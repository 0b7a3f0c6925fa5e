from django.core.management.base import BaseCommand

from tournament.demo import create_demo_tournament


class Command(BaseCommand):
    help = "Load the demo tournament (idempotent: an existing demo is kept as it is)."

    def handle(self, *args, **options) -> None:
        tournament, created = create_demo_tournament()
        verb = "Created" if created else "Kept existing"
        self.stdout.write(f"{verb} demo tournament “{tournament.name}” ({tournament.slug}).")
