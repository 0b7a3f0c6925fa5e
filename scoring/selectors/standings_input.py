"""What a build of the standings reads: each registration's rounds, from the seats and the
stored seat results, and what a build keeps for the next one.

A seat and a stored result (`scoring.models.SeatResult`) are never changed, only deleted and
created again under a new id (the seating services, `scoring.services.seat_results`), and
ids are never reused. So a build keeps, beside the version it builds, what it read of the
ids: the digest of the seats' (`_digest`), and the stored results' with each row's round,
table and registration (`_Kept`: arrays of integers, cheap to store and to read back). The
next build reads only the ids, each kind as one text (`_id_list`). The players whose results
were deleted or created are read again in full, with any player listed now who was not
before; every other player's rounds are taken from the previous version as they were. After
one confirmed sheet a build reads its four players' rows, not the tournament's 40,000
(docs/performance.md).

A build starts from every row when there is no previous one, when the seats changed (a
round seated or a seat corrected: once a round, not once a sheet), when the rounds changed
(added, removed or numbered again: a round's number is in every row), when the name of a
substitute written in a round changed, or when most results are new (the rules changed:
every result was stored again).

Not here: the ranking (`scoring.selectors.standings`, the rules engine's).
"""

from __future__ import annotations

import hashlib
import pickle
import zlib
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection
from django.db.models import IntegerField, Q, QuerySet, Value

from scoring.models import SeatResult
from tournament.models import Seat, Tournament

#: A seat as a build reads it, after its id.
_SEAT_FIELDS = ("round_id", "table_number", "wind", "registration_id")
#: A stored seat result as a build reads it, after its id (``score`` is never None).
_RESULT_FIELDS = (
    "round_id", "sheet__table_number", "wind", "registration_id", "points", "place", "score",
    "penalty", "substitute_id",
)  # fmt: skip

#: The form of what a build keeps (`_Kept`), changed with it: the cache key holds it, so
#: that a release never reads what another kept.
KEPT_FORM = 2
#: A stored result kept for the next build: its id, round id, table and registration.
_Columns = tuple[array, array, array, array]


class _Kept(NamedTuple):
    """What a build read, for the next one: the rounds (id, number) it numbered the rows
    with, the stored results' columns, the tables seated (round id -> tables), how many
    results a table has ((round id, table) -> rows), the substitutes' names it wrote and
    the digests of the seats' and results' ids as `_id_list` gives them (`_digest`)."""

    rounds: tuple[tuple[int, int], ...]
    results: _Columns
    seated: dict[int, set[int]]
    confirmed: dict[tuple[int, int], int]
    names: dict[int, str]
    seat_ids: bytes
    result_ids: bytes


@dataclass
class RoundsRead:
    """Each registration's rounds in the cache's compact form (``_round_tuples``), the
    tables seated and the tables with stored results (round id -> table numbers), and what
    the next build starts from (bytes, kept in the cache beside the version)."""

    rounds: dict[int, tuple]
    tables: dict[int, set[int]]
    confirmed: dict[int, set[int]]
    kept: bytes


def _rows(tournament: Tournament, only: Q | None = None) -> tuple[dict, dict]:
    """The seats and the stored results by id, in one query; ``only``: a filter on both.

    Read with the database's own cursor: the columns are integers and a wind's letter, which
    need no converter, and Django's converters, called for each of a build's 40,000 rows,
    cost more than reading them (docs/performance.md)."""
    seats = Seat.objects.filter(round__tournament=tournament).order_by()
    stored = SeatResult.objects.filter(tournament=tournament).order_by()
    if only is not None:
        seats, stored = seats.filter(only), stored.filter(only)
    nothing = Value(None, output_field=IntegerField())
    both = (
        seats.annotate(no_score=nothing)
        .values_list("pk", *_SEAT_FIELDS, *["no_score"] * 5)
        .union(stored.values_list("pk", *_RESULT_FIELDS), all=True)
    )
    sql, params = both.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    seated, results = {}, {}
    for row in rows:
        if row[7] is None:  # no score: a seat
            seated[row[0]] = row[1:5]
        else:
            results[row[0]] = row[1:]
    return seated, results


def _round_tuples(
    seats: Iterable[tuple],
    results: Iterable[tuple],
    number_of: dict[int, int],
    name_of: Callable[[int], str],
    names: dict[int, str],
) -> dict[int, tuple]:
    """Each registration's rounds, by number, as the cache holds them: (number, table, wind,
    points, place, score, penalty, confirmed, substitute's name). A seat's stored result
    replaces the bare seat; rounds not in ``number_of`` (after ``rounds_up_to``) are left out.
    ``names``: the substitutes' names written, filled in."""
    by_registration: dict[int, dict[int, tuple]] = {}
    # The results first: a seat is a bare round only where its player has no result.
    for round_id, table, wind, registration_id, points, place, score, penalty, sub in results:
        number = number_of.get(round_id)
        if number is not None:
            if sub is not None and sub not in names:
                names[sub] = name_of(sub)
            rounds = by_registration.get(registration_id)
            if rounds is None:
                rounds = by_registration[registration_id] = {}
            rounds[number] = (
                number, table, wind, points, place, score, penalty, True,
                names[sub] if sub is not None else "",
            )  # fmt: skip
    for round_id, table, wind, registration_id in seats:
        number = number_of.get(round_id)
        if number is not None:
            rounds = by_registration.get(registration_id)
            if rounds is None:
                rounds = by_registration[registration_id] = {}
            if number not in rounds:
                rounds[number] = (number, table, wind, None, None, None, 0, False, "")
    return {
        registration_id: tuple([rounds[number] for number in sorted(rounds)])
        for registration_id, rounds in by_registration.items()
    }


def _columns(rows: dict[int, tuple]) -> _Columns:
    """The kept columns of rows by id (id, round id, table, registration), in the order of
    the ids: a row is then found by bisection."""
    ids = sorted(rows)
    return (
        array("q", ids),
        array("q", (rows[pk][0] for pk in ids)),
        array("q", (rows[pk][1] for pk in ids)),
        array("q", (rows[pk][3] for pk in ids)),
    )


def _counted(rows: Iterable[tuple]) -> dict[tuple[int, int], int]:
    """How many rows each table has: (round id, table) -> rows."""
    return dict(Counter((row[0], row[1]) for row in rows))


def _tables(counts: dict[tuple[int, int], int], number_of: dict[int, int]) -> dict[int, set]:
    """Round id -> the tables with a row, for the rounds in ``number_of``."""
    tables: dict[int, set[int]] = {}
    for (round_id, table), rows in counts.items():
        if rows and round_id in number_of:
            tables.setdefault(round_id, set()).add(table)
    return tables


def _id_list(queryset: QuerySet) -> str:
    """The ids of ``queryset``'s rows as one text ("3,8,5"): the database joins them (twice
    20,000 ids a build, fetched as rows, cost more than ranking the players;
    docs/performance.md), and a list unchanged since the last build is told by its digest.
    PostgreSQL sorts them; SQLite lists them in the order of its index, the same from one
    read to the next while the rows are (sorting cost more than the reading). Ids in
    another order only make the next build compare them as sets."""
    sql, params = queryset.order_by().values_list("pk").query.sql_with_params()
    if connection.vendor == "postgresql":
        joined = f"SELECT string_agg(CAST(pk AS text), ',' ORDER BY pk) FROM ({sql}) AS ids"
    else:
        joined = f"SELECT group_concat(pk) FROM ({sql}) AS ids"
    with connection.cursor() as cursor:
        cursor.execute(joined, params)
        return cursor.fetchone()[0] or ""


def _ids_now(tournament: Tournament) -> tuple[str, str]:
    """The seats' and the stored results' ids (`_id_list`)."""
    return (
        _id_list(Seat.objects.filter(round__tournament=tournament)),
        _id_list(SeatResult.objects.filter(tournament=tournament)),
    )


def _digest(listed: str) -> bytes:
    """What a build keeps of a list of ids, to tell whether it changed: 32 bytes instead of
    the text's 150,000 for 20,000 ids, to store and read back with every build."""
    return hashlib.sha256(listed.encode()).digest()


def _changed(
    columns: _Columns, counts: dict[tuple[int, int], int], listed: str
) -> tuple[set[int], set[int]] | None:
    """Take the rows no longer there (``listed``: the ids now, as `_id_list` gives them)
    out of the kept ``columns`` and ``counts``; the registrations of those rows and the ids
    of the new rows, or None when most rows are new (start from every row)."""
    ids = set(map(int, listed.split(","))) if listed else set()
    kept = set(columns[0])
    new = ids - kept
    if len(new) > len(ids) // 2:
        return None
    registrations = set()
    # Deleted from the last first, so that each position found still names its row.
    for pk in sorted(kept - ids, reverse=True):
        i = bisect_left(columns[0], pk)
        registrations.add(columns[3][i])
        counts[columns[1][i], columns[2][i]] -= 1
        for column in columns:
            del column[i]
    return registrations, new


def _append(
    columns: _Columns, counts: dict[tuple[int, int], int], rows: dict[int, tuple], new: set[int]
) -> None:
    """Add the new rows among ``rows`` (by id) to the kept ``columns``, in the order of the
    ids (a new row's id is nearly always the largest yet), and to ``counts``."""
    for pk in sorted(new & rows.keys()):
        row = rows[pk]
        counts[row[0], row[1]] = counts.get((row[0], row[1]), 0) + 1
        i = bisect_left(columns[0], pk)
        for column, value in zip(columns, (pk, row[0], row[1], row[3]), strict=True):
            column.insert(i, value)


def _since(
    tournament: Tournament,
    kept: _Kept,
    listed: Collection[int],
    previous: dict[int, tuple],
    number_of: dict[int, int],
    name_of: Callable[[int], str],
) -> RoundsRead | None:
    """The rounds read from the previous build's (``kept``, ``previous``: each listed
    registration's rounds then) and the changed rows; None when a build must start from
    every row."""
    if any(name_of(pk) != name for pk, name in kept.names.items()):
        return None
    seat_ids, ids = _ids_now(tournament)
    if _digest(seat_ids) != kept.seat_ids:
        return None
    result_ids = _digest(ids)
    if result_ids == kept.result_ids:  # no result deleted or created
        results = (set(), set())
    else:
        results = _changed(kept.results, kept.confirmed, ids)
    if results is None:
        return None
    kept = kept._replace(result_ids=result_ids)
    gone, new = results
    again = gone | (set(listed) - previous.keys())
    rounds = dict(previous)
    if new:
        again.update(
            SeatResult.objects.filter(pk__in=new).values_list("registration_id", flat=True)
        )
    if again:
        # Every row of each player concerned: the deleted results' players, the new ones'
        # and the players listed now who were not before.
        seated, stored = _rows(tournament, Q(registration_id__in=again))
        _append(kept.results, kept.confirmed, stored, new)
        read = {row[3] for row in seated.values()} | {row[3] for row in stored.values()}
        for registration_id in again | read:
            rounds.pop(registration_id, None)
        rounds.update(
            _round_tuples(seated.values(), stored.values(), number_of, name_of, kept.names)
        )
    return _built(kept, rounds, number_of)


def _built(kept: _Kept, rounds: dict[int, tuple], number_of: dict[int, int]) -> RoundsRead:
    return RoundsRead(
        rounds,
        kept.seated,
        _tables(kept.confirmed, number_of),
        # Compressed (1.4 MB to 0.2 MB for 1,000 players × 20 rounds): the database cache
        # stores and reads the smaller bytes faster than zlib takes (docs/performance.md).
        zlib.compress(pickle.dumps(tuple(kept), pickle.HIGHEST_PROTOCOL), 1),
    )


def read_rounds(
    tournament: Tournament,
    number_of: dict[int, int],
    name_of: Callable[[int], str],
    listed: Collection[int],
    known: bytes | None = None,
    previous: dict[int, tuple] | None = None,
) -> RoundsRead:
    """Each registration's rounds (by round number: ``number_of``, round id -> number),
    from the previous build's when it can (``known``: what it kept; ``previous``: each
    listed registration's rounds in it), else from every row. ``name_of``: a substitute's
    name, written in the rounds they played for someone; ``listed``: the registrations the
    standings list."""
    round_numbers = tuple(sorted(number_of.items()))
    if known is not None and previous is not None:
        kept = _Kept(*pickle.loads(zlib.decompress(known)))
        if kept.rounds == round_numbers:
            read = _since(tournament, kept, listed, previous, number_of, name_of)
            if read is not None:
                return read
    # The ids before the rows: a row created or deleted between the two reads makes the
    # next build's ids differ from these, and it reads that row's player again.
    seat_ids, result_ids = map(_digest, _ids_now(tournament))
    seated, stored = _rows(tournament)
    names: dict[int, str] = {}
    kept = _Kept(
        round_numbers,
        _columns(stored),
        _tables(_counted(seated.values()), number_of),
        _counted(stored.values()),
        names,
        seat_ids,
        result_ids,
    )
    rounds = _round_tuples(seated.values(), stored.values(), number_of, name_of, names)
    return _built(kept, rounds, number_of)
