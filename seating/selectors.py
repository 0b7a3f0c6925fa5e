"""Reads of seating: what the organiser needs before generating (players, tables, rounds,
outdated seatings), the proposals and what replaced them, the standings a Swiss round is
seated from, find-my-seat, and the wind balance a wrong-seat correction is checked against.

A round's seats themselves are read by `tournament.selectors` (`tables_of_round`), the one
reader of them for every page and export.
"""

from dataclasses import dataclass

from django.db.models import Count, F, Q

from scoring.selectors.standings import tournament_standings
from seating.engine.winds import least_spread, wind_counts
from seating.inputs import seated_players
from seating.models import FixedTable, SeatingRun
from tournament.models import WIND_ORDER, Registration, Round, Seat, Tournament
from tournament.names import names_match, player_sort_key
from tournament.selectors import SeatView, TableView, tables_of_round


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


def default_keep_apart(tournament: Tournament) -> str:
    """What the seating keeps apart unless the organiser says otherwise: what the playing
    players have, teams first, else clubs, else nobody (one query, two at most)."""
    playing = Registration.objects.active().filter(tournament=tournament)
    if playing.filter(team__isnull=False).exists():
        return SeatingRun.KeepApart.TEAM
    if playing.exclude(player__club="").exists():
        return SeatingRun.KeepApart.CLUB
    return SeatingRun.KeepApart.NONE


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
    standings = tournament_standings(tournament, fresh=True)
    unfinished = [
        number for number in range(1, round_.number) if number not in standings.complete_rounds
    ]
    ranked = [entry.registration_id for entry in standings.entries if entry.place is not None]
    return ranked, unfinished


def standing_places(tournament: Tournament) -> dict[int, int]:
    """Each ranked player's place in the current standings, as the rankings show it: a
    withdrawn player keeps theirs and equal players share one, so a Swiss proposal numbered
    by rank among the players it seats would read one off the rankings below them."""
    return {
        entry.registration_id: entry.place
        for entry in tournament_standings(tournament, fresh=True).entries
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


@dataclass(frozen=True)
class SeatMatch:
    """A player found by find-my-seat, with their table in the chosen round."""

    registration: Registration
    seat: SeatView | None
    table: TableView | None


def registration_matches(registration: Registration, query: str) -> bool:
    """Every word of the query is part of the player's names (any order, any case, with or
    without accents: "zoe" finds "Zoé", "yilmaz" finds "Yılmaz", "mueller" finds "Müller"),
    as the public pages know them (`Player.searched_names`)."""
    player = registration.player
    return names_match(player.searched_names, query)


def find_seats(tournament: Tournament, round_: Round | None, query: str) -> list[SeatMatch]:
    """Players of the tournament whose name contains the query, with their seat (2 queries).

    Matching happens in Python so it ignores accents on every database; a tournament has a
    few hundred registrations at most.
    """
    query = query.strip()
    if not query:
        return []
    registrations = (
        Registration.objects.filter(tournament=tournament).active().select_related("player", "team")
    )
    matches = [r for r in registrations if registration_matches(r, query)]
    matches.sort(key=player_sort_key)
    tables = {table.number: table for table in tables_of_round(round_)} if round_ else {}
    seat_of = {seat.registration.pk: seat for table in tables.values() for seat in table.seats}
    result = []
    for registration in matches:
        seat = seat_of.get(registration.pk)
        result.append(
            SeatMatch(registration, seat, tables.get(seat.table_number) if seat else None)
        )
    return result


def find_inactive(tournament: Tournament, query: str) -> list[Registration]:
    """Players matching the query who no longer play (withdrawn, disqualified), so that
    find-my-seat can say so instead of "no player matches"."""
    query = query.strip()
    if not query:
        return []
    active = Registration.objects.filter(tournament=tournament).active()
    inactive = (
        Registration.objects.filter(tournament=tournament)
        .exclude(pk__in=active.values("pk"))
        .select_related("player")
    )
    return sorted((r for r in inactive if registration_matches(r, query)), key=player_sort_key)


@dataclass(frozen=True)
class WindSeating:
    """What the wind balance is computed from: each player's winds in the rounds played, and
    the tables of the seated rounds still to come (players in wind order, E, S, W, N)."""

    history: dict[int, list[int]]
    to_come: dict[int, dict[int, tuple[int, ...]]]  # round number -> table number -> players


def wind_seating(tournament: Tournament) -> WindSeating:
    """The seats of every seated round, split into played and to come (two queries)."""
    played = set(tournament.rounds.played().values_list("number", flat=True))
    history: dict[int, list[int]] = {}
    tables: dict[int, dict[int, list[int]]] = {}
    seats = Seat.objects.filter(round__tournament=tournament).values_list(
        "round__number", "table_number", "wind", "registration_id"
    )
    for number, table, wind, registration in seats:
        if number in played:
            history.setdefault(registration, [0, 0, 0, 0])[WIND_ORDER[wind]] += 1
        else:
            tables.setdefault(number, {}).setdefault(table, [0, 0, 0, 0])[WIND_ORDER[wind]] = (
                registration
            )
    to_come = {
        number: {table: tuple(players) for table, players in sorted(by_table.items())}
        for number, by_table in sorted(tables.items())
    }
    return WindSeating(history=history, to_come=to_come)


@dataclass(frozen=True)
class UnevenWinds:
    registration: Registration
    counts: tuple[int, ...]  # E, S, W, N over the rounds played and to come


@dataclass(frozen=True)
class WindBalance:
    """Each player's winds over every seated round (docs/seating-theory.md: as even as possible):
    the largest spread now, the least the rounds to come could reach, who is above it."""

    spread: int
    least: int
    uneven: list[UnevenWinds]
    rounds_to_come: list[int]

    @property
    def can_be_evened(self) -> bool:
        return bool(self.rounds_to_come) and self.spread > self.least


def wind_totals(
    history: dict[int, list[int]], rounds: list[list[tuple[int, ...]]]
) -> dict[int, list[int]]:
    """Each player's wind counts after ``history`` and the seat orders of ``rounds``."""
    totals = {player: list(counts) for player, counts in history.items()}
    for player, counts in wind_counts(rounds).items():
        totals[player] = [a + b for a, b in zip(totals.get(player, [0] * 4), counts, strict=True)]
    return totals


def wind_balance(tournament: Tournament) -> WindBalance:
    """The winds re-checked, after a wrong-seat correction or a re-seat of rounds to come."""
    seating = wind_seating(tournament)
    rounds = [list(tables.values()) for tables in seating.to_come.values()]
    totals = wind_totals(seating.history, rounds)
    games: dict[int, int] = {}
    for tables in rounds:
        for table in tables:
            for player in table:
                games[player] = games.get(player, 0) + 1
    least = least_spread(seating.history, games)
    spread = max((max(c) - min(c) for c in totals.values()), default=0)
    above = {player for player, c in totals.items() if max(c) - min(c) > max(least, 1)}
    registrations = Registration.objects.filter(pk__in=above).select_related("player")
    uneven = sorted(
        (
            UnevenWinds(registration, tuple(totals[registration.pk]))
            for registration in registrations
        ),
        key=lambda row: player_sort_key(row.registration),
    )
    return WindBalance(
        spread=spread, least=least, uneven=uneven, rounds_to_come=list(seating.to_come)
    )
