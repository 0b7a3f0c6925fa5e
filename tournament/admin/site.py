"""The admin site's titles, and its search boxes' answers."""

from django.contrib import admin
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.utils.translation import gettext_lazy

from tournament.models import Player

admin.site.site_header = gettext_lazy("Riichi tournament manager")
admin.site.site_title = gettext_lazy("Riichi tournament manager")
admin.site.index_title = gettext_lazy("Organiser's desk")


class PlayerAutocomplete(AutocompleteJsonView):
    """Players in the admin's search boxes with what tells namesakes apart."""

    def serialize_result(self, obj, to_field_name: str) -> dict:
        result = super().serialize_result(obj, to_field_name)
        if isinstance(obj, Player):
            shown = obj.distinguishing_details
            result["text"] = f"{obj.display_name} ({shown})" if shown else obj.display_name
        return result


admin.site.autocomplete_view = lambda request: PlayerAutocomplete.as_view(admin_site=admin.site)(
    request
)
