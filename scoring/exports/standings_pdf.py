"""The standings as PDF (A4 landscape): place, player, country, club or team, each round's
score, penalties and total; provisional rounds are marked with an asterisk. The team ranking
as PDF (A4 portrait), as the team rankings page shows it."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from scoring.selectors.rows import TeamRow, player_rows, team_rows
from scoring.selectors.standings import Standings, team_standings, tournament_standings
from tournament.exports.base import PDF_CONTENT_TYPE
from tournament.exports.pdf import build_pdf, fonts, grid_table, para, tournament_subtitle
from tournament.formatting import format_score
from tournament.models import Tournament
from tournament.names import isolate

MARGIN = 12 * mm
WIDTH = landscape(A4)[0] - 2 * MARGIN
PLACE_WIDTH, COUNTRY_WIDTH = 16 * mm, 21 * mm  # "Place", "Country" fit unbroken
PLAYER_WIDTH, CLUB_WIDTH = 50 * mm, 38 * mm  # at most; they give way to the scores
NAMES_MIN_WIDTH = 60 * mm  # player and club together, before the body font shrinks
SCORE_WIDTH = 17 * mm  # a score column's width when the page has room
FIRST_SCORE_COLUMN = 4
PADDING = 4  # points left and right of every cell
# Body font sizes, largest first: with many rounds a smaller one keeps every score inside
# its cell and leaves room for the names.
BODY_SIZES = (9, 8.5, 8, 7.5, 7)


def score_widths(rows: list[list], size: float) -> list[float]:
    """Each score column's narrowest width: its widest text, or the widest word of its
    header, plus padding. The last column (total) is bold."""
    regular, bold = fonts().regular, fonts().bold
    last = len(rows[0]) - 1
    widths = []
    for column in range(FIRST_SCORE_COLUMN, last + 1):
        font = bold if column == last else regular
        texts = {row[column] for row in rows[1:]}
        widest = max((stringWidth(text, font, size) for text in texts), default=0)
        header = rows[0][column]
        if isinstance(header, Paragraph):
            widest = max(widest, header.minWidth())
        widths.append(widest + 2 * PADDING)
    return widths


def column_widths(rows: list[list]) -> tuple[list[float], float]:
    """The columns' widths and the body font size: no score ever wider than its cell."""
    scores = len(rows[0]) - FIRST_SCORE_COLUMN
    share = min(
        (WIDTH - PLACE_WIDTH - COUNTRY_WIDTH - PLAYER_WIDTH - CLUB_WIDTH) / scores, SCORE_WIDTH
    )
    for size in BODY_SIZES:
        numbers = [max(needed, share) for needed in score_widths(rows, size)]
        room = WIDTH - PLACE_WIDTH - COUNTRY_WIDTH - sum(numbers)
        if room >= NAMES_MIN_WIDTH:
            break
    names = min(PLAYER_WIDTH + CLUB_WIDTH, max(room, 0))
    player = names * PLAYER_WIDTH / (PLAYER_WIDTH + CLUB_WIDTH)
    return [PLACE_WIDTH, player, COUNTRY_WIDTH, names - player, *numbers], size


class StandingsPdf:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def table(self, standings: Standings) -> Table:
        numbers = standings.round_numbers
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
        for row in player_rows(standings):
            # Numbers are plain strings (fast for a thousand players); names may need the
            # CJK fallback font, so they are Paragraphs.
            rows.append(
                [
                    row.place_text,
                    para(f"{isolate(row.name)} ({_('withdrawn')})" if row.withdrawn else row.name),
                    row.country,
                    para(row.team_or_club, "small"),
                    *[format_score(score) for score in row.scores],
                    format_score(row.penalty_total) if row.penalty_total else "",
                    format_score(row.total),
                ]
            )
        return standings_table(rows)

    def render(self) -> tuple[str, str, bytes]:
        standings = tournament_standings(self.tournament, fresh=True)
        title = _("Standings")
        story = [
            para(f"{self.tournament.name} — {title}", "title"),
            para(tournament_subtitle(self.tournament), "subtitle"),
            Spacer(1, 4 * mm),
            self.table(standings),
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


TEAM_WIDTHS = [16 * mm, 55 * mm, 22 * mm, A4[0] - 2 * MARGIN - 93 * mm]


class TeamRankingsPdf:
    """The team rankings page on paper, for the wall or the prize giving: the page's rows
    (`team_rows`), its place, team, total and players, the header on every page."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def render(self) -> tuple[str, str, bytes]:
        title = _("Team rankings")
        story = [
            para(f"{self.tournament.name} — {title}", "title"),
            para(tournament_subtitle(self.tournament), "subtitle"),
            Spacer(1, 4 * mm),
        ]
        rows = team_rows(team_standings(self.tournament, fresh=True))
        if rows:
            story += [
                para(_("A team's total is the sum of its ranked players' totals."), "small"),
                Spacer(1, 2 * mm),
                self.table(rows),
            ]
        else:
            # As the seating says of a round not seated: a bare heading would pass for a list.
            story.append(para(_("This tournament has no teams."), "h2"))
        provisional = tournament_standings(self.tournament, fresh=True).provisional_rounds
        if rows and provisional:
            story += [Spacer(1, 2 * mm), para(provisional_note(sorted(provisional)), "small")]
        content = build_pdf(story, title=title, tournament=self.tournament, margins=MARGIN)
        return f"{self.tournament.slug}-team-rankings.pdf", PDF_CONTENT_TYPE, content

    def table(self, rows: list[TeamRow]) -> Table:
        header = [
            para(_("Place"), "head"),
            para(_("Team"), "head"),
            para(_("Total"), "head"),
            para(_("Players"), "head"),
        ]
        body = [
            [row.place_text, para(row.name), format_score(row.total), para(row.members)]
            for row in rows
        ]
        table = grid_table([header, *body], widths=TEAM_WIDTHS)
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 1), (-1, -1), fonts().regular),
                    ("FONTNAME", (2, 1), (2, -1), fonts().bold),
                    ("FONTSIZE", (0, 1), (-1, -1), 9.5),
                    ("ALIGN", (0, 1), (0, -1), "RIGHT"),
                    ("ALIGN", (2, 1), (2, -1), "RIGHT"),
                ]
            )
        )
        return table


def provisional_note(rounds: list[int]) -> str:
    """Which rounds still count provisionally: a team's total includes them."""
    return ngettext(
        "Provisional: some score sheets of round %(rounds)s are not confirmed yet.",
        "Provisional: some score sheets of rounds %(rounds)s are not confirmed yet.",
        len(rounds),
    ) % {"rounds": ", ".join(str(number) for number in rounds)}


def standings_table(rows: list[list]) -> Table:
    """The standings grid, its columns sized to their content (scores right-aligned)."""
    widths, size = column_widths(rows)
    table = grid_table(rows, widths=widths)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 1), (-1, -1), fonts().regular),
                ("FONTNAME", (-1, 1), (-1, -1), fonts().bold),
                ("FONTSIZE", (0, 1), (-1, -1), size),
                ("ALIGN", (0, 1), (0, -1), "RIGHT"),
                ("ALIGN", (FIRST_SCORE_COLUMN, 1), (-1, -1), "RIGHT"),
                ("LEFTPADDING", (FIRST_SCORE_COLUMN, 0), (-1, -1), PADDING),
                ("RIGHTPADDING", (FIRST_SCORE_COLUMN, 0), (-1, -1), PADDING),
            ]
        )
    )
    return table
