"""Two officials saving at the same instant, on PostgreSQL's row locks: a repeated
submission stores one version; two different ones give one version and one conflict, never
a silent overwrite; one substitute written at two tables is saved at one of them only."""

import threading
import time
import uuid

import pytest
from django.db import connection, connections

from scoring.models import SheetVersion
from scoring.rules import RulesErrors
from scoring.services.sheets import SheetConflict, sheet_enter
from tests.conftest import (
    make_registration,
    make_registrations,
    make_rounds,
    make_staff,
    make_tournament,
)
from tests.scoring.conftest import Role, make_entry, seat_round, table_registrations

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL row locks (DATABASE_URL)"
    ),
]


def _race(calls):
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except Exception as error:  # the outcome is what the test checks
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    _wait_for_other_sessions_to_end()
    return outcomes


def _wait_for_other_sessions_to_end() -> None:
    """A closed connection's server process may linger an instant; the test database can
    only be dropped once it is gone."""
    with connection.cursor() as cursor:
        for _attempt in range(50):
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)


@pytest.fixture
def table(transactional_db, django_user_model):
    tournament = make_tournament()
    registrations = make_registrations(tournament, 4)
    (round_,) = make_rounds(tournament, 1)
    seat_round(round_, registrations)
    users = []
    for name in ("one", "two"):
        user = django_user_model.objects.create_user(name)
        make_staff(tournament, user, Role.REFEREE)
        users.append(user)
    return round_, table_registrations(round_, 1), users


def test_the_same_submission_at_once_stores_one_version(table):
    round_, players, (user, _other) = table
    token = uuid.uuid4()

    def submit():
        return sheet_enter(
            round_=round_,
            table_number=1,
            entry=make_entry(players),
            token=token,
            revision=0,
            acting_user=user,
        )

    outcomes = _race([submit, submit])
    assert SheetVersion.objects.count() == 1
    assert sorted(outcome.created for outcome in outcomes) == [False, True]


def test_two_officials_at_once_give_one_version_and_one_conflict(table):
    round_, players, users = table

    def submit(user, points):
        return lambda: sheet_enter(
            round_=round_,
            table_number=1,
            entry=make_entry(players, points=points),
            token=uuid.uuid4(),
            revision=0,
            acting_user=user,
        )

    outcomes = _race(
        [
            submit(users[0], (42300, 31000, 27700, 19000)),
            submit(users[1], (42300, 31000, 19000, 27700)),
        ]
    )
    assert SheetVersion.objects.count() == 1
    assert sum(isinstance(outcome, SheetConflict) for outcome in outcomes) == 1


def test_one_substitute_at_two_tables_at_once_is_saved_at_one_only(
    transactional_db, django_user_model
):
    tournament = make_tournament()
    registrations = make_registrations(tournament, 8)
    substitute = make_registration(tournament, is_substitute=True)
    (round_,) = make_rounds(tournament, 1)
    seat_round(round_, registrations)
    user = django_user_model.objects.create_user("referee")
    make_staff(tournament, user, Role.REFEREE)

    def submit(table):
        # WRC 2015 §7.2: the absent North player is replaced by the substitute
        players = table_registrations(round_, table)
        entry = make_entry(players, N={"substitute_id": substitute.pk})
        return lambda: sheet_enter(
            round_=round_,
            table_number=table,
            entry=entry,
            token=uuid.uuid4(),
            revision=0,
            acting_user=user,
        )

    outcomes = _race([submit(1), submit(2)])
    refused = [outcome for outcome in outcomes if isinstance(outcome, RulesErrors)]
    assert len(refused) == 1
    assert [error.code for error in refused[0]] == ["substitute_elsewhere"]
    assert SheetVersion.objects.count() == 1
