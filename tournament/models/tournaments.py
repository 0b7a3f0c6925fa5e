"""Tournaments: the event, its rule set and its schedule."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.rules import RulesError, RulesErrors, resolve_ruleset
from tournament.rule_options import option_message
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
        staff = self.model.staff.rel.related_model  # TournamentStaff, which imports this module
        return self.filter(staff__user=user, staff__role=staff.Role.ORGANISER)

    def with_last_audit(self) -> "TournamentQuerySet":
        """Each tournament with the id of its latest audit entry as ``last_audit`` (None
        before the first), read in the same query: every audited write moves it, seen at once
        by the writer and by the others once it commits. The kept public pages' key holds it
        (`scoring.selectors.standings.standings_cache_key`) without a query of its own."""
        audit = self.model.audit_entries.rel.related_model  # AuditEntry, which imports this module
        latest = audit.objects.filter(tournament=OuterRef("pk")).order_by("-id").values("id")[:1]
        return self.annotate(last_audit=Subquery(latest))


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
    self_registration = models.BooleanField(
        _("players register themselves"),
        default=False,
        help_text=_(
            "A registration form on the tournament's page while its status is "
            "“Registration open”; each player confirms their e-mail address."
        ),
    )
    registration_closes = models.DateTimeField(
        _("registration closes"),
        null=True,
        blank=True,
        help_text=_("The form closes at this time (in the tournament's time zone)."),
    )
    player_cap = models.PositiveIntegerField(
        _("player cap"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_(
            "Players beyond it join a waiting list, which moves up on each withdrawal. "
            "Substitutes do not count. Empty: no cap."
        ),
    )
    registration_approval = models.BooleanField(
        _("organiser approves each registration"),
        default=False,
        help_text=_("A confirmed registration waits for an organiser's approval."),
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

    def accepts_registrations(self, now: datetime | None = None) -> bool:
        """The public registration form is open: switched on, the status "Registration
        open" and the closing time, if any, not passed."""
        now = now or timezone.now()
        return (
            self.self_registration
            and self.status == self.Status.REGISTRATION
            and (self.registration_closes is None or now < self.registration_closes)
        )

    def checks_in(self, now: datetime | None = None) -> bool:
        """The players check themselves in: from the first day to the last, in the
        tournament's time zone, unless it is finished."""
        today = timezone.localtime(now or timezone.now(), ZoneInfo(self.time_zone)).date()
        return self.status != self.Status.FINISHED and self.start_date <= today <= self.end_date

    @property
    def has_teams(self) -> bool:
        return self.teams.exists()

    @property
    def results_final(self) -> bool:
        """Every round's results are locked: the rankings are final, no longer live."""
        statuses = set(self.rounds.values_list("status", flat=True))
        return statuses == {self.rounds.model.Status.LOCKED}
