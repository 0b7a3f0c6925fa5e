"""Registration requests: what a player typed on the public registration form, until it
becomes a registration.

A request holds the form's values, not a `Player`: an address never confirmed, a bot's
entry or a player on the waiting list creates no player record and no registration, so
the standings, the seating and the check-in never see them. When the request gets a place
(`tournament.services.waiting_list`) it becomes an ordinary `Registration` of a `Player`,
an existing record if one is the same person: imported and self-registered players are the
same records.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from tournament.models.players import Registration, clean_names, ema_number_validator
from tournament.models.tournaments import Tournament
from tournament.names import isolate, written_name


class RegistrationRequestQuerySet(models.QuerySet):
    def open(self) -> "RegistrationRequestQuerySet":
        """Requests that may still become a registration."""
        return self.filter(status__in=RegistrationRequest.OPEN)

    def waiting(self) -> "RegistrationRequestQuerySet":
        """The waiting list, first come first served: by the time each joined it."""
        return self.filter(status=RegistrationRequest.Status.WAITING).order_by(
            "waiting_since", "pk"
        )


class RegistrationRequest(models.Model):
    class Status(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("Awaiting e-mail confirmation")
        AWAITING_APPROVAL = "awaiting_approval", _("Awaiting approval")
        WAITING = "waiting", _("On the waiting list")
        REGISTERED = "registered", _("Registered")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    OPEN = (Status.UNCONFIRMED, Status.AWAITING_APPROVAL, Status.WAITING)

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registration_requests",
        verbose_name=_("tournament"),
    )
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100, blank=True)
    public_name = models.CharField(_("public name"), max_length=100, blank=True)
    country = CountryField(_("country"), blank=True)
    club = models.CharField(_("club"), max_length=150, blank=True)
    ema_number = models.CharField(
        _("EMA number"), max_length=8, blank=True, validators=[ema_number_validator]
    )
    email = models.EmailField(_("e-mail"))
    #: The language of the form, for every mail the request brings.
    language = models.CharField(_("language"), max_length=10, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.UNCONFIRMED
    )
    waiting_since = models.DateTimeField(_("on the waiting list since"), null=True, blank=True)
    registration = models.OneToOneField(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="request",
        verbose_name=_("registration"),
    )
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)

    objects = RegistrationRequestQuerySet.as_manager()

    class Meta:
        verbose_name = _("registration request")
        verbose_name_plural = _("registration requests")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="waiting") | Q(waiting_since__isnull=False),
                name="registration_request_waiting_has_time",
            ),
        ]

    def __str__(self) -> str:
        return isolate(written_name(self.first_name, self.last_name))

    #: What a player types on the public form.
    TYPED_FIELDS = (
        "first_name",
        "last_name",
        "public_name",
        "country",
        "club",
        "ema_number",
        "email",
    )
    #: The names typed, stored as a player's are (`Player.NAME_FIELDS`).
    NAME_FIELDS = ("first_name", "last_name", "public_name", "club")

    def clean(self) -> None:
        """The names are stored as a player's are."""
        clean_names(self)

    @property
    def is_withdrawn(self) -> bool:
        """Withdrawn from its link, or its registration withdrawn (or deleted) since."""
        if self.status == self.Status.REGISTERED:
            return self.registration is None or not self.registration.is_active
        return self.status == self.Status.WITHDRAWN
