"""Scoring one finished hanchan: the signed score sheet (docs/rules.md §7, §8.3).

From the four final table points (E, S, W, N by starting wind), the chombo counts, lateness,
substitutes and the riichi sticks left on the table, compute each seat's place (competition
ranking, 1 1 3 4), uma and oka (ties as the rule set says), table score, penalty points and
the score that goes to the registered player's tournament total.

Arithmetic is exact (:class:`fractions.Fraction`); nothing is rounded, as WRC requires
[WRC 2015 §5.9.2]. The sheet is validated first and every fault is reported at once
(:class:`~scoring.rules.errors.RulesErrors`).

Not here: the hand-by-hand replay that produces the final points (:mod:`scoring.rules.game`)
and the tournament totals (:mod:`scoring.rules.standings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .bounds import (
    CHOMBO_MAX,
    LATE_MINUTES_MAX,
    points_error,
    shown,
    sticks_limit,
    too_high,
    unusual_points_limit,
)
from .errors import RulesError, RulesErrors, RulesFatalError
from .game import replay_game
from .hands import RIICHI_DEPOSIT, SEATS, Hand
from .rulesets import RuleSet

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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class SeatScore:
    """One seat's result. All scores are tournament points (:class:`Fraction`).

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
    uma: Fraction
    oka: Fraction
    riichi_bonus: Fraction
    table_score: Fraction
    penalty: Fraction
    score: Fraction
    ranked: bool
    chombo_penalty: Fraction
    late_penalty: Fraction


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
    if not isinstance(seats, Sequence) or len(seats) != 4:
        n = len(seats) if isinstance(seats, Sequence) else 0
        raise RulesErrors(
            [
                RulesError(
                    "seats_count",
                    f"A score sheet has exactly four seats (E, S, W, N); got {n}.",
                    field="seats",
                    count=n,
                )
            ]
        )
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
    if errors:
        raise RulesErrors(errors)


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


def _places(
    ruleset: RuleSet, keys: Sequence[int]
) -> tuple[list[int], list[Fraction], list[Fraction], list[Fraction]]:
    """Place, share of uma, share of oka, share of 1st place (0..1) per seat."""
    order = sorted(range(4), key=lambda i: (-keys[i], i))
    place = [0] * 4
    uma = [Fraction(0)] * 4
    first_share = [Fraction(0)] * 4
    if ruleset.tie_mode == "seat_order":
        # Ties broken by initial seat E > S > W > N [Évriichi adv. 6]
        for pos, seat in enumerate(order):
            place[seat] = pos + 1
            uma[seat] = Fraction(ruleset.uma[pos])
        first_share[order[0]] = Fraction(1)
    else:
        # Tied players share the uma of the places they occupy [WRC 2015 §5.9.2]
        pos = 0
        while pos < 4:
            end = pos
            while end + 1 < 4 and keys[order[end + 1]] == keys[order[pos]]:
                end += 1
            group = order[pos : end + 1]
            share = Fraction(sum(ruleset.uma[pos : end + 1]), len(group))
            for seat in group:
                place[seat] = pos + 1
                uma[seat] = share
                if pos == 0:
                    first_share[seat] = Fraction(1, len(group))
            pos = end + 1
    oka = [Fraction(ruleset.oka, THOUSAND) * f for f in first_share]
    return place, uma, oka, first_share


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
    """
    validate_sheet(ruleset, seats, riichi_sticks_left)
    keys = [_rank_key(ruleset, s) for s in seats]
    place, uma, oka, first_share = _places(ruleset, keys)
    bonus_total = (
        Fraction(RIICHI_DEPOSIT * riichi_sticks_left, THOUSAND)
        if ruleset.leftover_riichi == "to_first_place"
        else Fraction(0)
    )
    out = []
    for i, s in enumerate(seats):
        bonus = bonus_total * first_share[i]
        table = Fraction(s.points - ruleset.return_points, THOUSAND) + uma[i] + oka[i] + bonus
        if ruleset.chombo_model == "penalty_points":
            chombo_pen = -Fraction(ruleset.chombo_amount * s.chombo)
        else:
            chombo_pen = -Fraction(ruleset.chombo_amount * s.chombo, THOUSAND)
        limit = ruleset.late_limit_minutes
        if s.absent:
            late_pen = -Fraction(ruleset.missed_hanchan_penalty)  # [WRC 2015 §7.2]
        elif s.substitute and limit is not None and s.late_minutes >= limit:
            late_pen = -Fraction(ruleset.late_substituted_penalty)  # 30 in total [C18]
        else:
            late_pen = -Fraction(ruleset.late_points_per_minute * s.late_minutes)
        # A substitute's score counts for the table only, "not in the ranking": the registered
        # player gets no hanchan points and only the lateness/absence penalty [WRC 2015 §7.2]; the
        # substitute's own chombo stays in chombo_penalty and is taken off nobody.
        penalty = late_pen if s.substitute else chombo_pen + late_pen
        score = penalty if s.substitute else table + penalty
        out.append(
            SeatScore(
                seat=SEATS[i],
                player=s.player,
                points=s.points,
                place=place[i],
                uma=uma[i],
                oka=oka[i],
                riichi_bonus=bonus,
                table_score=table,
                penalty=penalty,
                score=score,
                ranked=not s.substitute,
                chombo_penalty=chombo_pen,
                late_penalty=late_pen,
            )
        )
    if sum(uma) != sum(ruleset.uma):
        raise RulesFatalError("uma not preserved")
    return HanchanResult(ruleset.key, tuple(out), riichi_sticks_left)
