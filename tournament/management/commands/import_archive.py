import json

from django.core.management.base import BaseCommand, CommandError

from tournament.exports.archive import ArchiveError, archive_import


class Command(BaseCommand):
    help = (
        "Create a tournament from an archive written by export_archive or backup. All or "
        "nothing: on any problem nothing is imported."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The archive (JSON).")
        parser.add_argument("--slug", help="Import under this slug (e.g. to keep a copy).")

    def handle(self, *args, file: str, slug: str | None, **options) -> None:
        try:
            with open(file, encoding="utf-8") as handle:
                data = json.load(handle)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error}") from error
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not JSON: {error}") from error
        try:
            tournament = archive_import(data, slug=slug)
        except ArchiveError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Imported “{tournament.name}” ({tournament.slug}).")
