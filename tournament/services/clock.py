"""The round clock (WRC 2015 §8.2): started, paused, extended and reset by an organiser, and
extra time for one table granted by the head referee.

The state lives in the Round row (running since, seconds already elapsed, extra seconds),
so every screen and every server process shows the same time, across reloads and restarts.
Each change locks the row, so two organisers pressing buttons at once cannot lose time.
A table's own end is the round's plus the minutes of its `TableTimeGrant` rows.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Round, Seat, TableTimeGrant
from tournament.services.audit import audit_record
from tournament.services.rounds import round_start

EXTENSION_SECONDS = 5 * 60
MAX_EXTRA_SECONDS = 4 * 60 * 60
MAX_TABLE_MINUTES = MAX_EXTRA_SECONDS // 60


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


@transaction.atomic
def table_time_grant(
    *,
    round_: Round,
    table_number: int,
    minutes: int,
    one_more_hand: bool,
    reason: str,
    acting_user,
) -> TableTimeGrant:
    """Give one table extra minutes, or one more hand after the signal, with the reason
    (a long dispute, a late substitute): the other tables keep the round's end."""
    round_ = _locked(round_)
    if round_.status in OVER_STATUSES:
        raise ValidationError(
            _("%(round)s is over: no table can be given time.") % {"round": round_}
        )
    if not Seat.objects.filter(round=round_, table_number=table_number).exists():
        raise ValidationError(
            {
                "table_number": _("There is no table %(table)s in this round.")
                % {"table": table_number}
            }
        )
    given = sum(
        round_.table_time.filter(table_number=table_number).values_list("extra_minutes", flat=True)
    )
    if given + minutes > MAX_TABLE_MINUTES:
        raise ValidationError(
            {
                "minutes": _("A table can be given %(most)s minutes at most.")
                % {"most": MAX_TABLE_MINUTES}
            }
        )
    grant = TableTimeGrant(
        round=round_,
        table_number=table_number,
        extra_minutes=minutes,
        one_more_hand=one_more_hand,
        reason=reason.strip(),
        granted_by=acting_user,
    )
    grant.full_clean()
    grant.save()
    audit_record(
        tournament=round_.tournament,
        actor=acting_user,
        action="round.table_time",
        obj=grant,
        reason=grant.reason,
        data={
            "round": round_.number,
            "table": table_number,
            "extra_minutes": minutes,
            "one_more_hand": one_more_hand,
        },
    )
    return grant


#: A round in these statuses is over: its clock screens stop and say so, whatever the clock
#: held when the organiser closed it (a clock left running would count on into "Time!").
OVER_STATUSES = (Round.Status.FINISHED, Round.Status.LOCKED)


@dataclass(frozen=True)
class TableClock:
    """One table's own end: the round's plus the extra time the head referee gave it."""

    table_number: int
    extra_minutes: int
    one_more_hand: bool
    remaining_seconds: float
    ends_at: datetime | None  # while the clock runs


def _round_end(round_: Round) -> datetime | None:
    if round_.clock_running_since is None or round_.status in OVER_STATUSES:
        return None
    total = round_.tournament.round_minutes * 60 + round_.clock_extra_seconds
    return round_.clock_running_since + timedelta(seconds=total - round_.clock_elapsed_seconds)


def table_clocks(round_: Round, now: datetime | None = None) -> dict[int, TableClock]:
    """The tables given extra time in this round, by number, each with its own end."""
    now = now or timezone.now()
    grants: dict[int, tuple[int, bool]] = {}
    for grant in round_.table_time.all():
        minutes, hand = grants.get(grant.table_number, (0, False))
        grants[grant.table_number] = (minutes + grant.extra_minutes, hand or grant.one_more_hand)
    remaining = round_.clock_remaining(now).total_seconds()
    end = _round_end(round_)
    return {
        table: TableClock(
            table_number=table,
            extra_minutes=minutes,
            one_more_hand=hand,
            remaining_seconds=remaining + minutes * 60,
            ends_at=end + timedelta(minutes=minutes) if end else None,
        )
        for table, (minutes, hand) in sorted(grants.items())
    }


def table_time_left(round_: Round, table_number: int, now: datetime | None = None) -> int | None:
    """Minutes the table still has on the clock, its extra time included (0: its time is
    up), or None when the clock cannot tell (never started, or the round is over)."""
    now = now or timezone.now()
    started = round_.clock_running_since is not None or round_.clock_elapsed_seconds > 0
    if not started or round_.status in OVER_STATUSES:
        return None
    own = table_clocks(round_, now).get(table_number)
    seconds = own.remaining_seconds if own else round_.clock_remaining(now).total_seconds()
    return max(0, int(-(-seconds // 60)))


def _hour(moment: datetime | None, time_zone: str) -> str | None:
    return moment.astimezone(ZoneInfo(time_zone)).isoformat("T", "seconds") if moment else None


def clock_state(round_: Round, now: datetime | None = None) -> dict:
    """What a clock screen needs: the server's time, the seconds left, whether the round is
    over (finished, or its results locked) and, while it runs, when the time is up, in the
    tournament's zone (a phone abroad shows the hall's hour) (JSON-ready)."""
    now = now or timezone.now()
    remaining = round_.clock_remaining(now).total_seconds()
    total = round_.tournament.round_minutes * 60 + round_.clock_extra_seconds
    over = round_.status in OVER_STATUSES
    running = round_.clock_running_since is not None and not over
    zone = round_.tournament.time_zone
    # From the stored start, not from now: the same instant on every poll.
    ends_at = _hour(_round_end(round_), zone)
    return {
        "round": round_.number,
        "over": over,
        "running": running,
        "remaining_seconds": round(remaining, 1),
        "total_seconds": total,
        "server_time": now.isoformat(),
        "ends_at": ends_at,
        "time_zone": zone,
        "tables": [
            {
                "table": table.table_number,
                "extra_minutes": table.extra_minutes,
                "one_more_hand": table.one_more_hand,
                "remaining_seconds": round(table.remaining_seconds, 1),
                "ends_at": _hour(table.ends_at, zone),
            }
            for table in table_clocks(round_, now).values()
        ],
    }
