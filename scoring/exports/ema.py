"""The results table the European Mahjong Association's ranking takes from a tournament.

One row per ranked player: place, EMA number, last name, first name, country (ISO 3166
alpha-3, e.g. FRA) and tournament points. Players without an EMA number are listed with an
empty number (the EMA assigns one); disqualified players are not listed (WRC 2015 §7.1), nor
players who never played a hanchan (they have no result, and a place would push every later
player down).
"""

from django.utils.translation import gettext as _

from scoring.selectors.rows import player_rows
from scoring.selectors.standings import tournament_standings
from tournament.exports.base import XLSX_CONTENT_TYPE
from tournament.exports.xlsx import workbook_bytes
from tournament.formatting import score_decimal
from tournament.models import Tournament

# In English whatever the organiser's language: the columns the EMA reads.
EMA_HEADERS = ["Place", "EMA number", "Last name", "First name", "Country", "Points"]


class EmaResultsXlsx:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def rows(self):
        for row in player_rows(tournament_standings(self.tournament, fresh=True)):
            if row.place is None:
                continue
            player = row.player
            yield [
                row.place,
                player.ema_number,
                player.last_name,
                player.first_name,
                player.country.alpha3 or "",
                score_decimal(row.total),
            ]

    def render(self) -> tuple[str, str, bytes]:
        content = workbook_bytes([(_("EMA results"), EMA_HEADERS, self.rows())])
        return f"{self.tournament.slug}-ema-results.xlsx", XLSX_CONTENT_TYPE, content
