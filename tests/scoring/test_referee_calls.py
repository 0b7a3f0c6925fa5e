"""A table calls a referee from its table page; repeated taps do not stack; officials take
and resolve the call from the referee queue, every step audited."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.models import RefereeCall
from scoring.services.referee_calls import (
    RefereeCallError,
    referee_call_make,
    referee_call_resolve,
    referee_call_take,
)
from scoring.table_keys import table_path
from tests.scoring.conftest import Role
from tournament.models import AuditEntry


def _call(event, table=1, reason=""):
    return referee_call_make(
        round_=event["rounds"][0], table_number=table, reason=reason, acting_user=None
    )


def test_repeated_calls_of_a_table_do_not_stack(event):
    first, created = _call(event, reason="Wrong tile count")
    again, created_again = _call(event)
    assert created
    assert not created_again
    assert again.pk == first.pk
    assert RefereeCall.objects.count() == 1
    audit = AuditEntry.objects.get(action="referee_call.make")
    assert audit.actor is None
    assert audit.data == {
        "round": 1,
        "table": 1,
        "reason": "Wrong tile count",
        "origin": "table report",
    }


def test_a_reason_given_on_a_second_tap_joins_the_open_call(event):
    _call(event, reason="Chombo?")
    call, _created = _call(event, reason="Dispute over a ron")
    assert call.reason == "Chombo? · Dispute over a ron"


def test_a_resolved_call_closes_and_the_table_may_call_again(event):
    call, _created = _call(event)
    referee = event["users"][Role.REFEREE]
    referee_call_take(call=call, acting_user=referee)
    referee_call_resolve(call=call, acting_user=referee)
    call.refresh_from_db()
    assert call.taken_by == referee
    assert call.resolved_by == referee
    with pytest.raises(RefereeCallError):
        referee_call_resolve(call=call, acting_user=referee)
    new, created = _call(event)
    assert created
    assert new.pk != call.pk
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"referee_call.take", "referee_call.resolve"} <= actions


def test_only_the_tournaments_officials_take_a_call(event, django_user_model):
    call, _created = _call(event)
    with pytest.raises(PermissionDenied):
        referee_call_take(call=call, acting_user=django_user_model.objects.create_user("x"))


def test_the_table_page_calls_a_referee_and_the_queue_shows_it(client, event):
    page = table_path(event["rounds"][0], 2)
    response = client.post(page, {"action": "call", "reason": "Wrong tile count"})
    assert response.status_code == 302
    client.post(page, {"action": "call", "reason": ""})
    assert RefereeCall.objects.get().table_number == 2
    assert "A referee is called to this table" in client.get(page).content.decode()
    client.force_login(event["users"][Role.REFEREE])
    queue = reverse("scoring:referee_calls", args=[event["tournament"].slug])
    body = client.get(queue).content.decode()
    assert "Table 2" in body
    assert "Wrong tile count" in body
    call = RefereeCall.objects.get()
    slug = event["tournament"].slug
    client.post(reverse("scoring:referee_call_take", args=[slug, call.pk]))
    assert "Taken by referee-1" in client.get(queue).content.decode()
    client.post(reverse("scoring:referee_call_resolve", args=[slug, call.pk]))
    assert "No table is calling a referee." in client.get(queue).content.decode()


def test_a_key_calls_for_its_own_table_only(client, event):
    page = table_path(event["rounds"][0], 1)
    altered = page.replace(f"/{event['rounds'][0].pk}.1.", f"/{event['rounds'][0].pk}.2.")
    assert client.post(altered, {"action": "call"}).status_code == 404
    assert not RefereeCall.objects.exists()
