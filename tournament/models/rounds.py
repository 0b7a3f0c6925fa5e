"""Rounds, their seats and the extra time of a table."""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models.players import Registration
from tournament.models.tournaments import Tournament


class RoundQuerySet(models.QuerySet):
    def seated(self) -> "RoundQuerySet":
        """Rounds whose seating has been published."""
        return self.exclude(status=Round.Status.PLANNED)

    def played(self) -> "RoundQuerySet":
        """Rounds being played, finished or locked — and seated rounds that already have an
        entered score sheet (someone forgot to start the round): their seats are history,
        never seated again."""
        return self.filter(
            Q(status__in=Round.PLAYED_STATUSES) | Q(score_sheets__revision__gt=0)
        ).distinct()

    def to_come(self) -> "RoundQuerySet":
        """Rounds that may still be (re)seated, in order."""
        return self.exclude(pk__in=self.played().values("pk")).order_by("number")

    def schedule_changed(self) -> int:
        """Move the schedule revision of these rounds: their seats, start, venue or length
        changed, and the players' calendar feeds must say so (RFC 5545 §3.8.7.4 SEQUENCE)."""
        return self.update(
            schedule_revision=models.F("schedule_revision") + 1,
            schedule_changed_at=timezone.now(),
        )


class Round(models.Model):
    """One hanchan for every table of the tournament."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        SEATED = "seated", _("Seated")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", pgettext_lazy("round status", "Finished")  # une ronde terminée
        LOCKED = "locked", _("Locked")

    PLAYED_STATUSES = (Status.PLAYING, Status.FINISHED, Status.LOCKED)

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.PLANNED
    )
    scheduled_start = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    seating_seed = models.BigIntegerField(
        _("seating seed"),
        null=True,
        blank=True,
        help_text=_("The seed the seating generator used: the same seed gives the same plan."),
    )
    is_swiss = models.BooleanField(
        _("Swiss round"), default=False, help_text=_("Seated from the standings.")
    )
    # The last lock or unlock of the results (the status says which); the audit log has all.
    lock_changed_at = models.DateTimeField(
        _("results locked or unlocked at"), null=True, blank=True, editable=False
    )
    lock_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("results locked or unlocked by"),
    )
    results_released_at = models.DateTimeField(
        _("results released at"), null=True, blank=True, editable=False
    )
    # The players' calendar feeds (RFC 5545) number their events' versions with these: each
    # replacement of the round's seats, change of its start, of the venue or of the time
    # limit moves them (`RoundQuerySet.schedule_changed`), so a calendar app updates the event.
    schedule_revision = models.PositiveIntegerField(
        _("schedule revision"), default=0, editable=False
    )
    schedule_changed_at = models.DateTimeField(
        _("schedule changed at"), null=True, blank=True, editable=False
    )
    # The round clock (WRC 2015 §8.2) is stored: every screen and server shows the same time.
    clock_running_since = models.DateTimeField(null=True, blank=True, editable=False)
    clock_elapsed_seconds = models.PositiveIntegerField(default=0, editable=False)
    clock_extra_seconds = models.IntegerField(default=0, editable=False)

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}

    def clean(self) -> None:
        if self.tournament_id and self.number and self.number > self.tournament.rounds_count:
            message = _("This tournament has %(count)s rounds: raise its number of rounds first.")
            raise ValidationError({"number": message % {"count": self.tournament.rounds_count}})

    @property
    def is_locked(self) -> bool:
        """Its results are final: no sheet or penalty in it changes until it is unlocked."""
        return self.status == self.Status.LOCKED

    def clock_remaining(self, now=None) -> timedelta:
        """Time left on the round clock (negative once the time is over)."""
        now = now or timezone.now()
        elapsed = self.clock_elapsed_seconds
        if self.clock_running_since:
            elapsed += (now - self.clock_running_since).total_seconds()
        total = self.tournament.round_minutes * 60 + self.clock_extra_seconds
        return timedelta(seconds=total - elapsed)


class TableTimeGrant(models.Model):
    """Extra time the head referee gave one table of a round (a long dispute, a late
    substitute): its own end is the round's plus its grants (WRC 2015 §8.2)."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="table_time", verbose_name=_("round")
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    extra_minutes = models.PositiveSmallIntegerField(_("extra minutes"), default=0)
    one_more_hand = models.BooleanField(
        _("one more hand"), default=False, help_text=_("One more hand after the time is up.")
    )
    reason = models.TextField(_("reason"))
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    granted_at = models.DateTimeField(_("granted at"), auto_now_add=True)

    class Meta:
        verbose_name = _("extra time of a table")
        verbose_name_plural = _("extra time of tables")
        ordering = ["round", "table_number", "granted_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(extra_minutes__gt=0) | Q(one_more_hand=True),
                name="table_time_grants_something",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · T{self.table_number} +{self.extra_minutes}"


class Seat(models.Model):
    """A registration's place in a round: table number and starting wind."""

    class Wind(models.TextChoices):
        EAST = "E", _("East")
        SOUTH = "S", _("South")
        WEST = "W", _("West")
        NORTH = "N", _("North")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    wind = models.CharField(_("wind"), max_length=1, choices=Wind.choices)
    registration = models.ForeignKey(
        Registration,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("registration"),
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["round", "table_number", "wind"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "registration"], name="seat_one_per_registration"
            ),
            models.UniqueConstraint(
                fields=["round", "table_number", "wind"], name="seat_one_player_per_seat"
            ),
            models.CheckConstraint(
                condition=Q(table_number__gte=1), name="seat_table_number_positive"
            ),
            models.CheckConstraint(
                condition=Q(wind__in=["E", "S", "W", "N"]), name="seat_wind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · T{self.table_number} {self.wind} · {self.registration.player}"


#: The winds in seat order, as the rules engine numbers the seats (0 = East … 3 = North).
WINDS: tuple[str, ...] = tuple(Seat.Wind.values)
WIND_ORDER = {wind: index for index, wind in enumerate(WINDS)}
#: Seat letter -> the wind's name in the active language ("S" -> "South").
WIND_LABELS = dict(Seat.Wind.choices)
