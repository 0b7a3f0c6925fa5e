"""Every number the engine is given has a range (docs/rules-engine.md, "Ranges";
scoring.rules.bounds): beyond it the input is refused with a code, and final points past
±8 × the start points are a warning to confirm."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.rules import (
    Hand,
    RulesError,
    RulesErrors,
    SeatSheet,
    check_penalty,
    check_sheet_numbers,
    resolve_ruleset,
    score_hand,
    unusual_points,
    validate_sheet,
)
from tests.scoring.rules.helpers import MS, WRC
from tests.scoring.rules.test_cli import run


def sheet(points, **seat) -> list[SeatSheet]:
    """Four seats A-D; `seat` changes the first one (chombo, late_minutes)."""
    return [
        SeatSheet("A", points[0], **seat),
        *(SeatSheet(name, value) for name, value in zip("BCD", points[1:], strict=True)),
    ]


def faults(ruleset, seats, sticks: int = 0) -> set[tuple[str, str]]:
    with pytest.raises(RulesErrors) as info:
        validate_sheet(ruleset, seats, sticks)
    return {(error.code, error.field) for error in info.value}


@pytest.mark.parametrize(
    ("ruleset", "points"),
    [
        # ±40 × the start points: 30 000 [WRC 2015 §4.1], 25 000 [Évriichi §7]
        (WRC, (1_200_100, -360_100, -360_000, -360_000)),
        (MS, (1_000_100, -300_100, -300_000, -300_000)),
        # 10³⁰: the adversarial pass's sheet, whose sum still comes right
        (WRC, (10**30, -(10**30) + 120_000, 0, 0)),
        # 4 230 000: a typo that adds up
        (WRC, (4_230_000, -1_370_000, -1_370_000, -1_370_000)),
    ],
)
def test_points_no_hanchan_gives_are_refused_and_the_sum_is_not_asked(ruleset, points):
    found = faults(ruleset, sheet(points))
    assert ("points_range", "seats[0].points") in found
    assert not any(code.startswith("points_sum") for code, _field in found)


def test_points_at_the_limit_are_a_sheet():
    # 1 200 000 = 40 × 30 000 [WRC 2015 §4.1]; the four add up to 4 × 30 000.
    validate_sheet(WRC, sheet((1_200_000, -360_000, -360_000, -360_000)))


@pytest.mark.parametrize(
    ("seat", "sticks", "field", "high"),
    [
        ({"chombo": 11}, 0, "seats[0].chombo", 10),  # 20 points each [WRC 2015 §7.1]
        ({"chombo": 10**400}, 0, "seats[0].chombo", 10),
        ({"late_minutes": 181}, 0, "seats[0].late_minutes", 180),  # [WRC 2015 §7.2]
        ({}, 121, "riichi_sticks_left", 120),  # 4 × 30 000 in sticks [WRC 2015 §6.5.1]
    ],
)
def test_a_count_beyond_its_range_is_refused(seat, sticks, field, high):
    seats = sheet((42300, 31000, 27700, 19000), **seat)
    with pytest.raises(RulesErrors) as info:
        validate_sheet(WRC, seats, sticks)
    (error,) = [error for error in info.value if error.field == field]
    assert (error.code, error.params["max"]) == ("count_too_high", high)


@pytest.mark.parametrize(
    ("hand", "field", "high"),
    [
        (Hand("ron", winner="S", loser="W", han=100, fu=None), "han", 99),  # [WRC 2015 §6.1]
        (Hand("ron", winner="S", loser="W", han=2, fu=180), "fu", 170),  # docs/rules.md §3.2
        (Hand("ron", winner="S", loser="W", yakuman=7), "yakuman", 6),  # [Évriichi §4]
        (Hand("draw", riichi_sticks=101), "riichi_sticks", 100),  # 4 × 25 000 [Évriichi §7]
    ],
)
def test_a_hand_beyond_its_range_is_refused(hand, field, high):
    with pytest.raises(RulesError) as info:
        score_hand(MS, hand)
    assert (info.value.code, info.value.field, info.value.params["max"]) == (
        "count_too_high",
        field,
        high,
    )


def test_the_largest_hand_of_each_range_is_paid():
    # 170 fu 2 han (docs/rules.md §3.2), a sextuple yakuman where they stack [Évriichi §4]
    assert score_hand(MS, Hand("ron", winner="S", loser="W", han=2, fu=170)).base_points == 2000
    six = score_hand(MS, Hand("ron", winner="E", loser="W", yakuman=6))
    assert six.payments[0] == 6 * 48000  # a dealer's yakuman ron [WRC 2015 §6.1]


@pytest.mark.parametrize(
    ("ruleset", "points", "flagged"),
    [
        # past ±8 × the start points: 240 000 at 30 000 [WRC 2015 §4.1]
        (WRC, (240_100, -40_100, -40_000, -40_000), ["seats[0].points"]),
        (WRC, (240_000, -40_000, -40_000, -40_000), []),
        # 200 000 at 25 000 [Évriichi §7]: a dealer's sextuple yakuman, 288 000 [Évriichi §4]
        (MS, (313_000, -71_000, -71_000, -71_000), ["seats[0].points"]),
        (MS, (-200_100, 100_100, 100_000, 100_000), ["seats[0].points"]),
    ],
)
def test_points_past_twice_the_tables_are_unusual_not_refused(ruleset, points, flagged):
    seats = sheet(points)
    validate_sheet(ruleset, seats)
    warnings = unusual_points(ruleset, seats)
    assert [warning.field for warning in warnings] == flagged
    assert all(warning.code == "points_unusual" for warning in warnings)


@pytest.mark.parametrize(
    ("options", "high"),
    [
        ({"chombo_amount": 10**35}, 100_000),  # ten of ORAN's 10 000 [ORAN-1 §3.1.4]
        ({"start_points": 10**39}, 100_000),  # 25 000 to 35 000 in use [WRC 2015 §4.1]
        ({"return_points": 100_100}, 100_000),
        ({"late_limit_minutes": 181}, 180),  # [WRC 2015 §7.2]
        ({"missed_hanchan_penalty": 201}, 200),  # 20 [WRC 2015 §7.2]: ten times that
        ({"uma": [101, 0, 0, -101]}, 100),  # 15 [WRC 2015 §5.9.2]
        ({"chombo_amount": 201}, 200),  # penalty points: ten of WRC's 20 [WRC 2015 §7.1]
    ],
)
def test_an_option_beyond_its_range_is_refused(options, high):
    with pytest.raises(RulesErrors) as info:
        resolve_ruleset("wrc2015", options)
    (error,) = info.value
    assert (error.code, error.field, error.params["max"]) == (
        "option_range",
        f"options.{next(iter(options))}",
        high,
    )


def test_a_chombo_in_table_points_may_cost_more_than_in_penalty_points():
    # ORAN: 10 000 table points [ORAN-1 §3.1.4]
    assert resolve_ruleset("wrc2015", {"chombo_model": "table_points", "chombo_amount": 10000})


def test_an_option_nested_deep_is_refused_and_shown_short():
    deep: list = [1]
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RulesErrors) as info:
        resolve_ruleset("wrc2015", {"uma": deep})
    (error,) = info.value
    assert error.code == "option_type"
    assert len(error.message) < 200


def test_a_penalty_beyond_what_the_penalty_list_holds_is_refused():
    check_penalty(Fraction(-9_999_999, 100))  # the largest: two decimals, 99 999.99
    with pytest.raises(RulesError) as info:
        check_penalty(Fraction(-10_000_000, 100))
    assert info.value.code == "penalty_range"


def test_a_stored_sheet_is_checked_number_by_number():
    seats = sheet((10**40, 31000, 27700, 19000), chombo=-1)
    hands = (Hand("ron", winner="S", loser="W", han=1, fu=20),)  # docs/rules.md §6.1 a
    with pytest.raises(RulesErrors) as info:
        check_sheet_numbers(WRC, seats, 0, hands)
    assert {(error.code, error.field) for error in info.value} == {
        ("points_range", "seats[0].points"),
        ("count_negative", "seats[0].chombo"),
        ("ron_20_fu", "hands[0].fu"),
    }
    # A sheet saved part-way need not add up (only its numbers are checked).
    check_sheet_numbers(WRC, sheet((30000, 30000, 30000, 29000)), 1)


def test_the_cli_refuses_points_out_of_range_and_warns_of_unusual_ones():
    def payload(points):
        names = "ABCD"
        return {
            "ruleset": "wrc2015",
            "seats": [{"player": n, "points": p} for n, p in zip(names, points, strict=True)],
        }

    status, out = run("hanchan", payload((10**15, -(10**15) + 120000, 0, 0)))
    assert status == 2
    assert [e["code"] for e in out["errors"]] == ["points_range", "points_range"]
    status, out = run("hanchan", payload((250000, -50000, -40000, -40000)))
    assert status == 0
    (warning,) = out["warnings"]
    assert (warning["code"], warning["field"]) == ("points_unusual", "seats[0].points")
    status, out = run("hanchan", payload((42300, 31000, 27700, 19000)))
    assert "warnings" not in out
