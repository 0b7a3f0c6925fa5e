"""Results are read-only in the admin: they change only through the score-sheet pages."""

from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services.penalties import penalty_give
from tests.scoring.conftest import Role, enter, make_entry, table_registrations
from tournament.models import AuditEntry, Round

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


def test_locking_a_round_in_the_admin_is_audited(admin_client, event):
    round_ = event["rounds"][0]
    url = reverse("admin:tournament_round_change", args=[round_.pk])
    page = admin_client.get(url)
    data = {}
    forms = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        data.update(
            {management.add_prefix(name): management[name].value() for name in management.fields}
        )
        forms.extend(formset.forms)
    for form in forms:
        for name, field in form.fields.items():
            value = form[name].value()
            if value is not None and not field.disabled:
                data[form.add_prefix(name)] = value
    before = round_.status
    data["status"] = Round.Status.LOCKED
    assert admin_client.post(url, data).status_code == 302
    entry = AuditEntry.objects.get(action="round.status")
    assert entry.data == {"from": before, "to": Round.Status.LOCKED}
    assert entry.tournament == event["tournament"]
