"""Score sheet of one hanchan: places, uma with ties, oka, penalties, substitutes, validation."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from scoring.rules import RulesErrors, SeatSheet, resolve_ruleset, score_hanchan
from tests.scoring.rules.helpers import MS, ORAN, WRC


def sheet(*points, **per_seat):
    """Four seats A-D with the given points; per_seat={"S": {"chombo": 1}} adds fields."""
    names = ("A", "B", "C", "D")
    out = []
    for seat, name, p in zip("ESWN", names, points, strict=True):
        out.append(SeatSheet(name, p, **per_seat.get(seat, {})))
    return out


def test_cli_contract_example():
    # docs/cli.md example; (points - 30 000)/1 000 + uma [WRC 2015 §5.9.2]: 12.3 + 15, 1 + 5,
    # -2.3 - 5, -12 - 15
    res = score_hanchan(WRC, sheet(42300, 31000, 27700, 18000), riichi_sticks_left=1)
    assert [s.score for s in res.seats] == [F("27.3"), F(6), F("-7.3"), F(-27)]
    assert [s.place for s in res.seats] == [1, 2, 3, 4]
    assert sum(s.table_score for s in res.seats) == -1  # docs/rules.md §7.1: -(sticks left)


def test_wrc_5_9_2_tie_example():
    # [WRC 2015 §5.9.2]: two players tied 1st get +10 each; 3rd and 4th get -5 and -15
    res = score_hanchan(WRC, sheet(35000, 35000, 28000, 22000))
    assert [s.uma for s in res.seats] == [10, 10, -5, -15]
    assert [s.place for s in res.seats] == [1, 1, 3, 4]  # competition ranking (docs/cli.md)
    assert [s.score for s in res.seats] == [15, 15, -7, -23]


# Tie patterns. Points sum to 120 000 (WRC/ORAN start 30 000 x 4 [WRC 2015 §4.1; ORAN-1 §2.1]).
# Expected split uma from WRC 2015 §5.9.2, as docs/rules.md §7.1 spells it out (tied 1st: +10
# each; tied 2nd: 0 each; tied 3rd: -10 each; three tied 1st: +5 each; three tied 2nd: -5
# each; four tied: 0 each).
TIES = [
    # name, points E S W N, split places, split uma
    ("1=2", (35000, 35000, 28000, 22000), (1, 1, 3, 4), (10, 10, -5, -15)),
    ("2=3", (40000, 28000, 28000, 24000), (1, 2, 2, 4), (15, 0, 0, -15)),
    ("3=4", (40000, 32000, 24000, 24000), (1, 2, 3, 3), (15, 5, -10, -10)),
    ("1=2=3", (32000, 32000, 32000, 24000), (1, 1, 1, 4), (5, 5, 5, -15)),
    ("2=3=4", (45000, 25000, 25000, 25000), (1, 2, 2, 2), (15, -5, -5, -5)),
    ("all", (30000, 30000, 30000, 30000), (1, 1, 1, 1), (0, 0, 0, 0)),
]


@pytest.mark.parametrize(("name", "points", "places", "uma"), TIES, ids=[t[0] for t in TIES])
@pytest.mark.parametrize("rs", [WRC, ORAN], ids=lambda r: r.key)
def test_tie_patterns_split(rs, name, points, places, uma):
    # WRC [WRC 2015 §5.9.2]; ORAN [A2]: the WRC split
    res = score_hanchan(rs, sheet(*points))
    assert tuple(s.place for s in res.seats) == places
    assert tuple(s.uma for s in res.seats) == uma
    assert sum(s.uma for s in res.seats) == 0  # docs/rules.md §10


@pytest.mark.parametrize(("name", "points", "places", "uma"), TIES, ids=[t[0] for t in TIES])
def test_tie_patterns_mahjongsoul_seat_order(name, points, places, uma):
    # [Évriichi adv. 6]: ties broken by initial seat E > S > W > N. The TIES rows list tied players
    # in seat order, so each seat takes the next place and its uma [+15/+5/-5/-15].
    ms_points = [p - 5000 for p in points]  # MS starts at 25 000 [Évriichi §7]
    res = score_hanchan(MS, sheet(*ms_points))
    order = sorted(range(4), key=lambda i: (-ms_points[i], i))
    for position, seat in enumerate(order):
        assert res.seats[seat].place == position + 1
        assert res.seats[seat].uma == MS.uma[position]


@pytest.mark.parametrize(("name", "points", "places", "uma"), TIES, ids=[t[0] for t in TIES])
def test_tie_patterns_mahjongsoul_share_option(name, points, places, uma):
    # [Évriichi adv. 6] alternative: tied players share the uma
    rs = resolve_ruleset("mahjongsoul", {"tie_mode": "split"})
    res = score_hanchan(rs, sheet(*[p - 5000 for p in points]))
    assert tuple(s.place for s in res.seats) == places
    assert tuple(s.uma for s in res.seats) == uma


def test_mahjongsoul_seat_order_example():
    # [Évriichi adv. 6]: players who started S and N both have 40 000: S is 1st, N 2nd
    res = score_hanchan(MS, sheet(10000, 40000, 10000, 40000))
    assert (res.seats[1].place, res.seats[3].place) == (1, 2)
    # E and W tie too: E 3rd, W 4th
    assert (res.seats[0].place, res.seats[2].place) == (3, 4)


def test_mahjongsoul_two_tied_last_share():
    # [Évriichi adv. 6]: with sharing, two players tied last get (-5 + -15) / 2 = -10 each
    rs = resolve_ruleset("mahjongsoul", {"tie_mode": "split"})
    res = score_hanchan(rs, sheet(40000, 30000, 15000, 15000))
    assert [s.uma for s in res.seats] == [15, 5, -10, -10]


def test_oran_score_sheet_example():
    # [ORAN-1 §3.4.1] / docs/rules.md §7.2: South has one chombo; nets -20.4 / -32.7 / +11.9 / +31.2
    res = score_hanchan(ORAN, sheet(14600, 22300, 36900, 46200, S={"chombo": 1}))
    assert [s.score for s in res.seats] == [F("-20.4"), F("-32.7"), F("11.9"), F("31.2")]
    assert [s.place for s in res.seats] == [3, 4, 2, 1]  # places on adjusted points
    assert [s.table_score for s in res.seats] == [F("-20.4"), F("-22.7"), F("11.9"), F("31.2")]
    assert [s.penalty for s in res.seats] == [0, -10, 0, 0]  # docs/rules.md §7.2
    assert sum(s.score for s in res.seats) == -10  # the destroyed 10 000


@pytest.mark.parametrize("chombos", [1, 2])
def test_oran_points_written_after_the_chombo_deduction_are_named_as_such(chombos):
    # [ORAN-1 §3.1.4, §3.4.1]: the sheet's points are the final table points; the 10 000 per
    # chombo comes off them in the score. Points already net of it miss 120 000 (4 × 30 000,
    # [ORAN-1 §2.1]) by exactly that: the referee is told so, not only that the sum is off.
    written = sheet(14600 - 10000 * chombos, 22300, 36900, 46200, E={"chombo": chombos})
    with pytest.raises(RulesErrors) as info:
        score_hanchan(ORAN, written)
    (error,) = info.value.errors
    assert error.code == "points_sum_chombo_deducted"
    assert error.params["deducted"] == 10000 * chombos
    # WRC takes chombo as penalty points, never off the table points [WRC 2015 §7.1]: a plain sum
    with pytest.raises(RulesErrors) as info:
        score_hanchan(WRC, written)
    assert info.value.codes == ("points_sum",)


def test_wrc_chombo_never_changes_the_place():
    # [WRC 2015 §7.1]: penalty points off the global score, table untouched
    res = score_hanchan(WRC, sheet(14600, 22300, 36900, 46200, S={"chombo": 1}))
    assert [s.place for s in res.seats] == [4, 3, 2, 1]
    south = res.seats[1]
    assert south.table_score == F("-7.7") - 5
    assert south.penalty == -20
    assert south.score == F("-12.7") - 20


def test_wrc_7_1_global_score_example():
    # [WRC 2015 §7.1]: 40 000 and first -> 25 (10 + 15); in the next hanchan a 20-point chombo
    # penalty while the table shows 30 000 (here four at 30 000, uma 0) -> global score 5.
    first = score_hanchan(WRC, sheet(40000, 30000, 30000, 20000)).seats[0]
    assert first.score == 25
    second = score_hanchan(WRC, sheet(30000, 30000, 30000, 30000, E={"chombo": 1})).seats[0]
    assert second.table_score == 0
    assert first.score + second.score == 5


# Penalties for lateness and absence [WRC 2015 §7.2]; docs/rules.md §8.3, C18
LATENESS = [
    ({"late_minutes": 0}, 0, True),  # on time
    ({"late_minutes": 1}, -1, True),  # 1 point per minute
    ({"late_minutes": 10}, -10, True),  # up to 10 minutes
    # "un joueur qui est en retard de dix minutes et qui est substitué aura seulement 30
    # points" [WRC 2015 §7.2; C18]
    ({"late_minutes": 10, "substitute": True}, -30, False),
    ({"late_minutes": 11, "substitute": True}, -30, False),  # > 10 min: 30 in total [C18]
    ({"late_minutes": 45, "substitute": True}, -30, False),  # whatever the delay [C18]
    ({"absent": True, "substitute": True}, -20, False),  # missed hanchan: 20 [WRC 2015 §7.2]
]


@pytest.mark.parametrize(("fields", "penalty", "ranked"), LATENESS)
def test_wrc_lateness_and_absence(fields, penalty, ranked):
    res = score_hanchan(WRC, sheet(40000, 30000, 30000, 20000, E=fields))
    east = res.seats[0]
    assert east.penalty == penalty
    assert east.ranked is ranked
    assert east.table_score == 25  # the table is scored normally (WRC 2015 §7.2)
    # A substitute's registered player gets no hanchan points, only the penalty [WRC 2015 §7.2]
    assert east.score == (25 + penalty if ranked else penalty)
    # the other three places do not move
    assert [s.place for s in res.seats] == [1, 2, 2, 4]


def test_late_more_than_ten_minutes_needs_a_substitute():
    # [WRC 2015 §7.2]: > 10 minutes -> replaced by a substitute
    with pytest.raises(RulesErrors) as info:
        score_hanchan(WRC, sheet(40000, 30000, 30000, 20000, W={"late_minutes": 11}))
    assert info.value.codes == ("late_needs_substitute",)
    assert info.value.errors[0].field == "seats[2].substitute"


@pytest.mark.parametrize("minutes", [1, 9])
def test_a_player_under_ten_minutes_late_is_not_replaced(minutes):
    # [WRC 2015 §7.2]: 1-10 minutes late the player plays (1 point per
    # minute); beyond 10 minutes a substitute takes the seat, and at 10 one may (C18)
    late = {"late_minutes": minutes, "substitute": True}
    with pytest.raises(RulesErrors) as info:
        score_hanchan(WRC, sheet(40000, 30000, 30000, 20000, W=late))
    assert info.value.codes == ("substitute_too_early",)
    assert info.value.errors[0].field == "seats[2].substitute"


def test_an_absent_player_with_minutes_gets_one_error_not_two():
    # [WRC 2015 §7.2]: absent and "late 3 minutes" is one slip, the minutes;
    # substitute_too_early would add "clear the substitute", which absent forbids.
    absent = {"absent": True, "substitute": True, "late_minutes": 3}
    with pytest.raises(RulesErrors) as info:
        score_hanchan(WRC, sheet(40000, 30000, 30000, 20000, W=absent))
    assert info.value.codes == ("absent_and_late",)


def test_oran_lateness_is_not_automatic():
    # [ORAN-1 §3.4.3; A7]: the organiser enters a deduction; no per-minute scale
    res = score_hanchan(ORAN, sheet(40000, 30000, 30000, 20000, W={"late_minutes": 15}))
    assert res.seats[2].penalty == 0


def test_wrc_chombo_and_lateness_add_up():
    # [WRC 2015 §7.1, §7.2]: 2 chombo (40) + 3 minutes late (3)
    res = score_hanchan(WRC, sheet(40000, 30000, 30000, 20000, N={"chombo": 2, "late_minutes": 3}))
    assert res.seats[3].penalty == -43
    assert res.seats[3].score == -10 - 15 - 43


def test_substitute_counts_for_the_table_but_is_not_ranked():
    # [WRC 2015 §7.2]
    res = score_hanchan(WRC, sheet(50000, 30000, 25000, 15000, E={"substitute": True}))
    east = res.seats[0]
    assert east.ranked is False
    assert east.place == 1
    assert east.score == 0  # no registered player penalty (e.g. a tournament substitute)
    assert [s.uma for s in res.seats] == [15, 5, -5, -15]


def test_a_substitutes_chombo_is_taken_off_nobody():
    # [WRC 2015 §7.2]: the substitute's score "n'est pas inclus dans le classement"; the player
    # late more than 10 minutes and replaced gets only the 30 points [C18]. The chombo
    # (20 points [WRC 2015 §7.1]) was the substitute's: shown, not taken off the registered player.
    late_sub = {"late_minutes": 15, "substitute": True, "chombo": 1}
    south = score_hanchan(WRC, sheet(40000, 35000, 25000, 20000, S=late_sub)).seats[1]
    assert south.chombo_penalty == -20
    assert south.penalty == -30
    assert south.score == south.penalty


def test_negative_points_are_valid():
    # docs/rules.md §7.4: negative points are valid in every rule set
    res = score_hanchan(WRC, sheet(-5000, 45000, 40000, 40000))
    assert res.seats[0].score == -35 - 15


def test_leftover_sticks_to_first_place_option():
    # [A3]: MS option to_first_place; tied 1st share them (split) / seat order gets them
    rs = resolve_ruleset("mahjongsoul", {"leftover_riichi": "to_first_place"})
    res = score_hanchan(rs, sheet(38000, 30000, 20000, 10000), riichi_sticks_left=2)
    assert res.seats[0].riichi_bonus == 2
    assert sum(s.table_score for s in res.seats) == 0
    rs = resolve_ruleset("mahjongsoul", {"leftover_riichi": "to_first_place", "tie_mode": "split"})
    res = score_hanchan(rs, sheet(34000, 34000, 20000, 10000), riichi_sticks_left=2)
    assert [s.riichi_bonus for s in res.seats] == [1, 1, 0, 0]


def test_oka_goes_to_first_place():
    # Oka (docs/rules.md §0, glossary): start 25 000, return 30 000 -> 20 000 oka for 1st
    rs = resolve_ruleset("mahjongsoul", {"return_points": 30000, "oka": 20000})
    res = score_hanchan(rs, sheet(40000, 30000, 20000, 10000))
    assert [s.oka for s in res.seats] == [20, 0, 0, 0]
    assert sum(s.table_score for s in res.seats) == 0
    # MS breaks the tie by seat order [Évriichi adv. 6]: E takes the oka; with sharing it is split
    res = score_hanchan(rs, sheet(35000, 35000, 20000, 10000))
    assert [s.oka for s in res.seats] == [20, 0, 0, 0]
    shared = resolve_ruleset(
        "mahjongsoul", {"return_points": 30000, "oka": 20000, "tie_mode": "split"}
    )
    res = score_hanchan(shared, sheet(35000, 35000, 20000, 10000))
    assert [s.oka for s in res.seats] == [10, 10, 0, 0]


# Validation, docs/rules.md §7.4 and docs/cli.md
def test_points_sum_message():
    # The message of the issue; Σ points + 1 000 x sticks = 4 x 30 000 (docs/rules.md §7.4 item 4)
    with pytest.raises(RulesErrors) as info:
        score_hanchan(WRC, sheet(42000, 31000, 28000, 18000), riichi_sticks_left=2)
    err = info.value.errors[0]
    assert err.code == "points_sum"
    assert err.message == (
        "The four scores add up to 119,000; with 2 riichi sticks left on the table they "
        "must add up to 118,000."
    )
    assert err.params == {
        "total": 119000,
        "expected": 118000,
        "riichi_sticks_left": 2,
        "start_points": 30000,
    }


@pytest.mark.parametrize(
    ("seats", "sticks", "codes", "field"),
    [
        (sheet(30050, 29950, 30000, 30000), 0, ("points_not_multiple",) * 2, "seats[0].points"),
        (sheet(30000, 30000, 30000, 30000), -1, ("count_negative",), "riichi_sticks_left"),
        (
            sheet(30000, 30000, 30000, 30000, N={"chombo": -1}),
            0,
            ("count_negative",),
            "seats[3].chombo",
        ),
        (
            sheet(30000, 30000, 30000, 30000, N={"late_minutes": -2}),
            0,
            ("count_negative",),
            "seats[3].late_minutes",
        ),
        (
            sheet(30000, 30000, 30000, 30000, S={"absent": True}),
            0,
            ("absent_needs_substitute",),
            "seats[1].substitute",
        ),
        ([SeatSheet("A", 30000)] * 4, 0, ("player_repeated",) * 3, "seats[1].player"),
        (  # one name typed twice (trailing space, other case); 4 × 30 000: docs/rules.md §7.4
            [SeatSheet(name, 30000) for name in ("Alice", "alice ", "Bob", "Chloé")],
            0,
            ("player_repeated",),
            "seats[1].player",
        ),
        (sheet(30000, 30000, 30000, 30000)[:3], 0, ("seats_count",), "seats"),
        (sheet(30000, 30000, 30000, 30000) + [SeatSheet("E", 0)], 0, ("seats_count",), "seats"),
        (sheet(30000, 30000, 30000, 29000), 1, None, None),  # valid: one stick left
    ],
)
def test_sheet_validation(seats, sticks, codes, field):
    if codes is None:
        assert score_hanchan(WRC, seats, sticks).riichi_sticks_left == sticks
        return
    with pytest.raises(RulesErrors) as info:
        score_hanchan(WRC, seats, sticks)
    assert info.value.codes == codes
    assert info.value.errors[0].field == field


def test_all_faults_are_reported_at_once():
    seats = [
        SeatSheet("A", 30050),
        SeatSheet("A", 30000),
        SeatSheet("C", 30000, chombo=-1),
        SeatSheet("D", 30000),
    ]
    with pytest.raises(RulesErrors) as info:
        score_hanchan(WRC, seats)
    assert set(info.value.codes) == {
        "points_not_multiple",
        "player_repeated",
        "count_negative",
        "points_sum",
    }


def test_mahjongsoul_sum_uses_25000():
    # [Évriichi §7]: 25 000 start -> 100 000 in total (docs/rules.md §7.4 item 4)
    res = score_hanchan(MS, sheet(25000, 25000, 25000, 25000))
    assert [s.score for s in res.seats] == [15, 5, -5, -15]  # [A1] return 25 000, seat order
    with pytest.raises(RulesErrors):
        score_hanchan(MS, sheet(30000, 30000, 30000, 30000))
