"""PDF fonts: every script prints from the fonts bundled in tournament/exports/fonts/, embedded,
whatever fonts the system has (none, on a bare server)."""

import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from reportlab.pdfbase import ttfonts

from scoring.exports.score_sheets import ScoreSheetsPdf
from scoring.exports.standings_pdf import StandingsPdf
from seating.exports.seating import SeatingPdf
from tests.conftest import make_player
from tournament.exports import pdf
from tournament.models import Round

# One name in each script the fonts must carry, as the exports write it.
SCRIPTS = [
    ("太郎", "山田", "JP", "山田太郎"),
    ("민준", "김", "KR", "김민준"),
    ("小明", "王", "CN", "王小明"),
    ("محمد", "عبد الله", "EG", "محمد عبد الله"),
    ("דוד", "כהן", "IL", "דוד כהן"),
    ("Zoé", "Łukasiewicz", "PL", "Zoé Łukasiewicz"),
    ("Hugo", "Bernard", "FR", "Hugo Bernard"),
    ("Νίκος", "Παππάς", "GR", "Νίκος Παππάς"),
]


def test_latin_text_is_set_in_an_embedded_unicode_font():
    assert pdf.fonts().regular == "Sans"
    assert pdf.markup("Zoé Łukasz <b>") == "Zoé Łukasz &lt;b&gt;"


def test_the_embedded_font_has_the_minus_sign_of_negative_scores():
    assert ord("−") in pdf.fonts().covered
    assert pdf.markup("−26.0") == "−26.0"  # no fallback font needed


def test_chinese_japanese_and_korean_switch_to_the_cjk_font():
    assert pdf.markup("山田 김 Zoé") == (
        '<font name="SansCJK">山田</font> <font name="SansCJK">김</font> Zoé'
    )


def test_the_fonts_are_read_from_the_bundled_folder_only(monkeypatch):
    opened: list[Path] = []
    open_font_file = ttfonts.TTFOpenFile

    def recording(name: str):
        found, file = open_font_file(name)
        opened.append(Path(found))
        return found, file

    # Where reportlab opens every TrueType file, searching its font path for a bare name.
    monkeypatch.setattr(ttfonts, "TTFOpenFile", recording)
    pdf.fonts.cache_clear()
    try:
        pdf.fonts()
    finally:
        pdf.fonts.cache_clear()
    assert sorted(path.name for path in opened) == sorted(
        path.name for path in pdf.FONT_DIR.glob("*.ttf")
    )
    assert all(path.parent == pdf.FONT_DIR for path in opened)


@pytest.fixture
def every_script(seated_round) -> Round:
    """The seated round's players, one a script: the standings list them before any result."""
    for seat, (first, last, country, _written) in zip(
        seated_round.seats.order_by("pk"), SCRIPTS, strict=True
    ):
        seat.registration.player = make_player(first_name=first, last_name=last, country=country)
        seat.registration.save()
    return seated_round


def poppler(tool: str, content: bytes, tmp_path: Path) -> str:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is missing (Debian: apt-get install poppler-utils)")
    path = tmp_path / "export.pdf"
    path.write_bytes(content)
    return subprocess.run(
        [tool, path, "-"] if tool == "pdftotext" else [tool, path],
        capture_output=True,
        check=True,
        text=True,
    ).stdout


@pytest.mark.parametrize(
    "export",
    [
        lambda round_: StandingsPdf(round_.tournament),
        SeatingPdf,
        ScoreSheetsPdf,
        lambda round_: ScoreSheetsPdf(round_, hands=True),
    ],
    ids=["standings", "seating", "score-sheets", "hand-by-hand-sheets"],
)
def test_every_script_prints_from_the_bundled_fonts(every_script, export, tmp_path):
    content = export(every_script).render()[2]
    # pdffonts: name, type, encoding, emb, sub, uni, object number and generation.
    rows = [line.split() for line in poppler("pdffonts", content, tmp_path).splitlines()[2:]]
    assert all(row[-5] == "yes" for row in rows), rows
    bundled = {ttfonts.TTFontFile(str(path)).name.decode() for path in pdf.FONT_DIR.glob("*.ttf")}
    # A subset's name is the font's own after a tag: AAAAAA+DroidSansFallback.
    assert {row[0].split("+")[-1] for row in rows} == bundled
    # Right-to-left names come back in reading order, Arabic in its joined forms (NFKC gives
    # the letters) between the embedding marks pdftotext adds.
    text = "".join(
        char
        for char in unicodedata.normalize("NFKC", poppler("pdftotext", content, tmp_path))
        if unicodedata.category(char) != "Cf"
    )
    for *_name, written in SCRIPTS:
        assert written in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "last", "shown", "listed"),
    [
        ("Zoé", "Martin", "Zoé Martin", "Martin, Zoé"),
        ("太郎", "山田", "山田太郎", "山田太郎"),
        ("민준", "김", "김민준", "김민준"),
        ("Ken", "", "Ken", "Ken"),
        ("Substitute", "2", "Substitute 2", "Substitute 2"),  # a placeholder substitute
    ],
)
def test_display_and_sorted_names(first, last, shown, listed):
    player = make_player(first_name=first, last_name=last)
    assert player.display_name == shown
    assert player.sorted_name == listed
