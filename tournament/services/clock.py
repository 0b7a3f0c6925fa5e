"""The round clock (WRC 2015 §8.2): started, paused, extended and reset by an organiser.

The state lives in the Round row (running since, seconds already elapsed, extra seconds),
so every screen and every server process shows the same time, across reloads and restarts.
Each change locks the row, so two organisers pressing buttons at once cannot lose time.
"""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Round
from tournament.services.audit import audit_record
from tournament.services.rounds import round_start

EXTENSION_SECONDS = 5 * 60
MAX_EXTRA_SECONDS = 4 * 60 * 60


def _locked(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)


def _elapsed_now(round_: Round, now: datetime) -> int:
    elapsed = round_.clock_elapsed_seconds
    if round_.clock_running_since:
        elapsed += int((now - round_.clock_running_since).total_seconds())
    return max(elapsed, 0)


def _save(round_: Round, *, acting_user, action: str) -> Round:
    round_.save(
        update_fields=[
            "status",
            "clock_running_since",
            "clock_elapsed_seconds",
            "clock_extra_seconds",
            "started_at",
        ]
    )
    audit_record(
        tournament=round_.tournament,
        actor=acting_user,
        action=action,
        obj=round_,
        data={
            "elapsed_seconds": round_.clock_elapsed_seconds,
            "extra_seconds": round_.clock_extra_seconds,
            "running": round_.clock_running_since is not None,
            "status": round_.status,
        },
    )
    return round_


@transaction.atomic
def clock_start(*, round_: Round, acting_user) -> Round:
    """Start the clock, or resume it after a pause. The first start is when the round began:
    lateness is counted from it (WRC 2015 §7.2), not from a schedule the hall did not keep."""
    round_ = _locked(round_)
    if round_.clock_running_since is not None:
        raise ValidationError(_("The clock of %(round)s is already running.") % {"round": round_})
    round_.clock_running_since = timezone.now()
    if round_.started_at is None:
        round_.started_at = round_.clock_running_since
    round_start(round_=round_, acting_user=acting_user)
    return _save(round_, acting_user=acting_user, action="round.clock_start")


@transaction.atomic
def clock_pause(*, round_: Round, acting_user) -> Round:
    """Stop the clock, keeping the time already played."""
    round_ = _locked(round_)
    if round_.clock_running_since is None:
        raise ValidationError(_("The clock of %(round)s is not running.") % {"round": round_})
    round_.clock_elapsed_seconds = _elapsed_now(round_, timezone.now())
    round_.clock_running_since = None
    return _save(round_, acting_user=acting_user, action="round.clock_pause")


@transaction.atomic
def clock_extend(*, round_: Round, acting_user, seconds: int = EXTENSION_SECONDS) -> Round:
    """Give the round more time (e.g. after a long dispute), running or not."""
    round_ = _locked(round_)
    if seconds <= 0 or round_.clock_extra_seconds + seconds > MAX_EXTRA_SECONDS:
        raise ValidationError(_("The round cannot be extended further."))
    round_.clock_extra_seconds += seconds
    return _save(round_, acting_user=acting_user, action="round.clock_extend")


@transaction.atomic
def clock_reset(*, round_: Round, acting_user) -> Round:
    """Back to the full time, stopped (e.g. the clock was started by mistake): a round that
    its start made *Playing* and that has no sheet yet is *Seated* again, so it can still be
    seated."""
    round_ = _locked(round_)
    round_.clock_running_since = None
    round_.clock_elapsed_seconds = 0
    round_.clock_extra_seconds = 0
    round_.started_at = None
    if (
        round_.status == Round.Status.PLAYING
        and not round_.score_sheets.filter(revision__gt=0).exists()
    ):
        round_.status = Round.Status.SEATED
    return _save(round_, acting_user=acting_user, action="round.clock_reset")


#: A round in these statuses is over: its clock screens stop and say so, whatever the clock
#: held when the organiser closed it (a clock left running would count on into "Time!").
OVER_STATUSES = (Round.Status.FINISHED, Round.Status.LOCKED)


def clock_state(round_: Round, now: datetime | None = None) -> dict:
    """What a clock screen needs: the server's time, the seconds left, whether the round is
    over (finished, or its results locked) and, while it runs, when the time is up, in the
    tournament's zone (a phone abroad shows the hall's hour) (JSON-ready)."""
    now = now or timezone.now()
    remaining = round_.clock_remaining(now).total_seconds()
    total = round_.tournament.round_minutes * 60 + round_.clock_extra_seconds
    over = round_.status in OVER_STATUSES
    running = round_.clock_running_since is not None and not over
    ends_at = None
    if running:
        # From the stored start, not from now: the same instant on every poll.
        ends = round_.clock_running_since + timedelta(seconds=total - round_.clock_elapsed_seconds)
        ends_at = ends.astimezone(ZoneInfo(round_.tournament.time_zone)).isoformat("T", "seconds")
    return {
        "round": round_.number,
        "over": over,
        "running": running,
        "remaining_seconds": round(remaining, 1),
        "total_seconds": total,
        "server_time": now.isoformat(),
        "ends_at": ends_at,
        "time_zone": round_.tournament.time_zone,
    }
