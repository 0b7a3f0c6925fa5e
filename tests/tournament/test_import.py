"""Importing players from XLSX and CSV: a per-row report first, nothing written until the
organiser confirms, and names in every script kept intact."""

import doctest
import io

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from openpyxl import Workbook, load_workbook

import tournament.import_headers
import tournament.importing
import tournament.names
from tests.conftest import make_player, make_registration, make_staff, make_tournament
from tournament.admin.player_import import ImportUploadForm
from tournament.exports.registrations import RegistrationsXlsx
from tournament.importing import ImportFileError, check_rows, read_table
from tournament.models import AuditEntry, Player, Registration, Team, TournamentStaff
from tournament.services.players import player_update, players_import

HEADERS = ["First name", "Last name", "Country", "Club", "EMA number", "Team"]
WORLD_NAMES = [
    ("Zoé", "Martin", "FR"),
    ("Łukasz", "Kowalski", "PL"),
    ("太郎", "山田", "JP"),
    ("민준", "김", "KR"),
]


def xlsx_bytes(rows: list[list[object]], headers: list[str] = HEADERS) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(headers)
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def csv_bytes(rows: list[list[object]], headers: list[str] = HEADERS, sep: str = ",") -> bytes:
    lines = [sep.join(headers)] + [sep.join(str(value) for value in row) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def two_hundred_rows() -> list[list[object]]:
    rows = []
    for index in range(200):
        first, last, country = WORLD_NAMES[index % 4]
        rows.append(
            [
                f"{first}{index}",
                last,
                country,
                f"Club {index % 10}",
                f"{index + 1:08d}",
                f"Team {index % 8}",
            ]
        )
    return rows


@pytest.mark.django_db
def test_a_200_row_xlsx_imports_every_player(tournament):
    rows = read_table("players.xlsx", xlsx_bytes(two_hundred_rows())).rows
    outcome = players_import(tournament=tournament, rows=rows, acting_user=None)
    assert (outcome.created, outcome.skipped) == (200, 0)
    assert tournament.registrations.count() == 200
    assert tournament.teams.count() == 8
    assert Player.objects.filter(first_name="太郎10", last_name="山田", country="JP").exists()


@pytest.mark.django_db
def test_a_semicolon_csv_with_non_latin_names_imports(tournament):
    content = csv_bytes([list(name) + ["", "", ""] for name in WORLD_NAMES], sep=";")
    outcome = players_import(
        tournament=tournament, rows=read_table("players.csv", content).rows, acting_user=None
    )
    assert outcome.created == 4
    names = set(Player.objects.values_list("first_name", "last_name"))
    assert names == {(first, last) for first, last, _country in WORLD_NAMES}


@pytest.mark.django_db
def test_bad_rows_are_reported_one_by_one_and_nothing_is_written(tournament):
    make_player(first_name="Zoé", last_name="Martin", country="FR", ema_number="04010001")
    rows = read_table(
        "bad.xlsx",
        xlsx_bytes(
            [
                ["", "Nameless", "FR", "", "", ""],  # row 2: missing name
                ["Zoé", "Martin", "FR", "", "04010001", ""],  # row 3: existing player
                ["Łukasz", "Kowalski", "Atlantis", "", "", ""],  # row 4: unknown country
                ["太郎", "山田", "JP", "", "1234", ""],  # row 5: bad EMA number
                ["민준", "김", "KR", "", "", ""],  # row 6: fine
            ]
        ),
    ).rows
    report = {row.line: row.problems for row in check_rows(tournament, rows)}
    assert report[2] == ["Missing name."]
    assert report[3] == []  # a returning player: registered again, not created twice
    assert any("Unknown country “Atlantis”" in p for p in report[4])
    assert report[5] == ["EMA number “1234” must have exactly 8 digits."]
    assert report[6] == []
    players_before = Player.objects.count()
    with pytest.raises(ValidationError, match="3 rows have problems"):
        players_import(tournament=tournament, rows=rows, acting_user=None)
    assert Player.objects.count() == players_before
    assert tournament.registrations.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("bad_rows", "language", "message"),
    [
        (1, "en", "1 row has problems; nothing was imported."),
        (2, "en", "2 rows have problems; nothing was imported."),
        (1, "fr", "1 ligne a des problèmes ; rien n’a été importé."),
        (2, "fr", "2 lignes ont des problèmes ; rien n’a été importé."),
    ],
)
def test_the_refusal_counts_its_rows_in_the_singular_or_plural(
    tournament, bad_rows, language, message
):
    content = csv_bytes(
        [["", "Nameless", "FR", "", "", ""]] * bad_rows + [["Zoé", "Martin", "FR", "", "", ""]]
    )
    rows = read_table("p.csv", content).rows
    with translation.override(language), pytest.raises(ValidationError) as refusal:
        players_import(tournament=tournament, rows=rows, acting_user=None)
    assert refusal.value.messages == [message]


@pytest.mark.django_db
def test_only_valid_rows_can_be_imported_on_request(tournament):
    content = csv_bytes([["", "Nobody", "FR", "", "", ""], ["Zoé", "Martin", "FR", "", "", ""]])
    outcome = players_import(
        tournament=tournament,
        rows=read_table("p.csv", content).rows,
        only_valid=True,
        acting_user=None,
    )
    assert (outcome.created, outcome.skipped) == (1, 1)
    assert tournament.registrations.get().player.first_name == "Zoé"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second"),
    [
        (["Zoé", "Martin", "FR", "", "", ""], ["Zoé", "Martin", "FR", "", "", ""]),
        # A Japanese name is the same whole or in two columns within the file.
        (["太郎", "山田", "JP", "", "", ""], ["山田　太郎", "", "JP", "", "", ""]),
    ],
)
def test_a_player_twice_in_the_same_file_is_reported(tournament, first, second):
    report = check_rows(tournament, read_table("p.csv", csv_bytes([first, second])).rows)
    assert report[1].problems == ["Same player as row 2."]


@pytest.mark.django_db
def test_an_ema_number_that_excel_turned_into_a_number_gets_its_zero_back(tournament):
    rows = read_table("p.xlsx", xlsx_bytes([["Zoé", "Martin", "FR", "", 4010001, ""]])).rows
    (row,) = check_rows(tournament, rows)
    assert (row.values["ema_number"], row.problems) == ("04010001", [])


@pytest.mark.django_db
def test_an_ema_number_typed_with_a_digit_missing_is_a_problem_not_padded(tournament):
    # "0401007" (a digit left out) was taken for a number Excel had stripped of its leading
    # zero and registered as 00401007, a number nobody has, which the EMA export then sent
    # on. Excel never writes a number with a leading zero, so such a cell is typed text.
    content = "First name,Last name,Country,EMA\nInès,Garcia,FR,0401007\n"
    (row,) = check_rows(tournament, read_table("p.csv", content.encode()).rows)
    assert row.problems == ["EMA number “0401007” must have exactly 8 digits."]


@pytest.mark.parametrize(
    ("filename", "content", "message"),
    [
        ("players.csv", "Prénom,Nom\nZoé,Martin\n".encode("latin-1"), "not in UTF-8"),
        ("players.xlsx", b"this is not a workbook", "not a readable Excel workbook"),
        ("players.pdf", b"%PDF-1.4", "Choose a .xlsx or .csv file"),
        ("players.csv", b"Colour,Size\nred,3\n", "No name column found"),
    ],
)
def test_unreadable_files_get_a_clear_message(filename, content, message):
    with pytest.raises(ImportFileError, match=message):
        read_table(filename, content)


def test_french_headers_are_understood():
    content = "Prénom;Nom;Pays;Numéro EMA;Équipe\nZoé;Martin;FR;04010001;Lyon\n".encode()
    assert read_table("joueurs.csv", content).rows == [
        {
            "first_name": "Zoé",
            "last_name": "Martin",
            "country": "FR",
            "ema_number": "04010001",
            "team": "Lyon",
            "line": "2",
        }
    ]


@pytest.mark.parametrize("header", ["Public name", "Preferred name", "Nom public"])
def test_a_public_name_column_is_read(header):
    content = f"First name,Last name,{header}\nJoanna,Smith,Jo Smith\n".encode()
    (row,) = read_table("players.csv", content).rows
    assert row["public_name"] == "Jo Smith"


@pytest.mark.django_db
def test_the_registration_export_reimports_without_loss(tournament):
    players_import(
        tournament=tournament,
        rows=read_table(
            "p.csv", csv_bytes([list(n) + ["Club", "", "T"] for n in WORLD_NAMES])
        ).rows,
        acting_user=None,
    )
    _filename, _type, content = RegistrationsXlsx(tournament).render()
    sheet = load_workbook(io.BytesIO(content)).active
    exported = {(row[0], row[1], row[4]) for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert exported == set(WORLD_NAMES)
    assert sheet.freeze_panes == "A2"
    # Read back, the export registers the same players with their addresses and public names.
    zoe = Player.objects.get(first_name="Zoé")
    player_update(
        player=zoe, data={"email": "zoe@example.org", "public_name": "Zo"}, acting_user=None
    )
    rows = read_table("registrations.xlsx", RegistrationsXlsx(tournament).render()[2]).rows
    assert {row["email"] for row in rows} == {"zoe@example.org", ""}
    public_names = {row["first_name"]: row["public_name"] for row in rows}
    assert public_names.pop("Zoé") == "Zo"
    assert set(public_names.values()) == {""}


@pytest.mark.django_db
def test_admin_preview_then_confirm(client, organiser, tournament):
    client.force_login(organiser)
    upload_url = reverse("admin:tournament_tournament_import", args=[tournament.pk])
    content = xlsx_bytes([["Zoé", "Martin", "FR", "", "", ""], ["", "Nobody", "XX", "", "", ""]])
    upload = io.BytesIO(content)
    upload.name = "players.xlsx"
    response = client.post(upload_url, {"file": upload}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    for expected in ("Missing name.", "Unknown country", "Zoé"):
        assert expected in page
    # The label follows its checkbox, so it ends without the colon of a label before a field.
    assert "Import only the rows without problems</label>" in page
    assert Registration.objects.count() == 0  # the preview writes nothing

    confirm_url = reverse("admin:tournament_tournament_import_confirm", args=[tournament.pk])
    response = client.post(confirm_url, {}, follow=True)
    assert "nothing was imported" in response.content.decode()
    assert Registration.objects.count() == 0

    response = client.post(confirm_url, {"only_valid": "on"}, follow=True)
    assert "1 player registered (0 already known). 1 row skipped." in response.content.decode()
    assert tournament.registrations.get().player.first_name == "Zoé"


def test_the_columns_left_unread_are_named():
    # A "Ranking" or "Notes" column, or a second "Last name", is not imported: the preview
    # says so rather than let the organiser believe it came in.
    headers = ["First name", "Last name", "Ranking", "", "Last name", " Notes "]
    table = read_table("p.xlsx", xlsx_bytes([["Zoé", "Martin", 3, "", "Dupont", "vegan"]], headers))
    assert table.ignored_columns == ["Ranking", "Last name", "Notes"]
    assert table.rows == [{"first_name": "Zoé", "last_name": "Martin", "line": "2"}]


@pytest.mark.django_db
def test_the_preview_names_the_columns_not_imported(client, organiser, tournament):
    client.force_login(organiser)
    upload = io.BytesIO(csv_bytes([["Zoé", "Martin", "3"]], ["First name", "Last name", "Rank"]))
    upload.name = "players.csv"
    url = reverse("admin:tournament_tournament_import", args=[tournament.pk])
    page = client.post(url, {"file": upload}, follow=True).content.decode()
    assert "Column not imported: Rank." in page


@pytest.mark.django_db
def test_a_returning_player_is_registered_again_not_created_twice(tournament):
    known = make_player(first_name="Zoé", last_name="Martin", country="FR", ema_number="90000001")
    rows = read_table("p.csv", csv_bytes([["Zoe", "Martin-Dupont", "BE", "", "90000001", ""]])).rows
    (row,) = check_rows(tournament, rows)
    assert (row.problems, row.returning) == ([], known)  # same EMA number: the same person
    outcome = players_import(tournament=tournament, rows=rows, acting_user=None)
    assert (outcome.created, outcome.returning) == (1, 1)
    assert tournament.registrations.get().player == known
    assert Player.objects.count() == 1
    (again,) = check_rows(tournament, rows)
    already = f"Zoé Martin (#{known.pk}) is already registered in this tournament."
    assert again.problems == [already]


@pytest.mark.django_db
def test_a_namesake_with_another_ema_number_is_somebody_else(tournament):
    older = make_player(first_name="Jean", last_name="Dupont", country="FR", ema_number="04000001")
    unnumbered = make_player(first_name="Jean", last_name="Dupont", country="FR")
    numbered = read_table("p.csv", csv_bytes([["Jean", "Dupont", "FR", "", "04000002", ""]])).rows
    plain = read_table("p.csv", csv_bytes([["Jean", "Dupont", "FR", "", "", ""]])).rows
    (numbered_row,) = check_rows(tournament, numbered)
    (plain_row,) = check_rows(tournament, plain)
    # Another EMA number: not the older Jean Dupont; maybe the one without a number.
    assert numbered_row.returning == unnumbered
    assert plain_row.returning == older  # no number to tell them apart: the oldest record


@pytest.mark.django_db
def test_a_row_whose_ema_number_no_namesake_has_creates_a_new_player(tournament):
    known = make_player(first_name="Jean", last_name="Dupont", country="FR", ema_number="04000001")
    rows = read_table("p.csv", csv_bytes([["Jean", "Dupont", "FR", "", "04000002", ""]])).rows
    (row,) = check_rows(tournament, rows)
    assert (row.problems, row.returning) == ([], None)
    players_import(tournament=tournament, rows=rows, acting_user=None)
    new = tournament.registrations.get().player
    assert new != known
    assert new.ema_number == "04000002"


@pytest.mark.django_db
def test_a_single_name_column_in_chinese_puts_the_family_name_first(tournament):
    rows = read_table("p.csv", "Name,Country\n李 小龙,CN\nZoé Martin,FR\n".encode()).rows
    chinese, french = check_rows(tournament, rows)
    assert (chinese.values["last_name"], chinese.values["first_name"]) == ("李", "小龙")
    assert (french.values["first_name"], french.values["last_name"]) == ("Zoé", "Martin")


@pytest.mark.django_db
def test_a_cjk_name_written_without_a_space_is_imported_whole(tournament):
    rows = read_table("p.csv", "Name,Country\n山田太郎,JP\n김민준,KR\n".encode()).rows
    japanese, korean = check_rows(tournament, rows)
    assert japanese.is_valid
    assert korean.is_valid
    assert (japanese.values["first_name"], japanese.values["last_name"]) == ("山田太郎", "")
    player = Player(first_name=korean.values["first_name"], last_name="", country="KR")
    assert player.display_name == player.sorted_name == "김민준"


@pytest.mark.parametrize(
    "module", [tournament.importing, tournament.import_headers, tournament.names]
)
def test_the_docstring_examples_of_the_import_and_the_names_hold(module):
    result = doctest.testmod(module)
    assert (result.failed, result.attempted > 0) == (0, True)


@pytest.mark.django_db
def test_a_japanese_name_written_whole_is_the_registered_player_with_two_names(tournament):
    known = make_player(first_name="太郎", last_name="山田", country="JP")
    rows = read_table("p.csv", "Name,Country\n山田太郎,JP\n".encode()).rows
    (row,) = check_rows(tournament, rows)
    assert (row.problems, row.returning) == ([], known)
    outcome = players_import(tournament=tournament, rows=rows, acting_user=None)
    assert (outcome.created, outcome.returning) == (1, 1)
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_a_name_in_capitals_is_the_registered_player(tournament):
    known = make_player(first_name="Zoé", last_name="Martin", country="FR")
    rows = read_table("p.csv", "Name,Country\nZOÉ MARTIN,FR\nZoe Martin,FR\n".encode()).rows
    capitals, unaccented = check_rows(tournament, rows)
    assert (capitals.problems, capitals.returning) == ([], known)
    assert unaccented.returning is None  # accents tell names apart, as within the file


@pytest.mark.django_db
def test_cells_lose_repeated_non_breaking_and_zero_width_spaces(tournament):
    content = csv_bytes(
        [["\u200bZoé\u00a0", "de\u00a0 la\u200d Tour ", "FR", " Club\ufeff ", "", "  A  Team "]]
    )
    names = "Name,Country\nJean  Dupont,FR\n\u00a0Anna\u00a0\u00a0Berg\u200c,SE\n".encode()
    zoe = read_table("p.csv", content).rows
    assert zoe[0] == {
        "first_name": "Zoé",
        "last_name": "de la Tour",
        "country": "FR",
        "club": "Club",
        "ema_number": "",
        "team": "A Team",
        "line": "2",
    }
    jean, anna = check_rows(tournament, read_table("names.csv", names).rows)
    assert (jean.values["first_name"], jean.values["last_name"]) == ("Jean", "Dupont")
    assert (anna.values["first_name"], anna.values["last_name"]) == ("Anna", "Berg")
    # Rows that did not come from a file (an older pending import) are cleaned too.
    (row,) = check_rows(tournament, [{"first_name": " Jean ", "last_name": " \u00a0Dupont"}])
    assert (row.values["first_name"], row.values["last_name"]) == ("Jean", "Dupont")


@pytest.mark.django_db
def test_a_team_is_recognised_whatever_its_case_and_spaces(tournament):
    existing = Team.objects.create(tournament=tournament, name="Paris Riichi Club")
    content = csv_bytes(
        [
            ["Zoé", "Martin", "FR", "", "", "paris riichi club"],
            ["Anna", "Berg", "SE", "", "", "PARIS  RIICHI CLUB"],
            ["Jean", "Dupont", "FR", "", "", "Lyon Mahjong"],
            ["Łukasz", "Kowalski", "PL", "", "", "LYON mahjong"],
        ]
    )
    rows = read_table("p.csv", content).rows
    assert [row.values["team"] for row in check_rows(tournament, rows)] == [
        "Paris Riichi Club",
        "Paris Riichi Club",
        "Lyon Mahjong",
        "Lyon Mahjong",
    ]
    players_import(tournament=tournament, rows=rows, acting_user=None)
    assert sorted(tournament.teams.values_list("name", flat=True)) == [
        "Lyon Mahjong",
        "Paris Riichi Club",
    ]
    assert existing.registrations.count() == 2


@pytest.mark.django_db
def test_a_comma_in_a_single_name_cell_means_last_name_first(tournament):
    content = 'Name,Country\n"Berg, Anna",SE\n"de la Tour ,Zoé",FR\n"Martin,",FR\n'.encode()
    anna, zoe, martin = check_rows(tournament, read_table("p.csv", content).rows)
    assert (anna.values["first_name"], anna.values["last_name"]) == ("Anna", "Berg")
    assert (zoe.values["first_name"], zoe.values["last_name"]) == ("Zoé", "de la Tour")
    assert (martin.values["first_name"], martin.values["last_name"]) == ("Martin", "")


@pytest.mark.django_db
def test_another_name_with_the_same_ema_number_is_not_called_the_same_player(tournament):
    content = csv_bytes(
        [
            ["Zoé", "Martin", "FR", "", "04010001", ""],
            ["Anna", "Berg", "SE", "", "04010001", ""],
            ["ZOÉ", "MARTIN", "BE", "", "04010001", ""],
        ]
    )
    _zoe, anna, zoe_again = check_rows(tournament, read_table("p.csv", content).rows)
    assert anna.problems == ["Same EMA number as row 2 (Zoé Martin)."]
    assert zoe_again.problems == ["Same player as row 2."]


@pytest.mark.django_db
def test_a_cell_too_long_names_its_column_in_french(tournament):
    # "First name dépasse 100 caractères.": the column was named in English.
    content = "Prénom;Nom;Club\n" + "Z" * 101 + ";Martin;" + "C" * 151 + "\n"
    with translation.override("fr"):
        (row,) = check_rows(tournament, read_table("joueurs.csv", content.encode()).rows)
    assert row.problems == ["Prénom dépasse 100 caractères.", "Club dépasse 150 caractères."]


@pytest.mark.django_db
def test_the_same_ema_number_is_reported_in_french(tournament):
    content = csv_bytes(
        [["太郎", "山田", "JP", "", "04010001", ""], ["Anna", "Berg", "SE", "", "04010001", ""]]
    )
    with translation.override("fr"):
        _taro, anna = check_rows(tournament, read_table("p.csv", content).rows)
    assert anna.problems == ["Même numéro EMA qu’à la ligne 2 (山田太郎)."]


@pytest.mark.django_db
def test_two_spellings_of_a_known_player_are_one_player_not_two_registrations(tournament):
    zoe = make_player(first_name="Zoé", last_name="Martin", country="FR", ema_number="90000001")
    rows = read_table(
        "p.csv", "Name,Country,EMA\nZoe Martin,FR,90000001\nZoé Martin,FR,\n".encode()
    ).rows
    numbered, named = check_rows(tournament, rows)
    assert (numbered.problems, numbered.returning) == ([], zoe)
    assert (named.problems, named.returning) == (["Same player as row 2."], None)
    with pytest.raises(ValidationError, match="1 row has problems"):
        players_import(tournament=tournament, rows=rows, acting_user=None)
    outcome = players_import(tournament=tournament, rows=rows, only_valid=True, acting_user=None)
    assert (outcome.created, outcome.returning, outcome.skipped) == (1, 1, 1)
    assert tournament.registrations.get().player == zoe


@pytest.mark.django_db
def test_an_import_never_registers_a_player_twice_even_if_the_check_missed_it(
    tournament, monkeypatch
):
    zoe = make_player(first_name="Zoé", last_name="Martin", country="FR")
    make_registration(tournament, player=zoe, is_substitute=True)
    rows = read_table("p.csv", "Name,Country\nZoé Martin,FR\nAnna Berg,SE\n".encode()).rows

    def forgetful(tournament_, rows_, *, acting_user):
        checked = check_rows(tournament_, rows_, acting_user=acting_user)
        checked[0].problems.clear()  # as if she were registered after the check
        checked[0].returning = zoe
        return checked

    monkeypatch.setattr("tournament.services.players.check_rows", forgetful)
    with pytest.raises(ValidationError, match="already exists"):
        players_import(tournament=tournament, rows=rows, acting_user=None)
    assert tournament.registrations.count() == 1
    assert not Player.objects.filter(first_name="Anna").exists()


@pytest.mark.django_db
def test_a_known_ema_number_with_a_strangers_name_is_a_problem(tournament):
    zoe = make_player(first_name="Zoé", last_name="Martin", country="FR", ema_number="90000001")
    content = "First name,Last name,Country,Club,EMA\nJean,Dupont,FR,,90000001\n"
    (row,) = check_rows(tournament, read_table("p.csv", content.encode()).rows)
    assert row.returning is None
    assert row.problems == [
        f"EMA number 90000001 belongs to Zoé Martin (#{zoe.pk}): correct the number or the name."
    ]
    with translation.override("fr"):
        (row,) = check_rows(tournament, read_table("p.csv", content.encode()).rows)
    assert row.problems[0].startswith("Le numéro EMA 90000001 appartient à Zoé Martin")


def test_apostrophes_in_a_csv_are_letters_not_quotation_marks():
    # The sniffer took ' for the quotation mark: Anna's row vanished into the club above.
    content = "Name;Nickname;Club\nKenji Tanaka;'Tiger';'s-Hertogenbosch\nAnna d'Arc;;Orléans\n"
    assert read_table("p.csv", content.encode()).rows == [
        {"name": "Kenji Tanaka", "nickname": "'Tiger'", "club": "'s-Hertogenbosch", "line": "2"},
        {"name": "Anna d'Arc", "nickname": "", "club": "Orléans", "line": "3"},
    ]


@pytest.mark.parametrize(
    "cell",
    [
        '"Tiger',  # never closed: the rows below were read as part of this cell
        '"The "Tiger"',  # closed too early
        '"' + "x" * 200_000,  # never closed in a big file: a server error
    ],
)
def test_a_stray_quotation_mark_in_a_csv_names_its_line(cell):
    content = f"First name,Last name,Nickname\nJean,Dupont,\nZoé,Martin,{cell}\nAnna,Berg,\n"
    with pytest.raises(ImportFileError, match="Line 3 of the file cannot be read"):
        read_table("p.csv", content.encode())


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["p.csv", "p.xlsx"])
def test_problems_name_the_line_of_the_file_even_after_blank_lines(tournament, name):
    rows = [
        ["Zoé", "Martin", "FR", "", "", ""],  # line 2
        ["", "", "", "", "", ""],
        ["Anna", "Berg", "Atlantis", "", "", ""],  # line 4
        ["", "", "", "", "", ""],
        ["ZOÉ", "MARTIN", "FR", "", "", ""],  # line 6
    ]
    content = csv_bytes(rows) if name.endswith(".csv") else xlsx_bytes(rows)
    zoe, anna, zoe_again = check_rows(tournament, read_table(name, content).rows)
    assert [zoe.line, anna.line, zoe_again.line] == [2, 4, 6]
    assert zoe_again.problems == ["Same player as row 2."]


@pytest.mark.parametrize("header", ["N° EMA", "Nº EMA", "N°EMA", "No. EMA", "EMA n°", "Nr EMA"])
def test_the_ema_number_column_is_found_whatever_its_abbreviation(header):
    # "N° EMA" was not recognised: the column was skipped and the numbers lost without a word.
    content = f"Nom;Prénom;Nationalité;{header}\nMartin;Zoé;FR;04010001\n".encode()
    (row,) = read_table("joueurs.csv", content).rows
    assert (row["ema_number"], row["country"]) == ("04010001", "FR")


def test_a_hidden_sheet_is_not_the_one_imported():
    # Last year's list on a hidden first sheet was imported instead of the visible one.
    workbook = Workbook()
    workbook.active.append(HEADERS)
    workbook.active.append(["Old", "Entry", "FR", "", "", ""])
    workbook.active.sheet_state = "hidden"
    players = workbook.create_sheet("Players")
    players.append(HEADERS)
    players.append(["Zoé", "Martin", "FR", "", "", ""])
    workbook.active = players
    buffer = io.BytesIO()
    workbook.save(buffer)
    (row,) = read_table("p.xlsx", buffer.getvalue()).rows
    assert (row["first_name"], row["last_name"]) == ("Zoé", "Martin")


@pytest.mark.django_db
def test_a_country_may_be_named_in_french(tournament):
    # A French list was refused row by row: "Unknown country “Allemagne”".
    content = "Nom;Prénom;Pays\nSchmidt;Hans;Allemagne\nVan Dijk;Eva;pays-bas\nBerg;Anna;Suède\n"
    rows = check_rows(tournament, read_table("joueurs.csv", content.encode()).rows)
    assert [(row.values["country"], row.problems) for row in rows] == [
        ("DE", []),
        ("NL", []),
        ("SE", []),
    ]


@pytest.mark.django_db
def test_a_substitute_cell_that_is_neither_yes_nor_no_is_a_problem_of_its_row(tournament):
    # "R" or "maybe" was read as "not a substitute": the player was then seated and ranked.
    headers = [*HEADERS, "Substitute"]
    cells = ["yes", True, "oui", "", "no", False, "non", "0", "maybe", "R"]
    rows = [[f"Player{index}", "Test", "FR", "", "", "", cell] for index, cell in enumerate(cells)]
    checked = check_rows(tournament, read_table("p.xlsx", xlsx_bytes(rows, headers)).rows)
    substitute = [row.values["substitute"] for row in checked]
    assert substitute[:8] == ["1", "1", "1", "", "", "", "", ""]
    assert [row.problems for row in checked[:8]] == [[]] * 8
    assert checked[8].problems == [
        "Substitute “maybe”: write yes for a substitute, no or nothing for a player."
    ]
    assert checked[9].problems == [
        "Substitute “R”: write yes for a substitute, no or nothing for a player."
    ]


@pytest.mark.parametrize("blank_lines", [1, 3])
def test_a_windows_semicolon_csv_with_blank_lines_is_read_in_columns(blank_lines):
    # French Excel's "CSV" (semicolons, BOM, CRLF) with a blank line between the players, or
    # a few at the end, came in as one column: "No name column found", though the first row
    # named them all. The separator was guessed from the rows' regularity, not the header.
    lines = [
        "PRÉNOM;NOM;Pays;Club;n° ema;ÉQUIPE",
        "Zoé;Lefèvre;France;Lyon Riichi Club;04010023;Lyon Riichi ",
        "Anders;Ångström ;Suède;Stockholm Mahjong;;Les Vikings",
        "太郎;山田;Japon;;;Les Vikings",
        *[""] * blank_lines,
        "Léa;Dubois;FR;Lyon Riichi Club;04010031;Lyon Riichi",
        "Jürgen;Müller;Allemagne;Hamburg Riichi;05020011;Hamburg",
        "Chloé;Martin;FRANCE;Paris Mahjong;04020077;Paris Mahjong",
    ]
    content = "\ufeff" + "\r\n".join(lines) + "\r\n"
    rows = read_table("inscrits.csv", content.encode()).rows
    assert [(row["first_name"], row["last_name"], row["line"]) for row in rows] == [
        ("Zoé", "Lefèvre", "2"),
        ("Anders", "Ångström", "3"),
        ("太郎", "山田", "4"),
        ("Léa", "Dubois", str(5 + blank_lines)),
        ("Jürgen", "Müller", str(6 + blank_lines)),
        ("Chloé", "Martin", str(7 + blank_lines)),
    ]
    assert rows[0]["team"] == "Lyon Riichi"


def test_in_french_the_columns_to_name_are_french_headers_the_import_reads():
    # The upload page and the "no name column" error told a French organiser to name the
    # columns "First name, Last name, …" in English, as if their Prénom / Nom headers would
    # not do, while the preview listed the French ones.
    with translation.override("fr"):
        help_text = str(ImportUploadForm().fields["file"].help_text)
        with pytest.raises(ImportFileError) as error:
            read_table("joueurs.csv", b"Classement\n3\n")
    for message in (help_text, str(error.value)):
        columns = message.split(" : ")[-1].rstrip(".").split(", ")
        assert columns[:2] == ["Prénom", "Nom"], message
        table = read_table("joueurs.csv", ";".join(columns).encode() + b"\nZoe;Martin\n")
        assert table.ignored_columns == [], message


@pytest.mark.django_db
def test_the_french_preview_does_not_make_every_known_player_a_man(client, organiser, tournament):
    # "Zoé Martin (n° 3) est déjà inscrit à ce tournoi" and "déjà connu : Léa Dubois (n° 4)
    # est inscrit de nouveau": masculine whoever the player. They now read for anyone.
    zoe = make_player(first_name="Zoé", last_name="Martin", country="FR")
    lea = make_player(first_name="Léa", last_name="Dubois", country="FR")
    anna = make_player(first_name="Anna", last_name="Nowak", country="PL")
    make_registration(tournament, player=zoe)
    client.force_login(organiser)
    client.cookies["django_language"] = "fr"
    upload = io.BytesIO("Prénom;Nom;Pays\nZoé;Martin;FR\nLéa;Dubois;FR\nAnna;Nowak;PL\n".encode())
    upload.name = "joueurs.csv"
    url = reverse("admin:tournament_tournament_import", args=[tournament.pk])
    page = client.post(url, {"file": upload}, follow=True).content.decode()
    assert f"Zoé Martin (n° {zoe.pk}) a déjà une inscription à ce tournoi." in page
    assert f"déjà dans la base : nouvelle inscription pour Léa Dubois (n° {lea.pk})" in page
    # No "de Anna": a name opening with a vowel would need "d’Anna"; "pour" reads right.
    assert f"nouvelle inscription pour Anna Nowak (n° {anna.pk})" in page
    assert "inscrit " not in page


# A returning player's record and the file: blanks are filled in, other values are named.
HELENE_ROW = "Prénom;Nom;Pays;Club;N° EMA\nHélène;Petit;FR;Lyon Riichi Club;04019999\n"


def helene_rows(content: str = HELENE_ROW) -> list[dict[str, str]]:
    return read_table("joueurs.csv", content.encode()).rows


@pytest.fixture
def co_organiser(django_user_model, tournament):
    """An organiser of `tournament` who is not an administrator."""
    user = django_user_model.objects.create_user("claire", password="pw-claire-123", is_staff=True)
    make_staff(tournament, user, TournamentStaff.Role.ORGANISER)
    return user


@pytest.mark.django_db
def test_a_returning_player_s_blank_ema_number_and_club_are_filled_in_from_the_file(
    tournament, co_organiser
):
    # Her record had neither: the EMA results export lacked her number, and seating's
    # "keep apart: clubs" could not see her club, though the file gave both.
    helene = make_player(first_name="Hélène", last_name="Petit", country="FR")
    (row,) = check_rows(tournament, helene_rows(), acting_user=co_organiser)
    assert (row.problems, row.returning, row.warnings) == ([], helene, [])
    assert row.changes == ["Added to the record: Club “Lyon Riichi Club”, EMA number “04019999”."]
    outcome = players_import(tournament=tournament, rows=helene_rows(), acting_user=co_organiser)
    assert (outcome.created, outcome.returning) == (1, 1)
    helene.refresh_from_db()
    assert (helene.club, helene.ema_number) == ("Lyon Riichi Club", "04019999")
    assert outcome.completed == ((helene, {"club": "Lyon Riichi Club", "ema_number": "04019999"}),)
    entry = AuditEntry.objects.get(action="players.import")
    assert entry.data["completed"] == [
        {
            "line": 2,
            "player": helene.pk,
            "name": "Hélène Petit",
            "fields": {"club": "Lyon Riichi Club", "ema_number": "04019999"},
        }
    ]


@pytest.mark.django_db
def test_a_value_on_record_is_kept_and_the_file_s_other_value_is_named(tournament, organiser):
    anna = make_player(
        first_name="Anna", last_name="Nowak", country="PL", club="Warsaw Mahjong", nickname="An"
    )
    content = "First name,Last name,Country,Club,Nickname\nAnna,Nowak,PL,Hamburg Riichi,an\n"
    (row,) = check_rows(tournament, helene_rows(content), acting_user=organiser)
    assert (row.problems, row.returning, row.changes) == ([], anna, [])
    # "an" is "An" in another case: the same nickname, nothing to say.
    assert row.warnings == [
        "Club on record: “Warsaw Mahjong”; the file’s “Hamburg Riichi” is not applied: "
        "change the player to update it."
    ]
    outcome = players_import(
        tournament=tournament, rows=helene_rows(content), acting_user=organiser
    )
    anna.refresh_from_db()
    assert (anna.club, anna.nickname) == ("Warsaw Mahjong", "An")
    assert outcome.left == ((anna, {"club": "Hamburg Riichi"}, "differs"),)
    entry = AuditEntry.objects.get(action="players.import")
    assert entry.data["not_applied"] == [
        {
            "line": 2,
            "player": anna.pk,
            "name": "Anna Nowak",
            "fields": {"club": "Hamburg Riichi"},
            "reason": "differs",
        }
    ]


@pytest.mark.django_db
def test_a_player_of_another_organiser_s_tournament_is_not_filled_in_and_the_row_says_why(
    tournament, co_organiser, organiser
):
    # The admin lets an organiser change a player registered only in tournaments they
    # organise: the import keeps to that rule, and an administrator may always.
    helene = make_player(first_name="Hélène", last_name="Petit", country="FR", club="")
    make_registration(make_tournament(), player=helene)
    (row,) = check_rows(tournament, helene_rows(), acting_user=co_organiser)
    assert (row.problems, row.returning, row.changes) == ([], helene, [])
    assert row.warnings == [
        "Not added to the record: Club “Lyon Riichi Club”, EMA number “04019999”.",
        f"Hélène Petit (#{helene.pk}) is also registered in a tournament you do not organise: "
        "only an administrator, or someone who organises every tournament this player is "
        "registered in, can change the record.",
    ]
    outcome = players_import(tournament=tournament, rows=helene_rows(), acting_user=co_organiser)
    helene.refresh_from_db()
    assert (helene.club, helene.ema_number, outcome.completed) == ("", "", ())
    assert outcome.left == (
        (helene, {"club": "Lyon Riichi Club", "ema_number": "04019999"}, "registered_elsewhere"),
    )
    assert AuditEntry.objects.get(action="players.import").data["not_applied"][0]["reason"] == (
        "registered_elsewhere"
    )

    tournament.registrations.all().delete()
    (row,) = check_rows(tournament, helene_rows(), acting_user=organiser)  # an administrator
    assert (row.warnings, len(row.changes)) == ([], 1)


@pytest.mark.django_db
def test_a_namesake_already_registered_is_a_warning_not_a_silent_second_registration(
    tournament, organiser
):
    # The documented rule stands (another EMA number is somebody else), but the organiser
    # is told before one more player is seated.
    first = "Prénom;Nom;Pays;N° EMA\nInès;Garcia;FR;00401007\n"
    second = "Prénom;Nom;Pays;N° EMA\nInès;Garcia;FR;04010071\n"
    players_import(tournament=tournament, rows=helene_rows(first), acting_user=organiser)
    ines = Player.objects.get(ema_number="00401007")
    (row,) = check_rows(tournament, helene_rows(second), acting_user=organiser)
    assert (row.problems, row.returning, row.changes) == ([], None, [])
    assert row.warnings == [
        f"Inès Garcia (#{ines.pk}, FR, EMA 00401007) is already registered in this tournament: "
        "this row registers a second person of that name. If it is the same person, remove "
        "the row from the file."
    ]
    outcome = players_import(tournament=tournament, rows=helene_rows(second), acting_user=organiser)
    other = Player.objects.get(ema_number="04010071")
    assert tournament.registrations.count() == 2
    assert outcome.beside_namesakes == ((other, (ines,)),)
    entry = AuditEntry.objects.filter(action="players.import").latest("pk")
    assert entry.data["beside_namesakes"] == [
        {"line": 2, "player": other.pk, "name": "Inès Garcia", "namesakes": [ines.pk]}
    ]


@pytest.mark.django_db
def test_the_notes_read_for_anyone_in_french(tournament, co_organiser):
    helene = make_player(first_name="Hélène", last_name="Petit", country="FR", club="Paris Mahjong")
    make_registration(make_tournament(), player=helene)
    ines = make_player(first_name="Inès", last_name="Garcia", country="FR", ema_number="00401007")
    make_registration(tournament, player=ines)
    content = HELENE_ROW + "Inès;Garcia;FR;;04010071\n"
    with translation.override("fr"):
        helene_row, ines_row = check_rows(
            tournament, helene_rows(content), acting_user=co_organiser
        )
        notes = [*helene_row.warnings, *ines_row.warnings]
    assert notes == [
        "Club dans la fiche : « Paris Mahjong » ; la valeur du fichier, « Lyon Riichi Club », "
        "n’est pas reprise.",
        "Pas d’ajout à la fiche : Numéro EMA « 04019999 ».",
        f"Hélène Petit (n° {helene.pk}) a aussi une inscription à un tournoi que vous "
        "n’organisez pas : seuls un administrateur, ou quelqu’un qui organise tous ses "
        "tournois, peuvent modifier sa fiche.",
        f"Inès Garcia (n° {ines.pk}, FR, EMA 00401007) a déjà une inscription à ce tournoi : "
        "cette ligne inscrit une deuxième personne de ce nom. S’il s’agit de la même personne, "
        "retirez la ligne du fichier.",
    ]


@pytest.mark.django_db
def test_the_preview_and_the_result_say_what_the_import_does_to_known_players(
    client, tournament, co_organiser
):
    helene = make_player(first_name="Hélène", last_name="Petit", country="FR")
    anna = make_player(first_name="Anna", last_name="Nowak", country="PL", club="Warsaw Mahjong")
    ines = make_player(first_name="Inès", last_name="Garcia", country="FR", ema_number="00401007")
    make_registration(tournament, player=ines)
    content = HELENE_ROW + "Anna;Nowak;PL;Hamburg Riichi;\nInès;Garcia;FR;;04010071\n"
    client.force_login(co_organiser)
    upload = io.BytesIO(content.encode())
    upload.name = "joueurs.csv"
    url = reverse("admin:tournament_tournament_import", args=[tournament.pk])
    page = client.post(url, {"file": upload}, follow=True).content.decode()
    assert "Added to the record: Club “Lyon Riichi Club”, EMA number “04019999”." in page
    assert "Club on record: “Warsaw Mahjong”; the file’s “Hamburg Riichi” is not applied" in page
    assert f"Inès Garcia (#{ines.pk}, FR, EMA 00401007) is already registered" in page
    assert "2 ready rows have warnings: read them before importing." in page
    helene.refresh_from_db()
    assert helene.club == ""  # the preview writes nothing

    confirm = reverse("admin:tournament_tournament_import_confirm", args=[tournament.pk])
    page = client.post(confirm, {}, follow=True).content.decode()
    assert "3 players registered (2 already known). 0 rows skipped." in page
    assert (
        f"Added to the records of players already known: Hélène Petit (#{helene.pk}): "
        "Club “Lyon Riichi Club”, EMA number “04019999”."
    ) in page
    assert (
        f"Not applied to the records of players already known: Anna Nowak (#{anna.pk}): "
        "Club “Hamburg Riichi” (the record has another value: change the player to update it)."
    ) in page
    other = Player.objects.get(ema_number="04010071")
    assert (
        f"Registered beside a namesake already in this tournament: Inès Garcia (#{other.pk}) "
        f"beside #{ines.pk}. If they are one person, delete the newer registration."
    ) in page


@pytest.mark.django_db
def test_an_e_mail_column_is_imported_onto_the_new_player_and_fills_a_returning_one(
    tournament, co_organiser
):
    # Mails to the players (registration, seating alerts) need their address; the organiser's
    # spreadsheet is where it comes from, under an English or a French header.
    known = make_player(first_name="Hélène", last_name="Petit", country="FR")
    content = (
        "Prénom;Nom;Pays;Courriel\n"
        "Hélène;Petit;FR;helene@example.org\n"
        "Zoé;Martin;FR;zoe@example.org\n"
    )
    rows = read_table("joueurs.csv", content.encode()).rows
    outcome = players_import(tournament=tournament, rows=rows, acting_user=co_organiser)
    assert (outcome.created, outcome.returning) == (2, 1)
    known.refresh_from_db()
    assert known.email == "helene@example.org"
    assert Player.objects.get(first_name="Zoé").email == "zoe@example.org"


@pytest.mark.django_db
def test_an_address_that_is_not_one_is_a_problem_of_its_row(tournament):
    rows = [["Zoé", "Martin", "FR", "", "", "", "zoe at example"]]
    headers = [*HEADERS, "E-mail"]
    (row,) = check_rows(tournament, read_table("p.xlsx", xlsx_bytes(rows, headers)).rows)
    assert row.problems == ["E-mail “zoe at example” is not an address such as name@example.org."]
