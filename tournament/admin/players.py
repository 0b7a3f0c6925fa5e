"""Players: people, who may play in many tournaments."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournament.admin.base import CountryInUseFilter, PlayerListMixin, per_request, player_ordering
from tournament.admin.writes import ServiceWritesMixin, Writes
from tournament.models import Player
from tournament.names import isolate
from tournament.permissions import players_registered_elsewhere
from tournament.selectors import namesakes
from tournament.services.players import player_create, player_delete, player_update


class PlayerAdminForm(forms.ModelForm):
    """The admin builds its Meta (model and fields) from PlayerAdmin."""

    def clean_ema_number(self) -> str:
        """Name the player who holds the number, not the database constraint."""
        number = self.cleaned_data["ema_number"]
        holder = (
            Player.objects.filter(ema_number=number).exclude(pk=self.instance.pk).first()
            if number
            else None
        )
        if holder:
            raise ValidationError(
                _(
                    "EMA number %(number)s already belongs to #%(pk)s %(name)s (%(details)s): "
                    "that is probably the same person, so register that record instead."
                )
                % {
                    "number": number,
                    "pk": holder.pk,
                    "name": isolate(holder.display_name),
                    "details": holder.distinguishing_details,
                }
            )
        return number


@admin.register(Player)
class PlayerAdmin(ServiceWritesMixin, PlayerListMixin, admin.ModelAdmin):
    writes = Writes(row="player", create=player_create, update=player_update, delete=player_delete)
    player_path = ""
    player_column = "last_name"  # sorting by last name keeps the placeholders last
    form = PlayerAdminForm
    ordering = player_ordering()  # the list and the search box for a registration's player
    list_display = [
        "last_name",
        "first_name",
        "public_name",
        "country",
        "club",
        "ema_number",
        "is_demo",
    ]
    list_filter = [CountryInUseFilter, "is_demo"]
    search_fields = [
        "first_name",
        "last_name",
        "nickname",
        "public_name",
        "club",
        "ema_number",
        "email",
    ]

    @staticmethod
    def _registered_elsewhere(request: HttpRequest, obj: Player | None) -> bool:
        """Registered in a tournament the user does not organise: its organisers change or
        delete the player (a name changed here would change on their pages too)."""
        if obj is None:
            return False
        return per_request(
            request,
            ("registered_elsewhere", obj.pk),
            lambda: bool(players_registered_elsewhere(request.user, [obj.pk])),
        )

    def has_change_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return super().has_change_permission(request, obj) and not self._registered_elsewhere(
            request, obj
        )

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return super().has_delete_permission(request, obj) and not self._registered_elsewhere(
            request, obj
        )

    def history_view(self, request: HttpRequest, object_id: str, extra_context=None):
        """Another organiser's changes to their player are theirs to read."""
        if self._registered_elsewhere(request, self.get_object(request, object_id)):
            raise PermissionDenied
        return super().history_view(request, object_id, extra_context)

    def change_view(self, request: HttpRequest, object_id: str, form_url="", extra_context=None):
        player = self.get_object(request, object_id)
        if request.method == "GET" and self._registered_elsewhere(request, player):
            self.message_user(
                request,
                _(
                    "%(player)s is also registered in a tournament you do not organise, so "
                    "only an administrator, or someone who organises every tournament this "
                    "player is registered in, can change this record."
                )
                % {"player": player},
                messages.INFO,
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request: HttpRequest, obj: Player, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        others = namesakes(obj)
        if others:
            described = "; ".join(
                f"#{other.pk} {other.display_name} ({other.distinguishing_details or '—'})"
                for other in others
            )
            self.message_user(
                request,
                _(
                    "Another player has the same name and country: %(players)s. If it is the "
                    "same person, register that record and delete this one."
                )
                % {"players": described},
                messages.WARNING,
            )
