"""Results are read-only in the admin: they change only through the score-sheet pages."""

from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services.penalties import penalty_give
from tests.scoring.conftest import Role, enter, make_entry, table_registrations

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
