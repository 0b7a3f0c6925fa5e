"""What only the audited services write (results, seats, seating runs, tables' extra time,
wrong-seat corrections, the audit log, the alerts sent once per round) is shown in the admin
and never added, changed or deleted there."""

import pytest
from django.contrib import admin
from django.urls import reverse

from scoring.models import (
    Confirmation,
    Penalty,
    RefereeCall,
    ScoreSheet,
    SheetVersion,
    TableKey,
)
from seating.models import SeatCorrection, SeatingRun
from tests.conftest import make_registrations, make_rounds, make_seats
from tournament.admin.base import ReadOnlyAdmin
from tournament.models import AlertSent, AuditEntry, RegistrationRequest, Seat, TableTimeGrant

pytestmark = pytest.mark.django_db


def test_the_read_only_admins_share_one_base():
    read_only = {
        model
        for model, model_admin in admin.site._registry.items()
        if isinstance(model_admin, ReadOnlyAdmin)
    }
    assert read_only == {
        AlertSent,
        AuditEntry,
        RegistrationRequest,
        Confirmation,
        Penalty,
        RefereeCall,
        ScoreSheet,
        SeatingRun,
        Seat,
        SeatCorrection,
        SheetVersion,
        TableKey,
        TableTimeGrant,
    }


def test_a_seat_is_not_deleted_from_the_admin(admin_client, tournament):
    (seat, *_others) = make_seats(make_rounds(tournament)[0], make_registrations(tournament, 4))
    delete = reverse("admin:tournament_seat_delete", args=[seat.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Seat.objects.filter(pk=seat.pk).exists()
    page = admin_client.get(reverse("admin:tournament_seat_change", args=[seat.pk]))
    assert page.status_code == 200  # shown, read-only
    assert not page.context["has_change_permission"]
