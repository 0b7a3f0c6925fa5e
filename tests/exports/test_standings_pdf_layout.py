"""The standings PDF sizes its score columns to their content: no score spills out of its cell."""

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from scoring.exports.standings_pdf import FIRST_SCORE_COLUMN, WIDTH, StandingsPdf
from scoring.selectors.standings import tournament_standings
from tests.conftest import confirm_sheet, make_seats, make_staff
from tests.exports.conftest import pdf_text
from tournament.models import Round, Tournament, TournamentStaff

# [WRC 2015 §5.9.2]: (points − 30,000) / 1,000 + uma 15 / 5 / −5 / −15, play on below
# zero [WRC 2015 §4.1]: +105.4 / +5.0 / −9.8 / −100.6 at every table, every round.
WIDE_POINTS = (120400, 30000, 25200, -55600)


def _spread(seated_round, rounds: int, django_user_model) -> Tournament:
    tournament = seated_round.tournament
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.rounds_count = rounds
    tournament.save()
    referee = django_user_model.objects.create_user("wide", password="pw-wide-123")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    registrations = list(tournament.registrations.order_by("pk"))
    for number in range(1, rounds + 1):
        round_ = seated_round
        if number > 1:
            round_ = Round.objects.create(tournament=tournament, number=number)
            # Another order from round 2 so the totals differ.
            make_seats(round_, registrations[:1] + registrations[1:][::-1])
            round_.status = Round.Status.SEATED
            round_.save()
        for table in (1, 2):
            confirm_sheet(round_, table, referee, points=WIDE_POINTS)
    return tournament


@pytest.mark.parametrize("rounds", [1, 8, 12])
def test_every_score_fits_inside_its_column(seated_round, django_user_model, rounds):
    tournament = _spread(seated_round, rounds, django_user_model)
    table = StandingsPdf(tournament).table(tournament_standings(tournament))
    rows, widths, styles = table._cellvalues, table._colWidths, table._cellStyles
    texts = {text for row in rows[1:] for text in row[FIRST_SCORE_COLUMN:]}
    assert {"+105.4", "−100.6"} <= texts
    assert sum(widths) <= WIDTH + 0.01  # the table stays inside the page margins
    for column in range(FIRST_SCORE_COLUMN, len(widths)):
        needed = 0.0
        for row_index, row in enumerate(rows):
            style = styles[row_index][column]
            padding = style.leftPadding + style.rightPadding
            cell = row[column]
            if isinstance(cell, Paragraph):
                needed = max(needed, cell.minWidth() + padding)
            else:
                needed = max(needed, stringWidth(cell, style.fontname, style.fontsize) + padding)
        assert widths[column] >= needed, (column, widths[column], needed)


def test_wide_totals_are_printed(seated_round, django_user_model):
    tournament = _spread(seated_round, 8, django_user_model)
    text = pdf_text(StandingsPdf(tournament).render()[2])
    assert "+105.4" in text
    assert "−100.6" in text
