"""How names are compared: the forms in which two spellings of one name are equal.

Imports recognise players and teams by `name_key`/`text_key` (case, spaces and Unicode
variants ignored, accents kept); searching and sorting use `fold`, which drops the accents
too, so what people type without them still finds "Zoé" or "Yılmaz".
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.utils.text import slugify

if TYPE_CHECKING:
    from tournament.models import Registration

EAST_ASIAN_SCRIPTS = ("CJK", "HANGUL", "HIRAGANA", "KATAKANA")


def is_east_asian(text: str) -> bool:
    """Written in Chinese, Japanese or Korean script (family name first, no space)."""
    letters = [char for char in text if not char.isspace()]
    return bool(letters) and all(
        unicodedata.name(char, "").startswith(EAST_ASIAN_SCRIPTS) for char in letters
    )


def written_name(first_name: str, last_name: str) -> str:
    """A name as its owner writes it: family name first, no space, for Chinese, Japanese and
    Korean names (山田太郎, 김민준); "first last" otherwise (Zoé Martin).

    >>> written_name("太郎", "山田"), written_name("Zoé", "Martin")
    ('山田太郎', 'Zoé Martin')
    """
    if last_name and is_east_asian(first_name + last_name):
        return f"{last_name}{first_name}"
    return f"{first_name} {last_name}".strip()


def shown_name(first_name: str, last_name: str, public_name: str = "") -> str:
    """The name the pages show: the public name a player chose, else the legal name as its
    owner writes it. From the names alone, for the standings, which read them without a
    `Player`.

    >>> shown_name("Joanna", "Smith", "Jo Smith"), shown_name("太郎", "山田")
    ('Jo Smith', '山田太郎')
    """
    return public_name or written_name(first_name, last_name)


# Letters that Unicode does not decompose into a base letter and an accent, as they are
# typed on a keyboard without them: Yılmaz is found as "yilmaz", Søren as "soren", Þórður
# as "thordur".
UNACCENTED = str.maketrans(
    {"ı": "i", "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ð": "d", "ł": "l", "þ": "th"}
)
# How German and Scandinavian names are written without their letters: "Mueller", "Soeren".
SPELLED_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "æ": "ae", "ø": "oe", "å": "aa"})
# The apostrophes keyboards and word processors type, as one: "O’Connor" is found as "o'connor".
APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u2018\u02bc\u0060", "'"))
# Left out of a name's spelling run together: "O'Connor" is found as "oconnor", "Jean-Pierre"
# as "jeanpierre".
JOINERS = dict.fromkeys(map(ord, "'-"))
# Invisible characters that copy-paste from web pages and word processors leaves in cells.
ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
# The explicit bidirectional embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO, LRI,
# RLI, FSI, PDI).
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Control characters (C0, DEL, C1) and the bidirectional controls: nobody types them in a
# name, they come with a file or a paste, and a right-to-left override in a name reversed the
# sentence it was written in. A tab or a line break among them becomes a space.
CONTROLS = {
    code: " " if chr(code).isspace() else None
    for code in [*range(0x20), *range(0x7F, 0xA0), *map(ord, BIDI_CONTROLS)]
}
# Bidirectional classes of the characters that can reorder the text written around them.
REORDERING = {"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
FSI, PDI = "\u2068", "\u2069"


def strip_controls(text: str) -> str:
    """The text without control characters nor bidirectional controls, as names are stored.

    >>> strip_controls("Zoé\\x00 Mar\\u202etin\\tX")
    'Zoé Martin X'
    """
    return text.translate(CONTROLS)


def clean_text(text: str) -> str:
    """The text without control, bidirectional-control and zero-width characters, stripped,
    every run of spaces (non-breaking ones, tabs and line breaks included) made one plain
    space.

    >>> clean_text("  Jean\u00a0 Dupont\u200b\\x07 ")
    'Jean Dupont'
    """
    return " ".join(strip_controls(text).translate(ZERO_WIDTH).split())


def needs_isolation(text: str) -> bool:
    """Right-to-left letters or bidirectional controls: written inside a sentence, the text
    could reorder it (the `bdi` template filter and `isolate` keep it to itself).

    >>> needs_isolation("Zoé Martin"), needs_isolation("אבי כהן"), needs_isolation("\\u202e")
    (False, True, True)
    """
    return any(unicodedata.bidirectional(char) in REORDERING for char in text)


def isolate(text: str) -> str:
    """A name for plain text (a message, a sentence in a PDF): between the Unicode isolates
    FSI and PDI where it could reorder the sentence around it, unchanged otherwise. HTML uses
    the `bdi` filter (tournament.templatetags.names).

    >>> isolate("Zoé"), isolate("אבי") == "\\u2068אבי\\u2069"
    ('Zoé', True)
    """
    return f"{FSI}{text}{PDI}" if needs_isolation(text) else text


def text_key(text: str) -> str:
    """The form in which two spellings of a name compare equal: Unicode-compatible (NFKC),
    case-folded, spaces cleaned; accents are kept.

    >>> text_key("  PARIS  Riichi\u00a0Club") == text_key("paris riichi club")
    True
    >>> text_key("Zoé") == text_key("Zoe")
    False
    """
    folded = unicodedata.normalize("NFKC", clean_text(text)).casefold()
    return clean_text(unicodedata.normalize("NFKC", folded))


def fold(text: str) -> str:
    """`text_key` without accents, for matching and sorting what people type without them;
    every apostrophe is the keyboard's.

    >>> fold("ÉMILE") == fold("emile"), fold("Yılmaz"), fold("Søren Ærø"), fold("Łukasz")
    (True, 'yilmaz', 'soren aero', 'lukasz')
    >>> fold("O’Connor")
    "o'connor"
    """
    unaccented = text_key(text).translate(UNACCENTED).translate(APOSTROPHES)
    decomposed = unicodedata.normalize("NFKD", unaccented)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def name_key(first_name: str, last_name: str) -> str:
    """A person's whole name as `text_key`, in the order it is written: "zoé martin", and
    for Chinese, Japanese and Korean names family name then given name with no space, so a
    name split in two columns is the same as the name written whole.

    >>> name_key("太郎", "山田") == name_key("山田太郎", "") == name_key("山田 太郎", "")
    True
    >>> name_key("ZOÉ", "MARTIN") == name_key("Zoé", "Martin")
    True
    """
    written = text_key(written_name(first_name, last_name))
    return written.replace(" ", "") if is_east_asian(written) else written


def searchable(text: str) -> str:
    """`fold` of the text, then again with its letters spelled out, so that a search finds
    "Müller" as "muller" or "mueller"; a name with an apostrophe or a hyphen is also run
    together, as people type it ("oconnor").

    >>> searchable("Jürgen Müller")
    'jurgen muller juergen mueller'
    >>> searchable("Siobhán O’Connor-Ní")
    "siobhan o'connor-ni siobhan o'connor-ni siobhan oconnorni"
    """
    folded = fold(text)
    joined = folded.translate(JOINERS)
    spelled = fold(text.lower().translate(SPELLED_OUT))
    return f"{folded} {spelled}" + (f" {joined}" if joined != folded else "")


def player_search_text(first_name: str, last_name: str = "", *other_names: str) -> str:
    """What a search for a player looks in (`searchable`): first name, last name, the other
    names (nickname, public name), and the name as its owner writes it where that differs,
    so that 山田太郎, typed as every page shows it, finds the player entered as 太郎 / 山田.

    >>> player_search_text("太郎", "山田")
    '太郎 山田 山田太郎 太郎 山田 山田太郎'
    """
    names = [first_name, last_name, *other_names]
    written = written_name(first_name, last_name)
    if written != f"{first_name} {last_name}".strip():
        names.append(written)
    return searchable(" ".join(name for name in names if name))


def names_match(names: Iterable[str], query: str) -> bool:
    """Every word of the query is part of the names (first name, last name, other names), in
    any order and case, typed with or without accents or with its letters spelled out ("zoe
    mar" finds Zoé Martin), or as the name is written (山田太郎).

    >>> names_match(["Jürgen", "Müller", ""], "mueller jur"), names_match(["Zoé"], "zoey")
    (True, False)
    >>> names_match(["太郎", "山田", ""], "山田太郎")
    True
    """
    words = fold(query).split()
    haystack = player_search_text(*names)
    return bool(words) and all(word in haystack for word in words)


def is_placeholder_name(last_name: str) -> bool:
    """Whether a last name numbers a placeholder substitute ("Substitute 2",
    `Player.is_placeholder`), as the admin's regex does.

    >>> is_placeholder_name("2"), is_placeholder_name("Martin"), is_placeholder_name("２")
    (True, False, False)
    """
    return last_name.isascii() and last_name.isdigit()


@functools.lru_cache(maxsize=8192)
def name_sort_key(first_name: str, last_name: str, public_name: str = "") -> tuple[bool, str, str]:
    """Order of lists by last name ("Martin, Zoé"), or by the public name a player chose:
    names folded (`fold`), so Émile is among the E whatever the server's locale; placeholder
    substitutes after the players, 2 before 10. From the names alone, for the standings,
    which read them without a `Player`; kept per process, as folding a thousand names costs
    more than ranking them."""
    if public_name:
        return (False, fold(public_name), "")
    if is_placeholder_name(last_name):
        return (True, fold(first_name), last_name.zfill(6))
    return (False, fold(last_name or first_name), fold(first_name))


def player_sort_key(registration: Registration) -> tuple[bool, str, str]:
    """`name_sort_key` of a registration's player."""
    player = registration.player
    return name_sort_key(player.first_name, player.last_name, player.public_name)


def choice_sort_key(registration: Registration) -> tuple[bool, str, str]:
    """Order of choices that show the name as written ("Zoé Martin"), as `player_sort_key`
    but by that name."""
    if registration.player.is_placeholder:
        return player_sort_key(registration)
    return (False, fold(registration.player.display_name), "")


def username_of(name: str) -> str:
    """The user name an official's account gets from their name: in ASCII where the name has
    Latin letters ("Léa Dubois" → "lea.dubois", what any phone's keyboard types), else as
    written ("山田太郎"); the one an organiser would guess, and tell them."""
    name = strip_controls(name)
    slug = slugify(name) or slugify(name, allow_unicode=True)
    return slug.replace("-", ".")[:140]
