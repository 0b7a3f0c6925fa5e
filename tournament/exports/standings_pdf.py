"""The standings as PDF (A4 landscape): place, player, country, club or team, each round's
score, penalties and total; provisional rounds are marked with an asterisk."""

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import Spacer, TableStyle

from scoring.selectors import tournament_standings
from tournament.exports.base import PDF_CONTENT_TYPE
from tournament.exports.pdf import build_pdf, fonts, grid_table, para, tournament_subtitle
from tournament.models import Tournament
from tournament.tables import format_score

MARGIN = 12 * mm


class StandingsPdf:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def render(self) -> tuple[str, str, bytes]:
        standings = tournament_standings(self.tournament)
        numbers = standings.round_numbers
        title = _("Standings")
        header = [
            para(_("Place"), "head"),
            para(_("Player"), "head"),
            para(_("Country"), "head"),
            para(_("Club / team"), "head"),
            *[
                para(f"R{n}{'*' if n in standings.provisional_rounds else ''}", "head")
                for n in numbers
            ],
            para(_("Incl. pen."), "head"),
            para(_("Total"), "head"),
        ]
        rows = [header]
        for entry in standings.entries:
            player = entry.player
            place = (
                "" if entry.place is None else f"{entry.place}{'=' if entry.shared_place else ''}"
            )
            # Numbers are plain strings (fast for a thousand players); names may need the
            # CJK fallback font, so they are Paragraphs.
            rows.append(
                [
                    place,
                    para(
                        f"{player.display_name} ({_('withdrawn')})"
                        if entry.withdrawn
                        else player.display_name
                    ),
                    player.country.code or "",
                    para(entry.team_name or player.club, "small"),
                    *[
                        format_score(entry.rounds[n].score) if n in entry.rounds else ""
                        for n in numbers
                    ],
                    format_score(entry.penalty_total) if entry.penalty_total else "",
                    format_score(entry.total),
                ]
            )
        width = landscape(A4)[0] - 2 * MARGIN
        fixed = [16 * mm, 50 * mm, 21 * mm, 38 * mm]  # "Place", "Country" fit unbroken
        rest = (width - sum(fixed)) / (len(numbers) + 2)
        widths = fixed + [min(rest, 17 * mm)] * (len(numbers) + 2)
        table = grid_table(rows, widths=widths)
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 1), (-1, -1), fonts().regular),
                    ("FONTNAME", (-1, 1), (-1, -1), fonts().bold),
                    ("FONTSIZE", (0, 1), (-1, -1), 9),
                    ("ALIGN", (0, 1), (0, -1), "RIGHT"),
                    ("ALIGN", (4, 1), (-1, -1), "RIGHT"),
                ]
            )
        )
        story = [
            para(f"{self.tournament.name} — {title}", "title"),
            para(tournament_subtitle(self.tournament), "subtitle"),
            Spacer(1, 4 * mm),
            table,
        ]
        if standings.provisional_rounds:
            story += [
                Spacer(1, 2 * mm),
                para(
                    _("* provisional: some score sheets of this round are not confirmed yet."),
                    "small",
                ),
            ]
        content = build_pdf(
            story, title=title, tournament=self.tournament, pagesize=landscape(A4), margins=MARGIN
        )
        return f"{self.tournament.slug}-standings.pdf", PDF_CONTENT_TYPE, content
