"""Limits on what users send: file size, row count, zip bombs, wrong encodings, text lengths.

Each refused upload, sent through the organiser's import page, gives a message in the
organiser's terms and writes nothing (no player, no registration, no pending import).
"""

import importlib
import inspect
import io
import tracemalloc
import zipfile

import pytest
from django import forms
from django.urls import reverse
from django.utils import translation
from openpyxl import Workbook
from openpyxl.styles import Font

from tournament.importing import MAX_UNZIPPED_BYTES, ImportFileError, check_rows, read_table
from tournament.models import Player, Registration

HEADERS = ["First name", "Last name", "Country"]


def xlsx_bytes(rows: list[list[object]]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(HEADERS)
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def csv_bytes(count: int, encoding: str = "utf-8") -> bytes:
    lines = [",".join(HEADERS)] + [f"Zoé{index},Müller,FR" for index in range(count)]
    return ("\n".join(lines) + "\n").encode(encoding)


def zip_bomb() -> bytes:
    """A valid zip whose one member inflates past the limit (it compresses ~1000:1)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (MAX_UNZIPPED_BYTES + 1024))
    return buffer.getvalue()


@pytest.fixture
def upload(admin_client, tournament):
    """POST a file to the organiser's import page; returns the response."""

    def send(name: str, content: bytes):
        url = reverse("admin:tournament_tournament_import", args=[tournament.pk])
        file = io.BytesIO(content)
        file.name = name
        return admin_client.post(url, {"file": file})

    return send


def assert_refused(response, tournament, words: str) -> None:
    assert response.status_code == 200  # the upload page again, with the message
    errors = " ".join(response.context["form"].errors["file"])
    assert words in errors
    assert not Player.objects.exists()
    assert not Registration.objects.filter(tournament=tournament).exists()
    assert not [key for key in response.client.session.keys() if key.startswith("player-import")]


@pytest.mark.django_db
def test_a_file_over_the_size_limit_is_refused_before_it_is_read(
    upload, tournament, settings, monkeypatch
):
    settings.IMPORT_MAX_BYTES = 1024 * 1024
    content = csv_bytes(60_000)
    assert len(content) > settings.IMPORT_MAX_BYTES

    def must_not_read(*args):
        raise AssertionError("the oversized file was read")

    monkeypatch.setattr("tournament.admin.player_import.read_table", must_not_read)
    assert_refused(upload("players.csv", content), tournament, "larger than 1 MB")


@pytest.mark.django_db
def test_a_file_with_too_many_rows_is_refused(upload, tournament, settings):
    settings.IMPORT_MAX_ROWS = 50
    response = upload("players.xlsx", xlsx_bytes([[f"A{i}", "B", "FR"] for i in range(51)]))
    assert_refused(response, tournament, "51 rows; at most 50")


@pytest.mark.django_db
def test_a_file_at_the_row_limit_is_accepted(settings):
    settings.IMPORT_MAX_ROWS = 50
    assert len(read_table("players.csv", csv_bytes(50)).rows) == 50


@pytest.mark.django_db
def test_a_zip_bomb_is_refused_without_being_unpacked(upload, tournament):
    content = zip_bomb()
    assert len(content) < 1024 * 1024  # small on the wire, huge once unpacked
    assert_refused(upload("players.xlsx", content), tournament, "too large once unpacked")


def far_corner_workbook(value: object) -> bytes:
    """A few KB whose sheet declares the whole grid, A1:XFD1048576: a header, one player and
    the very last cell (`value`, or only a style when None). Padded to that grid, every row
    was 16,384 cells (0.13 MB) and the million rows took gigabytes."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(HEADERS)
    sheet.append(["Zoé", "Martin", "FR"])
    if value is None:
        sheet["XFD1048576"].font = Font(bold=True)
    else:
        sheet["XFD1048576"] = value
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def peak_memory(read) -> tuple[object, int]:
    """What `read()` returns or raises, and the most memory it held at once (bytes)."""
    tracemalloc.start()
    try:
        try:
            outcome = read()
        except ImportFileError as error:
            outcome = error
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.django_db
def test_a_workbook_declaring_the_whole_grid_is_refused_in_little_memory(upload, tournament):
    content = far_corner_workbook("x")
    assert len(content) < 10_000
    error, peak = peak_memory(lambda: read_table("players.xlsx", content))
    assert isinstance(error, ImportFileError)
    assert "too large" in str(error)
    assert "row 1048576" in str(error)
    assert peak < 4 * 1024 * 1024
    assert_refused(upload("players.xlsx", content), tournament, "too large")


def test_empty_rows_down_to_the_end_of_the_grid_are_ignored_in_little_memory():
    table, peak = peak_memory(lambda: read_table("players.xlsx", far_corner_workbook(None)))
    assert [row["first_name"] for row in table.rows] == ["Zoé"]
    assert peak < 4 * 1024 * 1024


def test_a_csv_with_data_far_to_the_right_is_refused():
    content = ",".join(HEADERS) + "\nZoé,Martin,FR" + "," * 500 + "x\n"
    with pytest.raises(ImportFileError, match="too large.*row 2 has data in column SI"):
        read_table("players.csv", content.encode())
    with translation.override("fr"), pytest.raises(ImportFileError, match="trop volumineux"):
        read_table("players.csv", content.encode())


@pytest.mark.django_db
def test_a_file_that_is_not_a_spreadsheet_is_refused(upload, tournament):
    response = upload("players.xlsx", b"%PDF-1.7 this is not a workbook" * 100)
    assert_refused(response, tournament, "not a readable Excel workbook")


@pytest.mark.django_db
def test_a_truncated_workbook_is_refused(upload, tournament):
    content = xlsx_bytes([["Zoé", "Martin", "FR"]])
    assert_refused(upload("players.xlsx", content[: len(content) // 2]), tournament, ".xlsx")


@pytest.mark.django_db
def test_a_workbook_whose_sheet_is_cut_short_is_refused(upload, tournament):
    original = zipfile.ZipFile(io.BytesIO(xlsx_bytes([["Zoé", "Martin", "FR"]])))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as damaged:
        for info in original.infolist():
            data = original.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data[: len(data) // 2]  # opens fine, fails half-way through the rows
            damaged.writestr(info, data)
    assert_refused(upload("players.xlsx", buffer.getvalue()), tournament, "not a readable Excel")


@pytest.mark.django_db
def test_a_csv_in_another_encoding_is_refused_with_how_to_fix_it(upload, tournament):
    response = upload("players.csv", csv_bytes(3, encoding="latin-1"))
    assert_refused(response, tournament, "not in UTF-8")


@pytest.mark.django_db
def test_a_utf16_csv_is_refused(upload, tournament):
    assert_refused(upload("players.csv", csv_bytes(3, encoding="utf-16")), tournament, "UTF-8")


@pytest.mark.django_db
def test_a_binary_file_named_csv_is_refused(upload, tournament):
    assert_refused(upload("players.csv", b"First name\n\x00\x01\x02"), tournament, "not a CSV")


@pytest.mark.django_db
def test_another_file_type_is_refused(upload, tournament):
    assert_refused(upload("players.ods", b"PK\x03\x04"), tournament, ".xlsx or .csv")


@pytest.mark.django_db
def test_a_name_longer_than_the_field_is_a_row_problem_not_a_crash(tournament):
    rows = read_table("players.csv", ("First name,Last name\n" + "Z" * 101 + ",M\n").encode()).rows
    (row,) = check_rows(tournament, rows)
    assert any("longer than 100 characters" in str(problem) for problem in row.problems)


def test_an_upload_cannot_exceed_the_request_memory_limits(settings):
    assert settings.IMPORT_MAX_BYTES <= settings.FILE_UPLOAD_MAX_MEMORY_SIZE
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 10 * 1024 * 1024


def test_read_table_refuses_an_empty_file():
    with pytest.raises(ImportFileError):
        read_table("players.csv", b"")


FORM_MODULES = [
    "scoring.forms",
    "seating.forms",
    "tournament.admin.player_import",
    "tournament.admin.players",
    "tournament.admin.registrations",
    "tournament.admin.rounds",
    "tournament.admin.tournaments",
]


def _form_classes():
    for module_name in FORM_MODULES:
        module = importlib.import_module(module_name)
        for _name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, forms.BaseForm) and value.__module__ == module_name:
                yield value


@pytest.mark.parametrize("form_class", list(_form_classes()), ids=lambda form: form.__name__)
def test_every_free_text_field_of_a_form_has_a_length_limit(form_class):
    unbounded = [
        name
        for name, field in form_class.base_fields.items()
        if type(field) is forms.CharField and field.max_length is None
    ]
    assert not unbounded, f"{form_class.__name__}: no max_length on {unbounded}"
