"""The admin of a tournament's rows in that tournament's time zone (`tournament.time_zones`)."""

from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import ValidationError
from django.db import models
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext

from tournament.time_zones import activate_time_zone


class TournamentTimeZoneMixin:
    """Shows and reads the times of a form for one row, and of a list whose rows are all of
    one zone, in their tournament's zone, as its pages do; a list mixing zones stays in the
    server's. `time_zone_path` reaches the tournament's zone from a row."""

    time_zone_path = "tournament__time_zone"

    def _activate_zone_of(self, queryset) -> None:
        zones = list(queryset.order_by().values_list(self.time_zone_path, flat=True).distinct()[:2])
        if len(zones) == 1:
            activate_time_zone(zones[0])

    def changeform_view(self, request: HttpRequest, object_id=None, *args, **kwargs):
        if object_id is not None:
            try:
                key = self.model._meta.pk.to_python(unquote(object_id))
            except ValidationError:
                key = None  # Django answers that no such row exists
            if key is not None:
                self._activate_zone_of(self.get_queryset(request).filter(pk=key))
        return super().changeform_view(request, object_id, *args, **kwargs)

    def get_changelist_instance(self, request: HttpRequest) -> ChangeList:
        changelist = super().get_changelist_instance(request)
        self._activate_zone_of(changelist.queryset)
        return changelist

    def formfield_for_dbfield(self, db_field, request: HttpRequest, **kwargs):
        """A time typed here is read in the zone its help names: the form is built once the
        row's zone is active."""
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if field is not None and isinstance(db_field, models.DateTimeField):
            zone = gettext("Time in %(zone)s, the tournament's time zone.") % {
                "zone": timezone.get_current_timezone_name()
            }
            field.help_text = f"{field.help_text} {zone}".strip()
        return field
