"""Text from players stays text in every XLSX export: never a formula (CSV/XLSX injection)."""

import pytest

from scoring.exports.ema import EmaResultsXlsx
from scoring.exports.standings_xlsx import StandingsXlsx
from seating.exports.seating import SeatingXlsx
from tests.conftest import confirm_sheet, make_staff
from tests.exports.conftest import open_xlsx
from tournament.exports.registrations import RegistrationsXlsx
from tournament.models import Tournament, TournamentStaff

# First names as an import could bring them: each starts with what a spreadsheet reads as a
# formula, or is an error code.
HOSTILE = {
    "Zoé": "=2+3",
    "太郎": '=HYPERLINK("http://evil.example/","click")',
    "민준": "+33 6 12 34 56 78",
    "Łukasz": "-Dupont",
    "Hugo": "@SUM(A1:A9)",
    "Lena": "#N/A",
}


@pytest.fixture
def hostile_round(seated_round, django_user_model):
    """The names above, with round 1 confirmed: the EMA results list only players with a
    hanchan."""
    tournament = seated_round.tournament
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    referee = django_user_model.objects.create_user("scorer")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    for table in (1, 2):
        confirm_sheet(seated_round, table, referee)
    for registration in seated_round.tournament.registrations.select_related("player"):
        player = registration.player
        if player.first_name in HOSTILE:
            player.first_name = HOSTILE[player.first_name]
            player.club = "=1+1"
            player.save()
    return seated_round


EXPORTS = {
    "standings": lambda round_: StandingsXlsx(round_.tournament),
    "ema": lambda round_: EmaResultsXlsx(round_.tournament),
    "seating": SeatingXlsx,
    "registrations": lambda round_: RegistrationsXlsx(round_.tournament),
}


@pytest.mark.parametrize("kind", EXPORTS)
def test_names_that_look_like_formulas_are_written_as_literal_text(hostile_round, kind):
    workbook = open_xlsx(EXPORTS[kind](hostile_round).render()[2])
    cells = {
        cell.value: cell
        for sheet in workbook.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str)
    }
    for name in HOSTILE.values():
        assert name in cells, f"{name!r} missing from the {kind} export"
        assert cells[name].data_type == "s"
    # Excel keeps a quote-prefixed cell as text even when someone edits it.
    assert cells["=2+3"].quotePrefix
    assert not any(cell.data_type == "f" for cell in cells.values())


def test_numbers_stay_numbers_next_to_literal_text(hostile_round):
    sheet = open_xlsx(SeatingXlsx(hostile_round).render()[2]).worksheets[0]
    first = next(sheet.iter_rows(min_row=2))
    assert first[0].data_type == "n"
    assert isinstance(first[0].value, int)


@pytest.mark.parametrize("kind", EXPORTS)
def test_a_name_with_a_control_character_is_exported(hostile_round, admin_client, kind):
    """The admin keeps what is pasted into a name, a line break from Word (\\x0b) or a stray
    control character included; openpyxl refused them and the whole export failed (a 500 on
    the exports page), so each is written as a space."""
    registration = hostile_round.tournament.registrations.select_related("player").first()
    page = admin_client.get(f"/admin/tournament/player/{registration.player.pk}/change/")
    initial = page.context["adminform"].form.initial
    data = {name: "" if value is None else value for name, value in initial.items()}
    data.update(first_name="Jean\x0bPierre", last_name="Du\x01pont", club="Club\x1b2")
    response = admin_client.post(f"/admin/tournament/player/{registration.player.pk}/change/", data)
    assert response.status_code == 302
    workbook = open_xlsx(EXPORTS[kind](hostile_round).render()[2])
    texts = {
        cell.value
        for sheet in workbook.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str)
    }
    assert any("Jean Pierre" in text for text in texts), kind
    assert not any(char in text for text in texts for char in "\x0b\x01\x1b")
