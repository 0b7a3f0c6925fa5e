"""The standings as XLSX: one row per player, one column per round, numbers as numbers;
a last sheet names the tournament (its name, dates, venue, rule set), which the tables'
first rows, their headers, cannot."""

from datetime import UTC, datetime

from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from scoring.selectors.rows import NO_HANCHAN_PLAYED, PlayerRow, player_rows, team_rows
from scoring.selectors.standings import Standings, team_standings, tournament_standings
from tournament.exports.base import XLSX_CONTENT_TYPE
from tournament.exports.pdf import tournament_subtitle
from tournament.exports.xlsx import workbook_bytes
from tournament.formatting import NO_PLACE, score_decimal
from tournament.models import Tournament


def tournament_workbook(tournament: Tournament, sheets: list, title: str) -> bytes:
    """``sheets`` and, last, the tournament's (`tournament_sheet`), in a workbook whose
    properties name the tournament and the time of the export."""
    exported_at = timezone.now().replace(microsecond=0)
    return workbook_bytes(
        [*sheets, tournament_sheet(tournament, exported_at)],
        title=f"{tournament.name} – {title}",
        subject=tournament_subtitle(tournament),
        created=exported_at.astimezone(UTC).replace(tzinfo=None),
    )


def round_header(number: int, standings: Standings) -> str:
    header = _("R%(number)s") % {"number": number}
    if number in standings.provisional_rounds:
        header += " " + _("(provisional)")
    return header


def _status(row: PlayerRow) -> str:
    if row.withdrawn:
        return _("withdrawn")
    return str(NO_HANCHAN_PLAYED) if row.place is None else ""


def tournament_sheet(
    tournament: Tournament, exported_at: datetime
) -> tuple[str, list[str], list[list[object]]]:
    """The tournament as one row under its headers, like every other sheet (a filter or an
    import reads it the same way); dates are dates, the export time the local time."""
    field = Tournament._meta.get_field
    headers = [
        _("Tournament"),
        str(capfirst(field("start_date").verbose_name)),
        str(capfirst(field("end_date").verbose_name)),
        str(capfirst(field("venue").verbose_name)),
        str(capfirst(field("ruleset").verbose_name)),
        str(capfirst(field("rounds_count").verbose_name)),
        _("Exported at"),
    ]
    row = [
        tournament.name,
        tournament.start_date,
        tournament.end_date,
        tournament.venue,
        str(tournament.get_ruleset_display()),
        tournament.rounds_count,
        # A worksheet holds no time zone: the time as read in the tournament's.
        timezone.localtime(exported_at).replace(tzinfo=None),
    ]
    return _("Tournament"), headers, [row]


class StandingsXlsx:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def rows(self, standings: Standings):
        for row in player_rows(standings):
            yield [
                NO_PLACE if row.place is None else row.place,
                row.player.last_name,
                row.player.first_name,
                row.country,
                row.team_or_club,
                score_decimal(row.total),
                *[score_decimal(score) for score in row.scores],
                score_decimal(row.penalty_total),
                _status(row),
            ]

    def render(self) -> tuple[str, str, bytes]:
        standings = tournament_standings(self.tournament, fresh=True)
        headers = [
            _("Place"),
            _("Last name"),
            _("First name"),
            _("Country"),
            _("Club / team"),
            _("Total"),
            *[round_header(number, standings) for number in standings.round_numbers],
            _("Incl. penalties"),
            _("Status"),
        ]
        sheets = [(_("Standings"), headers, self.rows(standings))]
        teams = team_rows(team_standings(self.tournament, fresh=True))
        if teams:
            rows = ([row.place, row.name, score_decimal(row.total), row.members] for row in teams)
            sheets.append((_("Teams"), [_("Place"), _("Team"), _("Total"), _("Players")], rows))
        content = tournament_workbook(self.tournament, sheets, _("Standings"))
        return f"{self.tournament.slug}-standings.xlsx", XLSX_CONTENT_TYPE, content
