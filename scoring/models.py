"""Score sheets, their immutable versions, confirmations and penalties.

A table's score sheet (`ScoreSheet`, one per round and table) never changes its numbers in
place: every entry, blind second entry or correction is a new `SheetVersion`, kept forever
with who typed it, when and why. The sheet points at the version that currently stands and
carries a revision number, so two officials saving the same table at once cannot silently
overwrite each other. Only a confirmed sheet counts in the standings.

The sheet's version is the one source of truth of a hanchan. What the rules engine makes of
a confirmed sheet (each seat's place and score) is also kept, in `SeatResult` rows written
in the same transaction as the sheet's change (`scoring.services.seat_results`), so that the
standings rank a few integers a player instead of scoring every sheet again on every
change; `manage.py check_standings` compares them with the sheets.
Discretionary penalties (WRC 2015 §7) are `Penalty` rows, cancelled with a reason but
never deleted.
"""

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.entries import SheetEntry
from scoring.messages import message_for
from scoring.rules import RulesError, RulesErrors, check_penalty, check_sheet_numbers
from tournament.models import Registration, Round, Tournament


class ScoreSheet(models.Model):
    """The signed sheet of one table in one round."""

    class Status(models.TextChoices):
        NOT_ENTERED = "not_entered", _("Not entered")
        IN_PROGRESS = "in_progress", _("Hands being entered")
        ENTERED = "entered", _("Entered, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="score_sheets", verbose_name=_("round")
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.NOT_ENTERED
    )
    current = models.ForeignKey(
        "SheetVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("current version"),
    )
    revision = models.PositiveIntegerField(
        _("revision"),
        default=0,
        help_text=_("Moves with every version and every change of state (0: none yet)."),
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")
        ordering = ["round", "table_number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table_number"], name="sheet_one_per_table"),
            models.CheckConstraint(
                condition=Q(table_number__gte=1), name="sheet_table_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return _("%(round)s, table %(table)s") % {"round": self.round, "table": self.table_number}


class SheetVersion(models.Model):
    """One entry of a sheet exactly as an official typed it; never modified afterwards.

    `data` holds the seats in E, S, W, N order (registration, points, chombo, minutes late,
    substitute), the riichi sticks left on the table, the hands for a hand-by-hand sheet
    and the note. For a hand-by-hand sheet the final points in `data` are the engine's
    replay of the hands, so they cannot disagree with them.
    """

    class Kind(models.TextChoices):
        FINAL = "final", _("Final scores")
        HANDS = "hands", _("Hand by hand")

    class Action(models.TextChoices):
        ENTRY = "entry", _("Entry")
        DRAFT = "draft", _("Hands saved part-way")
        CORRECTION = "correction", _("Correction")

    sheet = models.ForeignKey(
        ScoreSheet, on_delete=models.CASCADE, related_name="versions", verbose_name=_("sheet")
    )
    number = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    data = models.JSONField(_("data"))
    # Empty for a table report: the players typed it on their table's page, without an
    # account (`scoring.table_keys`).
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sheet_versions",
        verbose_name=_("entered by"),
        help_text=_("Empty: reported by the players at the table."),
    )
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    reason = models.TextField(_("reason"), blank=True)
    token = models.UUIDField(
        _("submission token"),
        unique=True,
        help_text=_("Generated by the entry page: a repeated submission finds this version."),
    )

    class Meta:
        verbose_name = _("score-sheet version")
        verbose_name_plural = _("score-sheet versions")
        ordering = ["sheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="version_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="version_number_positive"),
            models.CheckConstraint(
                condition=~Q(action="correction") | ~Q(reason=""),
                name="version_correction_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return _("%(sheet)s, version %(number)s") % {"sheet": self.sheet, "number": self.number}

    @property
    def is_table_report(self) -> bool:
        """Typed by the players on their table's page, not by an official."""
        return self.entered_by_id is None

    @property
    def author(self) -> str:
        """Who typed it, as the sheet pages and the history name them."""
        return str(self.entered_by) if self.entered_by_id else str(_("the players' table report"))

    def clean(self) -> None:
        """Every number of the data in its range and the hands possible, as the rules engine
        checks a stored sheet (`check_sheet_numbers`): a version read from an archive file
        passes what a typed one did, and no number a hanchan cannot give reaches a page."""
        if self.sheet_id is None:
            return
        entry = SheetEntry.from_data(self.kind, self.data)
        try:
            check_sheet_numbers(
                self.sheet.round.tournament.get_rules(),
                entry.seat_sheets(),
                entry.riichi_sticks_left,
                entry.hands,
            )
        except RulesErrors as errors:
            raise ValidationError(
                {"data": [f"{error.field}: {message_for(error)}" for error in errors]}
            ) from None


class TableKey(models.Model):
    """How many times the key of a table's card was issued again: a card whose key names an
    older issue no longer opens the table's page (`scoring.table_keys`). No row: the first
    issue."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="table_keys", verbose_name=_("round")
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    issue = models.PositiveIntegerField(_("issue"), default=0)

    class Meta:
        verbose_name = _("table card key")
        verbose_name_plural = _("table card keys")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table_number"], name="table_key_one_per_table"
            )
        ]

    def __str__(self) -> str:
        return _("%(round)s, table %(table)s") % {"round": self.round, "table": self.table_number}


class RefereeCall(models.Model):
    """A table's call for a referee, made from its table page: open until an official
    resolves it; one open call a table (a second tap finds the first)."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="referee_calls", verbose_name=_("round")
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    called_at = models.DateTimeField(_("called at"), auto_now_add=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("taken by"),
    )
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("resolved by"),
    )
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        ordering = ["called_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table_number"],
                condition=Q(resolved_at__isnull=True),
                name="referee_call_one_open_per_table",
            )
        ]

    def __str__(self) -> str:
        return _("%(round)s, table %(table)s") % {"round": self.round, "table": self.table_number}


class Confirmation(models.Model):
    """An official's confirmation of one version (or the matching blind second entry)."""

    version = models.ForeignKey(
        SheetVersion,
        on_delete=models.CASCADE,
        related_name="confirmations",
        verbose_name=_("version"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="sheet_confirmations",
        verbose_name=_("confirmed by"),
    )
    created_at = models.DateTimeField(_("confirmed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["version", "user"], name="confirmation_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.version} ✓ {self.user}"


class PenaltyQuerySet(models.QuerySet):
    def active(self) -> "PenaltyQuerySet":
        return self.filter(cancelled_at__isnull=True)


class Penalty(models.Model):
    """Penalty points given by a referee outside a score sheet (WRC 2015 §7).

    Chombo, lateness and missed hanchans written on a sheet are computed from the sheet and
    are not stored here. A penalty is cancelled with a reason, never deleted.
    """

    class Kind(models.TextChoices):
        DISCRETIONARY = "discretionary", _("Discretionary (e.g. a phone ringing)")
        LATENESS = "lateness", _("Lateness")
        OTHER = "other", _("Other")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("tournament")
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.PROTECT,
        related_name="penalties",
        verbose_name=_("player"),
    )
    round = models.ForeignKey(
        Round,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="penalties",
        verbose_name=_("round"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    points = models.DecimalField(
        _("points"),
        max_digits=8,
        decimal_places=2,
        help_text=_("Negative: the points taken off the player's total."),
    )
    reason = models.TextField(_("reason"))
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="penalties_given",
        verbose_name=_("given by"),
    )
    created_at = models.DateTimeField(_("given at"), auto_now_add=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="penalties_cancelled",
        verbose_name=_("cancelled by"),
    )
    cancel_reason = models.TextField(_("reason for cancelling"), blank=True)

    objects = PenaltyQuerySet.as_manager()

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(points__lt=0), name="penalty_points_negative"),
            models.CheckConstraint(condition=~Q(reason=""), name="penalty_has_reason"),
            models.CheckConstraint(
                condition=Q(cancelled_at__isnull=True)
                | (Q(cancelled_by__isnull=False) & ~Q(cancel_reason="")),
                name="penalty_cancel_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration.player} {self.points} ({self.get_kind_display()})"

    @property
    def is_cancelled(self) -> bool:
        return self.cancelled_at is not None

    def clean(self) -> None:
        """The penalty within the rules engine's range (`check_penalty`), from the form, a
        service or an archive file alike."""
        if not isinstance(self.points, Decimal):
            return
        try:
            check_penalty(Fraction(self.points))
        except RulesError as error:
            raise ValidationError({"points": message_for(error)}) from None


class SeatResult(models.Model):
    """One seat of a confirmed sheet as the rules engine scored it, for the standings.

    Derived, never typed: written with the sheet's confirmation, correction or re-scoring
    (`scoring.services.seat_results`) and checked against the sheets by `manage.py
    check_standings`. Scores are whole numbers of `scoring.rules.SCORE_UNIT` (exact). Never
    updated, only deleted and created again under a new id: the standings keep the rows they
    have read by id (`scoring.selectors.standings`).
    """

    sheet = models.ForeignKey(
        ScoreSheet, on_delete=models.CASCADE, related_name="seat_results", verbose_name=_("sheet")
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="+", verbose_name=_("round")
    )
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    wind = models.CharField(_("wind"), max_length=1)
    points = models.IntegerField(
        _("points"), null=True, help_text=_("Empty when a substitute played the seat.")
    )
    place = models.PositiveSmallIntegerField(_("place"), null=True)
    score = models.BigIntegerField(
        _("score"), help_text=_("What the hanchan adds to the total, penalties included.")
    )
    penalty = models.BigIntegerField(_("penalty"))
    substitute = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        null=True,
        related_name="+",
        verbose_name=_("substitute"),
    )

    class Meta:
        verbose_name = _("seat result")
        verbose_name_plural = _("seat results")
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "registration"], name="seat_result_once_per_sheet"
            ),
            models.CheckConstraint(condition=Q(penalty__lte=0), name="seat_result_penalty_sign"),
        ]
        indexes = [
            models.Index(fields=["tournament", "round"], name="seat_result_by_round"),
            # A build of the standings reads the few players whose results changed.
            models.Index(fields=["tournament", "registration"], name="seat_result_by_player"),
        ]

    def __str__(self) -> str:
        return f"{self.sheet} {self.wind}"


class Stage(models.Model):
    """A later stage of the tournament (a semi-final, a final): its rounds run from
    ``first_round`` to the round before the next stage's, or to the last round.

    The rounds before the first stage are the qualifying stage. The players going through
    are the best ``cut_size`` of the earlier stage's standings (a place shared across the line
    is settled by ``chosen``, registration ids), or, without a cut size, exactly the ``chosen``
    players; ids of players no longer in the earlier standings count for nothing. Each
    starts the stage with its ``carry_over`` (`scoring.rules.stages`).
    """

    class CarryOver(models.TextChoices):
        KEEP = "keep", _("Keep the whole total")
        HALVE = "halve", _("Halve the total")
        RESET = "reset", _("Start again from zero")
        BONUS = "bonus", _("A fixed bonus by rank")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="stages", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=100, help_text=_("e.g. Final"))
    first_round = models.PositiveSmallIntegerField(
        _("first round"),
        validators=[MinValueValidator(2)],
        help_text=_("The stage's first round; the rounds before it belong to the earlier stage."),
    )
    cut_size = models.PositiveSmallIntegerField(
        _("players going through"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_(
            "The best players of the earlier stage's standings, tie-breaks included. Empty: "
            "the players chosen below."
        ),
    )
    chosen = models.JSONField(
        _("players chosen"),
        default=list,
        blank=True,
        help_text=_(
            "With a number going through: who takes the seats left among players sharing a "
            "place across the cut line. Without one: every player going through."
        ),
    )
    carry_over = models.CharField(
        _("carry-over"), max_length=10, choices=CarryOver.choices, default=CarryOver.KEEP
    )
    bonus = models.CharField(
        _("bonus by rank"),
        max_length=200,
        blank=True,
        help_text=_(
            "With a fixed bonus: the points of the 1st, 2nd… qualified player, separated by "
            "semicolons, e.g. 30; 20; 10. Ranks beyond the list bring 0."
        ),
    )

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "first_round"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "first_round"], name="stage_one_per_first_round"
            ),
            models.CheckConstraint(condition=Q(first_round__gte=2), name="stage_after_round_one"),
            models.CheckConstraint(
                condition=Q(cut_size__isnull=True) | Q(cut_size__gte=1), name="stage_cut_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def translate_archived_ids(name: str, value: Any, registration: Callable[[int], int]) -> Any:
        """``chosen`` of a stage copied with its tournament (`tournament.exports.archive`):
        registration ids, replaced by `registration`."""
        return [registration(pk) for pk in value] if name == "chosen" else value

    def bonus_points(self) -> tuple[Fraction, ...]:
        """The bonus of each rank, 1st first (`bonus`, validated by `clean`)."""
        return tuple(
            Fraction(Decimal(part.strip().replace(",", ".")))
            for part in self.bonus.split(";")
            if part.strip()
        )

    def clean(self) -> None:
        """A bonus list of numbers, required with the bonus policy; a first round the
        tournament has."""
        errors = {}
        try:
            points = self.bonus_points()
        except ArithmeticError:
            errors["bonus"] = _("Write numbers separated by semicolons, e.g. 30; 20; 10.")
        else:
            if self.carry_over == self.CarryOver.BONUS and not points:
                errors["bonus"] = _("Give the bonus of at least the 1st qualified player.")
        if (
            self.tournament_id is not None
            and self.first_round
            and self.first_round > self.tournament.rounds_count
        ):
            errors["first_round"] = _(
                "The tournament has %(count)s rounds: a stage must start at one of them."
            ) % {"count": self.tournament.rounds_count}
        if errors:
            raise ValidationError(errors)
