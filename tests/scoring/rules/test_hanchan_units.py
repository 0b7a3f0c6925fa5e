"""The hanchan score in whole units is the documented formula in exact points.

`score_hanchan` counts in integers of SCORE_UNIT (1/12,000 of a point); here every
`Fraction` it gives is checked against the formula computed again in plain `Fraction`s,
for random valid sheets under every rule set and random overrides of the values the score
depends on. The quick check of the common sheet in `validate_sheet` is checked to accept
only sheets the full checks accept.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import event, given, reject, settings
from hypothesis import strategies as st

from scoring.rules import (
    RULESETS,
    RulesErrors,
    RuleSet,
    RulesFatalError,
    SeatSheet,
    resolve_ruleset,
    score_hanchan,
    to_units,
)
from scoring.rules.bounds import CHOMBO_MAX, LATE_MINUTES_MAX, points_limit, sticks_limit
from scoring.rules.hanchan import _plainly_valid, _sheet_errors

SCORE_FIELDS = (
    "uma",
    "oka",
    "riichi_bonus",
    "table_score",
    "penalty",
    "score",
    "chombo_penalty",
    "late_penalty",
)


@st.composite
def umas(draw) -> list[int]:
    """Uma of the four places: zero sum, never increasing (any split, odd ones included)."""
    # The gaps 2nd-3rd and 3rd-4th, then 1st-2nd such that 4 x 4th + 3 x (3rd-4th) +
    # 2 x (2nd-3rd) + (1st-2nd), the sum, can be zero.
    middle, low = draw(st.integers(0, 30)), draw(st.integers(0, 30))
    high = draw(st.integers(0, 7)) * 4 + (-(3 * low + 2 * middle)) % 4
    fourth = -(3 * low + 2 * middle + high) // 4
    return [fourth + low + middle + high, fourth + low + middle, fourth + low, fourth]


@st.composite
def rule_sets(draw) -> RuleSet:
    """A built-in rule set, with some of the values the hanchan score depends on changed."""
    key = draw(st.sampled_from(sorted(RULESETS)))
    options = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "tie_mode": st.sampled_from(["split", "seat_order"]),
                "leftover_riichi": st.sampled_from(["lost", "to_first_place"]),
                # 30,000 [WRC 2015 §4.1] or 25,000 (the Mahjong Soul rules' start points)
                "start_points": st.sampled_from([25000, 30000]),
                "return_points": st.integers(250, 400).map(lambda n: n * 100),
                "oka": st.integers(0, 200).map(lambda n: n * 100),
                "uma": umas(),
                "chombo_model": st.sampled_from(["penalty_points", "table_points"]),
                "chombo_amount": st.sampled_from([0, 10, 20, 150, 200]),
                "late_points_per_minute": st.integers(0, 20),
                "late_limit_minutes": st.none() | st.integers(0, 30),
                "late_substituted_penalty": st.integers(0, 200),
                "missed_hanchan_penalty": st.integers(0, 200),
            },
        )
    )
    try:
        return resolve_ruleset(key, options)
    except RulesErrors:  # ORAN's 10,000 table points as penalty points
        reject()


@st.composite
def seat_lines(draw, rs: RuleSet) -> tuple[list[SeatSheet], int]:
    """A valid sheet: points that add up (often tied), chombo, lateness, substitutes, absent
    players and leftover riichi sticks."""
    sticks = draw(st.integers(0, 5))
    values = [draw(st.integers(-100, 600)) * 100 for _ in range(3)]
    for i in (1, 2):
        if draw(st.booleans()):
            values[i] = values[draw(st.integers(0, i - 1))]
    values.append(4 * rs.start_points - 1000 * sticks - sum(values))
    limit = rs.late_limit_minutes
    seats = []
    for name, points in zip("ABCD", values, strict=True):
        chombo = draw(st.integers(0, 3))
        how = draw(st.sampled_from(["played", "played", "absent", "replaced"]))
        if how == "played":  # late up to the limit, and playing [WRC 2015 §7.2]
            late = draw(st.integers(0, 180 if limit is None else limit))
            seats.append(SeatSheet(name, points, chombo, late))
        elif how == "absent":  # missed the hanchan [WRC 2015 §7.2]
            seats.append(SeatSheet(name, points, chombo, 0, substitute=True, absent=True))
        else:  # a seat filled by a substitute, or a player late past the limit [C18]
            late = draw(st.sampled_from([0, 180] if limit is None else [0, limit, 180]))
            seats.append(SeatSheet(name, points, chombo, late, substitute=True))
    return seats, sticks


@st.composite
def scored_sheets(draw) -> tuple[RuleSet, list[SeatSheet], int]:
    rs = draw(rule_sets())
    seats, sticks = draw(seat_lines(rs))
    return rs, seats, sticks


def reference(rs: RuleSet, seats: list[SeatSheet], sticks: int) -> list[dict]:
    """Each seat's scores in points, from the formula as the rule books give it."""
    # ORAN ranks on the points after the chombo deduction [ORAN-1 §3.4.1]; WRC penalty points
    # never change the place [WRC 2015 §7.1].
    deduction = rs.chombo_amount if rs.chombo_model == "table_points" else 0
    keys = [s.points - deduction * s.chombo for s in seats]
    places, umas_ = [], []
    for i, key in enumerate(keys):
        above = sum(k > key for k in keys)
        tied = [j for j, k in enumerate(keys) if k == key]
        if rs.tie_mode == "seat_order":  # E > S > W > N breaks the tie [Évriichi adv. 6]
            place = above + tied.index(i) + 1
            places.append(place)
            umas_.append(Fraction(rs.uma[place - 1]))
        else:  # tied players share the uma of the places they hold [WRC 2015 §5.9.2]
            places.append(above + 1)
            umas_.append(Fraction(sum(rs.uma[above : above + len(tied)]), len(tied)))
    firsts = places.count(1)
    out = []
    for s, place, uma in zip(seats, places, umas_, strict=True):
        first = Fraction(1, firsts) if place == 1 else Fraction(0)
        # 1st place's bonus, shared by tied 1st (docs/rules.md, glossary)
        oka = Fraction(rs.oka, 1000) * first
        # leftover sticks, 1 point each, to 1st where the rule set says (EMA 2016 notes)
        bonus = Fraction(sticks) * first if rs.leftover_riichi == "to_first_place" else 0
        # score = (points - return) / 1 000 + uma + oka [WRC 2015 §5.9.2]
        table = Fraction(s.points - rs.return_points, 1000) + uma + oka + bonus
        if rs.chombo_model == "penalty_points":  # 20 points each [WRC 2015 §7.1]
            chombo = -Fraction(rs.chombo_amount * s.chombo)
        else:  # table points, in points [ORAN-1 §3.1.4]
            chombo = -Fraction(rs.chombo_amount * s.chombo, 1000)
        limit = rs.late_limit_minutes
        if s.absent:  # [WRC 2015 §7.2]
            late = -Fraction(rs.missed_hanchan_penalty)
        elif s.substitute and limit is not None and s.late_minutes >= limit:
            late = -Fraction(rs.late_substituted_penalty)  # "only 30 points" [C18]
        else:  # a point a minute [WRC 2015 §7.2]
            late = -Fraction(rs.late_points_per_minute * s.late_minutes)
        # a substitute's table score is not the registered player's [WRC 2015 §7.2]
        penalty = late if s.substitute else chombo + late
        out.append(
            {
                "place": place,
                "ranked": not s.substitute,
                "uma": uma,
                "oka": oka,
                "riichi_bonus": Fraction(bonus),
                "table_score": table,
                "penalty": penalty,
                "score": penalty if s.substitute else table + penalty,
                "chombo_penalty": chombo,
                "late_penalty": late,
            }
        )
    return out


@given(scored_sheets())
def test_every_score_is_the_formula_in_exact_points(case):
    rs, seats, sticks = case
    result = score_hanchan(rs, seats, sticks)
    for seat, line, expected in zip(result.seats, seats, reference(rs, seats, sticks), strict=True):
        assert (seat.player, seat.points) == (line.player, line.points)
        assert (seat.place, seat.ranked) == (expected["place"], expected["ranked"])
        for name in SCORE_FIELDS:
            value = getattr(seat, name)
            assert type(value) is Fraction
            assert value == expected[name], name
            # the units the standings store are the same score
            assert getattr(seat, f"{name}_units") == to_units(expected[name])


def test_a_rule_set_finer_than_a_unit_fails_loudly():
    # Options are whole numbers (rulesets.resolve_ruleset); one built by hand with a uma of
    # 1/7 point is refused, never rounded [WRC 2015 §5.9.2: no rounding].
    odd = dataclasses.replace(RULESETS["wrc2015"], uma=(Fraction(1, 7), 0, 0, Fraction(-1, 7)))
    sheet = [SeatSheet(n, 30000) for n in "ABCD"]
    with pytest.raises(RulesFatalError):
        score_hanchan(odd, sheet)


#: Values a seat's field is given now and then: each a fault, a boundary or a harmless
#: change (docs/rules-engine.md, "Ranges"; WRC 2015 §7.2 for the minutes).
ROUGH_VALUES = {
    "player": ["a ", " A", "B", "", "  ", None, "E"],
    "points": [50, 30050, 30000.0, True, 10**9, "limit", "-limit", "past"],
    "chombo": [CHOMBO_MAX, CHOMBO_MAX + 1, -1, True, 1.0, 2],
    "late_minutes": [1, 10, 11, LATE_MINUTES_MAX, LATE_MINUTES_MAX + 1, -1, True, 5.0],
    "substitute": [True, 0, 1, None],
    "absent": [True, 0, None],
}


def _at_limit(rs: RuleSet, value: object) -> object:
    """A value of ROUGH_VALUES, the points at the rule set's limits named by theirs."""
    limit = points_limit(rs)
    return {"limit": limit, "-limit": -limit, "past": limit + 100}.get(value, value)


@st.composite
def rough_sheets(draw) -> tuple[RuleSet, list[SeatSheet], object]:
    """A plain valid sheet with up to three fields changed (most often to a fault), the
    last seat's points then made to add up again or not."""
    rs = draw(rule_sets())
    sticks = draw(st.sampled_from([0, 0, 1, -1, sticks_limit(rs), sticks_limit(rs) + 1, True]))
    seats = [
        {"player": name, "points": draw(st.integers(-300, 600)) * 100, "chombo": 0,
         "late_minutes": 0, "substitute": False, "absent": False}
        for name in "ABCD"
    ]  # fmt: skip
    for _change in range(draw(st.sampled_from([0, 1, 1, 1, 2, 3]))):
        field = draw(st.sampled_from(sorted(ROUGH_VALUES)))
        value = draw(st.sampled_from(ROUGH_VALUES[field]))
        seats[draw(st.integers(0, 3))][field] = _at_limit(rs, value)
    points = [seat["points"] for seat in seats[:3]]
    if (
        draw(st.sampled_from([True, True, True, False]))
        and type(sticks) is int
        and all(type(p) is int for p in points)
    ):
        seats[3]["points"] = 4 * rs.start_points - 1000 * sticks - sum(points)
    return rs, [SeatSheet(**seat) for seat in seats], sticks


@settings(max_examples=400)  # a boundary is one change of many: give each its chances
@given(rough_sheets())
def test_the_quick_check_accepts_only_sheets_without_a_fault(case):
    rs, seats, sticks = case
    quick = _plainly_valid(rs, seats, sticks)
    event(f"quick check: {quick}")
    if quick:
        assert _sheet_errors(rs, seats, sticks) == []


def test_the_quick_check_takes_the_common_sheet():
    # The sheet of WRC 2015 §5.9.2's example: the full checks are not needed for it.
    seats = [
        SeatSheet("A", 42300),
        SeatSheet("B", 31000),
        SeatSheet("C", 27700),
        SeatSheet("D", 18000),
    ]
    assert _plainly_valid(RULESETS["wrc2015"], seats, 1)
    assert not _plainly_valid(RULESETS["wrc2015"], seats, 0)  # 1,000 missing: full checks
    with pytest.raises(RulesErrors) as raised:
        score_hanchan(RULESETS["wrc2015"], seats, 0)
    assert [e.code for e in raised.value.errors] == ["points_sum"]


@pytest.mark.parametrize("key", ["wrc2015", "mahjongsoul"])  # a 10-minute late limit, none
@pytest.mark.parametrize(
    ("field", "value"), [(field, value) for field in ROUGH_VALUES for value in ROUGH_VALUES[field]]
)
def test_the_quick_check_takes_every_plain_sheet_without_a_fault(key, field, value):
    # One change to S's line of a valid sheet, N's points then adding up again: the quick
    # check says yes exactly when the full checks find nothing, but for a seat a substitute
    # played (WRC 2015 §7.2), which it leaves to them.
    rs = RULESETS[key]
    start = rs.start_points
    seats = [SeatSheet("A", start + 10000), SeatSheet("B", start), SeatSheet("C", start)]
    seats[1] = dataclasses.replace(seats[1], **{field: _at_limit(rs, value)})
    points = [seat.points for seat in seats]
    if all(type(p) is int for p in points):
        seats.append(SeatSheet("D", 4 * start - sum(points)))
    else:
        seats.append(SeatSheet("D", start - 10000))
    replaced = seats[1].substitute is True or seats[1].absent is True
    errors = _sheet_errors(rs, seats, 0)
    assert _plainly_valid(rs, seats, 0) == (not errors and not replaced)
