"""Score every confirmed sheet again and compare with the stored seat results."""

from django.core.management.base import BaseCommand, CommandError

from scoring.seat_results import differences
from scoring.services.seat_results import seat_results_rebuild
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Score every confirmed sheet again with the rules engine and compare with the seat "
        "results the standings rank; exit 1 naming every difference. --repair stores them "
        "again."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--slug", help="Only this tournament (default: every tournament).")
        parser.add_argument(
            "--repair", action="store_true", help="Store the results again where they differ."
        )

    def handle(self, *args, slug: str | None = None, repair: bool = False, **options) -> None:
        tournaments = Tournament.objects.order_by("slug")
        if slug:
            tournaments = tournaments.filter(slug=slug)
            if not tournaments.exists():
                raise CommandError(f"No tournament {slug!r}.")
        differing = 0
        for tournament in tournaments:
            lines = differences(tournament)
            if not lines:
                self.stdout.write(f"{tournament.slug}: the stored results match the sheets.")
                continue
            differing += 1
            self.stdout.write(f"{tournament.slug}: {len(lines)} differences")
            for line in lines:
                self.stdout.write(f"  {line}")
            if repair:
                stored = seat_results_rebuild(tournament=tournament)
                self.stdout.write(f"{tournament.slug}: repaired, {stored} seat results stored.")
        if differing and not repair:
            raise CommandError(f"{differing} tournament(s) differ; --repair stores them again.")
