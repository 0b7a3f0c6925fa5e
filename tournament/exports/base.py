"""The one contract every export follows (after pretix's exporters)."""

from typing import Protocol


class Export(Protocol):
    def render(self) -> tuple[str, str, bytes]:
        """Return (filename, content type, file content)."""


XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF_CONTENT_TYPE = "application/pdf"
