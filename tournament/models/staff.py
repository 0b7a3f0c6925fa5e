"""The people who run a tournament, and the audit of what they did."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.tournaments import Tournament


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
