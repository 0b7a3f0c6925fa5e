"""Results are read-only in the admin: they change only through the score-sheet pages."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services.penalties import penalty_give
from tests.conftest import admin_form_data, confirm_sheet
from tests.scoring.conftest import Role, enter, make_entry, seat_round, table_registrations
from tournament.models import AuditEntry, Round, Tournament

MODELS = ("scoresheet", "sheetversion", "confirmation", "penalty")


@pytest.fixture
def results(event):
    round_ = event["rounds"][0]
    outcome = enter(
        round_, 1, make_entry(table_registrations(round_, 1)), event["users"]["referee"]
    )
    penalty = penalty_give(
        registration=event["registrations"][0],
        points=Decimal(5),
        reason="Phone",
        acting_user=event["users"][Role.ORGANISER],
    )
    return {"sheet": outcome.sheet, "version": outcome.version, "penalty": penalty}


@pytest.mark.parametrize("model", MODELS)
def test_results_are_listed_but_cannot_be_added(admin_client, results, model):
    assert admin_client.get(reverse(f"admin:scoring_{model}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"admin:scoring_{model}_add")).status_code == 403


def test_a_sheet_cannot_be_changed_or_deleted_in_the_admin(admin_client, results):
    sheet = results["sheet"]
    change = reverse("admin:scoring_scoresheet_change", args=[sheet.pk])
    assert admin_client.get(change).status_code == 200  # view only
    assert admin_client.post(change, {"status": "confirmed"}).status_code == 403
    delete = reverse("admin:scoring_scoresheet_delete", args=[sheet.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403


def _save_round(admin_client, round_, status):
    """Post the round's admin change form as the organiser would, with a new status."""
    url = reverse("admin:tournament_round_change", args=[round_.pk])
    data = admin_form_data(admin_client.get(url))
    data["status"] = status
    return admin_client.post(url, data)


def test_a_round_with_unconfirmed_tables_cannot_be_locked(admin_client, event):
    round_ = event["rounds"][0]
    confirm_sheet(round_, 1, event["users"][Role.REFEREE])  # entered; needs a second official
    response = _save_round(admin_client, round_, Round.Status.LOCKED)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["status"] == [
        "Tables 1, 2, 3 have no confirmed sheet yet; a locked round's results are final. "
        "Confirm them first."
    ]
    round_.refresh_from_db()
    assert round_.status != Round.Status.LOCKED


def _finished(event) -> Round:
    """Round 1 with the sheets of its three tables confirmed: it may be locked."""
    event["tournament"].confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    event["tournament"].save()
    round_ = event["rounds"][0]
    for table in (1, 2, 3):
        confirm_sheet(round_, table, event["users"][Role.REFEREE])
    round_.refresh_from_db()
    return round_


def test_locking_a_finished_round_in_the_admin_is_audited(admin_client, event):
    round_ = _finished(event)
    before = round_.status
    assert _save_round(admin_client, round_, Round.Status.LOCKED).status_code == 302
    entry = AuditEntry.objects.get(action="round.status")
    assert entry.data == {"from": before, "to": Round.Status.LOCKED}
    assert entry.tournament == event["tournament"]


def test_who_locked_the_results_and_when_is_kept_on_the_round(admin_client, admin_user, event):
    # The audit log had it, under "Round 1" of some tournament; the round itself did not.
    round_ = _finished(event)
    assert _save_round(admin_client, round_, Round.Status.LOCKED).status_code == 302
    round_.refresh_from_db()
    entry = AuditEntry.objects.get(action="round.status")
    assert (round_.lock_changed_by, round_.lock_changed_at) == (admin_user, entry.created_at)


def test_who_unlocked_the_results_replaces_who_locked_them(
    admin_client, client, event, django_user_model
):
    round_ = _finished(event)
    assert _save_round(admin_client, round_, Round.Status.LOCKED).status_code == 302
    head = django_user_model.objects.create_superuser("head", "head@example.org", "pw-head-123")
    client.force_login(head)
    assert _save_round(client, round_, Round.Status.FINISHED).status_code == 302
    round_.refresh_from_db()
    unlocked = AuditEntry.objects.filter(action="round.status").first()  # the latest
    assert unlocked.data["from"] == Round.Status.LOCKED
    assert (round_.lock_changed_by, round_.lock_changed_at) == (head, unlocked.created_at)


def test_a_status_change_that_neither_locks_nor_unlocks_records_no_lock(admin_client, event):
    round_ = event["rounds"][1]
    assert _save_round(admin_client, round_, Round.Status.SEATED).status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.SEATED
    assert (round_.lock_changed_by, round_.lock_changed_at) == (None, None)
    assert AuditEntry.objects.filter(action="round.status").exists()


@pytest.mark.parametrize(
    ("language", "locked", "unlocked"),
    [
        ("en", "Locked by admin on 5 Jul 2026 at 18:03", "Unlocked by head on 5 Jul 2026 at 18:03"),
        (
            "fr",
            "Verrouillée par admin le 05/07/2026 à 18:03",
            "Déverrouillée par head le 05/07/2026 à 18:03",
        ),
    ],
)
def test_the_round_pages_say_who_locked_or_unlocked_the_results(
    admin_client, event, django_user_model, language, locked, unlocked
):
    round_ = _finished(event)
    assert _save_round(admin_client, round_, Round.Status.LOCKED).status_code == 302
    # 16:03 UTC is 18:03 in Paris, the event's time zone (settings.TIME_ZONE).
    moment = datetime.datetime(2026, 7, 5, 16, 3, tzinfo=datetime.UTC)
    Round.objects.filter(pk=round_.pk).update(lock_changed_at=moment)
    slug = event["tournament"].slug
    pages = [
        reverse("admin:tournament_round_change", args=[round_.pk]),
        reverse("scoring:rounds", args=[slug]),
        reverse("scoring:round", args=[slug, round_.number]),
    ]
    for url in pages:
        assert locked in admin_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    head = django_user_model.objects.create_superuser("head", "head@example.org", "pw-head-123")
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED, lock_changed_by=head)
    for url in pages:
        page = admin_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert unlocked in page
        assert locked not in page


def test_the_rounds_results_are_locked_together_from_the_list(admin_client, admin_user, event):
    # At the end of an event each round was locked through its own change form, seven saves
    # for seven rounds. The list's action locks the complete ones and says which are not.
    finished = _finished(event)
    unfinished, unseated = event["rounds"][1], event["rounds"][2]
    seat_round(unfinished, event["registrations"], shift=1)
    response = admin_client.post(
        reverse("admin:tournament_round_changelist"),
        {
            "action": "lock_results",
            "_selected_action": [finished.pk, unfinished.pk, unseated.pk],
        },
        follow=True,
    )
    said = [str(message) for message in response.context["messages"]]
    assert f"{unfinished}: Tables 1, 2, 3 have no confirmed sheet yet" in said[0]
    assert said[1] == (
        f"{unseated}: This round has not been seated or played: there are no results to lock."
    )
    assert said[2] == f"Results locked: {finished}."
    statuses = dict(Round.objects.values_list("pk", "status"))
    assert statuses[finished.pk] == Round.Status.LOCKED
    assert statuses[unfinished.pk] != Round.Status.LOCKED
    finished.refresh_from_db()
    assert finished.lock_changed_by == admin_user
    entry = AuditEntry.objects.get(action="round.status")
    assert entry.data == {"from": Round.Status.FINISHED, "to": Round.Status.LOCKED}
