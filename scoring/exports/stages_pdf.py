"""Each stage's standings as PDF (A4 landscape), the qualifying stage first: place, player,
country, club or team, carry-over, the stage's rounds and total, the players through to the
next stage marked "→", and the cut explained under the table as on the public stages
page."""

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import Spacer, Table

from scoring.exports.standings_pdf import MARGIN, standings_table
from scoring.selectors.stages import StageStandings, stage_standings, with_next
from scoring.tables import cut_text
from tournament.exports.base import PDF_CONTENT_TYPE
from tournament.exports.pdf import build_pdf, para, tournament_subtitle
from tournament.formatting import format_place, format_score
from tournament.models import Tournament

#: Written after the place of a player going through to the next stage.
THROUGH_MARK = "→"


class StagesPdf:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def table(self, current: StageStandings, through: set[int]) -> Table:
        numbers = current.round_numbers
        rows: list[list] = [
            [
                para(_("Place"), "head"),
                para(_("Player"), "head"),
                para(_("Country"), "head"),
                para(_("Club / team"), "head"),
                para(_("Carried over"), "head"),
                *[para(_("R%(number)s") % {"number": n}, "head") for n in numbers],
                para(_("Total"), "head"),
            ]
        ]
        for entry in current.entries:
            place = format_place(entry.place, entry.shared_place)
            rounds = entry.rounds
            rows.append(
                [
                    f"{THROUGH_MARK} {place}" if entry.registration_id in through else place,
                    para(str(entry.player)),
                    entry.player.country.code or "",
                    para(entry.team_or_club, "small"),
                    format_score(entry.carried),
                    *[format_score(rounds[n].score) if n in rounds else "" for n in numbers],
                    format_score(entry.total),
                ]
            )
        return standings_table(rows)

    def render(self) -> tuple[str, str, bytes]:
        title = _("Standings by stage")
        story = [
            para(f"{self.tournament.name} — {title}", "title"),
            para(tournament_subtitle(self.tournament), "subtitle"),
        ]
        for current, following in with_next(stage_standings(self.tournament, fresh=True)):
            story += [
                Spacer(1, 4 * mm),
                para(current.stage.name if current.stage else _("Qualifying"), "h2"),
                self.table(current, following.qualified_ids if following else set()),
            ]
            if following:
                story += [
                    Spacer(1, 2 * mm),
                    para(f"{THROUGH_MARK} {cut_text(following.cut, following.stage.name)}"),
                ]
        content = build_pdf(
            story, title=title, tournament=self.tournament, pagesize=landscape(A4), margins=MARGIN
        )
        return f"{self.tournament.slug}-stages.pdf", PDF_CONTENT_TYPE, content
