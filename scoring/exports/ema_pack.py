"""Everything the European Mahjong Association asks of a MERS tournament, in one workbook:
the results table (as `EmaResultsXlsx`), the penalties and chombo with a zero-sum check of
every confirmed table, and the observer's report filled in from the tournament's data (its
name, place, dates, rule set, MERS weight, schedule and counts), the observer's own lines
left empty."""

from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from scoring.exports.ema import EMA_HEADERS, EmaResultsXlsx
from scoring.selectors.ema import EmaPreview, ema_preview, round_schedule, table_checks
from scoring.selectors.penalties import penalty_list
from tournament.exports.base import XLSX_CONTENT_TYPE
from tournament.exports.xlsx import workbook_bytes
from tournament.formatting import score_decimal
from tournament.models import Tournament


class EmaPackXlsx:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def penalty_rows(self):
        for line in penalty_list(self.tournament):
            yield [
                line.round_number,
                line.table_number,
                line.player.last_name,
                line.player.first_name,
                line.player.ema_number,
                str(line.kind_label),
                score_decimal(line.points),
                line.reason,
                _("cancelled") if line.cancelled else "",
            ]

    def table_rows(self):
        for check in table_checks(self.tournament):
            yield [
                check.round_number,
                check.table_number,
                score_decimal(check.total),
                _("OK") if check.balanced else _("Does not sum to zero"),
            ]

    def report_rows(self, preview: EmaPreview):
        tournament = self.tournament
        field = Tournament._meta.get_field
        weight = preview.weight
        yield [_("Tournament"), tournament.name]
        yield [str(capfirst(field("venue").verbose_name)), tournament.venue]
        yield [str(capfirst(field("start_date").verbose_name)), tournament.start_date]
        yield [str(capfirst(field("end_date").verbose_name)), tournament.end_date]
        yield [str(capfirst(field("ruleset").verbose_name)), str(tournament.get_ruleset_display())]
        # Halves: a float holds them exactly.
        yield [_("MERS weight"), float(weight.total)]
        yield [_("MERS weight: days"), weight.duration]
        yield [_("MERS weight: players"), float(weight.players)]
        yield [_("MERS weight: countries"), float(weight.countries)]
        yield [_("MERS weight: qualification"), weight.qualification]
        yield [_("Days"), preview.days]
        yield [_("Players"), preview.players]
        yield [_("Substitutes"), preview.substitutes]
        yield [_("Players counted (at most 3 substitutes)"), preview.counted_players]
        yield [_("Countries"), preview.countries]
        yield [_("Ranked players"), len(preview.ranked)]
        for scheduled in round_schedule(tournament):
            start = scheduled.scheduled_start
            yield [
                _("Round %(number)s (%(tables)s tables)")
                % {"number": scheduled.number, "tables": scheduled.tables},
                timezone.localtime(start).replace(tzinfo=None) if start else "",
            ]
        for warning in preview.warnings:
            yield [_("To check"), warning.message]
        yield [_("Observer"), ""]
        yield [_("Observer's remarks"), ""]

    def render(self) -> tuple[str, str, bytes]:
        preview = ema_preview(self.tournament)
        penalty_headers = [
            _("Round"),
            _("Table"),
            _("Last name"),
            _("First name"),
            _("EMA number"),
            _("Kind"),
            _("Points"),
            _("Reason"),
            _("Status"),
        ]
        check_headers = [_("Round"), _("Table"), _("Sum of scores"), _("Check")]
        content = workbook_bytes(
            [
                (_("EMA results"), EMA_HEADERS, EmaResultsXlsx(self.tournament).rows()),
                (_("Penalties and chombo"), penalty_headers, self.penalty_rows()),
                (_("Table check"), check_headers, self.table_rows()),
                (_("Observer report"), [_("Item"), _("Value")], self.report_rows(preview)),
            ],
            title=f"{self.tournament.name} – {_('EMA submission')}",
        )
        return f"{self.tournament.slug}-ema-pack.xlsx", XLSX_CONTENT_TYPE, content
