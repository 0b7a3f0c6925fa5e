"""Reinstating a withdrawn or disqualified registration: the service and the admin action."""

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_registration
from tournament.models import AuditEntry, Registration
from tournament.services.registrations import (
    registration_check_in,
    registration_disqualify,
    registration_reinstate,
    registration_withdraw,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(tournament):
    return make_registration(tournament)


@pytest.mark.parametrize("leave", [registration_withdraw, registration_disqualify])
def test_a_player_who_left_is_registered_again_without_the_old_reason(entry, organiser, leave):
    registration_check_in(registration=entry, acting_user=organiser)
    leave(registration=entry, reason="Ticked the wrong line", acting_user=organiser)
    reinstated = registration_reinstate(
        registration=entry, reason="  Wrong player withdrawn  ", acting_user=organiser
    )
    entry.refresh_from_db()
    assert reinstated.status == entry.status == Registration.Status.REGISTERED
    # The check-in is done again on the day; the reason said why they left.
    assert (entry.checked_in_at, entry.status_reason) == (None, "")
    registration_check_in(registration=entry, acting_user=organiser)
    assert Registration.objects.get(pk=entry.pk).status == Registration.Status.CHECKED_IN


@pytest.mark.parametrize(
    ("leave", "previous"),
    [(registration_withdraw, "withdrawn"), (registration_disqualify, "disqualified")],
)
def test_the_audit_log_keeps_why_they_left_and_why_they_came_back(
    entry, organiser, leave, previous
):
    leave(registration=entry, reason="Collusion", acting_user=organiser)
    registration_reinstate(registration=entry, reason="Appeal upheld", acting_user=organiser)
    left, back = AuditEntry.objects.filter(tournament=entry.tournament).order_by("id")
    assert (left.reason, back.action, back.reason) == (
        "Collusion",
        "registration.reinstate",
        "Appeal upheld",
    )
    assert back.actor == organiser
    assert back.data == {"previous_status": previous, "previous_reason": "Collusion"}


@pytest.mark.parametrize("checked_in", [False, True])
def test_a_player_still_playing_is_not_reinstated(entry, organiser, checked_in):
    if checked_in:
        registration_check_in(registration=entry, acting_user=organiser)
    status = "Checked in" if checked_in else "Registered"
    with pytest.raises(ValidationError) as refused:
        registration_reinstate(registration=entry, reason="By mistake", acting_user=organiser)
    assert refused.value.messages == [
        f"{entry.player} cannot be reinstated: their registration is “{status}”, neither "
        "withdrawn nor disqualified."
    ]
    assert not AuditEntry.objects.filter(action="registration.reinstate").exists()


def test_reinstating_needs_a_reason(entry, organiser):
    registration_withdraw(registration=entry, reason="Left early", acting_user=organiser)
    with pytest.raises(ValidationError, match="Give a reason."):
        registration_reinstate(registration=entry, reason="   ", acting_user=organiser)
    entry.refresh_from_db()
    assert (entry.status, entry.status_reason) == (Registration.Status.WITHDRAWN, "Left early")
    assert not AuditEntry.objects.filter(action="registration.reinstate").exists()
