"""Reads for one player's page: each seated round with its table, wind, opponents and
result, and the player's rank after each round."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scoring.rules import running_ranks
from scoring.selectors.standings import Standings
from tournament.models import Registration, Tournament
from tournament.selectors import SeatView, seats_of_player


def rank_history(
    standings: Standings,
    registration_id: int,
    penalties: dict[int, list[tuple[int | None, Fraction]]] | None = None,
) -> list[tuple[int, int, bool]]:
    """(round number, rank after that round, shared) for one registration, from the standings.

    The engine's `running_ranks` over the players the standings list, from their confirmed
    scores (each including its sheet's penalties) and the referees' penalties
    (`referee_penalties`), for the rounds this player has a confirmed score in. Equal sums
    share the rank (``shared``: another player has it too, written "7=" as the rankings
    write a shared place), so the last may differ from the place the tie-breaks gave. No
    queries.
    """
    entry = next((e for e in standings.entries if e.registration_id == registration_id), None)
    if entry is None:
        return []
    played = [
        number
        for number in standings.round_numbers
        if number in entry.rounds and entry.rounds[number].confirmed
    ]
    ranks = running_ranks(
        {
            str(other.registration_id): {
                number: score.score for number, score in other.rounds.items() if score.confirmed
            }
            for other in standings.entries
        },
        played,
        {str(key): points for key, points in (penalties or {}).items()},
    )
    history = []
    for number in played:
        rank = ranks[number][str(registration_id)]
        shared = sum(1 for other in ranks[number].values() if other == rank) > 1
        history.append((number, rank, shared))
    return history


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
