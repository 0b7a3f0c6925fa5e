"""Tournament totals: sums, penalties, disqualification, shared places, tie-break chain."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    DEFAULT_TIE_BREAKS,
    SCORE_UNIT,
    Penalty,
    PlayerRecord,
    RulesErrors,
    compute_standings,
    resolve_ruleset,
    score_hanchan,
    to_units,
)
from tests.scoring.rules.helpers import WRC
from tests.scoring.rules.test_hanchan import sheet


def by_key(rows):
    return {r.key: r for r in rows}


def test_total_is_sum_of_hanchan_scores_plus_penalties():
    # [WRC 2015 §2.3 SCORE GLOBAL, §7.1]: global score = Σ hanchan scores - penalty points
    rows = compute_standings(
        [
            PlayerRecord("a", (F("27.3"), None, F("-7.3")), (Penalty(F(-5), "phone"),)),
            PlayerRecord("b", (F(6), F(10))),
        ]
    )
    a, b = by_key(rows)["a"], by_key(rows)["b"]
    assert a.total == F(15)
    assert a.hanchan_total == F(20)
    assert a.penalty_total == -5
    assert a.played == 2  # None = not played
    assert b.total == 16
    assert (b.place, a.place) == (1, 2)


def test_wrc_7_1_example_through_the_sheets():
    # [WRC 2015 §7.1]: 40 000 and 1st -> 25; a 20-point penalty next hanchan -> global score 5
    h1 = score_hanchan(WRC, sheet(40000, 30000, 30000, 20000)).seats[0].score
    h2 = score_hanchan(WRC, sheet(30000, 30000, 30000, 30000, E={"chombo": 1})).seats[0].score
    (row,) = compute_standings([PlayerRecord("a", (h1, h2))])
    assert row.total == 5


def test_disqualified_players_are_not_ranked():
    # [WRC 2015 §7.1]: a disqualified player is not listed in the ranking
    rows = compute_standings(
        [
            PlayerRecord("a", (F(50),), ranked=False),
            PlayerRecord("b", (F(1),)),
            PlayerRecord("c", (F(-1),)),
        ]
    )
    assert [(r.key, r.place) for r in rows] == [("b", 1), ("c", 2), ("a", None)]


def test_equal_totals_share_the_place_without_tie_breaks():
    # competition ranking 1, 1, 3 (docs/cli.md); no tie-break asked
    rows = compute_standings(
        [
            PlayerRecord("a", (F(10), F(0))),
            PlayerRecord("b", (F(5), F(5))),
            PlayerRecord("c", (F(1),)),
        ],
        tie_breaks=(),
    )
    assert [(r.key, r.place, r.shared) for r in rows] == [
        ("a", 1, True),
        ("b", 1, True),
        ("c", 3, False),
    ]


def test_default_chain_best_hanchan_then_firsts():
    # Documented default (docs/rules-engine.md, "Standings and the tie-break chain"):
    # total -> best hanchan -> 1st places -> ...
    assert DEFAULT_TIE_BREAKS[:2] == ("best_hanchan", "firsts")
    rows = compute_standings(
        [
            PlayerRecord("a", (F(5), F(5)), places=(1, 1)),
            PlayerRecord("b", (F(10), F(0)), places=(2, 2)),  # best hanchan 10 beats 5
            PlayerRecord("c", (F(5), F(5)), places=(2, 2)),  # same best as a, fewer 1sts
            PlayerRecord("d", (F(5), F(5)), places=(2, 2)),  # identical to c: shared
        ]
    )
    assert [(r.key, r.place, r.decided_by) for r in rows] == [
        ("b", 1, "best_hanchan"),
        ("a", 2, "best_hanchan"),
        ("c", 3, "firsts"),
        ("d", 3, "firsts"),
    ]
    assert [r.shared for r in rows] == [False, False, True, True]


def test_tie_breaks_are_configurable_through_the_rule_set():
    rs = resolve_ruleset("wrc2015", {"tie_breaks": ["firsts"]})
    rows = compute_standings(
        [
            PlayerRecord("b", (F(10), F(0)), places=(2, 2)),
            PlayerRecord("a", (F(5), F(5)), places=(1, 1)),
        ],
        tie_breaks=rs.tie_breaks,
    )
    assert [r.key for r in rows] == ["a", "b"]


def test_fewest_penalties_breaks_a_tie():
    rows = compute_standings(
        [PlayerRecord("a", (F(10),), (F(-5),)), PlayerRecord("b", (F(5),))],
        tie_breaks=("fewest_penalties",),
    )
    assert [r.key for r in rows] == ["b", "a"]


@pytest.mark.parametrize(
    ("records", "tie_breaks", "code"),
    [
        ([PlayerRecord("a", (), (F(5),))], (), "penalty_sign"),
        ([PlayerRecord("a", (), (0.5,))], (), "penalty_type"),
        ([PlayerRecord("a"), PlayerRecord("a")], (), "player_repeated"),
        ([PlayerRecord("a")], ("coin_flip",), "tie_break_unknown"),
    ],
)
def test_standings_errors(records, tie_breaks, code):
    with pytest.raises(RulesErrors) as info:
        compute_standings(records, tie_breaks=tie_breaks)
    assert info.value.codes == (code,)


def test_fewest_penalties_counts_the_penalties_inside_the_sheets():
    # docs/rules-engine.md, tie-break "fewer penalty points": a missed hanchan (20 points [WRC 2015
    # §7.2]) is a penalty even though the sheet already took it off the hanchan score.
    rows = compute_standings(
        [
            PlayerRecord("absent", (F(-20),), sheet_penalties=F(-20)),
            PlayerRecord("fourth", (F(-20),)),
        ],
        tie_breaks=("fewest_penalties",),
    )
    assert [r.key for r in rows] == ["fourth", "absent"]
    assert [r.total for r in rows] == [-20, -20]  # not taken off twice
    assert rows[1].penalty_points == -20


# A player's three rounds in whole SCORE_UNITs (None: not played), the penalty outside the
# sheets and the sheets' penalties, both <= 0 as PlayerRecord asks.
_UNITS_PLAYER = st.tuples(
    st.lists(st.one_of(st.none(), st.integers(-3, 3).map(lambda n: n * 4000)), min_size=3,
             max_size=3),
    st.integers(-2, 0).map(lambda n: n * 6000),
    st.integers(-2, 0).map(lambda n: n * 6000),
)  # fmt: skip


@settings(derandomize=True, max_examples=200)
@given(players=st.lists(_UNITS_PLAYER, min_size=1, max_size=8))
def test_whole_units_rank_as_their_fractions_and_total_as_integers(players):
    # The standings rank whole SCORE_UNITs (to_units): the same places, shared places and
    # tie-breaks as the points they stand for, with integer totals (no Fraction built).
    def records(value):
        return [
            PlayerRecord(str(index), tuple(None if s is None else value(s) for s in scores),
                         (value(penalty),), sheet_penalties=value(sheet))
            for index, (scores, penalty, sheet) in enumerate(players)
        ]  # fmt: skip

    in_units = compute_standings(records(int), DEFAULT_TIE_BREAKS)
    in_points = compute_standings(records(lambda units: F(units, SCORE_UNIT)), DEFAULT_TIE_BREAKS)
    assert [(r.key, r.place, r.shared, r.decided_by) for r in in_units] == [
        (r.key, r.place, r.shared, r.decided_by) for r in in_points
    ]
    for units, points in zip(in_units, in_points, strict=True):
        assert type(units.total) is int
        assert units.total == to_units(points.total)
        assert units.penalty_points == to_units(points.penalty_points)
