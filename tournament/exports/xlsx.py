"""Shared XLSX writing: a header row, frozen and filtered, then one row per record.

Every text cell is written as a literal string. openpyxl stores a str starting with "=" as a
formula (a player named "=2+3" would show 5, "=HYPERLINK(...)" would be live) and "#N/A" as
an error; names come from imports, so they are data, never formulas. A control character,
which a worksheet cannot hold, becomes a space.
"""

import io
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import datetime
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.cell import Cell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

# What spreadsheets read as the start of a formula when a cell is typed or edited.
FORMULA_PREFIXES = ("=", "+", "-", "@")
# Scores (the Decimals of `score_decimal`) as the pages write them: +63.0, -22.1, 0.0,
# +3.33; the General format would show 63 beside 63.5.
SCORE_FORMAT = "+0.0#;-0.0#;0.0"


def writable(value: object) -> object:
    """The value as a worksheet can hold it. openpyxl refuses control characters (the whole
    export failed), and the admin keeps them: a name pasted from Word carries its line
    break, \\x0b ("Jean\\x0bPierre" is written "Jean Pierre")."""
    if isinstance(value, str):
        return ILLEGAL_CHARACTERS_RE.sub(" ", value)
    return value


def keep_text(cell: Cell) -> None:
    """Store a text cell as a string; Excel keeps a quote-prefixed one text even when edited."""
    if isinstance(cell.value, str):
        cell.data_type = "s"
        if cell.value.startswith(FORMULA_PREFIXES):
            cell.quotePrefix = True


def display_width(value: object) -> int:
    """How many columns of a spreadsheet's default font the value takes: a Chinese,
    Japanese or Korean character is as wide as two Latin ones."""
    text = "" if value is None else str(value)
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def workbook_bytes(
    sheets: Iterable[tuple[str, Sequence[str], Iterable[Sequence[object]]]],
    *,
    title: str = "",
    subject: str = "",
    created: datetime | None = None,
) -> bytes:
    """Write sheets of (title, headers, rows); numbers stay numbers, text stays text, and
    Decimals (scores) are shown with one or two decimals and their sign. The document's
    title, subject and creation time (UTC) name the workbook in a file manager or an
    archive, whatever its file is renamed to."""
    workbook = Workbook()
    workbook.remove(workbook.active)
    workbook.properties.title = writable(title) or None
    workbook.properties.subject = writable(subject) or None
    if created is not None:
        workbook.properties.created = created
    for title, headers, rows in sheets:
        sheet = workbook.create_sheet(title[:31])
        sheet.append(list(headers))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
            keep_text(cell)
        widths = [display_width(header) for header in headers]
        for row in rows:
            row = [writable(value) for value in row]
            sheet.append(row)
            for cell, value in zip(sheet[sheet.max_row], row, strict=False):
                keep_text(cell)
                if isinstance(value, Decimal):
                    cell.number_format = SCORE_FORMAT
            for index, value in enumerate(row):
                widths[index] = max(widths[index], display_width(value))
        sheet.freeze_panes = "A2"
        if sheet.max_row > 1:
            sheet.auto_filter.ref = sheet.dimensions
        for index, width in enumerate(widths, start=1):
            sheet.column_dimensions[get_column_letter(index)].width = min(max(width + 2, 6), 50)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
