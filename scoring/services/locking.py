"""Locking a round's results: final, no correction and no penalty on it any more."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.services.sheets import round_lock_changed, unconfirmed_tables
from tournament.models import Round, Seat
from tournament.services.rounds import round_record_status


def lock_refusal(round_: Round) -> str | None:
    """Why the round's results cannot be locked yet, or None: every table of its seating
    must have a confirmed sheet."""
    if not Seat.objects.filter(round=round_).exists():
        return _("This round has not been seated or played: there are no results to lock.")
    missing = unconfirmed_tables(round_)
    if missing:
        return _(
            "Tables %(tables)s have no confirmed sheet yet; a locked round's results are "
            "final. Confirm them first."
        ) % {"tables": ", ".join(map(str, missing))}
    return None


@transaction.atomic
def round_lock(*, round_: Round, acting_user) -> bool:
    """Lock the round's results (audited, with who and when on the round); False if they
    were locked already."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status == Round.Status.LOCKED:
        return False
    refusal = lock_refusal(round_)
    if refusal:
        raise ValidationError(refusal)
    previous = round_.status
    round_.status = Round.Status.LOCKED
    round_.save(update_fields=["status"])
    round_lock_changed(round_)
    round_record_status(round_=round_, previous=previous, acting_user=acting_user)
    return True
