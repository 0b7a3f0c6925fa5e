"""Shared XLSX writing: a header row, frozen and filtered, then one row per record."""

import io
from collections.abc import Iterable, Sequence

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter


def workbook_bytes(
    sheets: Iterable[tuple[str, Sequence[str], Iterable[Sequence[object]]]],
) -> bytes:
    """Write sheets of (title, headers, rows); numbers stay numbers."""
    workbook = Workbook()
    workbook.remove(workbook.active)
    for title, headers, rows in sheets:
        sheet = workbook.create_sheet(title[:31])
        sheet.append(list(headers))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        widths = [len(str(header)) for header in headers]
        for row in rows:
            sheet.append(list(row))
            for index, value in enumerate(row):
                widths[index] = max(widths[index], len(str(value if value is not None else "")))
        sheet.freeze_panes = "A2"
        if sheet.max_row > 1:
            sheet.auto_filter.ref = sheet.dimensions
        for index, width in enumerate(widths, start=1):
            sheet.column_dimensions[get_column_letter(index)].width = min(max(width + 2, 6), 50)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
