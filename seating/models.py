"""Seating records: fixed-table requests, seating runs (a generated plan under review) and
wrong-seat corrections.

A run snapshots its input (players, teams, fixed tables, the rounds already played) when it
is created, so the plan can be computed in the background, reviewed, adjusted by hand and
applied later; applying checks that the snapshot still matches the database. Seats
themselves live in `tournament.Seat`.
"""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Registration, Round, Tournament


class FixedTable(models.Model):
    """A player who must sit at one table every round, e.g. the accessible table."""

    registration = models.OneToOneField(
        Registration,
        on_delete=models.CASCADE,
        related_name="fixed_table",
        verbose_name=_("registration"),
    )
    table_number = models.PositiveSmallIntegerField(_("table"), validators=[MinValueValidator(1)])
    reason = models.CharField(
        _("reason"),
        max_length=200,
        blank=True,
        help_text=_("Why this player keeps one table, e.g. wheelchair access."),
    )

    class Meta:
        verbose_name = _("fixed table")
        verbose_name_plural = _("fixed tables")
        ordering = ["table_number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(table_number__gte=1), name="fixed_table_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return _("%(player)s at table %(table)s") % {
            "player": self.registration.player,
            "table": self.table_number,
        }


#: A run computing on a worker writes `heartbeat_at` this often; one silent for
#: STALLED_AFTER_SECONDS has lost its worker (killed, or its machine restarted).
HEARTBEAT_SECONDS = 5
STALLED_AFTER_SECONDS = 30


class SeatingRun(models.Model):
    """One request to the seating generator and its proposed plan, before it is applied."""

    class Mode(models.TextChoices):
        PLAN = "plan", _("Rounds not played yet")
        SWISS = "swiss", _("Swiss round from the standings")

    class Priority(models.TextChoices):
        TABLES = "tables", _("Table reuse first (WRC 2015 §8.1)")
        OPPONENTS = "opponents", _("Opponents first")

    class KeepApart(models.TextChoices):
        TEAM = "team", _("Teams")
        CLUB = "club", _("Clubs")
        COUNTRY = "country", _("Countries")
        NONE = "none", _("Nobody")

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        DONE = "done", _("Ready for review")
        FAILED = "failed", _("Failed")
        APPLIED = "applied", _("Applied")
        DISCARDED = "discarded", _("Discarded")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="seating_runs",
        verbose_name=_("tournament"),
    )
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices, default=Mode.PLAN)
    round_numbers = models.JSONField(
        _("rounds"), default=list, help_text=_("Numbers of the rounds this run seats.")
    )
    seed = models.BigIntegerField(_("seed"))
    priority = models.CharField(
        _("priority"), max_length=10, choices=Priority.choices, default=Priority.OPPONENTS
    )
    keep_apart = models.CharField(
        _("keep apart"),
        max_length=10,
        choices=KeepApart.choices,
        default=KeepApart.TEAM,
        help_text=_("Players sharing this are not seated together whenever possible."),
    )
    time_limit = models.PositiveSmallIntegerField(_("time limit (seconds)"), default=20)
    snapshot = models.JSONField(
        _("input"),
        default=dict,
        help_text=_("Players, teams, fixed tables and played rounds the plan was made from."),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    progress = models.FloatField(_("progress"), default=0.0)
    plan = models.JSONField(_("plan"), default=list, blank=True)
    method = models.CharField(_("method"), max_length=100, blank=True)
    metrics = models.JSONField(_("quality report"), default=dict, blank=True)
    generated_metrics = models.JSONField(_("quality report as generated"), default=dict, blank=True)
    previous_metrics = models.JSONField(
        _("quality report before the last swap"), default=dict, blank=True
    )
    swaps = models.JSONField(_("manual swaps"), default=list, blank=True)
    error_code = models.CharField(_("error code"), max_length=50, blank=True)
    error_params = models.JSONField(_("error parameters"), default=dict, blank=True)
    error_message = models.TextField(_("error"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        _("last sign of life"), null=True, blank=True, editable=False
    )
    queued_at = models.DateTimeField(
        _("handed to a worker again"), null=True, blank=True, editable=False
    )
    recoveries = models.PositiveSmallIntegerField(
        _("times handed to a worker again"), default=0, editable=False
    )

    class Meta:
        verbose_name = _("seating run")
        verbose_name_plural = _("seating runs")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(progress__gte=0) & Q(progress__lte=1), name="seating_run_progress"
            ),
            models.CheckConstraint(
                condition=Q(time_limit__gte=1), name="seating_run_time_limit_positive"
            ),
            # Each run computing takes a core for its whole time limit: three quick clicks on
            # Generate started three. The services lock the tournament and say this first.
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(status="running"),
                name="seating_run_one_running",
                violation_error_code="run_computing",
                violation_error_message=_(
                    "Another seating is being computed for this tournament: wait for it to "
                    "finish, or discard it from its page, then generate again."
                ),
            ),
        ]

    def __str__(self) -> str:
        return _("Seating run %(id)s (%(tournament)s)") % {
            "id": self.pk,
            "tournament": self.tournament,
        }

    @staticmethod
    def translate_archived_ids(name: str, value: Any, registration: Callable[[int], int]) -> Any:
        """A JSON field of a run copied with its tournament, its registrations' ids replaced
        by `registration` (`tournament.exports.archive`): the input and the plan name players
        in lists and as keys, which the archive's generic rule (keys named after a model)
        cannot tell from other numbers."""

        def tables(rows: list) -> list:
            return [[registration(player) for player in table] for table in rows]

        def keyed(mapping: dict) -> dict:
            return {str(registration(int(key))): item for key, item in mapping.items()}

        if name == "snapshot":
            value = dict(value)
            for key in ("players", "standings"):
                if key in value:
                    value[key] = [registration(player) for player in value[key]]
            for key in ("teams", "fixed_tables"):
                if key in value:
                    value[key] = keyed(value[key])
            value["history"] = [
                {**item, "tables": tables(item["tables"])} for item in value.get("history", [])
            ]
            value["previous"] = [tables(rnd) for rnd in value.get("previous", [])]
            return value
        if name == "plan":
            return [{**item, "tables": tables(item["tables"])} for item in value]
        if name == "swaps":
            return [
                {**swap, "players": [registration(player) for player in swap["players"]]}
                for swap in value
            ]
        return value

    @property
    def is_open(self) -> bool:
        """Still under review: it may be swapped, applied or discarded."""
        return self.status == self.Status.DONE

    @property
    def swiss_ranked(self) -> list[int] | None:
        """The registrations a Swiss run took from the standings, best first (the players not
        ranked yet, seated last, left out); None for a whole plan or an older Swiss run."""
        if "ranked_players" not in self.snapshot:
            return None
        return self.snapshot["standings"][: self.snapshot["ranked_players"]]

    @property
    def is_stalled(self) -> bool:
        """Still "running" but its worker died (killed, or restarted): a run on a worker beats
        every HEARTBEAT_SECONDS; one not started yet (or computed in the request) only has its
        time limit to go by, from when it was queued."""
        if self.status != self.Status.RUNNING:
            return False
        now = timezone.now()
        if self.heartbeat_at is not None:
            return now - self.heartbeat_at > timedelta(seconds=STALLED_AFTER_SECONDS)
        queued = self.queued_at or self.created_at
        return now - queued > timedelta(seconds=self.time_limit + 120)


class SeatCorrection(models.Model):
    """The winds one table actually played in one round, where they differ from its seats:
    the same four players in another order, recorded by the head referee with the reason.
    The table's seats are rewritten to the winds played (its sheet is checked against them);
    this record keeps both."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seat_corrections", verbose_name=_("round")
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    # Registration ids in wind order (East, South, West, North).
    planned = models.JSONField(_("winds seated"))
    played = models.JSONField(_("winds played"))
    reason = models.TextField(_("reason"))
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    corrected_at = models.DateTimeField(_("corrected at"), auto_now_add=True)

    class Meta:
        verbose_name = _("wrong-seat correction")
        verbose_name_plural = _("wrong-seat corrections")
        ordering = ["round", "table_number", "corrected_at"]

    def __str__(self) -> str:
        return f"{self.round} · T{self.table_number}"
