"""The rankings derived from the players' totals: teams, and each player's rank by round.

The rule books rank neither teams nor players between rounds (WRC ranks players by the
global score only [WRC 2015 §2.3]). The facts below are the application's own rules, as the
code says them: a team's total is the sum of its members' totals and equal totals share the
place (`scoring.selectors.standings.TeamStanding`); the rank after round r orders the running
sums of rounds 1…r plus the penalties given by then, equal sums sharing the rank
(`scoring.selectors.players.rank_histories`).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import (
    PlayerRecord,
    TeamMember,
    compute_standings,
    compute_team_standings,
    running_ranks,
)


def teams(*members: tuple[str, str, F]) -> list[tuple[str, int, F, tuple[str, ...], bool]]:
    rows = compute_team_standings(TeamMember(*member) for member in members)
    return [(r.team, r.place, r.total, r.members, r.shared) for r in rows]


@pytest.mark.parametrize(
    ("members", "expected"),
    [
        # TeamStanding: a team's total is the sum of its members' totals
        (
            [("a", "Kaze", F("27.3")), ("b", "Kaze", F(-26)), ("c", "Ame", F(6))],
            [("Ame", 1, F(6), ("c",), False), ("Kaze", 2, F("1.3"), ("a", "b"), False)],
        ),
        # TeamStanding: equal totals share the place (1, 1, 3, as players do: docs/rules-engine.md,
        # "Standings and the tie-break chain", item 4), listed by team name
        (
            [("a", "Yuki", F(4)), ("b", "Kaze", F(4)), ("c", "Ame", F(-8))],
            [
                ("Kaze", 1, F(4), ("b",), True),
                ("Yuki", 1, F(4), ("a",), True),
                ("Ame", 3, F(-8), ("c",), False),
            ],
        ),
        # shared below the top: 1, 2, 2, 4
        (
            [("a", "A", F(9)), ("b", "B", F(1)), ("c", "C", F(1)), ("d", "D", F(-11))],
            [
                ("A", 1, F(9), ("a",), False),
                ("B", 2, F(1), ("b",), True),
                ("C", 2, F(1), ("c",), True),
                ("D", 4, F(-11), ("d",), False),
            ],
        ),
        # exact: three thirds of an uma split three ways make 10, not 9.999…
        (
            [("a", "A", F(10, 3)), ("b", "A", F(10, 3)), ("c", "A", F(10, 3)), ("d", "B", F(10))],
            [("A", 1, F(10), ("a", "b", "c"), True), ("B", 1, F(10), ("d",), True)],
        ),
        # a member with no hanchan yet (total 0) is counted for nothing, the team still listed
        ([("a", "A", F(0))], [("A", 1, F(0), ("a",), False)]),
        # no teams, no rows
        ([], []),
    ],
)
def test_team_standings(members, expected):
    assert teams(*members) == expected


def test_team_members_keep_the_order_given():
    # The Django layer gives them in the order of the standings, best first.
    rows = compute_team_standings(
        [TeamMember("z", "A", F(1)), TeamMember("m", "B", F(0)), TeamMember("b", "A", F(-1))]
    )
    assert rows[0].members == ("z", "b")


@pytest.mark.parametrize(
    ("scores", "penalties", "numbers", "expected"),
    [
        # rank_histories: the rank after round r orders the sums of rounds 1…r
        (
            {"a": {1: F(10), 2: F(-20)}, "b": {1: F(-5), 2: F(5)}},
            {},
            [1, 2],
            {1: {"a": 1, "b": 2}, 2: {"a": 2, "b": 1}},
        ),
        # equal sums share the rank: 1, 1, 3
        (
            {"a": {1: F(5)}, "b": {1: F(5)}, "c": {1: F(-10)}},
            {},
            [1],
            {1: {"a": 1, "b": 1, "c": 3}},
        ),
        # only players with a score by round r are ranked after it (a late registration at
        # 0 is not counted above a negative total); one who misses round 2 stays ranked
        (
            {"a": {1: F(-26)}, "b": {2: F(6)}, "c": {}},
            {},
            [1, 2],
            {1: {"a": 1}, 2: {"b": 1, "a": 2}},
        ),
        # a referee's penalty counts from its round on; one without a round from the start
        (
            {"a": {1: F(10), 2: F(0)}, "b": {1: F(5), 2: F(0)}},
            {"a": [(2, F(-7))], "b": [(None, F(-1))]},
            [1, 2],
            {1: {"a": 1, "b": 2}, 2: {"a": 2, "b": 1}},
        ),
        # the penalties of a player with no score are never counted, nor ranked
        ({"a": {1: F(1)}}, {"x": [(None, F(-5))]}, [1], {1: {"a": 1}}),
        # in any order asked; a penalty of a later round does not count yet
        (
            {"a": {1: F(1)}, "b": {1: F(2)}},
            {"b": [(3, F(-5))]},
            [2, 1],
            {1: {"a": 2, "b": 1}, 2: {"a": 2, "b": 1}},
        ),
        # only the rounds asked for; a round nobody has played yet ranks nobody
        ({"a": {1: F(1), 3: F(2)}}, {}, [3, 5], {3: {"a": 1}, 5: {"a": 1}}),
        ({"a": {2: F(1)}}, {}, [1], {1: {}}),
    ],
)
def test_running_ranks(scores, penalties, numbers, expected):
    assert running_ranks(scores, numbers, penalties) == expected


def test_running_ranks_ignore_the_tie_breaks_that_order_the_standings():
    # Both on 10 after round 2: compute_standings puts b first by the best hanchan (the default
    # chain, docs/rules-engine.md, "Standings and the tie-break chain"); the running rank shares.
    scores = {"a": {1: F(5), 2: F(5)}, "b": {1: F(12), 2: F(-2)}}
    rows = compute_standings([PlayerRecord(key, tuple(s.values())) for key, s in scores.items()])
    assert [(r.key, r.place) for r in rows] == [("b", 1), ("a", 2)]
    assert running_ranks(scores, [2]) == {2: {"a": 1, "b": 1}}


scores_by_round = st.dictionaries(
    st.integers(1, 4), st.fractions(min_value=-50, max_value=50, max_denominator=10), max_size=4
)


@given(st.dictionaries(st.text("abcdef", min_size=1, max_size=2), scores_by_round, max_size=8))
def test_the_rank_after_the_last_round_is_the_place_without_tie_breaks(scores):
    # The running sums after every round are the totals compute_standings ranks.
    ranks = running_ranks(scores, [4])[4]
    rows = compute_standings(
        [
            PlayerRecord(key, tuple(by_round.values()), ranked=bool(by_round))
            for key, by_round in scores.items()
        ],
        tie_breaks=(),
    )
    assert ranks == {r.key: r.place for r in rows if r.ranked}
