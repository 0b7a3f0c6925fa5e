"""Players, teams and registrations: who plays in which tournament."""

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models, transaction
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from tournament.models.tournaments import Tournament
from tournament.names import (
    is_east_asian,
    is_placeholder_name,
    isolate,
    shown_name,
    strip_controls,
    written_name,
)
from tournament.signals import registrations_deleting

ema_number_validator = RegexValidator(
    r"^\d{8}$", _("An EMA number has exactly 8 digits, e.g. 04010001.")
)


class Player(models.Model):
    """A person, who may play in many tournaments."""

    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100, blank=True)
    nickname = models.CharField(_("nickname"), max_length=100, blank=True)
    # The first and last names are the legal ones, which a federation's results need (the EMA
    # results workbook); a player may be known by another name on every page.
    public_name = models.CharField(
        _("public name"),
        max_length=100,
        blank=True,
        help_text=_(
            "Shown on the pages, the rankings and the seating instead of the legal name above, "
            "which the EMA results keep. Leave empty to show the legal name."
        ),
    )
    country = CountryField(_("country"), blank=True)
    club = models.CharField(_("club"), max_length=150, blank=True)
    ema_number = models.CharField(
        _("EMA number"), max_length=8, blank=True, validators=[ema_number_validator]
    )
    # Private: for the organisers and the mails the player asked for, never on a public page.
    # Not unique, since a family may share one address.
    email = models.EmailField(
        _("e-mail"),
        blank=True,
        help_text=_("Seen only by the organisers; never shown on the public pages."),
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
    NAME_FIELDS = ("first_name", "last_name", "nickname", "public_name", "club")

    def clean(self) -> None:
        clean_names(self)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def _writes_family_name_first(self) -> bool:
        return is_east_asian(self.first_name + self.last_name)

    @property
    def legal_name(self) -> str:
        """The first and last names as their owner writes them (`written_name`): what a
        federation's results list."""
        return written_name(self.first_name, self.last_name)

    @property
    def display_name(self) -> str:
        """The name the pages show (`shown_name`): the public name, if the player gave one."""
        return shown_name(self.first_name, self.last_name, self.public_name)

    @property
    def searched_names(self) -> tuple[str, ...]:
        """The names a public search finds the player by (`names_match`): a public name
        stands for the legal one there too, so that no search ties the two together."""
        if self.public_name:
            return (self.public_name, "", self.nickname)
        return (self.first_name, self.last_name, self.nickname)

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
        a public name or a placeholder ("Substitute 2") too."""
        if (
            self.public_name
            or not self.last_name
            or self.is_placeholder
            or self._writes_family_name_first
        ):
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


def clean_names(instance: models.Model) -> None:
    """A player's names (or a registration request's, `RegistrationRequest`) stored without
    control characters. A first name of control characters only is refused here; an empty
    one is refused by its field already (said twice, a form showed the error twice)."""
    typed = instance.first_name
    _strip_controls(instance, instance.NAME_FIELDS)
    if typed and not instance.first_name:
        raise ValidationError(
            {"first_name": instance._meta.get_field("first_name").error_messages["blank"]}
        )


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
    # A player with an address gets the e-mail alerts of the tournament until they follow the
    # unsubscribe link of one (`tournament.alerts`); then this says when, and none is sent.
    alerts_stopped_at = models.DateTimeField(
        _("e-mail alerts stopped at"), null=True, blank=True, editable=False
    )
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
