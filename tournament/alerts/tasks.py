"""The alerts' tasks on the worker: a round's seats (published or changed), and the job that
tells the players of a round about to start.

The start of a round is announced once for each start it is given: the job records the
alert (`AlertSent`, unique per round and start) before it sends, so a second run, or a
second worker, finds it taken and sends nothing; a start moved is announced again. A mail
server down at that minute loses the alert rather than repeating it later.
"""

from collections import defaultdict
from datetime import timedelta
from math import ceil

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_tasks import task

from tournament.alerts.mail import local_time, seat_lines, send_alerts
from tournament.models import AlertSent, Round
from tournament.selectors import SeatView, tables_of_round
from tournament.tasks import queue_next

#: The players of a round are told this long before its scheduled start.
START_ALERT_LEAD = timedelta(minutes=10)
#: How often the job looks for rounds about to start.
START_ALERT_EVERY = timedelta(minutes=1)

PUBLISHED = "published"
CHANGED = "changed"


def _seats_by_player(round_: Round) -> dict[int, tuple[SeatView, list[SeatView]]]:
    """registration → its seat and its table's seats (one query)."""
    return {
        seat.registration.pk: (seat, table.seats)
        for table in tables_of_round(round_)
        for seat in table.seats
    }


def _seat_texts(kind: str, rounds: list[Round]) -> tuple[str, str]:
    """The subject and opening line of a seat alert about these rounds."""
    if len(rounds) == 1:
        if kind == PUBLISHED:
            return (
                _("%(round)s: your seat") % {"round": rounds[0]},
                _("The seating of %(round)s is published.") % {"round": rounds[0]},
            )
        return (
            _("%(round)s: your seat changed") % {"round": rounds[0]},
            _("Your seat in %(round)s changed.") % {"round": rounds[0]},
        )
    numbers = ", ".join(str(round_.number) for round_ in rounds)
    if kind == PUBLISHED:
        return (
            _("Rounds %(numbers)s: your seats") % {"numbers": numbers},
            _("The seating of rounds %(numbers)s is published.") % {"numbers": numbers},
        )
    return (
        _("Rounds %(numbers)s: your seats changed") % {"numbers": numbers},
        _("Your seats in rounds %(numbers)s changed.") % {"numbers": numbers},
    )


@task()
def send_seat_alerts(kind: str, concerned: list[list[int]]) -> None:
    """Tell these players their seats, as they stand now, one mail each for all the rounds
    of the change (a whole plan applied at once seats every round): the seating is
    published (`PUBLISHED`) or their seat changed (`CHANGED`). `concerned`: [round id,
    registration id] pairs. Nothing while the organisers hide the seating, nor for a round
    back to planned."""
    wanted: dict[int, set[int]] = defaultdict(set)
    for round_id, registration_id in concerned:
        wanted[round_id].add(registration_id)
    rounds = list(
        Round.objects.select_related("tournament")
        .filter(pk__in=list(wanted))
        .exclude(status=Round.Status.PLANNED)
        .order_by("number")
    )
    if not rounds or not rounds[0].tournament.show_seating:
        return
    tournament = rounds[0].tournament
    places: dict[int, list[tuple[Round, SeatView, list[SeatView]]]] = defaultdict(list)
    registrations = {}
    for round_ in rounds:
        for pk, (seat, table) in _seats_by_player(round_).items():
            if pk in wanted[round_.pk]:
                places[pk].append((round_, seat, table))
                registrations[pk] = seat.registration

    def write(registration) -> tuple[str, str]:
        own = places[registration.pk]
        subject, opening = _seat_texts(kind, [round_ for round_, _seat, _table in own])
        lines = [opening]
        for round_, seat, table in own:
            lines += ["", str(round_), *seat_lines(tournament, round_, seat, table)]
        return subject, "\n".join(lines)

    send_alerts(tournament, registrations.values(), write)


def round_start_alerts_send(now=None) -> list[Round]:
    """Tell the players of every seated round starting within START_ALERT_LEAD, each
    round once for each start it is given; the rounds announced now."""
    now = now or timezone.now()
    announced_before = AlertSent.objects.filter(
        round=OuterRef("pk"),
        kind=AlertSent.Kind.ROUND_STARTING,
        scheduled_start=OuterRef("scheduled_start"),
    )
    due = (
        Round.objects.filter(
            status=Round.Status.SEATED,
            scheduled_start__gt=now,
            scheduled_start__lte=now + START_ALERT_LEAD,
        )
        .exclude(Exists(announced_before))
        .select_related("tournament")
    )
    announced = []
    for round_ in due:
        try:
            with transaction.atomic():
                AlertSent.objects.create(
                    round=round_,
                    kind=AlertSent.Kind.ROUND_STARTING,
                    scheduled_start=round_.scheduled_start,
                )
        except IntegrityError:
            continue  # another run of the job has just taken it
        _announce_start(round_, now)
        announced.append(round_)
    return announced


def _announce_start(round_: Round, now) -> None:
    tournament = round_.tournament
    seats = _seats_by_player(round_)
    minutes = ceil((round_.scheduled_start - now).total_seconds() / 60)

    def write(registration) -> tuple[str, str]:
        seat, table = seats[registration.pk]
        text = ngettext(
            "%(round)s starts in %(minutes)s minute.",
            "%(round)s starts in %(minutes)s minutes.",
            minutes,
        ) % {"round": round_, "minutes": minutes}
        subject = _("%(round)s starts at %(time)s") % {
            "round": round_,
            "time": local_time(tournament, round_, "TIME_FORMAT"),
        }
        return subject, "\n".join([text, "", *seat_lines(tournament, round_, seat, table)])

    send_alerts(tournament, [seat.registration for seat, _table in seats.values()], write)


@task()
def send_round_start_alerts() -> None:
    """The worker's job: announce the rounds about to start, every START_ALERT_EVERY."""
    try:
        round_start_alerts_send()
    finally:
        queue_next(send_round_start_alerts, START_ALERT_EVERY)
