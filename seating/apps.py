from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeatingConfig(AppConfig):
    name = "seating"
    verbose_name = _("Seating")

    def ready(self) -> None:
        from scoring.signals import standings_changed_by_official
        from seating.exports.seating import SeatingPdf, SeatingXlsx
        from seating.messages import swiss_outdated_warnings
        from tournament.exports.registry import register_round_export

        standings_changed_by_official.connect(
            swiss_outdated_warnings, dispatch_uid="seating.swiss_outdated"
        )
        register_round_export("seating-pdf", _("Seating (PDF)"), SeatingPdf, position=10)
        register_round_export("seating-xlsx", _("Seating (XLSX)"), SeatingXlsx, position=20)
