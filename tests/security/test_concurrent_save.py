"""Two officials saving the same table at the same moment: exactly one wins, the other gets a
conflict showing both versions, and nothing either of them typed is lost.

The races are real: `tests/security/concurrency.py` runs in its own process against a
database of the kind this suite runs on (a SQLite *file*, or a fresh PostgreSQL database on
the server of DATABASE_URL), with one connection per thread, so the database's own locking
decides the winner. CI runs the suite on SQLite and on PostgreSQL, so both are covered.
"""

import uuid

import pytest
from django.urls import reverse

from scoring.entries import SeatEntry, SheetEntry
from scoring.models import ScoreSheet, SheetVersion
from scoring.services.sheets import SheetConflict, sheet_correct, sheet_enter
from scoring.views.sheets import entry_digest
from tests.conftest import make_registrations, make_rounds, make_staff, make_tournament
from tests.security.concurrency import race_report
from tournament.models import Round, Seat, Tournament, TournamentStaff

# Table points summing to 4 × 30,000 (WRC 2015 §4.1 start points).
FIRST = [42000, 33000, 25000, 20000]
SECOND = [42100, 33000, 25000, 19900]


@pytest.fixture(scope="module")
def races() -> dict:
    return race_report("tests.security.concurrency", "race")


def _outcomes(race: list[dict]) -> list[str]:
    return sorted(result["outcome"] for result in race)


def _errors(race: list[dict]) -> list[str]:
    return [result["error"] for result in race if result["outcome"] == "error"]


def _assert_no_server_error(races: dict) -> None:
    """No official may get an exception (a 500) instead of a saved sheet or a conflict."""
    errors = [e for t in races["two_officials"] for e in _errors(t["race"])]
    errors += _errors(races["double_submit"]["race"])
    hint = ""
    if any("database is locked" in error for error in errors):
        hint = (
            " — SQLite starts transactions DEFERRED, so the second writer cannot upgrade its "
            'read lock and fails at once; set DATABASES["default"]["OPTIONS"]'
            '["transaction_mode"] = "IMMEDIATE" so that it waits for the lock instead'
        )
    assert not errors, f"{races['vendor']}: {sorted(set(errors))}{hint}"


def test_exactly_one_of_two_simultaneous_entries_wins(races):
    _assert_no_server_error(races)
    for table in races["two_officials"]:
        assert _outcomes(table["race"]) == ["conflict", "saved"], table["race"]
        assert table["after_race"]["revision"] == 1
        assert len(table["after_race"]["versions"]) == 1


def test_the_loser_is_shown_the_winners_version(races):
    _assert_no_server_error(races)
    for table in races["two_officials"]:
        winner = next(r for r in table["race"] if r["outcome"] == "saved")
        loser = next(r for r in table["race"] if r["outcome"] == "conflict")
        assert loser["current_number"] == 1
        assert loser["current_points"] == winner["points"]
        assert table["after_race"]["versions"][0]["points"] == winner["points"]
        assert "someone else has saved it since" in loser["message"]


def test_nothing_either_official_typed_is_lost(races):
    """The loser saves again on the version they were shown: the sheet now holds both
    entries, and as they differ the table is disputed for a head referee."""
    _assert_no_server_error(races)
    for table in races["two_officials"]:
        assert table["retry"]["outcome"] == "saved"
        kept = sorted(version["points"] for version in table["final"]["versions"])
        assert kept == sorted([FIRST, SECOND])
        assert table["final"]["status"] == ScoreSheet.Status.DISPUTED


def test_the_same_form_posted_twice_at_once_saves_one_version(races):
    _assert_no_server_error(races)
    result = races["double_submit"]
    assert _outcomes(result["race"]) == ["already_saved", "saved"]
    assert {r["version"] for r in result["race"]} == {1}
    assert len(result["final"]["versions"]) == 1


@pytest.fixture
def table(db, django_user_model):
    tournament = make_tournament(confirmation_policy=Tournament.ConfirmationPolicy.SECOND_OFFICIAL)
    registrations = make_registrations(tournament, 4)
    (round_,) = make_rounds(tournament, 1)
    round_.status = Round.Status.PLAYING
    round_.save()
    for wind, registration in zip("ESWN", registrations, strict=True):
        Seat.objects.create(round=round_, table_number=1, wind=wind, registration=registration)
    alice = django_user_model.objects.create_user("alice", "alice@x.org", None)
    bruno = django_user_model.objects.create_user("bruno", "bruno@x.org", None)
    for user in (alice, bruno):
        make_staff(tournament, user, TournamentStaff.Role.REFEREE)
    return {
        "round": round_,
        "registrations": registrations,
        "alice": alice,
        "bruno": bruno,
        "url": reverse("scoring:sheet", kwargs={"slug": tournament.slug, "number": 1, "table": 1}),
    }


def _form(table: dict, points: list[int], revision: int) -> dict:
    data = {
        "token": str(uuid.uuid4()),
        "revision": revision,
        "riichi_sticks_left": 0,
        "note": "",
        "action": "save",
    }
    for wind, registration, value in zip("ESWN", table["registrations"], points, strict=True):
        data.update(
            {
                f"{wind}_player": registration.pk,
                f"{wind}_points": value,
                f"{wind}_chombo": 0,
                f"{wind}_late": 0,
                f"{wind}_substitute": "",
            }
        )
    return data


def _entry(table: dict, points: list[int]) -> SheetEntry:
    return SheetEntry(
        kind="final",
        seats=tuple(
            SeatEntry(registration_id=r.pk, points=p)
            for r, p in zip(table["registrations"], points, strict=True)
        ),
    )


def _enter(table: dict, user, points: list[int], revision: int) -> None:
    sheet_enter(
        round_=table["round"],
        table_number=1,
        entry=_entry(table, points),
        token=uuid.uuid4(),
        revision=revision,
        acting_user=user,
    )


def _alice_saves_first(table) -> None:
    """Alice saves FIRST at revision 0, as from a page opened before anyone saved."""
    _enter(table, table["alice"], FIRST, revision=0)


def test_the_conflict_page_shows_both_versions_and_keeps_the_input(table, client):
    """Bruno opened the sheet at revision 0; Alice saved first. Bruno's save shows Alice's
    version next to his own numbers, which stay in the form."""
    _alice_saves_first(table)
    response = _save_second_from_revision_0(table, client, table["bruno"])
    assert response.status_code == 200
    assert "someone else has saved it since" in response.context["error"]
    shown = [line.points for line in response.context["conflict"].lines]
    assert shown == FIRST
    html = response.content.decode()
    assert "What is saved now" in html
    assert "Entered sheet" not in html  # the saved version is shown once
    form = response.context["form"]
    assert [form[f"{wind}_points"].value() for wind in "ESWN"] == [str(p) for p in SECOND]
    assert form["revision"].value() == "1"  # saving again is now a deliberate choice
    assert SheetVersion.objects.count() == 1


def _save_second_from_revision_0(table: dict, client, user):
    """`user` saves SECOND, checked, from a page opened at revision 0."""
    client.force_login(user)
    data = _form(table, SECOND, revision=0)
    data["checked"] = entry_digest(_entry(table, SECOND))
    return client.post(table["url"], data)


def test_an_official_who_saved_in_another_tab_is_told_it_was_them(table, client):
    """Alice saved from one tab, then saves the same revision from another: "someone else"
    would send her looking for a colleague."""
    _alice_saves_first(table)
    response = _save_second_from_revision_0(table, client, table["alice"])
    assert response.status_code == 200
    error = response.context["error"]
    assert "when you opened it, but you saved it since (in another tab or window?)" in error
    assert "version 0" not in error  # the page had no version: nothing to number
    assert SheetVersion.objects.count() == 1


def test_a_page_opened_on_a_saved_version_names_both_versions(table, django_user_model):
    """Alice and Bruno entered different sheets (versions 1 and 2: disputed); two head
    referees settle it from the same page, at version 2: the second is told what happened."""
    _alice_saves_first(table)
    _enter(table, table["bruno"], SECOND, revision=1)
    heads = [
        django_user_model.objects.create_user(name, f"{name}@x.org", None)
        for name in ("carla", "dora")
    ]
    for user in heads:
        make_staff(table["round"].tournament, user, TournamentStaff.Role.HEAD_REFEREE)
    sheet = ScoreSheet.objects.get()

    def settle(user):
        return sheet_correct(
            sheet=sheet,
            entry=_entry(table, FIRST),
            token=uuid.uuid4(),
            revision=2,
            reason="Paper sheet checked",
            acting_user=user,
        )

    settle(heads[0])
    with pytest.raises(SheetConflict) as conflict:
        settle(heads[1])
    assert str(conflict.value).startswith(
        "You edited version 2 of this sheet, but version 3 has been saved since by someone else."
    )
