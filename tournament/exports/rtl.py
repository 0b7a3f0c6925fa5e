"""Right-to-left names (Hebrew, Arabic) for the PDFs.

reportlab draws characters in the order they are stored, left to right: "אבי כהן" came out
as "יבא ןהכ" read from the right, and Arabic letters unjoined. Browsers apply the Unicode
bidirectional algorithm and Arabic shaping; for reportlab, arabic-reshaper sets Arabic
letters in their joined forms (the presentation forms PDF fonts with Arabic carry) and
python-bidi puts the text in drawing order, on a left-to-right page.
"""

from functools import cache

from arabic_reshaper import ArabicReshaper
from bidi import get_display

# Right-to-left letters: Hebrew, Arabic and their presentation forms.
RTL_RANGES = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFC))


@cache
def _reshaper() -> ArabicReshaper:
    # The Allah ligature (U+FDF2, common in names: "عبد الله") is missing from DejaVu Sans;
    # the letters it joins are not. Vowel marks are part of the name as typed: kept.
    return ArabicReshaper(configuration={"ARABIC LIGATURE ALLAH": False, "delete_harakat": False})


def shape_arabic(text: str) -> str:
    """Arabic letters in their joined forms (initial, medial, final, isolated), lam-alef as
    its ligature; logical order kept."""
    return _reshaper().reshape(text)


# An embedding or override stored in a name before names were cleaned would reverse the rest
# of its line: dropped. The isolates that keep a name's direction to itself (`names.isolate`)
# are read by the algorithm, then dropped too: the fonts have nothing to draw for them.
EMBEDDINGS = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e"))
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))


def visual(text: str) -> str:
    """The text in the order reportlab must draw it, left to right."""
    text = text.translate(EMBEDDINGS)
    if not any(low <= ord(char) <= high for char in text for low, high in RTL_RANGES):
        return text.translate(ISOLATES)
    return get_display(shape_arabic(text), base_dir="L").translate(ISOLATES)
