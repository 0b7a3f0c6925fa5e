"""Extra time for one table (WRC 2015 §8.2): granted by the head referee with a reason,
audited, listed on the clock with the table's own end, and the end the table's score sheet
counts the time as up at."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from tests.conftest import make_registrations, make_rounds, make_seats, make_staff, make_tournament
from tests.scoring.conftest import Role
from tournament.models import AuditEntry, Round, TableTimeGrant
from tournament.services.clock import (
    clock_state,
    table_time_grant,
    table_time_left,
)

START = datetime.datetime(2026, 6, 6, 10, 0, tzinfo=datetime.UTC)


@pytest.fixture
def round_(db) -> Round:
    """90 minutes, two tables, its clock started at 10:00 UTC (Europe/Paris: 12:00)."""
    tournament = make_tournament(round_minutes=90, time_zone="Europe/Paris")
    round_ = make_rounds(tournament, 1)[0]
    make_seats(round_, make_registrations(tournament, 8))
    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.PLAYING, clock_running_since=START
    )
    round_.refresh_from_db()
    return round_


@pytest.fixture
def head(round_, django_user_model):
    user = django_user_model.objects.create_user("head", password="pw-head-123")
    make_staff(round_.tournament, user, Role.HEAD_REFEREE)
    return user


def _grant(round_, head, table=2, minutes=10, hand=False, reason="Long dispute over a pon"):
    return table_time_grant(
        round_=round_,
        table_number=table,
        minutes=minutes,
        one_more_hand=hand,
        reason=reason,
        acting_user=head,
    )


def test_a_table_given_time_is_listed_on_the_clock_with_its_own_end(round_, head):
    _grant(round_, head, minutes=10)
    _grant(round_, head, minutes=5, hand=True, reason="Late substitute")
    state = clock_state(round_, now=START + datetime.timedelta(minutes=80))
    assert state["ends_at"] == "2026-06-06T13:30:00+02:00"
    assert state["tables"] == [
        {
            "table": 2,
            "extra_minutes": 15,
            "one_more_hand": True,
            "remaining_seconds": 25 * 60,
            "ends_at": "2026-06-06T13:45:00+02:00",
        }
    ]


def test_the_time_of_a_table_is_up_at_its_own_end(round_, head):
    _grant(round_, head, minutes=10)
    after_the_round = START + datetime.timedelta(minutes=95)
    assert table_time_left(round_, 1, after_the_round) == 0
    assert table_time_left(round_, 2, after_the_round) == 5
    assert table_time_left(round_, 2, START + datetime.timedelta(minutes=100)) == 0


def test_a_clock_never_started_cannot_tell(round_):
    Round.objects.filter(pk=round_.pk).update(clock_running_since=None)
    round_.refresh_from_db()
    assert table_time_left(round_, 1) is None


def test_the_grant_is_audited_with_its_reason(round_, head):
    grant = _grant(round_, head, minutes=0, hand=True, reason="Dispute at the last discard")
    entry = AuditEntry.objects.get(action="round.table_time")
    assert (entry.actor, entry.reason) == (head, "Dispute at the last discard")
    assert entry.data == {"round": 1, "table": 2, "extra_minutes": 0, "one_more_hand": True}
    assert grant.granted_by == head


@pytest.mark.parametrize(
    ("table", "minutes", "hand", "reason", "field"),
    [
        (9, 5, False, "Dispute", "table_number"),  # no such table
        (1, 0, False, "Dispute", "__all__"),  # nothing granted
        (1, 5, False, "  ", "reason"),
        (1, 241, False, "Dispute", "minutes"),
    ],
)
def test_a_grant_that_means_nothing_is_refused(round_, head, table, minutes, hand, reason, field):
    with pytest.raises(ValidationError) as refused:
        _grant(round_, head, table=table, minutes=minutes, hand=hand, reason=reason)
    assert field in refused.value.message_dict
    assert not TableTimeGrant.objects.exists()
    assert not AuditEntry.objects.filter(action="round.table_time").exists()


def test_no_table_is_given_time_in_a_round_that_is_over(round_, head):
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)
    with pytest.raises(ValidationError):
        _grant(round_, head)


def _page(round_) -> str:
    return reverse("staff:clock", args=[round_.tournament.slug, round_.number])


def test_the_clock_page_grants_time_and_lists_it(client, round_, head):
    client.force_login(head)
    data = {"table_number": "2", "minutes": "10", "reason": "Long dispute"}
    response = client.post(_page(round_), data, follow=True)
    assert "Table 2 was given extra time." in response.content.decode()
    assert "Table 2: +10 min · Long dispute" in response.content.decode()
    assert TableTimeGrant.objects.get().granted_by == head


def test_a_refused_grant_says_why_and_keeps_what_was_typed(client, round_, head):
    client.force_login(head)
    data = {"table_number": "2", "minutes": "0", "reason": "Long dispute"}
    response = client.post(_page(round_), data)
    assert response.status_code == 200
    form = response.context["table_form"]
    assert form.errors == {
        "minutes": ["Give the table some minutes, or tick “One more hand”, or both."]
    }
    assert form["reason"].value() == "Long dispute"
    french = client.post(_page(round_), data, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Accordez des minutes à la table" in french.content.decode()


def test_a_referee_cannot_grant_time(client, round_, django_user_model):
    referee = django_user_model.objects.create_user("referee")
    make_staff(round_.tournament, referee, Role.REFEREE)
    client.force_login(referee)
    data = {"table_number": "2", "minutes": "10", "reason": "Long dispute"}
    assert client.post(_page(round_), data).status_code == 403
    assert not TableTimeGrant.objects.exists()


def test_the_public_clock_state_lists_the_tables(client, round_, head, monkeypatch):
    _grant(round_, head)
    monkeypatch.setattr(timezone, "now", lambda: START + datetime.timedelta(minutes=1))
    url = reverse("public:clock_state", args=[round_.tournament.slug, 1])
    assert [table["table"] for table in client.get(url).json()["tables"]] == [2]
