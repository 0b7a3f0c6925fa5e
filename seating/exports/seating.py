"""A round's seating as PDF and XLSX, by table and by player (the two lists for the wall)."""

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Spacer

from tournament.exports.base import PDF_CONTENT_TYPE, XLSX_CONTENT_TYPE
from tournament.exports.pdf import build_pdf, grid_table, para, tournament_subtitle
from tournament.exports.xlsx import workbook_bytes
from tournament.models import Round
from tournament.selectors import SeatView, TableView, players_of_round, tables_of_round


def _player_cells(seat: SeatView) -> list[object]:
    player = seat.player
    country = player.country.code or ""
    # "Substitute 1", not last name "1"; a public name, as the wall's PDF shows it.
    if player.is_placeholder or player.public_name:
        return [player.display_name, "", country]
    return [player.last_name, player.first_name, country]


class SeatingXlsx:
    """Winds in words, as the seating pages and the PDF write them: a letter is English
    ("W" is Ouest in French). Each player's team, else club, as the PDF shows it beside the
    name, in the last column so that the others keep their places."""

    def __init__(self, round_: Round) -> None:
        self.round = round_

    def render(self) -> tuple[str, str, bytes]:
        by_table = (
            [
                seat.table_number,
                str(seat.wind_label),
                *_player_cells(seat),
                seat.registration.team_or_club,
            ]
            for table in tables_of_round(self.round)
            for seat in table.seats
        )
        by_player = (
            [
                *_player_cells(seat),
                seat.table_number,
                str(seat.wind_label),
                seat.registration.team_or_club,
            ]
            for seat in players_of_round(self.round)
        )
        names = [_("Last name"), _("First name"), _("Country")]
        team = _("Club / team")
        content = workbook_bytes(
            [
                (_("By table"), [_("Table"), _("Wind"), *names, team], by_table),
                (_("By player"), [*names, _("Table"), _("Wind"), team], by_player),
            ]
        )
        slug = self.round.tournament.slug
        return f"{slug}-round-{self.round.number}-seating.xlsx", XLSX_CONTENT_TYPE, content


class SeatingPdf:
    def __init__(self, round_: Round) -> None:
        self.round = round_

    def render(self) -> tuple[str, str, bytes]:
        tournament = self.round.tournament
        title = _("Seating of round %(number)s") % {"number": self.round.number}
        # Named as the standings and score sheets are: two events can share a hall.
        heading = para(f"{tournament.name} — {title}", "title")
        story = [heading, para(tournament_subtitle(tournament), "subtitle")]
        tables = tables_of_round(self.round)
        if tables:
            story += self._by_table(tables) + [PageBreak(), heading]
            story += self._by_player()
        else:
            # As the score sheets say: two pages of bare headings would pass for a seating.
            story.append(para(_("No seating for this round yet."), "h2"))
        content = build_pdf(story, title=title, tournament=tournament)
        return f"{tournament.slug}-round-{self.round.number}-seating.pdf", PDF_CONTENT_TYPE, content

    def _by_table(self, tables: list[TableView]) -> list:
        story = [para(_("By table"), "h2")]
        for table in tables:
            rows = [[para(_("Table %(number)s") % {"number": table.number}, "bold"), "", ""]]
            rows += [
                [para(seat.wind_label), para(seat.name), para(seat.registration.team_or_club)]
                for seat in table.seats
            ]
            grid = grid_table(rows, widths=[22 * mm, 80 * mm, 70 * mm], zebra=False)
            story += [KeepTogether(grid), Spacer(1, 3 * mm)]
        return story

    def _by_player(self) -> list:
        header = [para(_("Player"), "head"), para(_("Table"), "head"), para(_("Wind"), "head")]
        rows = [header] + [
            [para(seat.sorted_name), para(seat.table_number, "number"), para(seat.wind_label)]
            for seat in players_of_round(self.round)
        ]
        return [para(_("By player"), "h2"), grid_table(rows, widths=[110 * mm, 25 * mm, 30 * mm])]
