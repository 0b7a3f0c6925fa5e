"""Who locked or unlocked a round's results, and when, for the pages that show its status."""

from django import template
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from tournament.models import Round

register = template.Library()


@register.filter
def lock_note(round_: Round) -> str:
    """ "Locked by … on … at …" (or "Unlocked by …") from the round's last lock or unlock;
    empty if its results were never locked. Select `lock_changed_by` with the rounds."""
    if round_.lock_changed_at is None:
        return ""
    moment = timezone.localtime(round_.lock_changed_at)
    values = {
        "who": round_.lock_changed_by or "–",
        "date": date_format(moment, "SHORT_DATE_FORMAT"),
        "time": time_format(moment, "TIME_FORMAT"),
    }
    if round_.is_locked:
        return _("Locked by %(who)s on %(date)s at %(time)s") % values
    return _("Unlocked by %(who)s on %(date)s at %(time)s") % values
