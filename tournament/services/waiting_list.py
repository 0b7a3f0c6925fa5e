"""The player cap and the waiting list: a registration request gets a place while there is
one and nobody waits before it; a place that frees up goes to the first in line, who is
told by mail (`tournament.registration_mail`).

The places are counted from the registrations that play (`RegistrationQuerySet.active`),
substitutes apart: they stand in for absent players and are never ranked. The tournament's
row is locked first, so two players confirming at once never both take the last place.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.invalidation import standings_changed
from tournament.models import Player, Registration, RegistrationRequest, Tournament
from tournament.registration_mail import queue_registration_mail
from tournament.services.audit import audit_record


def places_left(tournament: Tournament) -> int | None:
    """The places still free under the cap (None: no cap)."""
    if tournament.player_cap is None:
        return None
    taken = tournament.registrations.active().filter(is_substitute=False).count()
    return max(tournament.player_cap - taken, 0)


def _lock(tournament: Tournament) -> Tournament:
    """The tournament's row locked, as stored now (the caller's may be older)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def request_place(*, request: RegistrationRequest, acting_user) -> RegistrationRequest:
    """A confirmed (or approved) request: registered if a place is free and nobody waits
    before it, else at the end of the waiting list."""
    tournament = _lock(request.tournament)
    free = places_left(tournament)
    if free is None or (free > 0 and not tournament.registration_requests.waiting().exists()):
        return _register(request, acting_user=acting_user)
    request.status = RegistrationRequest.Status.WAITING
    request.waiting_since = timezone.now()
    request.full_clean()
    request.save(update_fields=["status", "waiting_since"])
    audit_record(
        tournament=request.tournament,
        actor=acting_user,
        action="registration_request.waiting",
        obj=request,
    )
    queue_registration_mail(request, "waiting")
    return request


@transaction.atomic
def waiting_list_promote(*, tournament: Tournament, acting_user) -> list[RegistrationRequest]:
    """Give the free places to the first on the waiting list, until the tournament begins
    (once it runs, a withdrawal frees no place: the seating is the referees' business)."""
    tournament = _lock(tournament)
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        return []
    free = places_left(tournament)
    waiting = tournament.registration_requests.waiting()
    promoted = list(waiting if free is None else waiting[:free])
    for request in promoted:
        _register(request, acting_user=acting_user)
    return promoted


def _register(request: RegistrationRequest, *, acting_user) -> RegistrationRequest:
    """Register the request's player: an existing record if it is the same person
    (`player_of_request`), else a new one."""
    player = player_of_request(request)
    if player is None:
        # What the form typed is a player's record, field for field.
        player = Player(**{field: getattr(request, field) for field in request.TYPED_FIELDS})
        player.full_clean()
        player.save()
    else:
        # A returning player's blanks are filled; what the record says already is kept, as
        # the import does (a name changed here would change on other tournaments' pages).
        blanks = [
            field
            for field in ("email", "public_name")
            if getattr(request, field) and not getattr(player, field)
        ]
        for field in blanks:
            setattr(player, field, getattr(request, field))
        if blanks:
            player.save(update_fields=blanks)
    registration = Registration(tournament=request.tournament, player=player)
    registration.full_clean()
    registration.save()
    request.status = RegistrationRequest.Status.REGISTERED
    request.registration = registration
    request.save(update_fields=["status", "registration"])
    standings_changed(request.tournament)
    audit_record(
        tournament=request.tournament,
        actor=acting_user,
        action="registration_request.register",
        obj=request,
        data={"registration": registration.pk, "player": player.pk},
    )
    queue_registration_mail(request, "registered")
    return request


def player_of_request(request: RegistrationRequest) -> Player | None:
    """The player on record the request is from: the one with its EMA number, else the one
    of the same name and e-mail address (never a demo player). Raises ValidationError when
    the EMA number is another person's: another address on record."""
    players = Player.objects.filter(is_demo=False)
    if request.ema_number:
        player = players.filter(ema_number=request.ema_number).first()
        if player is not None and player.email and player.email.lower() != request.email.lower():
            raise ValidationError(
                {
                    "ema_number": _(
                        "This EMA number is on record with another e-mail address: please "
                        "ask the organisers to register you."
                    )
                }
            )
        if player is not None:
            return player
    return players.filter(
        first_name__iexact=request.first_name,
        last_name__iexact=request.last_name,
        email__iexact=request.email,
    ).first()
