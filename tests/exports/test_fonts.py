"""PDF fonts: every script renders, with or without a TrueType CJK font on the system."""

import pytest

from seating.exports.seating import SeatingPdf
from tests.conftest import make_player
from tests.exports.conftest import WRITTEN, pdf_squashed
from tournament.exports import pdf


@pytest.fixture
def without_truetype_cjk(monkeypatch):
    """As on a machine with only fonts-noto-cjk (CFF outlines, unusable by reportlab)."""
    monkeypatch.setattr(pdf, "CJK_FONTS", [])
    pdf.fonts.cache_clear()
    pdf.styles.cache_clear()
    yield
    pdf.fonts.cache_clear()
    pdf.styles.cache_clear()


def test_latin_text_is_set_in_an_embedded_unicode_font():
    if pdf.find_font_file("DejaVuSans.ttf") is None:
        pytest.skip("DejaVu Sans is not installed (Debian: fonts-dejavu-core)")
    assert pdf.fonts().regular == "Sans"
    assert pdf.markup("Zoé Łukasz <b>") == "Zoé Łukasz &lt;b&gt;"


def test_the_embedded_font_has_the_minus_sign_of_negative_scores():
    if pdf.find_font_file("DejaVuSans.ttf") is None:
        pytest.skip("DejaVu Sans is not installed (Debian: fonts-dejavu-core)")
    assert ord("−") in pdf.fonts().covered
    assert pdf.markup("−26.0") == "−26.0"  # no fallback font needed


def test_cjk_falls_back_to_cid_fonts_without_a_truetype_cjk_font(without_truetype_cjk):
    assert pdf.fonts().cjk is None
    assert pdf.markup("山田 김") == (
        '<font name="HeiseiKakuGo-W5">山田</font> <font name="HYGothic-Medium">김</font>'
    )


@pytest.mark.usefixtures("without_truetype_cjk")
def test_pdf_keeps_every_name_with_cid_fallback(seated_round):
    _name, _type, content = SeatingPdf(seated_round).render()
    squashed = pdf_squashed(content)
    for name in WRITTEN:
        assert name in squashed


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
