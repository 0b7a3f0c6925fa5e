import sys

from django.core.management.base import BaseCommand, CommandError

from tournament.exports.archive import archive_json
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament's complete archive (JSON, re-importable) to a file or stdout."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("-o", "--output", help="File to write (default: standard output).")

    def handle(self, *args, slug: str, output: str | None, **options) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament with the slug “{slug}”.")
        content = archive_json(tournament)
        if output:
            with open(output, "wb") as file:
                file.write(content)
            self.stderr.write(f"Wrote the archive of “{tournament.name}” to {output}.")
        else:
            sys.stdout.buffer.write(content)
