from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournament.exports.archive import ArchiveJson, archive_refusal
        from tournament.exports.registry import register_tournament_export

        register_tournament_export(
            "archive-json",
            _("Complete archive (JSON, re-importable)"),
            ArchiveJson,
            position=90,
            refusal=archive_refusal,
        )
