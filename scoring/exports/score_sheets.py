"""Printable score sheets of a round: one page per table, names and winds pre-filled, a
substitute's seat marked as not ranked (in the sheet pages' words).

The hanchan sheet first has what the referee enters (final points, chombo, minutes late,
substitute; riichi sticks left in the footer), then the rows of the sheet used at events
[ORAN-1 §3.4.1] in the rule set's order: where a chombo costs table points (ORAN) it comes off
the final points before ÷ 1 000 and the uma; where it costs penalty points (WRC 2015 §7.1)
they come off after the uma. Where the rule set gives 1st place an oka or the riichi sticks
left, a row for each follows the uma, and the footer says how a tie takes its places
(WRC 2015 §5.9.2 shares the uma, Mahjong Soul's seat order [Évriichi adv. 6] breaks it), so the
net score written at the table is the one the standings give. Then signature lines for the
four players and the referee. The hand-by-hand variant has one line per hand (round name,
counters, result, each seat's change) for tables that keep a running record, and where the
rule set lets several players win on one discard it says how each winner is written; the
totals box at its foot is the same.
"""

from fractions import Fraction

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepInFrame, PageBreak, Spacer, Table, TableStyle

from scoring.messages import SUBSTITUTE_NOT_RANKED
from scoring.rules.hands import RIICHI_DEPOSIT
from tournament.exports.base import PDF_CONTENT_TYPE
from tournament.exports.pdf import build_pdf, fitted_para, para, styles, tournament_subtitle
from tournament.formatting import format_points, format_score
from tournament.models import Round
from tournament.selectors import TableView, tables_of_round

HAND_LINES = 16
NO_BREAK_SPACE = "\u00a0"
LABEL_WIDTH = 52 * mm
SEAT_WIDTH = 31 * mm
HAND_SEAT_WIDTH = 30 * mm
CELL_PADDING = 12  # points: reportlab's 6 left and right of every cell
LABEL_PADDING = 4  # points: room above and below a label's lines
NAME_WIDTH = SEAT_WIDTH - CELL_PADDING  # a player's name, on one line or word by word


class ScoreSheetsPdf:
    """`hands=False`: the hanchan sheet; `hands=True`: the hand-by-hand sheet."""

    def __init__(self, round_: Round, *, hands: bool = False) -> None:
        self.round = round_
        self.hands = hands

    def render(self) -> tuple[str, str, bytes]:
        tournament = self.round.tournament
        rules = tournament.get_rules()
        title = (
            _("Hand-by-hand sheets, round %(number)s")
            if self.hands
            else _("Score sheets, round %(number)s")
        ) % {"number": self.round.number}
        story = []
        tables = tables_of_round(self.round)
        for index, table in enumerate(tables):
            if index:
                story.append(PageBreak())
            # One page per table: shrunk to fit if a substitute's note or long names would
            # push the signatures onto a page of their own.
            story.append(KeepInFrame(0, 0, self._table_page(table, tournament, rules)))
        if not tables:
            story.append(para(_("No seating for this round yet."), "title"))
        kind = "hand-sheets" if self.hands else "score-sheets"
        content = build_pdf(story, title=title, tournament=tournament, margins=12 * mm)
        filename = f"{tournament.slug}-round-{self.round.number}-{kind}.pdf"
        return filename, PDF_CONTENT_TYPE, content

    def _table_page(self, table: TableView, tournament, rules) -> list:
        heading = _("Round %(round)s · Table %(table)s") % {
            "round": self.round.number,
            "table": table.number,
        }
        story = [
            # No-break spaces: under a long tournament name the table number, what the
            # sheets are sorted and handed out by, must not sit alone on a third line.
            para(f"{tournament.name} — {heading.replace(' ', NO_BREAK_SPACE)}", "title"),
            para(tournament_subtitle(tournament), "subtitle"),
            Spacer(1, 3 * mm),
        ]
        if self.hands:
            story += [self._hands_grid(table), Spacer(1, 4 * mm)]
            if rules.multiple_ron != "head_bump":
                # Several winners on one discard (EMA 2016 §3.4.9): the sheet has a line for
                # each, as the hands page has columns for each.
                story += [
                    para(
                        _(
                            "Several winners on one discard: one line for each winner, under "
                            "the same hand number, with their own han and fu or yakuman; the "
                            "discarder pays each winner."
                        ),
                        "small",
                    ),
                    Spacer(1, 2 * mm),
                ]
        story += [self._totals_grid(table, rules), Spacer(1, 3 * mm)]
        footer = _(
            "Riichi sticks left on the table: ______. Check: final points + "
            "%(deposit)s per stick left = %(total)s. Return points %(points)s. "
            "Placement bonus %(uma)s."
        ) % {
            "deposit": format_points(RIICHI_DEPOSIT),
            "points": format_points(rules.return_points),
            "uma": " / ".join(format_score(value) for value in rules.uma),
            "total": format_points(4 * rules.start_points),
        }
        if rules.oka:
            footer += " " + _("Oka %(oka)s to 1st place.") % {
                "oka": format_score(Fraction(rules.oka, 1000))
            }
        # The place decides the bonus: the table must break a tie the rule set's way.
        if rules.tie_mode == "seat_order":
            footer += " " + _(
                "Equal points: the earlier starting seat takes the better place (East, then "
                "South, West, North)."
            )
        else:
            footer += " " + _(
                "Equal points: the tied players share the bonuses of the places they occupy."
            )
        story.append(para(footer, "small"))
        story += [Spacer(1, (2 if self.hands else 6) * mm), self._signatures(table)]
        return story

    def _seat_header(self, table: TableView) -> list:
        """Wind and name; a substitute's seat says, as on the sheet pages, that it is not
        ranked, so nobody at the table takes it for a ranked player's."""
        cells = []
        for seat in table.seats:
            cell = [para(seat.wind_label, "head"), fitted_para(seat.name, "bold", NAME_WIDTH)]
            if seat.registration.is_substitute:
                cell.append(para(SUBSTITUTE_NOT_RANKED, "small"))
            cells.append(cell)
        return cells

    def _totals_grid(self, table: TableView, rules) -> Table:
        # Grouped like every other number on the sheet (÷ 1,000 next to 30,000 in English).
        divided = f"÷ {format_points(1000)}"
        labels = [
            _("Final points"),
            _("Chombo (how many)"),
            _("Minutes late"),
            _("Substitute"),
            _("Difference to %(points)s") % {"points": format_points(rules.return_points)},
        ]
        # What the rule set gives 1st place on top of the uma, each a row the table fills in.
        first_place = []
        if rules.oka:
            first_place.append(_("Oka (1st place)"))
        if rules.leftover_riichi == "to_first_place":
            first_place.append(_("Riichi sticks left (to 1st place)"))
        if rules.chombo_model == "table_points":
            labels += [
                _("Penalty (table points)"),
                _("Adjusted"),
                divided,
                _("Placement bonus (uma)"),
                *first_place,
            ]
        else:
            labels += [divided, _("Placement bonus (uma)"), *first_place, _("Penalty points")]
        labels += [_("Net score"), _("Place")]
        rows = [[para(_("Seat"), "head"), *self._seat_header(table)]]
        label_cells = [para(label, "bold") for label in labels]
        rows += [[cell] + [""] * len(table.seats) for cell in label_cells]
        # Room to write; a label on two lines ("Bonus de placement (uma)" in French on the
        # hand-by-hand sheet's short rows) makes its row taller instead of overflowing it.
        row_height = (6 if self.hands else 9.5) * mm
        heights = [
            max(row_height, cell.wrap(LABEL_WIDTH - CELL_PADDING, row_height)[1] + LABEL_PADDING)
            for cell in label_cells
        ]
        grid = Table(
            rows,
            colWidths=[LABEL_WIDTH] + [SEAT_WIDTH] * len(table.seats),
            rowHeights=[None, *heights],
        )
        grid.setStyle(
            TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.7, colors.black),
                    ("FONTNAME", (0, 0), (-1, -1), styles()["base"].fontName),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
                    ("LINEBELOW", (0, 4), (-1, 4), 1.6, colors.black),  # entered above
                    ("BACKGROUND", (0, -2), (-1, -2), colors.HexColor("#f3f3f3")),
                    ("LINEABOVE", (0, -2), (-1, -2), 1.6, colors.black),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        return grid

    def _hands_grid(self, table: TableView) -> Table:
        header = [
            para(_("Hand"), "head"),
            para(_("Honba / riichi"), "head"),
            para(_("Result"), "head"),
            # The wind over each name, as in the totals below, whose columns do not line
            # up with these: the hands are written by who dealt and who won.
            *[
                [
                    para(seat.wind_label, "head"),
                    fitted_para(seat.name, "head", HAND_SEAT_WIDTH - CELL_PADDING),
                ]
                for seat in table.seats
            ],
        ]
        rows = [header] + [["", "", "", *[""] * len(table.seats)] for _line in range(HAND_LINES)]
        grid = Table(
            rows,
            colWidths=[14 * mm, 20 * mm, 32 * mm] + [HAND_SEAT_WIDTH] * len(table.seats),
            rowHeights=[None] + [5.8 * mm] * HAND_LINES,
            repeatRows=1,
        )
        grid.setStyle(
            TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                    ("FONTNAME", (0, 0), (-1, -1), styles()["base"].fontName),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        return grid

    def _signatures(self, table: TableView) -> Table:
        rows = [[para(_("Signatures"), "head"), "", ""]]
        for seat in table.seats:
            rows.append([para(seat.wind_label, "small"), para(seat.name), ""])
        rows.append([para(_("Referee"), "small"), para(_("Name:")), ""])
        grid = Table(
            rows,
            colWidths=[22 * mm, 70 * mm, 84 * mm],
            rowHeights=[None] + [(8 if self.hands else 11) * mm] * (len(table.seats) + 1),
        )
        grid.setStyle(
            TableStyle(
                [
                    ("SPAN", (0, 0), (-1, 0)),
                    ("LINEBELOW", (2, 1), (2, -1), 0.7, colors.black),
                    ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                    ("FONTNAME", (0, 0), (-1, -1), styles()["base"].fontName),
                ]
            )
        )
        return grid
