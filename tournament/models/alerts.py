"""What the e-mail alerts sent once and only once: the round's start is announced a single
time for each start it is given, however often the worker's job runs and however many
workers run it."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.rounds import Round


class AlertSent(models.Model):
    """An alert of a round sent to its players; the unique constraint makes a second
    sending fail in the database (`tournament.alerts.tasks`)."""

    class Kind(models.TextChoices):
        ROUND_STARTING = "round_starting", _("Round starting")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="alerts_sent", verbose_name=_("round")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    #: The start announced: a start moved later is announced again.
    scheduled_start = models.DateTimeField(_("start announced"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), auto_now_add=True)

    class Meta:
        verbose_name = _("alert sent")
        verbose_name_plural = _("alerts sent")
        ordering = ["round", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "kind", "scheduled_start"], name="alert_sent_once_per_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.get_kind_display()}"
