"""Core records of an event: tournaments, players, registrations, teams, rounds and seats.

Integrity lives in the database (unique and check constraints) so that no form, admin action
or script can store a second seat for a player or a second registration for a person.
Scores and penalties live in the `scoring` app; seating plans are computed by `seating`.
"""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from scoring.rules import RulesError, RulesErrors, resolve_ruleset
from tournament.names import (
    is_east_asian,
    is_placeholder_name,
    isolate,
    strip_controls,
    written_name,
)
from tournament.rule_options import option_message
from tournament.signals import registrations_deleting
from tournament.time_zones import default_time_zone, validate_time_zone

RULESET_CHOICES = [
    ("wrc2015", _("World Riichi Championship rules 2015")),
    ("oran2015", _("ORAN-1 tournament booklet 2015")),
    ("mahjongsoul", _("Mahjong Soul rules (Évriichi slides)")),
    ("ema2016", _("EMA Riichi Competition Rules 2016")),
    ("ema2025", _("EMA Riichi Competition Rules 2025")),
]

#: Bounds of a tournament's number of rounds; the model's validators and its check
#: constraint share them, so a form reports the bound instead of the constraint's name.
MIN_ROUNDS, MAX_ROUNDS = 1, 40

ema_number_validator = RegexValidator(
    r"^\d{8}$", _("An EMA number has exactly 8 digits, e.g. 04010001.")
)


class TournamentQuerySet(models.QuerySet):
    def public(self) -> "TournamentQuerySet":
        return self.filter(is_public=True)

    def for_staff(self, user) -> "TournamentQuerySet":
        """Tournaments a logged-in official may manage (all of them for a superuser)."""
        if user.is_superuser:
            return self
        return self.filter(staff__user=user).distinct()

    def organised_by(self, user) -> "TournamentQuerySet":
        """Tournaments the user runs from the admin: their organiser roles (all for a
        superuser). A referee role elsewhere opens no admin row there."""
        if user.is_superuser:
            return self
        return self.filter(staff__user=user, staff__role=TournamentStaff.Role.ORGANISER)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class ConfirmationPolicy(models.TextChoices):
        SINGLE = "single", _("Single entry (one official)")
        SECOND_OFFICIAL = "second_official", _("Confirmed by a second official")
        DOUBLE_BLIND = "double_blind", _("Entered twice blind, both entries must agree")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    start_date = models.DateField(_("first day"))
    end_date = models.DateField(_("last day"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
        help_text=_(
            "Where the event is played, by its IANA name (e.g. Europe/Paris, Asia/Tokyo): "
            "its pages, clock, exports and the times typed for it are in this zone."
        ),
    )
    ruleset = models.CharField(
        _("rule set"), max_length=32, choices=RULESET_CHOICES, default="wrc2015"
    )
    rule_options = models.JSONField(
        _("rule overrides"),
        default=dict,
        blank=True,
        help_text=_('Overrides of the rule set\'s parameters, e.g. {"uma": [20, 10, -10, -20]}.'),
    )
    rounds_count = models.PositiveSmallIntegerField(
        _("number of rounds"),
        default=8,
        validators=[MinValueValidator(MIN_ROUNDS), MaxValueValidator(MAX_ROUNDS)],
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("round time limit (minutes)"),
        default=90,
        validators=[MinValueValidator(1)],
        help_text=_("WRC 2015 §8.2 recommends 90 minutes."),
    )
    confirmation_policy = models.CharField(
        _("score-sheet confirmation"),
        max_length=20,
        choices=ConfirmationPolicy.choices,
        default=ConfirmationPolicy.SECOND_OFFICIAL,
    )
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Hidden tournaments are shown to staff only.")
    )
    show_rankings = models.BooleanField(
        _("show rankings"),
        default=True,
        help_text=_("Hide the public rankings, e.g. before the final."),
    )
    show_seating = models.BooleanField(_("show seating"), default=True)
    mers_qualification = models.BooleanField(
        _("players had to qualify (MERS)"),
        default=False,
        help_text=_(
            "Entry only through a qualification: the European Mahjong Association's ranking "
            "weight of the tournament counts one more point (EMA, Basics for ranking system)."
        ),
    )
    table_reports = models.BooleanField(
        _("table reports"),
        default=True,
        help_text=_(
            "The players report their result from the QR code of their table card; an "
            "official confirms it. Untick to have officials enter every sheet."
        ),
    )
    release_complete_rounds = models.BooleanField(
        _("show complete rounds only"),
        default=False,
        help_text=_("The public rankings wait for every table of a round, or its release by hand."),
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    is_demo = models.BooleanField(
        _("demo"),
        default=False,
        editable=False,
        help_text=_("The demo tournament of the quick start: manage.py remove_demo deletes it."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=models.F("start_date")),
                name="tournament_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(rounds_count__gte=MIN_ROUNDS) & Q(rounds_count__lte=MAX_ROUNDS),
                name="tournament_rounds_count_range",
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__gte=1), name="tournament_round_minutes_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("public:tournament", kwargs={"slug": self.slug})

    def clean(self) -> None:
        errors: dict[str, list] = {}
        if self.start_date and self.end_date and self.end_date < self.start_date:
            errors["end_date"] = [_("The last day cannot be before the first day.")]
        try:
            resolve_ruleset(self.ruleset, self.rule_options or {})
        except (RulesErrors, RulesError) as error:
            faults = error.errors if isinstance(error, RulesErrors) else [error]
            errors["rule_options"] = [
                ValidationError(option_message(fault), code=fault.code) for fault in faults
            ]
        if errors:
            raise ValidationError(errors)

    def get_rules(self):
        """The rules engine's RuleSet for this tournament, overrides applied."""
        return resolve_ruleset(self.ruleset, self.rule_options or {})

    @property
    def has_teams(self) -> bool:
        return self.teams.exists()

    @property
    def results_final(self) -> bool:
        """Every round's results are locked: the rankings are final, no longer live."""
        statuses = set(self.rounds.values_list("status", flat=True))
        return statuses == {Round.Status.LOCKED}


class Player(models.Model):
    """A person, who may play in many tournaments."""

    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100, blank=True)
    nickname = models.CharField(_("nickname"), max_length=100, blank=True)
    country = CountryField(_("country"), blank=True)
    club = models.CharField(_("club"), max_length=150, blank=True)
    ema_number = models.CharField(
        _("EMA number"), max_length=8, blank=True, validators=[ema_number_validator]
    )
    # The demo's made-up players share the database with real ones: an import into a real
    # tournament never takes one of them for the person on its row.
    is_demo = models.BooleanField(
        _("demo player"),
        default=False,
        editable=False,
        help_text=_("Made up for the demo tournament: never taken for a real player."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["last_name", "first_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["ema_number"],
                condition=~Q(ema_number=""),
                name="player_unique_ema_number",
            ),
            models.CheckConstraint(condition=~Q(first_name=""), name="player_first_name_not_empty"),
        ]

    def __str__(self) -> str:
        """Isolated (`isolate`): the messages that name a player are plain text."""
        return isolate(self.display_name)

    #: What the player's record shows on the pages: stored without control characters.
    NAME_FIELDS = ("first_name", "last_name", "nickname", "club")

    def clean(self) -> None:
        _strip_controls(self, self.NAME_FIELDS)
        if not self.first_name:
            raise ValidationError(
                {"first_name": self._meta.get_field("first_name").error_messages["blank"]}
            )

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def _writes_family_name_first(self) -> bool:
        return is_east_asian(self.first_name + self.last_name)

    @property
    def display_name(self) -> str:
        """The name as its owner writes it (`written_name`)."""
        return written_name(self.first_name, self.last_name)

    @property
    def distinguishing_details(self) -> str:
        """Country, club and EMA number: what tells two players of the same name apart; a
        demo player says so first, so that nobody registers them for a real person."""
        details = [
            self.is_demo and gettext("demo player"),
            self.country.code or "",
            self.club,
            self.ema_number and f"EMA {self.ema_number}",
        ]
        return ", ".join(detail for detail in details if detail)

    @property
    def is_placeholder(self) -> bool:
        """A placeholder substitute ("Substitute 2", numbered in its last name) that stands in
        for somebody not known yet (`seating.services.substitutes`)."""
        return is_placeholder_name(self.last_name)

    @property
    def sorted_name(self) -> str:
        """The name for alphabetical lists: "Martin, Zoé", but 山田太郎 as it is written, and
        a placeholder ("Substitute 2") too."""
        if not self.last_name or self.is_placeholder or self._writes_family_name_first:
            return self.display_name
        return f"{self.last_name}, {self.first_name}"


class Team(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="teams", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=150)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name")
        ]

    def __str__(self) -> str:
        return isolate(self.name)

    def clean(self) -> None:
        _strip_controls(self, ("name",))
        if not self.name:
            raise ValidationError({"name": self._meta.get_field("name").error_messages["blank"]})


def _strip_controls(instance: models.Model, fields: tuple[str, ...]) -> None:
    """Names are stored without control characters nor bidirectional controls, whichever
    way they come in (a form, a service, the import, an archive): `strip_controls`."""
    for name in fields:
        setattr(instance, name, strip_controls(getattr(instance, name)))


class RegistrationQuerySet(models.QuerySet):
    def active(self) -> "RegistrationQuerySet":
        """Registrations that play: not withdrawn nor disqualified."""
        return self.filter(
            status__in=[Registration.Status.REGISTERED, Registration.Status.CHECKED_IN]
        )

    def ranked(self) -> "RegistrationQuerySet":
        """Registrations that appear in the ranking: everyone but substitutes and the
        disqualified (WRC 2015 §7.1: a disqualified player is not listed)."""
        return self.filter(is_substitute=False).exclude(status=Registration.Status.DISQUALIFIED)

    @transaction.atomic
    def delete(self) -> tuple[int, dict[str, int]]:
        """Refused, deleting nothing, if any of them holds results (see `Registration.delete`)."""
        registrations_deleting.send(Registration, registrations=list(self.select_related("player")))
        return super().delete()


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="registrations", verbose_name=_("player")
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTERED
    )
    status_reason = models.CharField(_("reason"), max_length=500, blank=True)
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registrations",
        verbose_name=_("team"),
    )
    is_substitute = models.BooleanField(
        _("substitute"),
        default=False,
        help_text=_("Substitutes play for absent players and are never ranked."),
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    objects = RegistrationQuerySet.as_manager()

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["player__last_name", "player__first_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_unique_player"
            ),
            models.CheckConstraint(
                condition=~Q(status="disqualified") | ~Q(status_reason=""),
                name="registration_disqualification_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.tournament})"

    @transaction.atomic
    def delete(self, using=None, keep_parents: bool = False) -> tuple[int, dict[str, int]]:
        """Refused while the registration holds results (seats, penalties, a substitute's seat
        on a score sheet): the scoring app, which knows them, answers `registrations_deleting`
        with `ResultsHeldError`, and the registration is withdrawn instead. Deleting its
        tournament deletes it all the same (Django's cascade calls neither this nor the
        queryset's `delete`)."""
        registrations_deleting.send(Registration, registrations=[self])
        return super().delete(using=using, keep_parents=keep_parents)

    def clean(self) -> None:
        if self.team_id and self.team.tournament_id != self.tournament_id:
            raise ValidationError({"team": _("This team belongs to another tournament.")})
        if self.status == self.Status.DISQUALIFIED and not self.status_reason:
            raise ValidationError({"status_reason": _("A disqualification needs a reason.")})

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.REGISTERED, self.Status.CHECKED_IN)

    @property
    def is_ranked(self) -> bool:
        """As `RegistrationQuerySet.ranked`, for one registration already loaded."""
        return not self.is_substitute and self.status != self.Status.DISQUALIFIED

    @property
    def team_or_club(self) -> str:
        """What the player plays for, as the standings show it: the team, else the club."""
        return self.team.name if self.team_id else self.player.club


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


class TournamentStaff(models.Model):
    """A user's role in one tournament: permissions never leak to another tournament."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        HEAD_REFEREE = "head_referee", _("Head referee")
        REFEREE = "referee", _("Referee / scorer")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="staff", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("tournament staff member")
        verbose_name_plural = _("tournament staff")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="staff_one_role_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.tournament}"


class AuditEntry(models.Model):
    """Who did what, when and why; written in the same transaction as the change."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="audit_entries",
        null=True,
        blank=True,
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    action = models.CharField(_("action"), max_length=64)
    object_repr = models.CharField(_("object"), max_length=300, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    data = models.JSONField(_("data"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"
