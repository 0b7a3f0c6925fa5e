"""Reads for one player's page: each seated round with its table, wind, opponents and
result, and the player's rank after each round."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Q

from scoring.selectors.standings import Standings
from tournament.models import WIND_ORDER, Registration, Round, Seat, Tournament
from tournament.selectors import SeatView


def rank_history(
    standings: Standings,
    registration_id: int,
    penalties: dict[int, list[tuple[int | None, Fraction]]] | None = None,
) -> list[tuple[int, int]]:
    """(round number, rank after that round) for one registration, from the standings.

    Rank after round r orders the players with a confirmed hanchan by then (the standings
    rank only those) by their scores of rounds 1…r (each score includes its
    sheet's penalties) plus the referees' penalties given up to round r (a penalty without
    a round counts from the start). Equal sums share the rank; the final place may differ
    where the tie-breaks separated equal totals. No queries.
    """
    penalties = penalties or {}
    entries = standings.entries
    if not any(entry.registration_id == registration_id for entry in entries):
        return []
    history = []
    for number in standings.round_numbers:
        own = next(e for e in entries if e.registration_id == registration_id).rounds.get(number)
        if own is None or own.score is None:
            continue
        running = {}
        for entry in entries:
            if not any(score.confirmed for n, score in entry.rounds.items() if n <= number):
                continue
            total = sum(
                (
                    score.score
                    for n, score in entry.rounds.items()
                    if n <= number and score.score is not None
                ),
                Fraction(0),
            )
            total += sum(
                (
                    points
                    for round_number, points in penalties.get(entry.registration_id, [])
                    if round_number is None or round_number <= number
                ),
                Fraction(0),
            )
            running[entry.registration_id] = total
        mine = running.get(registration_id)
        if mine is None:
            continue
        history.append((number, 1 + sum(1 for total in running.values() if total > mine)))
    return history


@dataclass(frozen=True)
class PlayerRound:
    number: int
    table_number: int | None
    wind: str
    opponents: list[SeatView]
    points: int | None
    place: int | None
    score: Fraction | None
    penalty: Fraction
    confirmed: bool
    rank: int | None
    substitute_name: str  # who played the seat of the absent player, else ""


def player_rounds(
    tournament: Tournament, registration: Registration, entry, history: list[tuple[int, int]]
) -> list[PlayerRound]:
    """Each seated round of one player with table, wind, opponents and result (2 queries)."""
    own_seats = list(
        Seat.objects.filter(registration=registration, round__tournament=tournament)
        .exclude(round__status=Round.Status.PLANNED)
        .select_related("round")
        .order_by("round__number")
    )
    tables = Q(pk__in=[])
    for seat in own_seats:
        tables |= Q(round_id=seat.round_id, table_number=seat.table_number)
    others: dict[tuple[int, int], list[SeatView]] = {}
    for seat in (
        Seat.objects.filter(tables)
        .exclude(registration=registration)
        .select_related("registration__player")
    ):
        others.setdefault((seat.round_id, seat.table_number), []).append(
            SeatView(seat.table_number, seat.wind, seat.registration)
        )
    ranks = dict(history)
    results = entry.rounds if entry is not None else {}
    rounds = []
    for seat in own_seats:
        number = seat.round.number
        result = results.get(number)
        opponents = sorted(
            others.get((seat.round_id, seat.table_number), []),
            key=lambda view: WIND_ORDER[view.wind],
        )
        rounds.append(
            PlayerRound(
                number=number,
                table_number=seat.table_number,
                wind=seat.wind,
                opponents=opponents,
                points=result.points if result else None,
                place=result.place if result else None,
                score=result.score if result else None,
                penalty=result.penalty if result else Fraction(0),
                confirmed=bool(result and result.confirmed),
                rank=ranks.get(number),
                substitute_name=result.substitute_name if result else "",
            )
        )
    return rounds
