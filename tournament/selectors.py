"""Reads of the tournament's own records: a round's seats (the one reader of them, for pages,
exports and score sheets alike), the rounds seated and to come, namesakes among players,
a tournament's officials and the accounts an invitation may mean.

Each function issues a fixed number of queries whatever the number of players, so the
public pages stay fast during an event. Results are read by `scoring.selectors`, seating
plans by `seating.selectors`.
"""

import functools
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q, Value
from django.db.models.functions import Concat

from tournament.models import (
    WIND_ORDER,
    Player,
    Registration,
    Round,
    Seat,
    Tournament,
    TournamentStaff,
)
from tournament.names import name_key, player_sort_key, username_of


@dataclass(frozen=True)
class SeatView:
    table_number: int
    wind: str
    registration: Registration

    @property
    def player(self):
        return self.registration.player

    @property
    def wind_label(self) -> str:
        return Seat.Wind(self.wind).label

    @property
    def name(self) -> str:
        return self.registration.player.display_name

    @property
    def sorted_name(self) -> str:
        return self.registration.player.sorted_name


@dataclass
class TableView:
    number: int
    seats: list[SeatView] = field(default_factory=list)


def seats_of_round(round_: Round) -> list[SeatView]:
    """Every seat of the round with its player, in table then wind order (one query)."""
    seats = Seat.objects.filter(round=round_).select_related(
        "registration__player", "registration__team"
    )
    views = [SeatView(seat.table_number, seat.wind, seat.registration) for seat in seats]
    views.sort(key=lambda seat: (seat.table_number, WIND_ORDER[seat.wind]))
    return views


def tables_of_round(round_: Round) -> list[TableView]:
    """The round's seating by table, each table's seats in wind order E, S, W, N."""
    tables: dict[int, TableView] = {}
    for seat in seats_of_round(round_):
        tables.setdefault(seat.table_number, TableView(seat.table_number)).seats.append(seat)
    return list(tables.values())


@dataclass(frozen=True)
class PlayerSeat:
    """One round of a player whose seating is published: the round and, where seating is
    shown to the reader, the player's table and wind and the others at the table."""

    round: Round
    table_number: int | None  # None, with no wind nor opponents, where seating is hidden
    wind: str
    opponents: list[SeatView]


def seats_of_player(
    tournament: Tournament, registration: Registration, *, seating: bool = True
) -> list[PlayerSeat]:
    """Each round whose seating is published with this player's seat, in order (2 queries),
    for the player's page and calendar feed.

    Without `seating` (the organiser hides it from this reader) only the rounds are given:
    every player's tables, winds and opponents would rebuild the plan."""
    own_seats = list(
        Seat.objects.filter(registration=registration, round__tournament=tournament)
        .exclude(round__status=Round.Status.PLANNED)
        .select_related("round")
        .order_by("round__number")
    )
    tables = Q(pk__in=[])
    for seat in own_seats if seating else []:
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
    return [
        PlayerSeat(
            round=seat.round,
            table_number=seat.table_number if seating else None,
            wind=seat.wind if seating else "",
            opponents=sorted(
                others.get((seat.round_id, seat.table_number), []),
                key=lambda view: WIND_ORDER[view.wind],
            ),
        )
        for seat in own_seats
    ]


def players_of_round(round_: Round) -> list[SeatView]:
    """The round's seating as an alphabetical list of players (last name, first name)."""
    return sorted(seats_of_round(round_), key=lambda seat: player_sort_key(seat.registration))


def seated_rounds(tournament: Tournament) -> list[Round]:
    """Rounds whose seating has been published, in order."""
    return list(tournament.rounds.seated().order_by("number"))


def seated_in_rounds_to_come(registrations: list[Registration]) -> dict[int, list[int]]:
    """Registration id → the rounds to come whose published seating still has that player at
    a table (one query): after a withdrawal or a disqualification an organiser seats those
    rounds again before they are played."""
    tournaments = {registration.tournament_id for registration in registrations}
    to_come = Round.objects.filter(tournament__in=tournaments).to_come()
    seats = (
        Seat.objects.filter(registration__in=registrations, round__in=to_come)
        .order_by("round__number")
        .values_list("registration_id", "round__number")
    )
    rounds: dict[int, list[int]] = {}
    for registration_id, number in seats:
        rounds.setdefault(registration_id, []).append(number)
    return rounds


def unseated_in_rounds_to_come(registrations: list[Registration]) -> dict[int, list[int]]:
    """Registration id → the rounds to come already seated without that player (two
    queries): after a reinstatement an organiser seats those rounds again before they are
    played. Substitutes are left out: they take a seat only when a table needs them."""
    players = [registration for registration in registrations if not registration.is_substitute]
    tournaments = {registration.tournament_id for registration in players}
    seated_rounds = (
        Round.objects.filter(tournament__in=tournaments)
        .to_come()
        .filter(seats__isnull=False)
        .distinct()
        .values_list("tournament_id", "number")
    )
    numbers: dict[int, list[int]] = {}
    for tournament_id, number in seated_rounds:
        numbers.setdefault(tournament_id, []).append(number)
    held = set(
        Seat.objects.filter(registration__in=players).values_list(
            "registration_id", "round__number"
        )
    )
    rounds = {
        registration.pk: [
            number
            for number in numbers.get(registration.tournament_id, [])
            if (registration.pk, number) not in held
        ]
        for registration in players
    }
    return {pk: missing for pk, missing in rounds.items() if missing}


def current_round(tournament: Tournament) -> Round | None:
    """The round being played, else the next seated one, else the last seated one.

    Between rounds the finished round gives way to the next as soon as its seating is out,
    which is what a player looking for their seat needs.
    """
    rounds = seated_rounds(tournament)
    for status in (Round.Status.PLAYING, Round.Status.SEATED):
        for round_ in rounds:
            if round_.status == status:
                return round_
    return rounds[-1] if rounds else None


def namesakes(player: Player) -> list[Player]:
    """Other players with the same name and country: perhaps the same person entered twice
    (the importer recognises them; a player added by hand is only warned about).

    Names are compared as the importer does (`name_key`), in Python: SQLite folds the case
    of ASCII letters only, so "LÉA MOREAU" would miss "Léa Moreau". One query: a player row
    is small, so the whole country is read once rather than its names and then the matches.
    """
    key = name_key(player.first_name, player.last_name)
    # A real player and a demo player are never the same person.
    same_country = Player.objects.filter(country=player.country, is_demo=player.is_demo).exclude(
        pk=player.pk
    )
    return [
        other
        for other in same_country.order_by("pk")
        if name_key(other.first_name, other.last_name) == key
    ]


def officials_of(tournament: Tournament) -> list[TournamentStaff]:
    """The tournament's staff roles with their accounts, highest role first."""
    order = {role: index for index, role in enumerate(reversed(TournamentStaff.Role.values))}
    roles = tournament.staff.select_related("user")
    return sorted(roles, key=lambda staff: (order[staff.role], staff.user.get_username()))


def accounts_like(name: str, email: str = "", limit: int = 10) -> list:
    """Existing accounts an invitation may mean instead of a new one: the user name the name
    would make, the same full name, or the same e-mail (case ignored)."""
    name = " ".join(name.split())
    if not name and not email:
        return []
    username = username_of(name)
    match = Q(username__iexact=username) if username else Q()
    if name:
        match |= Q(full_name__iexact=name)
    if email:
        match |= Q(email__iexact=email.strip())
    accounts = get_user_model()._default_manager.annotate(
        full_name=Concat("first_name", Value(" "), "last_name")
    )
    return list(accounts.filter(match).order_by("username")[:limit])


@dataclass(frozen=True)
class CheckInState:
    """Who is here and who is missing, for the organiser before seating round 1."""

    missing: list[Registration]
    checked_in: int
    waiting: int


def check_in_state(tournament: Tournament) -> CheckInState:
    """The registrations still to check in, alphabetical, with the counts beside them."""
    active = Registration.objects.filter(tournament=tournament).active()
    missing = sorted(
        active.filter(status=Registration.Status.REGISTERED).select_related("player"),
        key=player_sort_key,
    )
    return CheckInState(
        missing=missing,
        checked_in=active.filter(status=Registration.Status.CHECKED_IN).count(),
        waiting=tournament.registration_requests.waiting().count(),
    )


def round_rows(tournament_id: int) -> list[tuple]:
    """Every column of the tournament's rounds as the database gives them, in id order: what
    a kept public page checks besides its version (`CachedPageMixin.page_facts`). Read with
    the database's cursor: compiling the same query through the ORM cost 1 ms, a fifth of
    serving a kept page (docs/performance.md)."""
    quote = connection.ops.quote_name
    table, id_column = Round._meta.db_table, Round._meta.pk.column
    tournament_column = Round._meta.get_field("tournament").column
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT * FROM {quote(table)} WHERE {quote(tournament_column)} = %s "
            f"ORDER BY {quote(id_column)}",
            [tournament_id],
        )
        return cursor.fetchall()


#: Where the public tournament query holds the slug when it is compiled
#: (`public_tournament`).
_SLUG = "\x00slug"


@functools.cache
def _public_tournament_query(with_last_audit: bool) -> tuple[str, tuple]:
    queryset = Tournament.objects.public().filter(slug=_SLUG)
    if with_last_audit:
        queryset = queryset.with_last_audit()
    return queryset.query.sql_with_params()


def public_tournament(slug: str, *, with_last_audit: bool = False) -> Tournament | None:
    """The public tournament of ``slug``, with ``last_audit`` when asked
    (`TournamentQuerySet.with_last_audit`), or None. Its SQL is compiled once a process:
    through the ORM, compiling it took 1-1.5 ms of every public request, a third of a kept
    answer such as the rankings' poll (docs/performance.md)."""
    sql, params = _public_tournament_query(with_last_audit)
    found = Tournament.objects.raw(sql, [slug if param == _SLUG else param for param in params])
    return next(iter(found), None)
