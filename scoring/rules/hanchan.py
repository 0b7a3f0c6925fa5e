"""Scoring one finished hanchan: the signed score sheet (docs/rules.md §7, §8.3).

From the four final table points (E, S, W, N by starting wind), the chombo counts, lateness,
substitutes and the riichi sticks left on the table, compute each seat's place (competition
ranking, 1 1 3 4), uma and oka (ties as the rule set says), table score, penalty points and
the score that goes to the registered player's tournament total.

Arithmetic is exact: every score is a whole number of :data:`~scoring.rules.units.SCORE_UNIT`
(1/12,000 of a point), computed in integers and read as a :class:`fractions.Fraction` of
points; nothing is rounded, as WRC requires [WRC 2015 §5.9.2]. A rule set whose values are
finer than a unit is refused (:class:`~scoring.rules.errors.RulesFatalError`), never
rounded. The sheet is validated first and every fault is reported at once
(:class:`~scoring.rules.errors.RulesErrors`).

Not here: the hand-by-hand replay that produces the final points (:mod:`scoring.rules.game`)
and the tournament totals (:mod:`scoring.rules.standings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

from .bounds import (
    CHOMBO_MAX,
    LATE_MINUTES_MAX,
    points_error,
    points_limit,
    shown,
    sticks_limit,
    too_high,
    unusual_points_limit,
)
from .errors import RulesError, RulesErrors, RulesFatalError
from .game import replay_game
from .hands import RIICHI_DEPOSIT, SEATS, Hand
from .rulesets import RuleSet
from .units import SCORE_UNIT, to_units

__all__ = [
    "SeatSheet",
    "SeatScore",
    "HanchanResult",
    "check_sheet_numbers",
    "score_hanchan",
    "unusual_points",
    "validate_sheet",
]

THOUSAND = 1000  # 1 tournament point = 1 000 table points [WRC 2015 §7.1]
TABLE_POINT_UNITS = SCORE_UNIT // THOUSAND  # one table point in whole units


@dataclass(frozen=True, slots=True)
class SeatSheet:
    """One line of the signed score sheet.

    ``points``: final table points (may be negative). ``chombo``: chombo penalties in this
    hanchan. ``late_minutes``: how late the registered player was. ``substitute``: the seat
    was played by a substitute; ``absent``: the registered player missed the hanchan.
    """

    player: str
    points: int
    chombo: int = 0
    late_minutes: int = 0
    substitute: bool = False
    absent: bool = False


def _in_points(units: str) -> property:
    """The exact score in points of the whole units held in the field ``units``."""
    get = attrgetter(units)
    return property(lambda seat: Fraction(get(seat), SCORE_UNIT))


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's result. Scores are tournament points, held as whole :data:`SCORE_UNIT`
    (the ``*_units`` fields, what the standings store) and read as exact :class:`Fraction`
    points under the same names without ``_units`` (``score``, ``penalty``…).

    ``table_score`` = (points - return) / 1000 + uma + oka (+ leftover sticks where the rule
    set gives them to 1st place, in ``riichi_bonus``). ``penalty`` (<= 0) = the penalty points
    taken off the registered player's total: chombo, lateness and missed-hanchan points.
    ``score`` is what the hanchan adds to that total: ``table_score + penalty`` for a player
    who played; only the lateness/absence penalty when a substitute played (the registered
    player "gets no hanchan points" [WRC 2015 §7.2]), so there ``score == penalty`` and the
    substitute's chombo is only in ``chombo_penalty``. ``ranked`` is false for a
    substitute's seat.
    """

    seat: str
    player: str
    points: int
    place: int
    ranked: bool
    uma_units: int
    oka_units: int
    riichi_bonus_units: int
    table_score_units: int
    penalty_units: int
    score_units: int
    chombo_penalty_units: int
    late_penalty_units: int

    uma = _in_points("uma_units")
    oka = _in_points("oka_units")
    riichi_bonus = _in_points("riichi_bonus_units")
    table_score = _in_points("table_score_units")
    penalty = _in_points("penalty_units")
    score = _in_points("score_units")
    chombo_penalty = _in_points("chombo_penalty_units")
    late_penalty = _in_points("late_penalty_units")


@dataclass(frozen=True)
class HanchanResult:
    """Result of :func:`score_hanchan`; ``seats`` in E, S, W, N order."""

    ruleset: str
    seats: tuple[SeatScore, ...]  # four
    riichi_sticks_left: int


def _fmt(n: int) -> str:
    return f"{n:,}"


def _name_key(name: str) -> str:
    """A player's name as typed twice for one person: "Alice", "alice " and "ALICE" are one."""
    return " ".join(name.split()).casefold()


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate_sheet(
    ruleset: RuleSet, seats: Sequence[SeatSheet], riichi_sticks_left: int = 0
) -> None:
    """Raise :class:`RulesErrors` listing every fault of the sheet (docs/rules.md §7.4)."""
    if _plainly_valid(ruleset, seats, riichi_sticks_left):
        return
    if errors := _sheet_errors(ruleset, seats, riichi_sticks_left):
        raise RulesErrors(errors)


def _plainly_valid(ruleset: RuleSet, seats: object, riichi_sticks_left: object) -> bool:
    """Whether the sheet is the common valid one, told in one pass: four different players
    who all played, none later than the limit, whole numbers in range and the right sum.

    True only for a sheet in which :func:`_sheet_errors` finds nothing, so that a rescoring
    of every sheet of an event skips the full checks; False says nothing (the full checks
    then find the faults, or none), so the checks are exactly as strict either way.
    """
    if not isinstance(seats, list | tuple) or len(seats) != 4:
        return False
    if type(riichi_sticks_left) is not int or not 0 <= riichi_sticks_left <= sticks_limit(ruleset):
        return False
    points_high = points_limit(ruleset)
    late_limit = ruleset.late_limit_minutes
    late_high = LATE_MINUTES_MAX if late_limit is None else min(late_limit, LATE_MINUTES_MAX)
    names = set()
    total = 0
    for s in seats:
        points, chombo, late = s.points, s.chombo, s.late_minutes
        if not (
            isinstance(s.player, str)
            and type(points) is int
            and -points_high <= points <= points_high
            and not points % 100
            and type(chombo) is int
            and 0 <= chombo <= CHOMBO_MAX
            and type(late) is int
            and 0 <= late <= late_high
            and s.substitute is False
            and s.absent is False
        ):
            return False
        names.add(_name_key(s.player))
        total += points
    expected = 4 * ruleset.start_points - RIICHI_DEPOSIT * riichi_sticks_left
    return len(names) == 4 and "" not in names and total == expected


def _sheet_errors(
    ruleset: RuleSet, seats: Sequence[SeatSheet], riichi_sticks_left: int
) -> list[RulesError]:
    """Every fault of the sheet, in the order of its fields; the seats' count alone when
    there are not four."""
    if not isinstance(seats, Sequence) or len(seats) != 4:
        n = len(seats) if isinstance(seats, Sequence) else 0
        return [
            RulesError(
                "seats_count",
                f"A score sheet has exactly four seats (E, S, W, N); got {n}.",
                field="seats",
                count=n,
            )
        ]
    errors: list[RulesError] = []
    seen: dict[str, int] = {}
    points_ok = True
    for i, s in enumerate(seats):
        f = f"seats[{i}]"
        if not isinstance(s.player, str) or not s.player.strip():
            errors.append(
                RulesError("player_missing", "Every seat needs a player.", field=f"{f}.player")
            )
        elif (name := _name_key(s.player)) in seen:
            errors.append(
                RulesError(
                    "player_repeated",
                    f"{s.player} is seated twice (seats {SEATS[seen[name]]} and "
                    f"{SEATS[i]}); a table has four different players.",
                    field=f"{f}.player",
                    player=s.player,
                    seats=[SEATS[seen[name]], SEATS[i]],
                )
            )
        else:
            seen[name] = i
        numbers = _seat_number_errors(ruleset, i, s)
        # The sum of points that are no number, or no hanchan's, says nothing more.
        points_ok = points_ok and not {e.code for e in numbers} & {"points_type", "points_range"}
        errors += numbers
        for name in ("substitute", "absent"):
            if not isinstance(getattr(s, name), bool):
                errors.append(
                    RulesError(
                        "flag_type",
                        f"'{name}' must be true or false.",
                        field=f"{f}.{name}",
                    )
                )
        if s.absent is True and s.substitute is not True:
            errors.append(
                RulesError(
                    "absent_needs_substitute",
                    f"{s.player} is marked absent: mark the seat as played by a substitute.",
                    field=f"{f}.substitute",
                    player=s.player,
                )
            )
        late = s.late_minutes if _is_int(s.late_minutes) else 0
        if s.absent is True and late > 0:
            errors.append(
                RulesError(
                    "absent_and_late",
                    f"{s.player} is marked both absent and late; a late player who was "
                    "replaced is 'late' with 'substitute', an absent one has no minutes.",
                    field=f"{f}.late_minutes",
                    player=s.player,
                )
            )
        limit = ruleset.late_limit_minutes
        if limit is not None and late > limit and s.substitute is not True:
            errors.append(
                RulesError(
                    "late_needs_substitute",
                    f"{s.player} was {late} minutes late; after {limit} minutes a substitute "
                    "plays the hanchan: mark the seat as played by a substitute.",
                    field=f"{f}.substitute",
                    player=s.player,
                    minutes=late,
                    limit=limit,
                )
            )
        if s.substitute is True and s.absent is not True and limit is not None and 0 < late < limit:
            # Under the limit the late player plays; beyond it a substitute must take the
            # seat, and at the limit itself one may: "un joueur qui est en retard de dix
            # minutes et qui est substitué aura seulement 30 points" [WRC 2015 §7.2;
            # C18]. (Substitute with no minutes and not absent: a seat the
            # tournament filled with a substitute. Absent with minutes is absent_and_late:
            # clearing the substitute would not fix it.)
            errors.append(
                RulesError(
                    "substitute_too_early",
                    f"{s.player} was {late} minutes late: under {limit} minutes the player "
                    "plays the hanchan and pays the lateness penalty; a substitute replaces "
                    f"only a player {limit} minutes late or more.",
                    field=f"{f}.substitute",
                    player=s.player,
                    minutes=late,
                    limit=limit,
                )
            )
    sticks_errors = _sticks_errors(ruleset, riichi_sticks_left)
    errors += sticks_errors
    if points_ok and not sticks_errors:
        total = sum(s.points for s in seats)
        expected = 4 * ruleset.start_points - RIICHI_DEPOSIT * riichi_sticks_left
        deducted = _chombo_deduction(ruleset, seats)
        if total != expected and deducted and total == expected - deducted:
            # The sheet's points already net of the chombo deduction the engine makes itself
            # [ORAN-1 §3.1.4]: say so, rather than only that the sum is off by that much.
            errors.append(
                RulesError(
                    "points_sum_chombo_deducted",
                    f"The four scores add up to {_fmt(total)}, {_fmt(deducted)} short of "
                    f"{_fmt(expected)}: the chombo deduction. Write each player's points "
                    "before it; the deduction is made from the chombo count.",
                    field="seats",
                    total=total,
                    expected=expected,
                    deducted=deducted,
                )
            )
        elif total != expected:
            sticks = (
                f"with {riichi_sticks_left} riichi stick"
                f"{'s' if riichi_sticks_left != 1 else ''} left on the table"
                if riichi_sticks_left
                else "with no riichi stick left on the table"
            )
            errors.append(
                RulesError(
                    "points_sum",
                    f"The four scores add up to {_fmt(total)}; {sticks} they must add up to "
                    f"{_fmt(expected)}.",
                    field="seats",
                    total=total,
                    expected=expected,
                    riichi_sticks_left=riichi_sticks_left,
                    start_points=ruleset.start_points,
                )
            )
    return errors


def _seat_number_errors(ruleset: RuleSet, index: int, seat: SeatSheet) -> list[RulesError]:
    """The numbers of one seat, each a whole number in its range (:mod:`.bounds`): final
    points, chombo and minutes late."""
    f = f"seats[{index}]"
    errors: list[RulesError] = []
    if not _is_int(seat.points):
        errors.append(
            RulesError(
                "points_type",
                f"Points must be a whole number of table points; got {seat.points!r}.",
                field=f"{f}.points",
                value=seat.points,
            )
        )
    elif out_of_range := points_error(ruleset, seat.points, f"{f}.points", seat.player):
        errors.append(out_of_range)
    elif seat.points % 100:
        errors.append(
            RulesError(
                "points_not_multiple",
                f"{seat.player}'s {_fmt(seat.points)} points are not a multiple of 100; every "
                "payment is a multiple of 100.",
                field=f"{f}.points",
                player=seat.player,
                points=seat.points,
            )
        )
    for name, high in (("chombo", CHOMBO_MAX), ("late_minutes", LATE_MINUTES_MAX)):
        v = getattr(seat, name)
        if not _is_int(v) or v < 0:
            errors.append(
                RulesError(
                    "count_negative",
                    f"'{name}' must be a whole number, zero or more; got {v!r}.",
                    field=f"{f}.{name}",
                    value=v,
                )
            )
        elif above := too_high(v, high, f"{f}.{name}"):
            errors.append(above)
    return errors


def _sticks_errors(ruleset: RuleSet, riichi_sticks_left: object) -> list[RulesError]:
    """The riichi sticks left: a whole number from 0 to the table's points as sticks."""
    if not _is_int(riichi_sticks_left) or riichi_sticks_left < 0:
        return [
            RulesError(
                "count_negative",
                f"Riichi sticks left must be a whole number, zero or more; got "
                f"{riichi_sticks_left!r}.",
                field="riichi_sticks_left",
                value=riichi_sticks_left,
            )
        ]
    above = too_high(riichi_sticks_left, sticks_limit(ruleset), "riichi_sticks_left")
    return [above] if above else []


def check_sheet_numbers(
    ruleset: RuleSet,
    seats: Sequence[SeatSheet],
    riichi_sticks_left: int = 0,
    hands: Sequence[Hand] = (),
) -> None:
    """Raise :class:`RulesErrors` for a stored sheet whose numbers are not all in range, or
    whose hands cannot be replayed: what a sheet read from a file (an archive) must pass
    before it is kept. The rules that tie a finished sheet together (the sum of the points,
    lateness and substitutes) are not asked: a sheet saved part-way stops anywhere."""
    errors = [
        error for i, seat in enumerate(seats) for error in _seat_number_errors(ruleset, i, seat)
    ]
    errors += _sticks_errors(ruleset, riichi_sticks_left)
    try:
        replay_game(ruleset, hands)
    except RulesError as error:
        errors.append(error)
    if errors:
        raise RulesErrors(errors)


def unusual_points(ruleset: RuleSet, seats: Sequence[SeatSheet]) -> tuple[RulesError, ...]:
    """``points_unusual`` for each seat past :func:`~scoring.rules.bounds.unusual_points_limit`
    (twice the table's points): a warning, never raised, for the official to check against
    the paper sheet and confirm.

    >>> from scoring.rules.rulesets import RULESETS
    >>> seats = [SeatSheet("A", 300000), SeatSheet("B", -60000), SeatSheet("C", -60000),
    ...     SeatSheet("D", -60000)]
    >>> [(w.code, w.field) for w in unusual_points(RULESETS["mahjongsoul"], seats)]
    [('points_unusual', 'seats[0].points')]
    """
    limit = unusual_points_limit(ruleset)
    return tuple(
        RulesError(
            "points_unusual",
            f"{seat.player}'s {shown(seat.points)} points are unusual: past ±{limit:,} with "
            f"{ruleset.start_points:,} start points. Check them against the paper sheet.",
            field=f"seats[{index}].points",
            seat=SEATS[index],
            player=seat.player,
            points=seat.points,
            limit=limit,
            start_points=ruleset.start_points,
        )
        for index, seat in enumerate(seats)
        if _is_int(seat.points) and abs(seat.points) > limit
    )


def _chombo_deduction(ruleset: RuleSet, seats: Sequence[SeatSheet]) -> int:
    """Table points the chombo take off the written points (ORAN), 0 if none or unknown."""
    counts = [s.chombo for s in seats]
    if ruleset.chombo_model != "table_points" or not all(_is_int(c) and c >= 0 for c in counts):
        return 0
    return ruleset.chombo_amount * sum(counts)


def _rank_key(ruleset: RuleSet, s: SeatSheet) -> int:
    """Points that decide the place: ORAN ranks on points minus the chombo deduction
    [ORAN-1 §3.4.1]; WRC penalty points never change the place [WRC 2015 §7.1]."""
    if ruleset.chombo_model == "table_points":
        return s.points - ruleset.chombo_amount * s.chombo
    return s.points


class _RuleUnits(NamedTuple):
    """A rule set's values in whole units, each worked out once per rule set."""

    uma: tuple[int, ...]  # by place
    oka: int
    return_points: int
    chombo: int  # one chombo, as penalty (table points off in ORAN)
    late_per_minute: int
    late_substituted: int
    missed_hanchan: int


@lru_cache(maxsize=64)
def _rule_units(ruleset: RuleSet) -> _RuleUnits:
    """The rule set's values in units; a value finer than a unit raises
    :class:`RulesFatalError` (no rule set's value is: they are whole points, or whole
    table points divided by 1,000)."""
    if ruleset.chombo_model == "penalty_points":
        chombo = to_units(ruleset.chombo_amount)
    else:
        chombo = to_units(Fraction(ruleset.chombo_amount, THOUSAND))
    return _RuleUnits(
        uma=tuple(to_units(u) for u in ruleset.uma),
        oka=to_units(Fraction(ruleset.oka, THOUSAND)),
        return_points=to_units(Fraction(ruleset.return_points, THOUSAND)),
        chombo=chombo,
        late_per_minute=to_units(ruleset.late_points_per_minute),
        late_substituted=to_units(ruleset.late_substituted_penalty),
        missed_hanchan=to_units(ruleset.missed_hanchan_penalty),
    )


def _share(units: int, among: int) -> int:
    """An equal share of ``units`` among tied players; a unit is fine enough for 2, 3 or 4
    (:data:`SCORE_UNIT`), so a remainder is an engine bug."""
    share, finer = divmod(units, among)
    if finer:
        raise RulesFatalError(f"{units} units do not split among {among} players")
    return share


def _places(
    ruleset: RuleSet, uma_by_place: Sequence[int], keys: Sequence[int]
) -> tuple[list[int], list[int], list[int]]:
    """Place and uma (units) per seat, and the seats that share 1st place."""
    # Stable: seats with equal keys stay in seat order E, S, W, N.
    order = sorted(range(4), key=keys.__getitem__, reverse=True)
    place = [0] * 4
    uma = [0] * 4
    if ruleset.tie_mode == "seat_order" or len(set(keys)) == 4:
        # No tie, or ties broken by initial seat E > S > W > N [Évriichi adv. 6]
        for pos, seat in enumerate(order):
            place[seat] = pos + 1
            uma[seat] = uma_by_place[pos]
        return place, uma, order[:1]
    # Tied players share the uma of the places they occupy [WRC 2015 §5.9.2]
    firsts: list[int] = []
    pos = 0
    while pos < 4:
        end = pos + 1
        while end < 4 and keys[order[end]] == keys[order[pos]]:
            end += 1
        share = _share(sum(uma_by_place[pos:end]), end - pos)
        for seat in order[pos:end]:
            place[seat] = pos + 1
            uma[seat] = share
        firsts = firsts or order[pos:end]
        pos = end
    return place, uma, firsts


def score_hanchan(
    ruleset: RuleSet, seats: Sequence[SeatSheet], riichi_sticks_left: int = 0
) -> HanchanResult:
    """Score a signed sheet; raise :class:`RulesErrors` if it is invalid.

    WRC 2015 §5.9.2: score = (points - 30 000) / 1 000 + uma, never rounded.

    >>> from scoring.rules.rulesets import RULESETS
    >>> r = score_hanchan(RULESETS["wrc2015"], [SeatSheet("A", 42300), SeatSheet("B", 31000),
    ...     SeatSheet("C", 27700), SeatSheet("D", 18000)], riichi_sticks_left=1)
    >>> [str(s.score) for s in r.seats]
    ['273/10', '6', '-73/10', '-27']
    >>> r.seats[0].score_units == 273 * SCORE_UNIT // 10
    True
    """
    validate_sheet(ruleset, seats, riichi_sticks_left)
    units = _rule_units(ruleset)
    place, uma, firsts = _places(ruleset, units.uma, [_rank_key(ruleset, s) for s in seats])
    oka = _share(units.oka, len(firsts))
    bonus = (
        _share(RIICHI_DEPOSIT * TABLE_POINT_UNITS * riichi_sticks_left, len(firsts))
        if ruleset.leftover_riichi == "to_first_place"
        else 0
    )
    limit = ruleset.late_limit_minutes
    out = []
    for i, s in enumerate(seats):
        first = i in firsts
        table = (
            s.points * TABLE_POINT_UNITS
            - units.return_points
            + uma[i]
            + (oka + bonus if first else 0)
        )
        chombo_pen = -units.chombo * s.chombo
        if s.absent:
            late_pen = -units.missed_hanchan  # [WRC 2015 §7.2]
        elif s.substitute and limit is not None and s.late_minutes >= limit:
            late_pen = -units.late_substituted  # 30 in total [C18]
        else:
            late_pen = -units.late_per_minute * s.late_minutes
        # A substitute's score counts for the table only, "not in the ranking": the registered
        # player gets no hanchan points and only the lateness/absence penalty [WRC 2015 §7.2]; the
        # substitute's own chombo stays in chombo_penalty and is taken off nobody.
        penalty = late_pen if s.substitute else chombo_pen + late_pen
        out.append(
            SeatScore(  # fields in order: keywords cost a tenth of the scoring time
                SEATS[i],
                s.player,
                s.points,
                place[i],
                not s.substitute,
                uma[i],
                oka if first else 0,
                bonus if first else 0,
                table,
                penalty,
                penalty if s.substitute else table + penalty,
                chombo_pen,
                late_pen,
            )
        )
    if sum(uma) != sum(units.uma):
        raise RulesFatalError("uma not preserved")
    return HanchanResult(ruleset.key, tuple(out), riichi_sticks_left)
