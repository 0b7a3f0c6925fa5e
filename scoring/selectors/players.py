"""Reads for one player's page: each seated round with its table, wind, opponents and
result, and the player's rank after each round."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from django.core.cache import cache

from scoring.rules import running_ranks
from scoring.selectors.penalties import referee_penalties
from scoring.selectors.standings import Standings
from tournament.models import Registration, Tournament
from tournament.selectors import SeatView, seats_of_player

#: Cached beside the standings, under their key: see `rank_histories`.
HISTORIES_CACHE_SECONDS = 60 * 60


def rank_histories(
    tournament: Tournament, standings: Standings, standings_key: str
) -> dict[int, list[tuple[int, int, bool]]]:
    """Registration id → (round number, rank after that round, shared) of every player in
    the standings, computed once a version of the standings (``standings_key``) and cached:
    ranking every player after every round costs about a second at 500 players, and each
    player's page needs it. The previous standings, served during another process's
    rebuild, are ranked without being cached.

    The engine's `running_ranks` over the players the standings list, from their confirmed
    scores (each including its sheet's penalties) and the referees' penalties
    (`referee_penalties`: one query when not cached), for the rounds each player has a
    confirmed score in. Equal sums share the rank (``shared``: another player has it too,
    written "7=" as the rankings write a shared place), so the last may differ from the place
    the tie-breaks gave.
    """
    key = f"{standings_key}:rank-histories"
    histories = None if standings.stale else cache.get(key)
    if histories is None:
        histories = _rank_histories(standings, referee_penalties(tournament))
        if not standings.stale:
            cache.set(key, histories, HISTORIES_CACHE_SECONDS)
    return histories


def _rank_histories(
    standings: Standings, penalties: dict[int, list[tuple[int | None, Fraction]]]
) -> dict[int, list[tuple[int, int, bool]]]:
    confirmed = {
        entry.registration_id: {
            number: score.score for number, score in entry.rounds.items() if score.confirmed
        }
        for entry in standings.entries
    }
    ranks = running_ranks(
        {str(key): scores for key, scores in confirmed.items()},
        standings.round_numbers,
        {str(key): points for key, points in penalties.items()},
    )
    holders = {number: Counter(by_player.values()) for number, by_player in ranks.items()}
    histories = {}
    for registration_id, scores in confirmed.items():
        history = []
        for number in standings.round_numbers:
            if number in scores:
                rank = ranks[number][str(registration_id)]
                history.append((number, rank, holders[number][rank] > 1))
        histories[registration_id] = history
    return histories


@dataclass(frozen=True)
class PlayerRound:
    number: int
    table_number: int | None  # None, with no wind nor opponents, where seating is hidden
    wind: str
    opponents: list[SeatView]
    points: int | None
    place: int | None
    score: Fraction | None
    penalty: Fraction
    confirmed: bool
    rank: int | None
    rank_shared: bool
    substitute_name: str  # who played the seat of the absent player, else ""


def player_rounds(
    tournament: Tournament,
    registration: Registration,
    entry,
    history: list[tuple[int, int, bool]],
    *,
    seating: bool = True,
) -> list[PlayerRound]:
    """Each seated round of one player with table, wind, opponents and result (2 queries).

    Without `seating` (the organiser hides it from this reader) the rounds carry their
    results only (`tournament.selectors.seats_of_player`)."""
    ranks = {number: (rank, shared) for number, rank, shared in history}
    results = entry.rounds if entry is not None else {}
    rounds = []
    for seat in seats_of_player(tournament, registration, seating=seating):
        number = seat.round.number
        result = results.get(number)
        rank, rank_shared = ranks.get(number, (None, False))
        rounds.append(
            PlayerRound(
                number=number,
                table_number=seat.table_number,
                wind=seat.wind,
                opponents=seat.opponents,
                points=result.points if result else None,
                place=result.place if result else None,
                score=result.score if result else None,
                penalty=result.penalty if result else Fraction(0),
                confirmed=bool(result and result.confirmed),
                rank=rank,
                rank_shared=rank_shared,
                substitute_name=result.substitute_name if result else "",
            )
        )
    return rounds
