"""Right-to-left names (Hebrew, Arabic) for the PDFs.

reportlab draws characters in the order they are stored, left to right: "אבי כהן" came out
as "יבא ןהכ" read from the right, and Arabic letters unjoined and reversed. Browsers apply
the Unicode bidirectional algorithm and Arabic shaping; reportlab does so only with the
rlbidi and uharfbuzz packages, which are not dependencies. Names are short and sit in a
left-to-right page, so this is enough: each run of right-to-left text (its letters, and the
spaces and punctuation between them) is reversed in place, Arabic letters first set in
their joined forms (the presentation forms every PDF font with Arabic carries, built from
Unicode's own decompositions). Digits and Latin text keep their order.
"""

import re
import unicodedata
from functools import cache

FORMS = ("isolated", "final", "initial", "medial")
# Brackets inside a reversed run face the other way (Unicode's Bidi_Mirrored pairs).
MIRRORED = str.maketrans("()[]{}<>«»", ")(][}{><»«")
# A run: right-to-left letters (Hebrew, Arabic, their marks), with the spaces and
# punctuation between them; digits and Latin letters end it.
RTL_CHARS = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
RTL_RUN = re.compile(f"[{RTL_CHARS}](?:\\W*[{RTL_CHARS}])*")


def _is_rtl_letter(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("R", "AL")


@cache
def _presentation_forms() -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], dict]]:
    """Letter -> {form: glyph}, and (lam, alef) -> {form: ligature}, from the Arabic
    Presentation Forms-B block's decompositions ("<final> 0627")."""
    letters: dict[str, dict[str, str]] = {}
    ligatures: dict[tuple[str, str], dict[str, str]] = {}
    for code in range(0xFE70, 0xFEFD):
        char = chr(code)
        parts = unicodedata.decomposition(char).split()
        if len(parts) < 2 or parts[0].strip("<>") not in FORMS:
            continue
        form, bases = parts[0].strip("<>"), tuple(chr(int(part, 16)) for part in parts[1:])
        if len(bases) == 1:
            letters.setdefault(bases[0], {})[form] = char
        elif len(bases) == 2:
            ligatures.setdefault(bases, {})[form] = char
    return letters, ligatures


def _transparent(char: str) -> bool:
    """Vowel marks: they sit on a letter and do not break its joining."""
    return unicodedata.category(char) == "Mn"


def shape_arabic(text: str) -> str:
    """Arabic letters in their joined forms (initial, medial, final, isolated), lam-alef as
    its ligature; any other character unchanged. Logical order is kept."""
    letters, ligatures = _presentation_forms()
    chars = list(text)
    out: list[str] = []
    index = 0

    def neighbour(start: int, step: int) -> str | None:
        position = start + step
        while 0 <= position < len(chars) and _transparent(chars[position]):
            position += step
        return chars[position] if 0 <= position < len(chars) else None

    def joins_forward(char: str | None) -> bool:  # to the letter after it
        return char is not None and "initial" in letters.get(char, {})

    def joins_backward(char: str | None) -> bool:  # to the letter before it
        return char is not None and "final" in letters.get(char, {})

    while index < len(chars):
        char = chars[index]
        if char not in letters:
            out.append(char)
            index += 1
            continue
        after = neighbour(index, 1)
        joined_before = joins_forward(neighbour(index, -1)) and joins_backward(char)
        ligature = ligatures.get((char, after)) if after else None
        if ligature:  # lam-alef: one glyph, joining only to what comes before
            out.append(ligature["final" if joined_before else "isolated"])
            # Skip the alef, keeping any mark between the two letters.
            index += 1
            while chars[index] != after:
                out.append(chars[index])
                index += 1
            index += 1
            continue
        joined_after = joins_forward(char) and joins_backward(after)
        form = {
            (True, True): "medial",
            (True, False): "final",
            (False, True): "initial",
            (False, False): "isolated",
        }[(joined_before, joined_after)]
        out.append(letters[char].get(form, char))
        index += 1
    return "".join(out)


def _reversed(run: str) -> str:
    """The run backwards, each letter keeping its marks after it (where a font puts them)."""
    clusters: list[str] = []
    for char in run:
        if clusters and _transparent(char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return "".join(reversed(clusters)).translate(MIRRORED)


def visual(text: str) -> str:
    """The text in the order reportlab must draw it, left to right: each right-to-left run
    shaped, then reversed."""
    if not any(_is_rtl_letter(char) for char in text):
        return text
    return RTL_RUN.sub(lambda run: _reversed(shape_arabic(run.group())), text)
