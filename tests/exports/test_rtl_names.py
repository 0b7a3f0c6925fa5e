"""Hebrew and Arabic names in the PDFs: drawn right to left, Arabic letters joined.

reportlab draws characters in stored order, left to right; without reordering, "אבי כהן"
read from the right said "יבא ןהכ". pypdf's text extraction puts right-to-left text back
in reading order, so a correctly drawn name comes back as it was typed.
"""

import unicodedata

import pytest

from scoring.exports.score_sheets import ScoreSheetsPdf
from seating.exports.seating import SeatingPdf
from tests.conftest import make_player
from tests.exports.conftest import pdf_text
from tournament.exports.pdf import markup
from tournament.exports.rtl import shape_arabic, visual


def test_a_hebrew_name_is_drawn_from_the_right():
    assert visual("אבי כהן") == "ןהכ יבא"
    # Left-to-right text around it keeps its order.
    assert visual("אבי כהן (withdrawn)") == "ןהכ יבא (withdrawn)"
    assert visual("Zoé Martin") == "Zoé Martin"


def test_arabic_letters_take_their_joined_forms():
    # محمد: meem initial, hah medial, meem medial, dal final.
    assert shape_arabic("محمد") == "\ufee3\ufea4\ufee4\ufeaa"
    # Lam-alef is one glyph; alef does not join forward, so the meem after it stands alone.
    assert shape_arabic("سلام") == "\ufeb3\ufefc\ufee1"
    # Joined forms are the same letters (compatibility decomposition).
    assert unicodedata.normalize("NFKC", shape_arabic("محمد عبد الله")) == "محمد عبد الله"


def test_a_number_inside_a_hebrew_name_stays_in_its_place():
    # The Unicode bidirectional algorithm: the number is part of the right-to-left run.
    assert visual("דוד 2 כהן") == "ןהכ 2 דוד"


def test_markup_puts_a_name_in_drawing_order():
    assert markup("אבי כהן") == "ןהכ יבא"


@pytest.mark.parametrize(("first", "last"), [("אבי", "כהן"), ("محمد", "عبد الله")])
@pytest.mark.parametrize("export", [SeatingPdf, ScoreSheetsPdf])
def test_right_to_left_names_read_right_in_the_pdfs(seated_round, first, last, export):
    player = make_player(first_name=first, last_name=last, country="IL")
    registration = seated_round.seats.get(table_number=1, wind="E").registration
    registration.player = player
    registration.save()
    text = unicodedata.normalize("NFKC", pdf_text(export(seated_round).render()[2]))
    assert f"{first} {last}" in text
