"""Reads of seating data for pages and exports (public seating, PDF/XLSX, the admin)."""

from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import Count, F, Q

from seating.models import FixedTable, SeatingRun
from seating.services.inputs import seated_players
from tournament.models import WIND_ORDER, Registration, Round, Seat, Tournament


class TableSeating(NamedTuple):
    """One table of a round: its number and its four seats in wind order E, S, W, N."""

    table_number: int
    seats: list[tuple[str, Registration]]


def round_seating(round: Round) -> list[TableSeating]:
    """The round's tables in table order, each with (wind, registration) in E, S, W, N order.

    One query; registrations come with their player and team.
    """
    seats = Seat.objects.filter(round=round).select_related(
        "registration__player", "registration__team"
    )
    tables: dict[int, list[tuple[str, Registration]]] = {}
    for seat in seats:
        tables.setdefault(seat.table_number, []).append((seat.wind, seat.registration))
    return [
        TableSeating(number, sorted(tables[number], key=lambda item: WIND_ORDER[item[0]]))
        for number in sorted(tables)
    ]


@dataclass(frozen=True)
class SeatingStatus:
    """What the organiser needs before generating: who plays, how many tables, which rounds.

    ``active_players`` counts the players the next plan seats (``active_substitutes`` of them
    substitutes who fill the last table); ``standby`` are the other active substitutes."""

    active_players: int
    active_substitutes: int
    substitutes_needed: int
    standby: list[Registration]
    rounds: list[Round]
    fixed_tables: list[FixedTable]
    recent_runs: list[SeatingRun]

    @property
    def tables(self) -> int:
        return self.active_players // 4


def seating_status(tournament: Tournament, runs: int = 10) -> SeatingStatus:
    seated = seated_players(tournament)
    inactive = [Registration.Status.WITHDRAWN, Registration.Status.DISQUALIFIED]
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .annotate(
            seat_count=Count("seats"),
            # Seats of players the next plan leaves out: withdrawn or disqualified, or a
            # substitute now on standby (a late registration made them unnecessary).
            unplanned_seats=Count(
                "seats",
                filter=Q(seats__registration__status__in=inactive)
                | Q(seats__registration__in=seated.standby),
            ),
            off_fixed_table=Count(
                "seats",
                filter=Q(seats__registration__fixed_table__isnull=False)
                & ~Q(seats__table_number=F("seats__registration__fixed_table__table_number")),
            ),
        )
        .order_by("number")
    )
    played = set(tournament.rounds.played().values_list("pk", flat=True))
    for round_ in rounds:
        round_.is_played = round_.pk in played
        # A seated round not yet played that no longer matches the players must be re-seated.
        round_.seating_outdated = not round_.is_played and bool(
            round_.seat_count
            and (round_.unplanned_seats or round_.seat_count != len(seated.players))
        )
        # A fixed table set after the round was seated: that player sits elsewhere.
        round_.fixed_tables_outdated = not round_.is_played and bool(round_.off_fixed_table)
    _mark_swiss_standings_outdated(tournament, rounds)
    fixed = list(
        FixedTable.objects.filter(registration__tournament=tournament).select_related(
            "registration__player"
        )
    )
    return SeatingStatus(
        active_players=len(seated.players),
        active_substitutes=len(seated.substitutes),
        substitutes_needed=seated.missing,
        standby=list(
            Registration.objects.filter(pk__in=seated.standby)
            .select_related("player")
            .order_by("player__last_name", "player__first_name")
        ),
        rounds=rounds,
        fixed_tables=fixed,
        recent_runs=_with_replacements(
            tournament,
            list(
                SeatingRun.objects.filter(tournament=tournament).select_related("created_by")[:runs]
            ),
        ),
    )


def _with_replacements(tournament: Tournament, runs: list[SeatingRun]) -> list[SeatingRun]:
    """Each run with ``replaced_by``: the later proposals that re-seated its rounds."""
    applied = list(
        SeatingRun.objects.filter(tournament=tournament, status=SeatingRun.Status.APPLIED).only(
            "pk", "round_numbers", "status"
        )
    )
    for run in runs:
        run.replaced_by = sorted(set(replaced_rounds(run, applied).values()))
    return runs


def replaced_rounds(run: SeatingRun, applied: list[SeatingRun] | None = None) -> dict[int, int]:
    """Round number -> the proposal applied after ``run`` whose seats replaced its own in that
    round (the latest one). An applied run stays "Applied" when a later one re-seats its
    rounds: its page must not read as the seating in force. ``applied``: the tournament's
    applied runs, when the caller has them."""
    if run.status != SeatingRun.Status.APPLIED:
        return {}
    if applied is None:
        applied = list(
            SeatingRun.objects.filter(
                tournament_id=run.tournament_id, status=SeatingRun.Status.APPLIED, pk__gt=run.pk
            )
        )
    out: dict[int, int] = {}
    for later in sorted(applied, key=lambda other: other.pk):
        if later.pk > run.pk:
            out.update({n: later.pk for n in later.round_numbers if n in run.round_numbers})
    return out


def swiss_standings(tournament: Tournament, round_: Round) -> tuple[list[int], list[int]]:
    """Registration ids of the ranked players in the order of the current standings, best
    first, and the rounds before ``round_`` whose score sheets are not all confirmed yet.
    Players without a confirmed hanchan have no place: the Swiss run seats them last."""
    from scoring.selectors import tournament_standings

    standings = tournament_standings(tournament)
    unfinished = [
        number for number in range(1, round_.number) if number not in standings.complete_rounds
    ]
    ranked = [entry.registration_id for entry in standings.entries if entry.place is not None]
    return ranked, unfinished


def standing_places(tournament: Tournament) -> dict[int, int]:
    """Each ranked player's place in the current standings, as the rankings show it: a
    withdrawn player keeps theirs and equal players share one, so a Swiss proposal numbered
    by rank among the players it seats would read one off the rankings below them."""
    from scoring.selectors import tournament_standings

    return {
        entry.registration_id: entry.place
        for entry in tournament_standings(tournament).entries
        if entry.place is not None
    }


def swiss_rounds_outdated(tournament: Tournament) -> list[int]:
    """Numbers of the rounds to come seated as Swiss rounds from standings that have changed
    since, for whoever just changed them (a sheet confirmed or corrected)."""
    played = set(tournament.rounds.played().values_list("pk", flat=True))
    rounds = list(Round.objects.filter(tournament=tournament).annotate(seat_count=Count("seats")))
    for round_ in rounds:
        round_.is_played = round_.pk in played
    _mark_swiss_standings_outdated(tournament, rounds)
    return sorted(round_.number for round_ in rounds if round_.standings_outdated)


def _mark_swiss_standings_outdated(tournament: Tournament, rounds: list[Round]) -> None:
    """Set ``standings_outdated`` on each round to come whose seats come from a Swiss run and
    whose standings have changed since (a sheet confirmed or corrected): its groups are stale."""
    seated = {r.number: r for r in rounds if r.seat_count and not r.is_played}
    for round_ in rounds:
        round_.standings_outdated = False
    if not seated:
        return
    applied: dict[int, SeatingRun] = {}
    for run in SeatingRun.objects.filter(
        tournament=tournament, status=SeatingRun.Status.APPLIED
    ).order_by("-pk"):
        for number in run.round_numbers:
            applied.setdefault(number, run)
    ranked_now: list[int] | None = None  # the standings, read once for every Swiss round
    for number, round_ in seated.items():
        run = applied.get(number)
        if run is None or run.swiss_ranked is None:  # a whole plan, or an older Swiss run
            continue
        if ranked_now is None:
            ranked_now, _unfinished = swiss_standings(tournament, round_)
        players = set(run.snapshot["players"])
        round_.standings_outdated = run.swiss_ranked != [pk for pk in ranked_now if pk in players]


def registrations_by_id(tournament: Tournament) -> dict[int, Registration]:
    """Every registration of the tournament with player and team, for plan previews."""
    return {
        registration.pk: registration
        for registration in Registration.objects.filter(tournament=tournament).select_related(
            "player", "team"
        )
    }
