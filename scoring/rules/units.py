"""The whole unit every tournament score of the engine is counted in.

A score is a whole number of :data:`SCORE_UNIT` (1/12,000 of a point), so that the engine
scores a sheet and the Django layer stores, caches and sums results in plain integers,
exactly, without a :class:`~fractions.Fraction` for each (WRC requires no rounding
[WRC 2015 §5.9.2]). :func:`to_units` turns an exact value into units and refuses one that
is finer, which only an engine bug or an impossible rule set gives.

Not here: what the scores are (:mod:`.hanchan`), how they are ranked (:mod:`.standings`).
"""

from __future__ import annotations

from fractions import Fraction

from .errors import RulesFatalError

__all__ = ["SCORE_UNIT", "to_units"]

#: Every score the engine gives is a whole number of 1/12,000 of a point: table points are
#: divided by 1,000, the uma, the oka and the leftover riichi sticks are shared by 2, 3 or 4
#: tied players (12 = lcm(2, 3, 4)), and the rule sets' values and the referees' penalties
#: (hundredths) are whole or decimal numbers within that.
SCORE_UNIT = 12000


def to_units(value: Fraction | int) -> int:
    """``value`` as a whole number of :data:`SCORE_UNIT`; anything finer is an engine bug.

    >>> to_units(Fraction(-103, 3)), Fraction(to_units(Fraction(27, 10)), SCORE_UNIT)
    (-412000, Fraction(27, 10))
    """
    # Without a Fraction product (its gcd): every stored result is four of these a seat, and a
    # rebuild stores 20,000 seats.
    exact = value if isinstance(value, Fraction) else Fraction(value)
    units, finer = divmod(exact.numerator * SCORE_UNIT, exact.denominator)
    if finer:
        raise RulesFatalError(f"{value} is not a whole number of 1/{SCORE_UNIT} of a point")
    return units
