"""Each stage's standings as XLSX: one sheet a stage, the qualifying stage first, numbers as
numbers; the players through to the next stage marked, and the cut explained under the
table as on the public stages page."""

import re

from django.utils.translation import gettext as _

from scoring.exports.standings_xlsx import tournament_workbook
from scoring.selectors.stages import StageStandings, stage_standings, with_next
from scoring.tables import cut_text
from tournament.exports.base import XLSX_CONTENT_TYPE
from tournament.formatting import NO_PLACE, score_decimal
from tournament.models import Tournament

#: What a worksheet's name may not hold (Excel's rule).
_NOT_IN_SHEET_NAMES = re.compile(r"[\[\]:*?/\\]")


class StagesXlsx:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def sheet(
        self, index: int, current: StageStandings, following: StageStandings | None
    ) -> tuple[str, list[str], list[list[object]]]:
        name = current.stage.name if current.stage else _("Qualifying")
        headers = [
            _("Place"),
            _("Last name"),
            _("First name"),
            _("Country"),
            _("Club / team"),
            _("Carried over"),
            *[_("R%(number)s") % {"number": number} for number in current.round_numbers],
            _("Total"),
            _("Goes through to"),
        ]
        through = following.qualified_ids if following else set()
        rows: list[list[object]] = [
            [
                NO_PLACE if entry.place is None else entry.place,
                entry.player.last_name,
                entry.player.first_name,
                entry.player.country.code or "",
                entry.team_or_club,
                score_decimal(entry.carried),
                *[
                    score_decimal(entry.rounds[n].score)
                    if n in entry.rounds and entry.rounds[n].score is not None
                    else None
                    for n in current.round_numbers
                ],
                score_decimal(entry.total),
                following.stage.name if entry.registration_id in through else "",
            ]
            for entry in current.entries
        ]
        if following:
            rows += [[], [cut_text(following.cut, following.stage.name)]]
        return f"{index}. {_NOT_IN_SHEET_NAMES.sub('', name)}", headers, rows

    def render(self) -> tuple[str, str, bytes]:
        stages = stage_standings(self.tournament, fresh=True)
        sheets = [
            self.sheet(index, current, following)
            for index, (current, following) in enumerate(with_next(stages), start=1)
        ]
        content = tournament_workbook(self.tournament, sheets, _("Stages"))
        return f"{self.tournament.slug}-stages.xlsx", XLSX_CONTENT_TYPE, content
