"""Seating exports: the PDF keeps every name in every script, the XLSX has real values."""

import io

import pypdf
import pytest
from django.utils import translation

from scoring.exports.score_sheets import ScoreSheetsPdf
from seating.exports.seating import SeatingPdf, SeatingXlsx
from tests.exports.conftest import WRITTEN, open_xlsx, pdf_squashed, pdf_text
from tournament.exports.base import PDF_CONTENT_TYPE, XLSX_CONTENT_TYPE
from tournament.models import Team


def test_seating_pdf_contains_every_player_name(seated_round):
    filename, content_type, content = SeatingPdf(seated_round).render()
    assert filename.endswith("-round-1-seating.pdf")
    assert content_type == PDF_CONTENT_TYPE
    text = pdf_squashed(content)
    for name in WRITTEN:
        assert name in text
    assert "Martin,Zoé" in text  # the by-player list: last name, first name
    assert "Zoé Martin" in pdf_text(content)


def test_seating_pdf_shows_the_team_else_the_club(seated_round):
    # At a team event the organiser checks at a glance that team-mates sit apart.
    first, second = (seat.registration for seat in seated_round.seats.order_by("pk")[:2])
    first.team = Team.objects.create(tournament=seated_round.tournament, name="Kyoto Tigers")
    first.save()
    second.player.club = "Paris Riichi Club"
    second.player.save()
    text = pdf_text(SeatingPdf(seated_round).render()[2])
    assert "Kyoto Tigers" in text
    assert "Paris Riichi Club" in text


def test_seating_pdf_has_page_numbers(seated_round):
    _filename, _type, content = SeatingPdf(seated_round).render()
    assert "Page 1 of 2" in pdf_text(content)


def test_seating_xlsx_by_table_and_by_player(seated_round):
    filename, content_type, content = SeatingXlsx(seated_round).render()
    assert content_type == XLSX_CONTENT_TYPE
    workbook = open_xlsx(content)
    by_table, by_player = workbook.worksheets
    rows = list(by_table.iter_rows(min_row=2, values_only=True))
    assert rows[0] == (1, "East", "Martin", "Zoé", "FR", None)
    assert rows[5] == (2, "South", "Schmidt", "Lena", "DE", None)
    assert isinstance(rows[5][0], int)
    assert by_table.freeze_panes == "A2"
    names = [row[0] for row in by_player.iter_rows(min_row=2, values_only=True)]
    assert names[:3] == ["Bernard", "Korhonen", "Martin"]
    assert len(names) == 8


def test_seating_xlsx_shows_the_team_else_the_club_as_the_pdf_does(seated_round):
    # At a team event the organiser checks in the spreadsheet too that team-mates sit apart.
    first, second = (seat.registration for seat in seated_round.seats.order_by("pk")[:2])
    first.team = Team.objects.create(tournament=seated_round.tournament, name="Kyoto Tigers")
    first.save()
    second.player.club = "Paris Riichi Club"
    second.player.save()
    by_table, by_player = open_xlsx(SeatingXlsx(seated_round).render()[2]).worksheets
    assert [cell.value for cell in by_table[1]][-1] == "Club / team"
    assert [cell.value for cell in by_player[1]] == [
        "Last name",
        "First name",
        "Country",
        "Table",
        "Wind",
        "Club / team",
    ]
    for sheet in (by_table, by_player):
        teams = {row[-1] for row in sheet.iter_rows(min_row=2, values_only=True)}
        assert teams == {"Kyoto Tigers", "Paris Riichi Club", None}
    with translation.override("fr"):
        by_table = open_xlsx(SeatingXlsx(seated_round).render()[2]).worksheets[0]
    assert by_table["F1"].value == "Club / équipe"


def test_seating_xlsx_writes_the_winds_in_the_readers_language(seated_round):
    # The seating pages and the PDF say "Ouest" in French; a "W" on the wall is English.
    with translation.override("fr"):
        by_table, by_player = open_xlsx(SeatingXlsx(seated_round).render()[2]).worksheets
    winds = [row[1] for row in by_table.iter_rows(min_row=2, max_row=5, values_only=True)]
    assert winds == ["Est", "Sud", "Ouest", "Nord"]
    assert by_player["E1"].value == "Vent"
    assert {row[4] for row in by_player.iter_rows(min_row=2, values_only=True)} == set(winds)


@pytest.mark.parametrize("hands", [False, True])
def test_score_sheets_have_one_page_per_table_with_names_and_rows(seated_round, hands):
    filename, content_type, content = ScoreSheetsPdf(seated_round, hands=hands).render()
    assert content_type == PDF_CONTENT_TYPE
    reader = pypdf.PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 2  # 8 players, 2 tables
    first_page = reader.pages[0].extract_text()
    # What the referee enters, then the sheet's rows [ORAN-1 §3.4.1] in WRC order: return points
    # 30 000 [WRC 2015 §5.9.2], penalty points after the uma [WRC 2015 §7.1]
    for row in ("Final points", "Chombo", "Minutes late", "Substitute", "Riichi sticks left"):
        assert row in first_page
    for row in ("Difference to 30,000", "÷ 1,000", "Placement bonus", "Penalty points", "Net"):
        assert row in first_page
    assert "Adjusted" not in first_page
    assert "Referee" in first_page
    squashed = pdf_squashed(content)
    for name in WRITTEN:
        assert name in squashed
    assert ("hand-sheets" in filename) is hands


def test_the_oran_score_sheet_takes_chombo_off_the_table_points(seated_round):
    # [ORAN-1 §3.1.4, §3.4.1]: the chombo comes off the final points, then the sheet goes on
    tournament = seated_round.tournament
    tournament.ruleset = "oran2015"
    tournament.save()
    content = ScoreSheetsPdf(seated_round).render()[2]
    first_page = pypdf.PdfReader(io.BytesIO(content)).pages[0].extract_text()
    penalty, adjusted, uma = (
        first_page.index(row) for row in ("Penalty (table points)", "Adjusted", "Placement bonus")
    )
    assert penalty < adjusted < uma


def _first_page(round_, hands=False) -> str:
    content = ScoreSheetsPdf(round_, hands=hands).render()[2]
    reader = pypdf.PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 2  # still one page per table
    return " ".join(reader.pages[0].extract_text().split())


@pytest.mark.parametrize("hands", [False, True])
def test_the_score_sheet_has_rows_for_what_first_place_gets_on_top_of_the_uma(seated_round, hands):
    # A 25 000 start with 30 000 returned pays 1st place an oka of 20 000 (+20.0), and the sticks
    # left on the table go to 1st place: without their rows the net score written at the table is
    # 20.0 and the sticks short of the standings' (docs/rules-engine.md, Rule sets: oka,
    # leftover_riichi "to_first_place").
    tournament = seated_round.tournament
    tournament.rule_options = {
        "start_points": 25000,
        "oka": 20000,
        "leftover_riichi": "to_first_place",
    }
    tournament.save()
    page = _first_page(seated_round, hands)
    uma, oka, sticks, penalty = (
        page.index(row)
        for row in (
            "Placement bonus (uma)",
            "Oka (1st place)",
            "Riichi sticks left (to 1st place)",
            "Penalty points",
        )
    )
    assert uma < oka < sticks < penalty
    assert "Oka +20.0 to 1st place." in page


def test_the_score_sheet_has_no_oka_row_where_there_is_none(seated_round):
    # WRC 2015 §5.9.2: start 30 000 = return 30 000, no oka; sticks left are lost (§5.9)
    page = _first_page(seated_round)
    assert "Oka" not in page
    assert "to 1st place" not in page


@pytest.mark.parametrize(
    ("ruleset", "sentence"),
    [
        # WRC 2015 §5.9.2: tied players share the uma of their places
        ("wrc2015", "Equal points: the tied players share the bonuses of the places they occupy."),
        # [Évriichi adv. 6]: the initial seat order E > S > W > N breaks the tie
        (
            "mahjongsoul",
            "Equal points: the earlier starting seat takes the better place (East, then South, "
            "West, North).",
        ),
    ],
)
def test_the_score_sheet_says_how_a_tie_at_the_table_is_placed(seated_round, ruleset, sentence):
    tournament = seated_round.tournament
    tournament.ruleset = ruleset
    tournament.save()
    assert sentence in _first_page(seated_round)


@pytest.mark.parametrize(
    ("language", "note"),
    [
        ("en", "substitute, not ranked: these points, place and uma count for the table only"),
        ("fr", "remplaçant, non classé : ces points, cette place et cette uma ne comptent"),
    ],
)
@pytest.mark.parametrize("hands", [False, True])
def test_score_sheets_mark_a_substitute_seat_as_not_ranked(seated_round, language, note, hands):
    # WRC 2015 §7.2: as on the sheet pages, the substitute's result counts for the table only
    filler = seated_round.seats.get(table_number=2, wind="N").registration
    filler.is_substitute = True
    filler.save(update_fields=["is_substitute"])
    with translation.override(language):
        content = ScoreSheetsPdf(seated_round, hands=hands).render()[2]
    first, second = (  # still one page per table
        " ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(content)).pages
    )
    assert note not in first
    assert "Giulia Rossi " + note in second


def test_hand_by_hand_columns_are_headed_by_wind_and_name(seated_round):
    # The hands are written by who dealt and who won; the totals grid below says the
    # winds, but its columns do not line up with the hands'.
    text = pdf_text(ScoreSheetsPdf(seated_round, hands=True).render()[2])
    first_page = text.split("Page 1 of 2")[0]
    header = " ".join(first_page.split("Result", 1)[1].split("Seat", 1)[0].split())
    assert header.startswith("East Zoé Martin South 山田太郎 West 김민준 North")


def test_seating_xlsx_columns_are_wide_enough_for_cjk_names(seated_round):
    # A CJK character is as wide as two Latin ones: a name of 13 got 15 columns for its 26
    # and was cut at the next column.
    for seat in seated_round.seats.select_related("registration__player"):
        player = seat.registration.player
        player.last_name = "東京麻雀連盟渋谷支部長谷川" if player.first_name == "太郎" else "Li"
        player.save()
    by_table = open_xlsx(SeatingXlsx(seated_round).render()[2]).worksheets[0]
    assert by_table.column_dimensions["C"].width >= 2 * len("東京麻雀連盟渋谷支部長谷川")


def test_seating_pdf_lists_are_headed_by_the_tournament_name(seated_round):
    # As the standings and the score sheets are: on a wall, the 7.5 pt footer alone named
    # the event.
    content = SeatingPdf(seated_round).render()[2]
    reader = pypdf.PdfReader(io.BytesIO(content))
    for page in reader.pages:
        assert page.extract_text().startswith("Open de Paris — Seating of round 1")


@pytest.mark.parametrize("ruleset", ["wrc2015", "oran2015"])
@pytest.mark.parametrize("hands", [False, True])
def test_every_score_sheet_label_fits_its_row_in_french(seated_round, ruleset, hands):
    # The hand-by-hand sheet's rows are 6 mm: "Pénalité (points de table)" and "Bonus de
    # placement (uma)" take two lines there and were drawn over the rows' lines.
    from scoring.exports.score_sheets import CELL_PADDING, LABEL_PADDING, LABEL_WIDTH
    from tournament.selectors import tables_of_round

    tournament = seated_round.tournament
    tournament.ruleset = ruleset
    tournament.save()
    export = ScoreSheetsPdf(seated_round, hands=hands)
    with translation.override("fr"):
        grid = export._totals_grid(tables_of_round(seated_round)[0], tournament.get_rules())
        for row, height in list(zip(grid._cellvalues, grid._rowHeights, strict=True))[1:]:
            _width, needed = row[0].wrap(LABEL_WIDTH - CELL_PADDING, 1000)
            assert needed + LABEL_PADDING <= height, row[0].text
