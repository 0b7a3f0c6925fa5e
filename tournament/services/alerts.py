"""A player's e-mail alerts stopped from the unsubscribe link of one of them, and switched
back on by the organisers when the player asks."""

from django.db import transaction
from django.utils import timezone

from tournament.models import Registration
from tournament.services.audit import audit_record


def _alerts_switch(registration: Registration, *, stop: bool, acting_user) -> Registration:
    """Stop or restart the alerts, audited; as they already are, nothing is written."""
    stored = Registration.objects.select_for_update().get(pk=registration.pk)
    if (stored.alerts_stopped_at is not None) == stop:
        registration.alerts_stopped_at = stored.alerts_stopped_at
        return registration
    registration.alerts_stopped_at = timezone.now() if stop else None
    registration.save(update_fields=["alerts_stopped_at"])
    audit_record(
        tournament=registration.tournament,
        actor=acting_user,
        action="registration.alerts_stop" if stop else "registration.alerts_restart",
        obj=registration,
    )
    return registration


@transaction.atomic
def registration_alerts_stop(*, registration: Registration, acting_user) -> Registration:
    """Send this registration no more alerts. Stopped twice, the first stop stands: a link
    followed again, or by a mail app's own button, changes nothing."""
    return _alerts_switch(registration, stop=True, acting_user=acting_user)


@transaction.atomic
def registration_alerts_restart(*, registration: Registration, acting_user) -> Registration:
    """Send this registration's alerts again: the player unsubscribed, then asked the
    organisers. Nothing to do for alerts never stopped."""
    return _alerts_switch(registration, stop=False, acting_user=acting_user)
