"""Standings PDF/XLSX and the EMA results: reopened, values and types checked."""

import datetime
import io
import re
from decimal import Decimal

import pypdf
import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import strip_tags

from scoring.exports.ema import EmaResultsXlsx
from scoring.exports.score_sheets import ScoreSheetsPdf
from scoring.exports.standings_pdf import StandingsPdf, TeamRankingsPdf
from scoring.exports.standings_xlsx import StandingsXlsx
from seating.exports.seating import SeatingPdf
from tests.conftest import confirm_sheet, make_registration, make_staff
from tests.exports.conftest import NAMES, WRITTEN, open_xlsx, pdf_squashed, pdf_text
from tournament.exports.base import PDF_CONTENT_TYPE
from tournament.models import Registration, Round, Team, Tournament, TournamentStaff


@pytest.fixture
def scored(seated_round, django_user_model):
    """8 players in two teams, round 1 confirmed: WRC scores +27.3 / +6.0 / −7.3 / −26.0
    at each table [WRC 2015 §5.9.2]."""
    tournament = seated_round.tournament
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    teams = [Team.objects.create(tournament=tournament, name=f"Équipe {n}") for n in (1, 2)]
    for index, registration in enumerate(tournament.registrations.order_by("pk")):
        registration.team = teams[index % 2]
        registration.save()
    referee = django_user_model.objects.create_user("scorer", password="pw-scorer-1")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    for table in (1, 2):
        confirm_sheet(seated_round, table, referee)
    return tournament


def test_standings_xlsx_has_numbers_one_column_per_round_and_a_frozen_header(scored):
    filename, _type, content = StandingsXlsx(scored).render()
    assert filename == f"{scored.slug}-standings.xlsx"
    workbook = open_xlsx(content)
    sheet = workbook["Standings"]
    header = [cell.value for cell in sheet[1]]
    assert header == [
        "Place",
        "Last name",
        "First name",
        "Country",
        "Club / team",
        "Total",
        "R1",
        "Incl. penalties",
        "Status",
    ]
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref
    first = [cell.value for cell in sheet[2]]
    assert first[0] == 1
    assert first[5] == pytest.approx(27.3)
    assert isinstance(first[5], float)
    assert first[6] == pytest.approx(27.3)
    assert first[7] == 0
    names = {(row[2], row[1]) for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert names == {(first, last) for first, last, _country in NAMES}
    assert [c.value for c in workbook["Teams"][1]] == ["Place", "Team", "Total", "Players"]


def test_the_standings_xlsx_names_its_tournament_without_touching_the_tables(scored):
    # Archived or sent to a federation, the workbook said which tournament only in its file
    # name. The tables keep their header in row 1 (filters and re-imports read it there).
    before = timezone.now().replace(microsecond=0)
    workbook = open_xlsx(StandingsXlsx(scored).render()[2])
    assert workbook.sheetnames == ["Standings", "Teams", "Tournament"]
    assert workbook.active.title == "Standings"
    assert workbook["Standings"]["A1"].value == "Place"
    properties = workbook.properties
    assert properties.title == "Open de Paris – Standings"
    assert properties.subject == (
        "6–7 June 2026 · Salle des fêtes · World Riichi Championship rules 2015"
    )
    assert properties.created >= before.replace(tzinfo=None)  # UTC, as the format wants
    sheet = workbook["Tournament"]
    assert sheet.freeze_panes == "A2"
    assert [cell.value for cell in sheet[1]] == [
        "Tournament",
        "First day",
        "Last day",
        "Venue",
        "Rule set",
        "Number of rounds",
        "Exported at",
    ]
    row = [cell.value for cell in sheet[2]]
    assert row[:6] == [
        "Open de Paris",
        datetime.datetime(2026, 6, 6),  # a date cell: openpyxl reads it back as a datetime
        datetime.datetime(2026, 6, 7),
        "Salle des fêtes",
        "World Riichi Championship rules 2015",
        8,
    ]
    assert sheet["B2"].is_date
    assert sheet["G2"].is_date
    exported = timezone.make_aware(row[6])  # the tournament's local time
    assert abs(exported - timezone.now()) < datetime.timedelta(minutes=1)
    with translation.override("fr"):
        workbook = open_xlsx(StandingsXlsx(scored).render()[2])
    assert workbook.sheetnames == ["Classement", "Équipes", "Tournoi"]
    assert [cell.value for cell in workbook["Tournoi"][1]][:3] == [
        "Tournoi",
        "Premier jour",
        "Dernier jour",
    ]
    assert workbook["Tournoi"]["G1"].value == "Exporté le"


def test_the_ema_results_keep_the_federations_single_table(scored):
    # The EMA takes the results table as it is: one sheet, the header in row 1.
    workbook = open_xlsx(EmaResultsXlsx(scored).render()[2])
    assert len(workbook.worksheets) == 1
    assert workbook.active["A1"].value == "Place"


def test_scores_in_the_xlsx_are_shown_as_on_the_pages(scored):
    # The rankings page writes +27.3, +6.0, −26.0 and 0.0; "General" showed 6 for +6.0.
    standings = open_xlsx(StandingsXlsx(scored).render()[2])
    ema = open_xlsx(EmaResultsXlsx(scored).render()[2]).active
    rows = list(standings["Standings"].iter_rows(min_row=2))
    formats = {cell.number_format for row in rows for cell in row[5:8]}
    formats |= {row[2].number_format for row in standings["Teams"].iter_rows(min_row=2)}
    formats |= {row[5].number_format for row in ema.iter_rows(min_row=2)}
    assert formats == {"+0.0#;-0.0#;0.0"}
    assert rows[0][0].number_format == "General"  # the place is a whole number


def test_withdrawn_players_are_marked_in_the_standings_exports(scored):
    registration = scored.registrations.get(player__first_name="Zoé")
    registration.status = Registration.Status.WITHDRAWN
    registration.save()
    rows = open_xlsx(StandingsXlsx(scored).render()[2])["Standings"].iter_rows(
        min_row=2, values_only=True
    )
    status = {row[2]: row[-1] for row in rows}
    assert status.pop("Zoé") == "withdrawn"
    assert set(status.values()) == {None}  # empty cells for the others
    assert "(withdrawn)" in pdf_text(StandingsPdf(scored).render()[2])


def test_standings_pdf_lists_every_player_in_every_script(scored):
    filename, content_type, content = StandingsPdf(scored).render()
    assert content_type == "application/pdf"
    text = pdf_text(content)
    squashed = pdf_squashed(content)
    for name in WRITTEN:
        assert name in squashed
    assert "Zoé" in text
    assert "山田太郎" in squashed
    assert "World Riichi Championship rules 2015" in text
    assert "Page 1 of 1" in text
    assert "+27.3" in text


def page_rows(html: str) -> list[list[str]]:
    """The cells' text of each row of a page's table body."""
    body = re.search(r"<tbody.*?>(.*?)</tbody>", html, re.S).group(1)
    return [
        [" ".join(strip_tags(cell).split()) for cell in re.findall(r"<td.*?>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr.*?>(.*?)</tr>", body, re.S)
    ]


@pytest.mark.parametrize(
    ("language", "title"), [("en", "Team rankings"), ("fr", "Classement par équipes")]
)
def test_the_team_rankings_pdf_has_the_figures_of_the_team_rankings_page(
    client, scored, language, title
):
    # The team rankings page could not be printed. WRC scores +27.3 / +6.0 / −7.3 / −26.0 at
    # each table, East to North [WRC 2015 §5.9.2]: Équipe 1 holds East and West of both tables,
    # Équipe 2 South and North (−40.0). Table 2's East moved to a team of their own: Équipe 3
    # +27.3, Équipe 1 +27.3 − 7.3 − 7.3 = +12.7.
    scored.is_public = True
    scored.save()
    east = scored.registrations.get(player__first_name="Hugo")
    east.team = Team.objects.create(tournament=scored, name="Équipe 3")
    east.save()
    url = reverse("public:team_rankings", args=[scored.slug])
    page = client.get(url, headers={"accept-language": language})
    with translation.override(language):
        filename, content_type, content = TeamRankingsPdf(scored).render()
    rows = page_rows(page.content.decode())
    totals = ["+27.3", "+12.7", "−40.0"]
    if language == "fr":
        totals = [total.replace(".", ",") for total in totals]  # the decimal comma
    assert [row[:3] for row in rows] == [
        ["1", "Équipe 3", totals[0]],
        ["2", "Équipe 1", totals[1]],
        ["3", "Équipe 2", totals[2]],
    ]
    squashed = pdf_squashed(content)
    for row in rows:
        # place, team, total and players in the page's order, side by side on the PDF
        assert "".join("".join(cell.split()) for cell in row) in squashed
    assert filename == f"{scored.slug}-team-rankings.pdf"
    assert content_type == PDF_CONTENT_TYPE
    assert f"Open de Paris — {title}" in pdf_text(content)


@pytest.mark.parametrize(
    ("language", "note"),
    [
        ("en", "Provisional: some score sheets of round 1 are not confirmed yet."),
        ("fr", "Provisoire : des feuilles de score de la ronde 1 ne sont pas encore confirmées."),
    ],
)
def test_the_team_rankings_pdf_says_which_rounds_are_provisional(
    seated_round, django_user_model, language, note
):
    # A team ranking printed while table 2's sheet is still out would pass for a final one.
    tournament = seated_round.tournament
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    team = Team.objects.create(tournament=tournament, name="Kyoto Tigers")
    tournament.registrations.update(team=team)
    referee = django_user_model.objects.create_user("scorer")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    confirm_sheet(seated_round, 1, referee)
    with translation.override(language):
        text = " ".join(pdf_text(TeamRankingsPdf(tournament).render()[2]).split())
    assert note in text


def test_the_team_rankings_pdf_repeats_its_header_on_every_page(scored):
    # 60 more teams of one (late registrations, no hanchan: 0.0) fill more than an A4 page.
    for number in range(60):
        team = Team.objects.create(tournament=scored, name=f"Team {number:02}")
        make_registration(scored, team=team)
    reader = pypdf.PdfReader(io.BytesIO(TeamRankingsPdf(scored).render()[2]))
    assert len(reader.pages) > 1
    width, height = (float(side) for side in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (595, 842)  # A4 portrait, in points
    for page in reader.pages:
        assert "Place Team Total Players" in " ".join(page.extract_text().split())


def test_the_team_rankings_pdf_says_when_there_are_no_teams(seated_round, client, organiser):
    content = TeamRankingsPdf(seated_round.tournament).render()[2]
    assert "This tournament has no teams." in pdf_text(content)
    client.force_login(organiser)
    page = client.get(reverse("staff:exports", args=[seated_round.tournament.slug])).content
    assert b"team-rankings-pdf" not in page  # offered only where there are teams


def test_ema_results_columns_and_values(scored):
    first_player = scored.registrations.get(player__first_name="Zoé").player
    first_player.ema_number = "04010001"
    first_player.save()
    _name, _type, content = EmaResultsXlsx(scored).render()
    sheet = open_xlsx(content).active
    assert [c.value for c in sheet[1]] == [
        "Place",
        "EMA number",
        "Last name",
        "First name",
        "Country",
        "Points",
    ]
    rows = {row[3]: row for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert rows["Zoé"][1] == "04010001"  # a text: the leading zero is kept
    assert rows["Zoé"][4] == "FRA"
    assert rows["太郎"][4] == "JPN"
    assert isinstance(rows["Zoé"][0], int)
    assert isinstance(rows["Zoé"][5], float)


def test_score_decimal_is_exact_for_tenths():
    from fractions import Fraction

    from tournament.formatting import score_decimal

    assert score_decimal(Fraction(273, 10)) == Decimal("27.3")
    assert score_decimal(Fraction(10, 3)) == Decimal("3.33")


@pytest.mark.parametrize(
    "kind", ["standings-pdf", "standings-xlsx", "team-rankings-pdf", "ema-xlsx"]
)
def test_export_downloads_need_the_organiser(client, scored, django_user_model, kind):
    url = reverse("staff:export", args=[scored.slug, kind])
    assert client.get(url).status_code == 302
    client.force_login(django_user_model.objects.get(username="scorer"))
    assert client.get(url).status_code == 403
    organiser = django_user_model.objects.create_user("org", password="pw-org-12345")
    make_staff(scored, organiser, TournamentStaff.Role.ORGANISER)
    client.force_login(organiser)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment; filename=")


@pytest.mark.parametrize(
    "kind", ["seating-pdf", "seating-xlsx", "score-sheets-pdf", "hand-sheets-pdf"]
)
def test_round_export_downloads(client, seated_round, organiser, kind):
    client.force_login(organiser)
    url = reverse("staff:round_export", args=[seated_round.tournament.slug, 1, kind])
    response = client.get(url)
    assert response.status_code == 200
    assert response.content[:4] in (b"%PDF", b"PK\x03\x04")


def test_the_seating_pdf_of_a_round_not_seated_yet_says_so(client, seated_round, organiser):
    # Manage → Exports offers every round's seating; round 2 has none yet. Two pages of bare
    # headings ("By table", "By player") looked like a seating gone missing.
    Round.objects.create(tournament=seated_round.tournament, number=2)
    client.force_login(organiser)
    url = reverse("staff:round_export", args=[seated_round.tournament.slug, 2, "seating-pdf"])
    text = pdf_text(client.get(url).content)
    assert "No seating for this round yet." in text
    assert "By table" not in text
    assert "Page 1 of 1" in text


def test_unknown_export_is_404(client, seated_round, organiser):
    client.force_login(organiser)
    slug = seated_round.tournament.slug
    assert client.get(reverse("staff:export", args=[slug, "nope"])).status_code == 404
    assert client.get(reverse("staff:exports", args=[slug])).status_code == 200


def test_players_without_a_hanchan_are_not_in_the_ema_results_nor_placed(scored):
    # WRC 2015 §7.1/§7.2: only results are ranked; a player with no
    # hanchan has none, so a place at 0.0 would push every later player down.
    late = make_registration(scored)
    rows = list(open_xlsx(EmaResultsXlsx(scored).render()[2]).active.values)[1:]
    assert [row[0] for row in rows] == [1, 1, 3, 3, 5, 5, 7, 7]
    assert late.player.first_name not in {row[3] for row in rows}
    standings = list(open_xlsx(StandingsXlsx(scored).render()[2])["Standings"].values)
    assert standings[-1][:3] == ("–", late.player.last_name, late.player.first_name)
    assert standings[-1][-1] == "No hanchan played"
    assert standings[-2][0] == 7
    text = pdf_text(StandingsPdf(scored).render()[2])
    assert f"–\n{late.player.display_name}" in text


@pytest.mark.parametrize(
    ("language", "score", "uma"),
    [
        ("en", "−26.0", "+15.0 / +5.0 / −5.0 / −15.0"),
        ("fr", "−26,0", "+15,0 / +5,0 / −5,0 / −15,0"),
    ],
)
def test_every_pdf_writes_negative_numbers_with_the_minus_sign(
    scored, seated_round, language, score, uma
):
    # The typographic minus (U+2212) of the pages, never a hyphen; uma 15/5/−5/−15 [WRC 2015 §5.9.2]
    with translation.override(language):
        standings = pdf_text(StandingsPdf(scored).render()[2])
        sheets = [
            pdf_text(ScoreSheetsPdf(seated_round, hands=hands).render()[2])
            for hands in (False, True)
        ]
        seating = pdf_text(SeatingPdf(seated_round).render()[2])
    assert score in standings
    for sheet in sheets:
        assert uma in sheet
    for text in (standings, *sheets, seating):
        assert not re.search(r"-\d", text)
