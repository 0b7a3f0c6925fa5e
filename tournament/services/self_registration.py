"""The public registration: a request sent from the form, its e-mail address confirmed,
approved by an organiser where the tournament asks it, and withdrawn by the player from
their link. Nobody is logged in: the anonymous writes are audited without an actor
(`audit_record`), what the player did told by the action's name.

Where a request gets a place, or a place on the waiting list, is `waiting_list`'s business.
"""

from collections import Counter
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Registration, RegistrationRequest, Tournament
from tournament.registration_links import CONFIRM_DAYS
from tournament.registration_mail import queue_registration_mail
from tournament.services.audit import audit_record
from tournament.services.records import record_create
from tournament.services.registrations import registration_withdraw
from tournament.services.waiting_list import player_of_request, request_place


@transaction.atomic
def request_submit(
    *, tournament: Tournament, data: dict[str, str], language: str = "", acting_user
) -> RegistrationRequest:
    """A request from the public form, to be confirmed from the mail it sends. Refused,
    saving nothing, while the form is closed, for a player already registered or
    requesting (same EMA number, or same name and e-mail address), and for an EMA number
    on record with another address."""
    if not tournament.accepts_registrations():
        raise ValidationError(_("Registration for this tournament is closed."))
    request = RegistrationRequest(
        tournament=tournament,
        language=language,
        **{name: data.get(name, "") for name in RegistrationRequest.TYPED_FIELDS},
    )
    request.full_clean()
    _refuse_duplicates(request)
    request = record_create(
        request, tournament=tournament, action="registration_request.create", acting_user=None
    )
    queue_registration_mail(request, "confirm")
    return request


def _refuse_duplicates(request: RegistrationRequest) -> None:
    """Against the registrations and the confirmed requests: a request never confirmed
    (its mail lost, its link expired) does not stop the player sending the form again;
    the second confirmation is refused here if the first one went through."""
    tournament = request.tournament
    others = tournament.registration_requests.exclude(pk=request.pk).exclude(
        status__in=[RegistrationRequest.Status.WITHDRAWN, RegistrationRequest.Status.UNCONFIRMED]
    )
    registrations = Registration.objects.filter(tournament=tournament)
    if request.ema_number and (
        others.filter(ema_number=request.ema_number).exists()
        or registrations.filter(player__ema_number=request.ema_number).exists()
    ):
        raise ValidationError(
            {"ema_number": _("A player with this EMA number is already registered.")}
        )
    same_person = Q(first_name__iexact=request.first_name) & Q(last_name__iexact=request.last_name)
    if (
        others.filter(same_person, email__iexact=request.email).exists()
        or registrations.filter(
            Q(player__first_name__iexact=request.first_name)
            & Q(player__last_name__iexact=request.last_name)
            & Q(player__email__iexact=request.email)
        ).exists()
    ):
        raise ValidationError(
            {"email": _("A player of this name is already registered with this address.")}
        )
    player_of_request(request)  # an EMA number on record with another address


@transaction.atomic
def request_confirm(*, request: RegistrationRequest, acting_user) -> RegistrationRequest:
    """The player opened the link of their mail: their request gets a place, a place on the
    waiting list or waits for an organiser's approval. A second confirmation changes
    nothing."""
    request = RegistrationRequest.objects.select_for_update().get(pk=request.pk)
    if request.status != RegistrationRequest.Status.UNCONFIRMED:
        return request
    if request.tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise ValidationError(_("Registration for this tournament is closed."))
    _refuse_duplicates(request)
    audit_record(
        tournament=request.tournament,
        actor=acting_user,
        action="registration_request.confirm",
        obj=request,
    )
    if request.tournament.registration_approval:
        request.status = RegistrationRequest.Status.AWAITING_APPROVAL
        request.save(update_fields=["status"])
        queue_registration_mail(request, "approval")
        return request
    return request_place(request=request, acting_user=acting_user)


@transaction.atomic
def request_approve(*, request: RegistrationRequest, acting_user) -> RegistrationRequest:
    """An organiser approves a confirmed request: a place or the waiting list."""
    request = RegistrationRequest.objects.select_for_update().get(pk=request.pk)
    if request.status != RegistrationRequest.Status.AWAITING_APPROVAL:
        raise ValidationError(
            _("%(player)s is not awaiting approval: their request is “%(status)s”.")
            % {"player": request, "status": request.get_status_display()}
        )
    audit_record(
        tournament=request.tournament,
        actor=acting_user,
        action="registration_request.approve",
        obj=request,
    )
    return request_place(request=request, acting_user=acting_user)


@transaction.atomic
def request_withdraw(*, request: RegistrationRequest, acting_user) -> RegistrationRequest:
    """The player withdraws from their link (or an organiser declines a request): a
    registration it made is withdrawn, and its place goes to the waiting list."""
    request = RegistrationRequest.objects.select_for_update().get(pk=request.pk)
    registration = request.registration
    if request.is_withdrawn:
        raise ValidationError(_("This registration is already withdrawn."))
    request.status = RegistrationRequest.Status.WITHDRAWN
    request.save(update_fields=["status"])
    audit_record(
        tournament=request.tournament,
        actor=acting_user,
        action="registration_request.withdraw",
        obj=request,
    )
    if registration is not None:
        registration_withdraw(
            registration=registration,
            reason=_("Withdrawn by the player from their registration mail.")
            if acting_user is None
            else _("Withdrawn by an organiser with the registration request."),
            acting_user=acting_user,
        )
    return request


@transaction.atomic
def requests_forget_unconfirmed(*, now: datetime | None = None, acting_user) -> int:
    """Delete the requests whose confirmation link has expired unopened: an address never
    confirmed is not kept (whoever typed it may not own it), and nothing can confirm them
    any more. A day's margin past the link's week; audited per tournament, by count only.
    How many were deleted."""
    cutoff = (now or timezone.now()) - timedelta(days=CONFIRM_DAYS + 1)
    expired = RegistrationRequest.objects.filter(
        status=RegistrationRequest.Status.UNCONFIRMED, created_at__lt=cutoff
    )
    counts = Counter(expired.values_list("tournament_id", flat=True))
    expired.delete()
    for tournament in Tournament.objects.filter(pk__in=counts):
        audit_record(
            tournament=tournament,
            actor=acting_user,
            action="registration_request.forget_unconfirmed",
            data={"count": counts[tournament.pk]},
        )
    return sum(counts.values())
