from functools import partial

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _has_teams(tournament) -> bool:
    """The team rankings are offered where there are teams, as the public pages link them."""
    return tournament.registrations.filter(team__isnull=False).exists()


def _has_stages(tournament) -> bool:
    """The stages' standings are offered once the tournament has a later stage."""
    return tournament.stages.exists()


def _score_again(sender, tournament, **kwargs) -> None:
    """`tournament.signals.results_rescored`: the sheets' stored results follow the rules."""
    from scoring.services.seat_results import seat_results_rebuild

    seat_results_rebuild(tournament=tournament)


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from scoring.blind_entry import refuse_archive_while_blind
        from scoring.exports.ema import EmaResultsXlsx
        from scoring.exports.ema_pack import EmaPackXlsx
        from scoring.exports.score_sheets import ScoreSheetsPdf
        from scoring.exports.stages_pdf import StagesPdf
        from scoring.exports.stages_xlsx import StagesXlsx
        from scoring.exports.standings_pdf import StandingsPdf, TeamRankingsPdf
        from scoring.exports.standings_xlsx import StandingsXlsx
        from scoring.exports.table_cards import TableCardsPdf
        from scoring.results_held import refuse_deleting_alone
        from tournament.exports.registry import register_round_export, register_tournament_export
        from tournament.signals import archive_requested, registrations_deleting, results_rescored

        registrations_deleting.connect(refuse_deleting_alone, dispatch_uid="scoring.results_held")
        archive_requested.connect(refuse_archive_while_blind, dispatch_uid="scoring.blind_entry")
        results_rescored.connect(_score_again, dispatch_uid="scoring.seat_results")
        register_tournament_export("standings-pdf", _("Standings (PDF)"), StandingsPdf, position=10)
        register_tournament_export(
            "standings-xlsx", _("Standings (XLSX)"), StandingsXlsx, position=20
        )
        register_tournament_export(
            "stages-pdf",
            _("Standings by stage (PDF)"),
            StagesPdf,
            position=24,
            offered=_has_stages,
        )
        register_tournament_export(
            "stages-xlsx",
            _("Standings by stage (XLSX)"),
            StagesXlsx,
            position=25,
            offered=_has_stages,
        )
        register_tournament_export(
            "team-rankings-pdf",
            _("Team rankings (PDF)"),
            TeamRankingsPdf,
            position=30,
            offered=_has_teams,
        )
        register_tournament_export("ema-xlsx", _("EMA results (XLSX)"), EmaResultsXlsx, position=40)
        register_tournament_export(
            "ema-pack-xlsx", _("EMA submission pack (XLSX)"), EmaPackXlsx, position=45
        )
        register_round_export(
            "score-sheets-pdf", _("Score sheets (PDF)"), ScoreSheetsPdf, position=30
        )
        register_round_export(
            "hand-sheets-pdf",
            _("Hand-by-hand sheets (PDF)"),
            partial(ScoreSheetsPdf, hands=True),
            position=40,
        )
        register_round_export(
            "table-cards-pdf",
            _("Table cards with QR codes (PDF)"),
            TableCardsPdf,
            position=50,
            needs_origin=True,
        )
