"""Withdrawing or disqualifying players from the admin's registration list."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.conftest import make_registrations, make_rounds, make_seats, make_tournament
from tournament.models import Registration, Round


@pytest.fixture
def seated(db):
    """Eight players seated in rounds 1 (being played), 2 and 3 (to come)."""
    tournament = make_tournament(rounds_count=3)
    registrations = make_registrations(tournament, 8)
    rounds = make_rounds(tournament)
    for round_ in rounds:
        make_seats(round_, registrations)
    Round.objects.filter(pk=rounds[0].pk).update(status=Round.Status.PLAYING)
    Round.objects.filter(pk__in=[r.pk for r in rounds[1:]]).update(status=Round.Status.SEATED)
    return registrations


def _act(client, action: str, registrations):
    return client.post(
        reverse("admin:tournament_registration_changelist"),
        {
            "action": action,
            "_selected_action": [r.pk for r in registrations],
            "reason": "Left for a family emergency",
            "apply": "Confirm",
        },
    )


@pytest.mark.parametrize(
    ("action", "status"),
    [("withdraw", Registration.Status.WITHDRAWN), ("disqualify", Registration.Status.DISQUALIFIED)],
)
def test_the_action_says_who_is_still_seated_in_the_rounds_to_come(
    admin_client, seated, action, status
):
    response = _act(admin_client, action, seated[:2])
    assert response.status_code == 302
    assert {r.status for r in Registration.objects.filter(pk__in=[r.pk for r in seated[:2]])} == {
        status
    }
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    assert "2 registrations updated." in texts
    names = [str(r.player) for r in seated[:2]]
    assert (
        f"Still seated in the rounds to come: {names[0]} (rounds 2, 3); {names[1]} (rounds 2, 3). "
        "Seat those rounds again (Generate seating) before they are played."
    ) in texts


def test_no_warning_when_the_rounds_to_come_are_not_seated(admin_client, seated):
    Round.objects.filter(number__in=[2, 3]).update(status=Round.Status.PLANNED)
    Registration.objects.get(pk=seated[0].pk).seats.filter(round__number__gt=1).delete()
    response = _act(admin_client, "withdraw", seated[:1])
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    assert texts == ["1 registration updated."]
