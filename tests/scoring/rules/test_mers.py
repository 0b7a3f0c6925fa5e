"""The MERS weight and base ranks against hand-computed examples of the EMA's "Basics for
ranking system" (weight calculation; base rank), valid since 1 January 2018."""

from fractions import Fraction

import pytest

from scoring.rules.mers import base_rank, base_ranks, counted_players, mers_weight


@pytest.mark.parametrize(
    ("days", "players", "substitutes", "countries", "qualification", "terms", "total"),
    [
        # Basics for ranking system: 1 day, X <= 40 players, X <= 5 countries, no qualification
        (1, 36, 0, 3, False, (1, 0, 0, 0), Fraction(1)),
        # 40 players + 1 substitute = 41 counted: "41 <= X <= 80" → +0.5
        (1, 40, 1, 5, False, (1, Fraction(1, 2), 0, 0), Fraction(3, 2)),
        # 78 players + 5 substitutes, at most 3 counted = 81: "X > 80" → +1
        (2, 78, 5, 6, False, (2, 1, Fraction(1, 2), 0), Fraction(7, 2)),
        # 78 + 2 substitutes = 80: still "41 <= X <= 80" → +0.5
        (2, 78, 2, 9, False, (2, Fraction(1, 2), Fraction(1, 2), 0), Fraction(3)),
        # 10 countries: "X >= 10" → +1; qualification "YES" → +1; 3 days → +3
        (3, 120, 0, 10, True, (3, 1, 1, 1), Fraction(6)),
        # The table stops at three days: a four-day event counts three.
        (4, 20, 0, 2, False, (3, 0, 0, 0), Fraction(3)),
    ],
)
def test_mers_weight_adds_the_four_terms_of_the_ema_table(
    days, players, substitutes, countries, qualification, terms, total
):
    weight = mers_weight(
        days=days,
        players=players,
        substitutes=substitutes,
        countries=countries,
        qualification=qualification,
    )
    assert (weight.duration, weight.players, weight.countries, weight.qualification) == terms
    assert weight.total == total


def test_substitutes_count_up_to_three():
    # Basics for ranking system: "Substitute players (maximum 3) are accounted".
    assert [counted_players(40, substitutes) for substitutes in range(6)] == [
        40,
        41,
        42,
        43,
        43,
        43,
    ]


@pytest.mark.parametrize(
    ("place", "ranked", "expected"),
    [
        (1, 100, Fraction(1000)),  # "If you win you get a base rank of 1000."
        (100, 100, Fraction(0)),  # "If you are last of 100 players, you get … 0."
        (75, 100, Fraction(25000, 99)),  # "number 75 out of 100 … 252": 1000 × 25 / 99
        (3, 16, Fraction(13000, 15)),  # 1000 × 13 / 15 = 866.67
        (2, 4, Fraction(2000, 3)),  # 1000 × 2 / 3
        (1, 1, Fraction(1000)),  # alone: the winner
    ],
)
def test_base_rank_is_the_ema_formula(place, ranked, expected):
    assert base_rank(place, ranked) == expected


def test_tied_players_share_the_base_rank_of_their_shared_place():
    # 8 players, two tied for 3rd (places 1, 2, 3, 3, 5, 6, 7, 8): both 1000 × 5 / 7.
    ranks = base_ranks([1, 2, 3, 3, 5, 6, 7, 8])
    assert ranks[2] == ranks[3] == Fraction(5000, 7)
    assert ranks[4] == Fraction(3000, 7)
    assert ranks[0] == 1000
    assert ranks[-1] == 0


def test_a_place_outside_the_ranking_is_refused():
    with pytest.raises(ValueError, match="place 5"):
        base_rank(5, 4)
