"""The plausible range of every number the engine is given, in one place.

A person types each of these numbers: a seat's final points, chombo, minutes late, riichi
sticks, han, fu, yakuman, a referee's penalty, a rule option. Beyond its range a number is
no result of play but a slip of the keyboard or an edited file, and carried on it breaks
what is built from it (a total of 10³⁰ points no page can show). The engine's own checks
(:func:`~scoring.rules.hanchan.validate_sheet`, :func:`~scoring.rules.hands.score_hand`,
:func:`~scoring.rules.rulesets.resolve_ruleset`, and
:func:`~scoring.rules.hanchan.check_sheet_numbers` for stored sheets) ask this module, so
the web forms, the CLI and the archive import refuse the same numbers with the same codes.
The ranges and why each is what it is: docs/rules-engine.md, "Ranges".

A seat's final points have two lines, both from the rule set's start points *S* (a table
holds 4 *S*): beyond ±40 *S* they are refused (``points_range``); beyond ±8 *S*, twice
the table's whole points, they are unusual (:func:`~scoring.rules.hanchan.unusual_points`),
a warning the official confirms.

Not here: how the numbers relate to each other (the sum of the points, the (han, fu) pairs):
:mod:`scoring.rules.hanchan`, :mod:`scoring.rules.hands`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from .errors import RulesError

if TYPE_CHECKING:
    from .rulesets import RuleSet

__all__ = [
    "CHOMBO_MAX",
    "FU_MAX",
    "HAN_MAX",
    "LATE_MINUTES_MAX",
    "PENALTY_MAX",
    "PENALTY_PLAUSIBLE",
    "YAKUMAN_MAX",
    "check_penalty",
    "points_limit",
    "sticks_limit",
    "unusual_points_limit",
]

#: Chombo of one player in one hanchan. Each replays the hand and costs 20 points
#: [WRC 2015 §7.1]: ten is a 200-point hanchan, well past any referee's patience.
CHOMBO_MAX = 10
#: Minutes late: a check-in more than three hours after the start is for another session
#: (scoring.forms.late_minutes_from_check_in); WRC substitutes after 10 [WRC 2015 §7.2].
LATE_MINUTES_MAX = 180
#: Han: from 11 (13) a hand is a limit hand [WRC 2015 §6.1], so a count past two digits is
#: a slip, not a hand.
HAN_MAX = 99
#: Fu: 20 + 10 (closed ron) + four concealed kongs of honours 4 × 32 + a double-wind pair 4 +
#: a pair wait 2 = 164, rounded up to 170 (docs/rules.md §3.2; WRC 2015 §6.3).
FU_MAX = 170
#: Yakuman in one hand: Big Four Winds (2) + All Honours (1) + single-wait Four Concealed
#: Pungs (2) + Four Kongs (1), where yakuman stack [Évriichi §4; docs/rules.md §3.3].
YAKUMAN_MAX = 6
#: A penalty point total that takes ten WRC chombo (20 each [WRC 2015 §7.1]): the most a
#: rule option gives in penalty points, and the line past which a referee's penalty is said
#: to be unusual once recorded.
PENALTY_PLAUSIBLE = 200
#: The largest penalty a referee gives: what the penalty list stores (two decimals).
PENALTY_MAX = Fraction(9_999_999, 100)

# Final points: refused beyond ±40 S, unusual beyond ±8 S (S = start points).
POINTS_LIMIT_STARTS = 40
UNUSUAL_POINTS_STARTS = 8
STICK = 1000  # one riichi deposit [WRC 2015 §6.5.1]


def points_limit(ruleset: RuleSet) -> int:
    """The final points no hanchan gives: ten times the table's points (±1 200 000 at a
    30 000 start), 25 dealer yakuman by tsumo (48 000 each [WRC 2015 §6.1]) in one game.

    >>> from scoring.rules.rulesets import RULESETS
    >>> points_limit(RULESETS["wrc2015"]), points_limit(RULESETS["mahjongsoul"])
    (1200000, 1000000)
    """
    return POINTS_LIMIT_STARTS * ruleset.start_points


def unusual_points_limit(ruleset: RuleSet) -> int:
    """Final points past twice the table's points (±240 000 at a 30 000 start, ±200 000 at
    25 000): the three others together would be more than the whole table below zero. It
    takes a run of yakuman (a Mahjong Soul sextuple yakuman by the dealer is 288 000), so
    such a sheet is confirmed, not refused.
    """
    return UNUSUAL_POINTS_STARTS * ruleset.start_points


def sticks_limit(ruleset: RuleSet) -> int:
    """Riichi sticks on the table: the table's every point as sticks (120 at 30 000)."""
    return 4 * ruleset.start_points // STICK


def shown(value: int) -> str:
    """A whole number for a message: grouped, or its length when no one reads it (and
    Python writes no int of more than 4 300 digits).

    >>> shown(1_200_000), shown(10**40)
    ('1,200,000', 'a number of 41 digits')
    """
    if abs(value) < 10**18:
        return f"{value:,}"
    digits = len(str(abs(value))) if value.bit_length() < 14_000 else value.bit_length() * 3 // 10
    return f"a number of {digits:,} digits"


def too_high(value: object, high: int, field: str) -> RulesError | None:
    """``count_too_high`` for a whole number past ``high`` (its type and low end are the
    caller's checks), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and value > high:
        name = field.rpartition(".")[2]
        return RulesError(
            "count_too_high",
            f"'{name}' is at most {high}; got {shown(value)}.",
            field=field,
            value=value,
            max=high,
        )
    return None


def points_error(ruleset: RuleSet, points: int, field: str, player: str) -> RulesError | None:
    """``points_range`` for final points no hanchan gives (:func:`points_limit`)."""
    limit = points_limit(ruleset)
    if -limit <= points <= limit:
        return None
    return RulesError(
        "points_range",
        f"{player}'s {shown(points)} points cannot come out of one hanchan: with "
        f"{ruleset.start_points:,} start points a player ends within ±{limit:,}.",
        field=field,
        player=player,
        points=points,
        limit=limit,
        start_points=ruleset.start_points,
    )


def check_penalty(points: Fraction) -> None:
    """Refuse a referee's penalty (signed, <= 0) past :data:`PENALTY_MAX`.

    >>> check_penalty(Fraction(-10))
    >>> check_penalty(Fraction(-10**6))
    Traceback (most recent call last):
    ...
    scoring.rules.errors.RulesError: A penalty takes off at most 99,999.99 points.
    """
    if -points > PENALTY_MAX:
        raise RulesError(
            "penalty_range",
            f"A penalty takes off at most {float(PENALTY_MAX):,.2f} points.",
            field="points",
            value=points,
            max=PENALTY_MAX,
        )
