from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournament.exports.archive import archive_json
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Archive every tournament (or one) to timestamped JSON files in ./backups, each "
        "re-importable with import_archive. Safe to run from cron during an event."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--slug", help="Only this tournament.")
        parser.add_argument(
            "--directory",
            default=str(Path(settings.BASE_DIR) / "backups"),
            help="Where to write (default: ./backups).",
        )

    def handle(self, *args, slug: str | None, directory: str, **options) -> None:
        tournaments = Tournament.objects.order_by("slug")
        if slug:
            tournaments = tournaments.filter(slug=slug)
            if not tournaments:
                # A typo in a cron line must fail loudly, not back nothing up every time.
                raise CommandError(f"No tournament with the slug “{slug}”.")
        folder = Path(directory)
        # Archives hold players' names, clubs and EMA numbers, and officials' accounts: only
        # the account that runs the backups may read them (files 0600, a new folder 0700).
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
        count = 0
        for tournament in tournaments:
            path = folder / f"{stamp}-{tournament.slug}.json"
            temporary = path.with_suffix(".json.partial")
            temporary.touch(mode=0o600)
            temporary.chmod(0o600)  # touch's mode yields to the umask; an old partial stays
            temporary.write_bytes(archive_json(tournament))
            temporary.replace(path)  # never a half-written backup under the final name
            self.stdout.write(str(path))
            count += 1
        if not count:
            self.stderr.write("No tournament to back up.")
