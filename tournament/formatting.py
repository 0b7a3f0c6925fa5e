"""Scores and table points as people read them, in the reader's locale.

Scores are exact Fractions in the engine. They are shown with one decimal (+27.3) when that
is exact, which is always the case for points ÷ 1 000 plus whole or half uma, else with two
(a referee's penalty of −12.25 is shown as it was given); only a value that two decimals
cannot hold exactly (e.g. an uma split three ways) is rounded, shown with a trailing "…"
(+3.33…) and its exact value where the page has room for it.

An event's dates are written once, as short as they read unambiguously ("29–30 November
2026", not "29 November 2026 – 29 November 2026" for a one-day event).

Formatting happens here, at the edge, for every page and export alike; nothing here reads
the database.
"""

import datetime
from decimal import Decimal
from fractions import Fraction

from django.utils.formats import date_format, number_format

# Digits before the point from which a number is no score (see _number).
ABSURD_DIGITS = 18
# U+2212, the minus sign: a hyphen is shorter than a plus and reads as a dash in print.
MINUS = "−"


def is_exact_tenths(value: Fraction) -> bool:
    return (Fraction(value) * 10).denominator == 1


def score_decimal(value: Fraction | int | None) -> Decimal | None:
    """The value as a Decimal with one decimal if exact, else two, rounded half to even if
    need be. Rounded as a Fraction and built digit by digit: Decimal arithmetic keeps 28
    digits and raised on a total of 10²⁷ (a sheet stored before the engine's ranges), which
    every page of the standings then failed on."""
    if value is None:
        return None
    value = Fraction(value)
    places = 1 if is_exact_tenths(value) else 2
    sign, digits, _ = Decimal(round(value * 10**places)).as_tuple()
    return Decimal((sign, digits, -places))


def score_text(value: Fraction | int, *, signed: bool) -> tuple[str, bool]:
    """The score as shown, and whether it is rounded (two decimals cannot hold 10/3, so say
    so): one `score_decimal` for both, as a ranking formats every cell of every player."""
    decimal = score_decimal(value)
    rounded = Fraction(decimal) != Fraction(value)
    text = _number(decimal.copy_abs(), decimal_pos=-decimal.as_tuple().exponent)
    if rounded:
        text += "…"
    if decimal < 0:
        return MINUS + text, rounded
    if signed and decimal > 0:
        return "+" + text, rounded
    return text, rounded


def format_score(value: Fraction | int | None, *, signed: bool = True) -> str:
    """+27.3 / −4.0 / 0.0 / −12.25 in the reader's locale (decimal comma in French), +3.33…
    when rounded; "" for None."""
    if value is None:
        return ""
    return score_text(value, signed=signed)[0]


def format_points(points: int | None) -> str:
    """Table points with the locale's thousands separator (25 000 / 25,000), below zero with
    the minus sign of the scores (−5,300). As a Decimal, whose digits Python writes however
    many there are (an int of more than 4 300 digits it refuses to)."""
    if points is None:
        return ""
    text = _number(Decimal(abs(points)), force_grouping=True)
    return MINUS + text if points < 0 else text


def _number(value: Decimal, **options) -> str:
    """A positive number in the reader's locale; past 10¹⁸, which no score or points reach
    (docs/rules-engine.md, "Ranges"), in short scientific notation: a value stored before
    the ranges still shows, as 1.000e+30, not as a line of digits."""
    if value.adjusted() >= ABSURD_DIGITS:
        return format(value, ".3e")
    return number_format(value, **options)


NO_PLACE = "–"


def format_place(place: int | None, shared: bool = False) -> str:
    """3 / 3= for a shared place / – for a player with no hanchan played (not ranked)."""
    if place is None:
        return NO_PLACE
    return f"{place}=" if shared else str(place)


# U+2013, the en dash of ranges: tight between two numbers, spaced between two dates.
EN_DASH = "–"


def format_date_range(start: datetime.date, end: datetime.date) -> str:
    """An event's days in the reader's locale, what they share written once: "29 November
    2026" for one day, "29–30 November 2026", "29 November – 2 December 2026", "30 December
    2026 – 2 January 2027" (French: "29–30 novembre 2026"). The site's languages write the
    day first (DATE_FORMAT "j F Y", tournament/formats/en), so the shared month and year
    come last."""
    last = date_format(end, "DATE_FORMAT")
    if start == end:
        return last
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}{EN_DASH}{last}"
    if start.year == end.year:
        return f"{date_format(start, 'MONTH_DAY_FORMAT')} {EN_DASH} {last}"
    return f"{date_format(start, 'DATE_FORMAT')} {EN_DASH} {last}"
