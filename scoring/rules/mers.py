"""The European Mahjong Association's ranking (MERS) as a tournament sees it: its weight and
each player's base rank.

Source: the EMA's "Basics for ranking system" (mahjong-europe.org, ranking pages; the update
of the EMA General Assembly of 25 May 2017, in force since 1 January 2018). It defines:

- the tournament weight, ``TOTAL_MERS = Weight_duration + Weight_players + Weight_countries
  + Weight_qualif``: 1, 2 or 3 for one, two or three days; +0.5 for 41 to 80 players, +1 for
  more than 80, substitutes counted up to three; +0.5 for 6 to 9 countries, +1 for 10 or
  more; +1 when the players had to qualify;
- a player's base rank, between 0 and 1000: ``1000 × (N − place) / (N − 1)`` for N ranked
  players (the winner 1000, the last 0).

Not verified against an EMA text, so said where it is decided: the page's own table and an
earlier copy of it disagree on exactly 10 countries (the current one, followed here, gives
+1; the 2018 announcement's table gave +0.5 up to 10); the page lists no duration beyond three
days (longer events count three here); and it does not say how tied players are placed
(here they keep the place they share, 1, 2, 2, 4, as the results table sent to the EMA
lists them). Not here: gathering the counts from a tournament
(`scoring.selectors.ema`), the ranking across tournaments (the EMA computes it).

Weights and base ranks are exact (:class:`fractions.Fraction`); the pages round them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

#: "Substitute players (maximum 3) are accounted in the calculation of participating players."
COUNTED_SUBSTITUTES = 3
#: The longest duration the weight table lists (three days).
LONGEST_DURATION = 3
#: (more than this many, weight added): the players' and the countries' rows of the table.
PLAYER_STEPS = ((80, Fraction(1)), (40, Fraction(1, 2)))
COUNTRY_STEPS = ((9, Fraction(1)), (5, Fraction(1, 2)))
#: The base rank of a player who beat every other one.
BEST_BASE_RANK = 1000


@dataclass(frozen=True)
class MersWeight:
    """The weight of a tournament in the MERS and the four terms it adds up."""

    duration: int
    players: Fraction
    countries: Fraction
    qualification: int

    @property
    def total(self) -> Fraction:
        return self.duration + self.players + self.countries + self.qualification


def _step(count: int, steps: tuple[tuple[int, Fraction], ...]) -> Fraction:
    for above, weight in steps:
        if count > above:
            return weight
    return Fraction(0)


def counted_players(players: int, substitutes: int) -> int:
    """The participating players the weight counts: every player and at most three
    substitutes.

    >>> counted_players(40, 2), counted_players(78, 5)
    (42, 81)
    """
    return players + min(substitutes, COUNTED_SUBSTITUTES)


def mers_weight(
    *, days: int, players: int, substitutes: int, countries: int, qualification: bool
) -> MersWeight:
    """The tournament's MERS weight ("Basics for ranking system", weight calculation).

    A two-day event of 41 players and 6 countries, open to all: 2 + 0.5 + 0.5 = 3.

    >>> mers_weight(days=2, players=41, substitutes=0, countries=6, qualification=False).total
    Fraction(3, 1)
    """
    return MersWeight(
        duration=max(1, min(days, LONGEST_DURATION)),
        players=_step(counted_players(players, substitutes), PLAYER_STEPS),
        countries=_step(countries, COUNTRY_STEPS),
        qualification=1 if qualification else 0,
    )


def base_rank(place: int, ranked: int) -> Fraction:
    """A player's base rank: 1000 × (N − place) / (N − 1) for N ranked players; a player
    alone in the ranking beat nobody but won, 1000.

    75th of 100 players, the EMA's own example ("252"): 1000 × 25 / 99 = 252.5…

    >>> base_rank(1, 100), base_rank(100, 100), base_rank(75, 100)
    (Fraction(1000, 1), Fraction(0, 1), Fraction(25000, 99))
    """
    if not 1 <= place <= ranked:
        raise ValueError(f"place {place} is not between 1 and {ranked}")
    if ranked == 1:
        return Fraction(BEST_BASE_RANK)
    return Fraction(BEST_BASE_RANK * (ranked - place), ranked - 1)


def base_ranks(places: list[int]) -> list[Fraction]:
    """The base rank of each place of a ranking (ties keep the place they share), N being
    the number of places given.

    >>> [str(rank) for rank in base_ranks([1, 2, 2, 4])]
    ['1000', '2000/3', '2000/3', '0']
    """
    return [base_rank(place, len(places)) for place in places]
