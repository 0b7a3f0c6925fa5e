"""Real races on the score-sheet services, run in a process of their own.

`python -m tests.security.concurrency` migrates the database named by DATABASE_URL (a file
SQLite database or a PostgreSQL one, as in production: the test runner's in-memory SQLite
cannot hold two writers), then makes officials save the same tables at the same moment from
threads, each with its own database connection, released together by a barrier. It prints
one JSON object with what happened; `test_concurrent_save.py` judges it.
"""

from __future__ import annotations

import datetime
import json
import threading
import traceback
import uuid
from collections.abc import Callable

TABLES = 6
START = 30000  # WRC 2015 start points [WRC 2015 §4.1]


def race_report(module: str, label: str) -> dict:
    """Run `python -m <module>` on a fresh database of the kind this suite runs on (a SQLite
    file, or a new PostgreSQL database on DATABASE_URL's server) and read its JSON report."""
    import os
    import subprocess
    import sys

    from bench._support import REPO, temporary_database

    with temporary_database(label) as database_url:
        completed = subprocess.run(
            [sys.executable, "-m", module],
            cwd=REPO,
            env={**os.environ, "DATABASE_URL": database_url},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout)


def _points(shift: int) -> tuple[int, ...]:
    return (START + 12000 + shift, START + 3000, START - 5000, START - 10000 - shift)


def build() -> dict:
    """A tournament (second-official policy), 4 × TABLES players seated in round 1, three
    referees."""
    from django.contrib.auth import get_user_model

    from tournament.models import Player, Registration, Round, Seat, Tournament, TournamentStaff

    tournament = Tournament.objects.create(
        name="Race Open",
        slug=f"race-{uuid.uuid4().hex[:6]}",
        start_date=datetime.date(2026, 6, 6),
        end_date=datetime.date(2026, 6, 7),
        confirmation_policy=Tournament.ConfirmationPolicy.SECOND_OFFICIAL,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PLAYING)
    seats: dict[int, list[int]] = {}
    for index in range(4 * TABLES):
        player = Player.objects.create(first_name=f"Racer{index}", last_name="Test")
        registration = Registration.objects.create(tournament=tournament, player=player)
        table = index // 4 + 1
        Seat.objects.create(
            round=round_, table_number=table, wind="ESWN"[index % 4], registration=registration
        )
        seats.setdefault(table, []).append(registration.pk)
    users = []
    for name in ("alice", "bruno", "chen"):
        user = get_user_model().objects.create_user(f"{name}-{tournament.slug}")
        TournamentStaff.objects.create(
            tournament=tournament, user=user, role=TournamentStaff.Role.REFEREE
        )
        users.append(user.pk)
    return {"round": round_.pk, "seats": seats, "users": users}


def _entry(registrations: list[int], shift: int):
    from scoring.entries import SeatEntry, SheetEntry

    return SheetEntry(
        kind="final",
        seats=tuple(
            SeatEntry(registration_id=registration, points=points)
            for registration, points in zip(registrations, _points(shift), strict=True)
        ),
    )


def _at_once(calls: list[Callable[[], dict]]) -> list[dict]:
    """Run the calls in threads released together; each returns a dict or an error dict."""
    from django.db import close_old_connections, connection

    barrier = threading.Barrier(len(calls))
    results: list[dict] = [{} for _call in calls]

    def run(index: int) -> None:
        close_old_connections()
        try:
            barrier.wait(timeout=30)
            results[index] = calls[index]()
        except Exception as error:  # every failure is reported, none is swallowed
            results[index] = {
                "outcome": "error",
                "error": f"{type(error).__name__}: {error}",
                "trace": traceback.format_exc(limit=6),
            }
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def _enter(round_id: int, table: int, entry, user_id: int, token: uuid.UUID, revision: int):
    from django.contrib.auth import get_user_model

    from scoring.services.sheets import SheetConflict, sheet_enter
    from tournament.models import Round

    def call() -> dict:
        round_ = Round.objects.select_related("tournament").get(pk=round_id)
        user = get_user_model().objects.get(pk=user_id)
        try:
            outcome = sheet_enter(
                round_=round_,
                table_number=table,
                entry=entry,
                token=token,
                revision=revision,
                acting_user=user,
            )
        except SheetConflict as conflict:
            current = conflict.current
            return {
                "outcome": "conflict",
                "message": str(conflict),
                "current_number": current.number if current else None,
                "current_points": [s["points"] for s in current.data["seats"]] if current else None,
            }
        return {
            "outcome": "saved" if outcome.created else "already_saved",
            "version": outcome.version.number,
            "points": [seat.points for seat in entry.seats],
        }

    return call


def _sheet_state(round_id: int, table: int) -> dict:
    from scoring.models import ScoreSheet

    sheet = ScoreSheet.objects.filter(round_id=round_id, table_number=table).first()
    if sheet is None:
        return {"versions": [], "status": None, "revision": 0}
    return {
        "status": sheet.status,
        "revision": sheet.revision,
        "versions": [
            {"number": v.number, "points": [s["points"] for s in v.data["seats"]]}
            for v in sheet.versions.order_by("number")
        ],
    }


def two_officials(world: dict) -> list[dict]:
    """Per table: two referees save different numbers on revision 0 at once; then the one
    who got the conflict saves again on the revision they were shown."""
    alice, bruno, _chen = world["users"]
    tables = []
    for table in range(1, TABLES):
        registrations = world["seats"][table]
        entries = {alice: _entry(registrations, 0), bruno: _entry(registrations, 100)}
        race = _at_once(
            [
                _enter(world["round"], table, entries[user], user, uuid.uuid4(), 0)
                for user in (alice, bruno)
            ]
        )
        after_race = _sheet_state(world["round"], table)
        retry = None
        losers = [
            user
            for user, result in zip((alice, bruno), race, strict=True)
            if result.get("outcome") == "conflict"
        ]
        if len(losers) == 1:
            loser = losers[0]
            retry = _enter(
                world["round"], table, entries[loser], loser, uuid.uuid4(), after_race["revision"]
            )()
        tables.append(
            {
                "table": table,
                "race": race,
                "after_race": after_race,
                "retry": retry,
                "final": _sheet_state(world["round"], table),
            }
        )
    return tables


def double_submit(world: dict) -> dict:
    """One referee's form posted twice at once (a double tap, a retry): one token."""
    _alice, _bruno, chen = world["users"]
    table = TABLES
    entry = _entry(world["seats"][table], 0)
    token = uuid.uuid4()
    race = _at_once([_enter(world["round"], table, entry, chen, token, 0) for _copy in range(2)])
    return {"race": race, "final": _sheet_state(world["round"], table)}


def main() -> None:
    import os

    from bench._support import setup_django

    setup_django(os.environ["DATABASE_URL"])
    from django.db import connection

    world = build()
    report = {
        "vendor": connection.vendor,
        "two_officials": two_officials(world),
        "double_submit": double_submit(world),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
