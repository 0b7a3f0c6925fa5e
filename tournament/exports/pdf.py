"""Shared PDF building (reportlab Platypus): Unicode fonts, styles, page header and numbers.

Player names come in any script ("Zoé", "Łukasz", "山田太郎", "김민준", "דוד", "محمد"). Text is
set in DejaVu Sans (Latin, Greek, Cyrillic, Hebrew, Arabic); runs of characters it lacks
switch to Droid Sans Fallback (Chinese, Japanese, Hangul). Both are bundled in `fonts/`, not
looked up on the system, and embedded (subset) in every PDF: a server without any font
package prints every name, and every PDF viewer shows it. They are TrueType: reportlab
cannot embed PostScript (CFF) outlines such as Noto Sans CJK's. A character neither has
(Thai, rare CJK Extension A) prints as DejaVu's empty box, visibly missing: reportlab's
Adobe CID fonts would have some of them, but are never embedded, and browsers' PDF viewers
leave them blank.
Hebrew and Arabic names are put in drawing order and Arabic letters joined first
(`tournament.exports.rtl`).
"""

import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

from tournament.exports.rtl import visual
from tournament.formatting import format_date_range
from tournament.models import Tournament

FONT_DIR = Path(__file__).parent / "fonts"


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str
    cjk: str
    covered: frozenset[int]
    cjk_covered: frozenset[int]


def _register(name: str, file_name: str) -> frozenset[int]:
    """Register a bundled font; the characters it covers."""
    font = TTFont(name, str(FONT_DIR / file_name))
    pdfmetrics.registerFont(font)
    return frozenset(font.face.charToGlyph)


@cache
def fonts() -> Fonts:
    """Register the bundled fonts once per process and say which characters each covers."""
    covered = _register("Sans", "DejaVuSans.ttf")
    _register("Sans-Bold", "DejaVuSans-Bold.ttf")
    cjk_covered = _register("SansCJK", "DroidSansFallback.ttf")
    return Fonts("Sans", "Sans-Bold", "SansCJK", covered, cjk_covered)


def _font_for(char: str, available: Fonts) -> str | None:
    """The CJK font for a character only it has; None: the paragraph's own font."""
    code = ord(char)
    if code in available.cjk_covered and code not in available.covered and not char.isspace():
        return available.cjk
    return None


def markup(text: object) -> str:
    """Escape text for a Paragraph and wrap runs the main font lacks in a fallback font;
    right-to-left names (Hebrew, Arabic) in the order they are drawn (`rtl.visual`)."""
    available = fonts()
    parts: list[str] = []
    current: str | None = None
    run: list[str] = []

    def flush() -> None:
        if run:
            chunk = escape("".join(run))
            parts.append(f'<font name="{current}">{chunk}</font>' if current else chunk)
            run.clear()

    for char in visual(str(text)):
        font = _font_for(char, available)
        if font != current:
            flush()
            current = font
        run.append(char)
    flush()
    return "".join(parts)


@cache
def styles() -> dict[str, ParagraphStyle]:
    available = fonts()
    # A word too long for its cell breaks after a hyphen of its own ("Featherstonehaugh-" /
    # "Cholmondeley"), not wherever the cell ends ("Fe" / "atherstoneha" / "ugh-Cholmon").
    base = ParagraphStyle(
        "base", fontName=available.regular, fontSize=9.5, leading=12, embeddedHyphenation=2
    )
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "number": ParagraphStyle("number", parent=base, alignment=TA_RIGHT),
        "bold": ParagraphStyle("bold", parent=base, fontName=available.bold),
        "head": ParagraphStyle(
            "head", parent=base, fontName=available.bold, fontSize=8.5, leading=10.5
        ),
        "title": ParagraphStyle(
            "title", parent=base, fontName=available.bold, fontSize=16, leading=20, spaceAfter=4
        ),
        "subtitle": ParagraphStyle(
            "subtitle", parent=base, fontSize=10, leading=13, textColor=colors.HexColor("#444")
        ),
        "h2": ParagraphStyle(
            "h2", parent=base, fontName=available.bold, fontSize=13, leading=16, spaceBefore=6
        ),
    }


def para(text: object, style: str = "base") -> Paragraph:
    return Paragraph(markup(text), styles()[style])


def text_width(text: str, font: str, size: float) -> float:
    """The width of text set in `font`, its characters that font lacks in their fallback."""
    available = fonts()
    return sum(stringWidth(char, _font_for(char, available) or font, size) for char in str(text))


def fitted_para(text: object, style: str, width: float, smallest: float = 6) -> Paragraph:
    """A paragraph whose every word fits `width`, the font made smaller if need be (down to
    `smallest`): a name in a narrow cell wraps between its words, never inside one. A word
    may break after its own hyphen."""
    base = styles()[style]
    words = [part for word in str(text).split() for part in re.split(r"(?<=-)", word) if part]
    widest = max((text_width(word, base.fontName, base.fontSize) for word in words), default=0)
    if widest <= width:
        return para(text, style)
    # A little under: a word exactly as wide as the cell is split by reportlab all the same.
    size = max(smallest, base.fontSize * width / widest * 0.98)
    fitted = ParagraphStyle(
        f"{style}-{size:.2f}",
        parent=base,
        fontSize=size,
        leading=base.leading * size / base.fontSize,
    )
    return Paragraph(markup(text), fitted)


def grid_table(
    rows: list[list], *, widths: list[float] | None = None, header_rows: int = 1, zebra=True
) -> Table:
    """A table with a repeated header row, thin grid and light zebra stripes."""
    table = Table(rows, colWidths=widths, repeatRows=header_rows)
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), fonts().regular),  # not reportlab's Helvetica
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999")),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.HexColor("#e8e8e8")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]
    if zebra:
        for index in range(header_rows + 1, len(rows), 2):
            commands.append(("BACKGROUND", (0, index), (-1, index), colors.HexColor("#f6f6f6")))
    table.setStyle(TableStyle(commands))
    return table


def tournament_subtitle(tournament: Tournament) -> str:
    parts = [
        format_date_range(tournament.start_date, tournament.end_date),
        tournament.venue,
        str(tournament.get_ruleset_display()),
    ]
    return " · ".join(part for part in parts if part)


class NumberedCanvas(Canvas):
    """Holds every page until the end so each footer can say "page n of m"."""

    footer: Callable[["NumberedCanvas", int, int], None] | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            if self.footer:
                self.footer(self, number, total)
            super().showPage()
        super().save()


def build_pdf(
    flowables: Iterable,
    *,
    title: str,
    tournament: Tournament,
    pagesize=A4,
    margins: float = 14 * mm,
) -> bytes:
    """Lay out the flowables; every page's footer names the document, says "page n of m"
    and when it was printed."""
    buffer = io.BytesIO()
    # The month by name, as in the subtitle: a PDF travels, and 05/12/2026 is 12 May in one
    # country and 5 December in another.
    printed = date_format(timezone.localtime(), "DATETIME_FORMAT")
    footer_left = para(f"{tournament.name} · {title}", "small")
    width, _height = pagesize

    def footer(canvas: NumberedCanvas, number: int, total: int) -> None:
        canvas.saveState()
        canvas.setFont(fonts().regular, 7.5)
        canvas.setFillColor(colors.HexColor("#555"))
        footer_left.wrapOn(canvas, width * 0.6, 10 * mm)
        footer_left.drawOn(canvas, margins, 7 * mm)
        page_text = _("Page %(page)s of %(pages)s") % {"page": number, "pages": total}
        canvas.drawRightString(width - margins, 8 * mm, f"{page_text} · {printed}")
        canvas.restoreState()

    canvas_class = type("FooterCanvas", (NumberedCanvas,), {"footer": staticmethod(footer)})
    document = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=margins,
        rightMargin=margins,
        topMargin=margins,
        bottomMargin=margins + 4 * mm,
        title=f"{tournament.name} – {title}",
        author=tournament.name,
        # Not reportlab's default, Helvetica, which no PDF embeds.
        initialFontName=fonts().regular,
    )
    document.build(list(flowables), canvasmaker=canvas_class)
    return buffer.getvalue()
