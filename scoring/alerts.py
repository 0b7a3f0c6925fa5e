"""The penalised player's e-mail alert (`tournament.alerts` sends it): queued when the
penalty's transaction commits, so a penalty refused or rolled back sends nothing."""

from fractions import Fraction
from functools import partial

from django.db import transaction
from django.utils.translation import gettext as _
from django_tasks import task

from scoring.models import Penalty
from tournament.alerts.mail import send_alerts
from tournament.formatting import format_score


def penalty_alert_queue(penalty: Penalty) -> None:
    """Tell the player once the penalty is stored."""
    transaction.on_commit(partial(send_penalty_alert.enqueue, penalty.pk))


@task()
def send_penalty_alert(penalty_id: int) -> None:
    """The points, the round and the referee's reason, to the penalised player (nothing if
    the penalty was cancelled meanwhile)."""
    penalty = (
        Penalty.objects.active()
        .select_related("tournament", "round", "registration__player")
        .filter(pk=penalty_id)
        .first()
    )
    if penalty is None:
        return

    def write(_registration) -> tuple[str, str]:
        points = format_score(Fraction(-penalty.points), signed=False)
        if penalty.round is None:
            text = _("A penalty of %(points)s points was given to you.") % {"points": points}
        else:
            text = _("A penalty of %(points)s points was given to you in %(round)s.") % {
                "points": points,
                "round": penalty.round,
            }
        reason = _("Reason: %(reason)s") % {"reason": penalty.reason}
        return _("a penalty"), "\n".join([text, reason])

    send_alerts(penalty.tournament, [penalty.registration], write)
