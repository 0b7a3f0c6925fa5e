"""Results are read-only in the admin: they change only through the score-sheet pages."""

from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services.penalties import penalty_give
from tests.conftest import admin_form_data, confirm_sheet
from tests.scoring.conftest import Role, enter, make_entry, table_registrations
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


def test_locking_a_finished_round_in_the_admin_is_audited(admin_client, event):
    event["tournament"].confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    event["tournament"].save()
    round_ = event["rounds"][0]
    for table in (1, 2, 3):
        confirm_sheet(round_, table, event["users"][Role.REFEREE])
    round_.refresh_from_db()
    before = round_.status
    assert _save_round(admin_client, round_, Round.Status.LOCKED).status_code == 302
    entry = AuditEntry.objects.get(action="round.status")
    assert entry.data == {"from": before, "to": Round.Status.LOCKED}
    assert entry.tournament == event["tournament"]
