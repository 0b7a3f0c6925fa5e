"""The cut between two stages and the carry-over, computed by hand.

The rule books have no stages (WRC 2015 §2.3 ranks by the global score only); these are the
application's rules (docs/organiser-guide.md, "Stages"): the best N by the standings and
their tie-break chain, a place shared across the line left to the organiser's choice, and
the earlier total kept, halved, reset or replaced by a bonus by rank.
"""

from fractions import Fraction as F

import pytest

from scoring.rules import (
    PlayerRecord,
    RankedPlayer,
    RulesFatalError,
    carry_over,
    compute_standings,
    cut_standings,
)


def ranked(records: list[PlayerRecord]) -> list[RankedPlayer]:
    """The standings as the cut reads them, ranked by the default tie-break chain."""
    return [
        RankedPlayer(row.key, row.place, row.total, row.decided_by)
        for row in compute_standings(records)
    ]


# Five players after two hanchan: a 30, b and c 20 (b has the better best hanchan, 15 > 12),
# d and e 10 with the same hanchan (nothing separates them), f 0.
STANDINGS = ranked(
    [
        PlayerRecord("a", (F(20), F(10)), places=(1, 2)),
        PlayerRecord("b", (F(15), F(5)), places=(1, 2)),
        PlayerRecord("c", (F(12), F(8)), places=(1, 2)),
        PlayerRecord("d", (F(5), F(5)), places=(2, 2)),
        PlayerRecord("e", (F(5), F(5)), places=(2, 2)),
        PlayerRecord("f", (F(0), F(0)), places=(3, 3)),
    ]
)


def test_the_hand_computed_standings_the_cuts_read():
    assert [(r.key, r.place, r.total, r.decided_by) for r in STANDINGS] == [
        ("a", 1, 30, None),
        ("b", 2, 20, "best_hanchan"),
        ("c", 3, 20, "best_hanchan"),
        ("d", 4, 10, None),
        ("e", 4, 10, None),
        ("f", 6, 0, None),
    ]


def test_a_cut_between_two_totals_takes_the_best_n():
    cut = cut_standings(STANDINGS, 3)
    assert (cut.qualified, cut.tied, cut.resolved, cut.decided_by) == (
        ("a", "b", "c"),
        (),
        True,
        None,
    )


def test_a_cut_on_equal_totals_says_the_tie_break_that_decided_it():
    # b and c both have 20: b's best hanchan (15 > 12) puts b through and c out
    cut = cut_standings(STANDINGS, 2)
    assert (cut.qualified, cut.tied, cut.resolved, cut.decided_by) == (
        ("a", "b"), (), True, "best_hanchan",
    )  # fmt: skip


def test_a_place_shared_across_the_line_waits_for_the_organisers_choice():
    # d and e share 4th; a cut to 4 keeps a, b, c and one of them
    cut = cut_standings(STANDINGS, 4)
    assert (cut.qualified, cut.tied, cut.open_seats, cut.resolved) == (
        ("a", "b", "c"), ("d", "e"), 1, False,
    )  # fmt: skip


def test_the_organisers_choice_among_the_tied_completes_the_cut():
    cut = cut_standings(STANDINGS, 4, chosen={"e"})
    assert (cut.qualified, cut.tied, cut.open_seats, cut.resolved) == (
        ("a", "b", "c", "e"), ("d", "e"), 1, True,
    )  # fmt: skip


@pytest.mark.parametrize("chosen", [set(), {"d", "e"}, {"f"}])
def test_a_choice_of_the_wrong_number_of_tied_players_leaves_the_cut_open(chosen):
    cut = cut_standings(STANDINGS, 4, chosen=chosen)
    assert (cut.qualified, cut.resolved) == (("a", "b", "c"), False)


def test_a_cut_as_large_as_the_field_keeps_everyone():
    assert cut_standings(STANDINGS, 6).qualified == ("a", "b", "c", "d", "e", "f")
    assert cut_standings(STANDINGS, 10).qualified == ("a", "b", "c", "d", "e", "f")


def test_a_cut_to_nobody_is_a_bug():
    with pytest.raises(RulesFatalError):
        cut_standings(STANDINGS, 0)


@pytest.mark.parametrize(
    ("policy", "total", "rank", "bonus", "expected"),
    [
        ("keep", F("163.8"), 1, (), F("163.8")),
        ("halve", F("163.8"), 1, (), F("81.9")),
        ("halve", F("-26.1"), 16, (), F("-13.05")),  # exact, not rounded
        ("reset", F("163.8"), 1, (), 0),
        ("bonus", F("163.8"), 1, (F(30), F(20), F(10)), 30),
        ("bonus", F("-40"), 3, (F(30), F(20), F(10)), 10),  # the bonus, whatever the total
        ("bonus", F("163.8"), 4, (F(30), F(20), F(10)), 0),  # beyond the table: nothing
    ],
)
def test_carry_over_by_policy(policy, total, rank, bonus, expected):
    assert carry_over(policy, total, rank, bonus) == expected


def test_an_unknown_carry_over_policy_is_a_bug():
    with pytest.raises(RulesFatalError):
        carry_over("double", 10, 1)


def test_the_carry_over_counts_in_the_total_and_not_as_a_hanchan():
    rows = compute_standings(
        [
            PlayerRecord("a", (F(10),), places=(1,), carried=F("-30.5")),
            PlayerRecord("b", (F(-10),), places=(4,), carried=F(20)),
        ]
    )
    assert [(r.key, r.total, r.hanchan_total, r.carried, r.best_hanchan) for r in rows] == [
        ("b", 10, -10, 20, -10),
        ("a", F("-20.5"), 10, F("-30.5"), 10),
    ]
