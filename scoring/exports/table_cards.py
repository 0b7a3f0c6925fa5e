"""A round's table cards: one page a table, to stand on it. Each names the tournament, the
round and the table, the four players by wind, and carries a QR code: the table's page
(`scoring.views.table`), where its players report their result.

The QR code is made here, by segno, and drawn as vector squares: it prints sharp at any
size and needs no image library. Its address is the site's as the organiser's download
reached it (`origin`), since a PDF has no request of its own.
"""

import segno
from django.utils.translation import gettext as _
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Spacer, Table, TableStyle

from scoring.table_keys import issues_of_round, table_path
from tournament.exports.base import PDF_CONTENT_TYPE
from tournament.exports.pdf import build_pdf, para, tournament_subtitle
from tournament.models import Round
from tournament.selectors import TableView, tables_of_round

QR_SIZE = 80 * mm


def qr_drawing(url: str, size: float = QR_SIZE) -> Drawing:
    """The QR code of `url` as squares in a drawing `size` wide, with its quiet zone."""
    code = segno.make(url, error="m")
    rows = list(code.matrix_iter(border=4))
    module = size / len(rows)
    drawing = Drawing(size, size)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                top = size - (y + 1) * module
                drawing.add(
                    Rect(x * module, top, module, module, fillColor=colors.black, strokeWidth=0)
                )
    return drawing


class TableCardsPdf:
    """The round's table cards; `origin` is the site's scheme and host (https://example.org)."""

    def __init__(self, round_: Round, *, origin: str) -> None:
        self.round = round_
        self.origin = origin.rstrip("/")

    def card_url(self, table_number: int, issue: int) -> str:
        return self.origin + table_path(self.round, table_number, issue)

    def render(self) -> tuple[str, str, bytes]:
        tournament = self.round.tournament
        title = _("Table cards, round %(number)s") % {"number": self.round.number}
        tables = tables_of_round(self.round)
        issues = issues_of_round(self.round)
        story: list = []
        for index, table in enumerate(tables):
            if index:
                story.append(PageBreak())
            story += self._card(table, issues.get(table.number, 0))
        if not tables:
            story = [para(f"{tournament.name} — {title}", "title")]
            story.append(para(_("No seating for this round yet."), "h2"))
        content = build_pdf(story, title=title, tournament=tournament)
        filename = f"{tournament.slug}-round-{self.round.number}-table-cards.pdf"
        return filename, PDF_CONTENT_TYPE, content

    def _card(self, table: TableView, issue: int) -> list:
        tournament = self.round.tournament
        heading = _("Round %(round)s · Table %(table)s") % {
            "round": self.round.number,
            "table": table.number,
        }
        rows = [[para(seat.wind_label, "h2"), para(seat.name, "h2")] for seat in table.seats]
        seats = Table(rows, colWidths=[40 * mm, 130 * mm])
        seats.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999"))]))
        return [
            para(tournament.name, "title"),
            para(tournament_subtitle(tournament), "subtitle"),
            Spacer(1, 6 * mm),
            para(heading, "title"),
            Spacer(1, 4 * mm),
            seats,
            Spacer(1, 10 * mm),
            qr_drawing(self.card_url(table.number, issue)),
            Spacer(1, 4 * mm),
            para(
                _(
                    "Players: scan this code to report your table's result once the score "
                    "sheet is signed. An official confirms it."
                )
            ),
        ]
