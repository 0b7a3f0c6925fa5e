"""Read-only admin of results: sheets, versions, confirmations and penalties are audited and
change only through the score-sheet pages (scoring.services), never by editing a row. The
stages are the organisers' to set here, through their services."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.models import (
    Confirmation,
    Penalty,
    RefereeCall,
    ScoreSheet,
    SheetVersion,
    Stage,
    TableKey,
)
from scoring.policy import hidden_from
from scoring.selectors.stages import stage_standings
from scoring.services.stages import stage_choice_set, stage_create, stage_delete, stage_update
from scoring.tables import cut_text
from seating.services import stage_round_seat
from tournament.admin.base import PlayerListMixin, ReadOnlyAdmin, TournamentScopedAdmin, listed
from tournament.admin.writes import ServiceWritesMixin, Writes
from tournament.models import Registration, Round, Tournament


class VersionInline(admin.TabularInline):
    model = SheetVersion
    fields = ("number", "kind", "action", "entered_by", "created_at", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ScoreSheet)
class ScoreSheetAdmin(ReadOnlyAdmin):
    tournament_path = "round__tournament"
    list_display = ("round", "table_number", "status", "revision", "updated_at")
    list_filter = ("status", listed("round__tournament"))
    search_fields = ("round__tournament__name",)
    list_select_related = ("round__tournament",)
    inlines = [VersionInline]


@admin.register(SheetVersion)
class SheetVersionAdmin(ReadOnlyAdmin):
    tournament_path = "sheet__round__tournament"
    list_display = ("sheet", "number", "kind", "action", "entered_by", "created_at")
    list_filter = ("action", "kind", listed("sheet__round__tournament"))
    search_fields = ("entered_by__username", "reason")
    list_select_related = ("sheet__round__tournament", "entered_by")

    def get_fields(self, request: HttpRequest, obj: SheetVersion | None = None) -> list[str]:
        """Under blind double entry the first entry's numbers stay hidden from the one who
        may still enter the sheet second (`scoring.policy.hidden_from`), here as on the
        sheet's pages: seen, the second entry would be a copy."""
        fields = super().get_fields(request, obj)
        if obj is not None and _hidden(request, obj):
            return [name for name in fields if name != "data"]
        return fields

    def get_readonly_fields(self, request: HttpRequest, obj: SheetVersion | None = None):
        return ("data_hidden",) if obj is not None and _hidden(request, obj) else ()

    @admin.display(description=_("data"))
    def data_hidden(self, obj: SheetVersion) -> str:
        return _(
            "Hidden: blind double entry. This sheet waits for a second entry, which you may "
            "make; the first one is shown once it is in."
        )


def _hidden(request: HttpRequest, version: SheetVersion) -> bool:
    sheet = version.sheet
    return hidden_from(sheet.round.tournament, sheet, version, request.user)


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyAdmin):
    tournament_path = "version__sheet__round__tournament"
    list_display = ("version", "user", "created_at")
    list_filter = (listed("version__sheet__round__tournament"),)
    search_fields = ("user__username",)
    list_select_related = ("version__sheet__round__tournament", "user")


@admin.register(Penalty)
class PenaltyAdmin(PlayerListMixin, ReadOnlyAdmin):
    list_display = ("registration", "kind", "points", "given_by", "created_at", "cancelled_at")
    list_filter = ("kind", listed("tournament"))
    search_fields = ("registration__player__last_name", "registration__player__first_name")
    list_select_related = ("registration__player", "registration__tournament", "given_by")


@admin.register(TableKey)
class TableKeyAdmin(ReadOnlyAdmin):
    """A table card issued again: changed by "Revoke this table's card" on the round page."""

    tournament_path = "round__tournament"
    list_display = ("round", "table_number", "issue")
    list_filter = (listed("round__tournament"),)
    list_select_related = ("round__tournament",)


@admin.register(RefereeCall)
class RefereeCallAdmin(ReadOnlyAdmin):
    """The tables' calls: taken and resolved on the referee queue."""

    tournament_path = "round__tournament"
    list_display = ("round", "table_number", "reason", "called_at", "taken_by", "resolved_at")
    list_filter = (listed("round__tournament"),)
    search_fields = ("reason",)
    list_select_related = ("round__tournament", "taken_by")


class StageForm(forms.ModelForm):
    """The stage's fields, its chosen players as a list to pick from (stored as ids)."""

    players = forms.ModelMultipleChoiceField(
        Registration.objects.none(),
        required=False,
        label=Stage._meta.get_field("chosen").verbose_name,
        help_text=Stage._meta.get_field("chosen").help_text,
        widget=FilteredSelectMultiple(_("players"), False),
    )

    class Meta:
        model = Stage
        fields = ("tournament", "name", "first_round", "cut_size", "carry_over", "bonus")


@admin.register(Stage)
class StageAdmin(ServiceWritesMixin, TournamentScopedAdmin):
    """A later stage: its rounds, its cut (explained on the page, with the players sharing a
    place across the line) and its carry-over; the action seats its next round by its
    standings."""

    writes = Writes(row="stage", create=stage_create, update=stage_update, delete=stage_delete)
    list_display = ("name", "tournament", "first_round", "cut_size", "carry_over")
    list_filter = (listed("tournament"),)
    search_fields = ("name",)
    list_select_related = ("tournament",)
    autocomplete_fields = ("tournament",)
    form = StageForm
    fields = (
        "tournament", "name", "first_round", "cut_size", "cut", "players", "carry_over", "bonus",
    )  # fmt: skip
    readonly_fields = ("cut",)
    actions = ("seat_next_round",)

    def get_form(self, request: HttpRequest, obj: Stage | None = None, **kwargs):
        """The players to choose from: the stage's tournament's (any organised one's on a new
        stage), those chosen already ticked."""
        form = super().get_form(request, obj, **kwargs)
        registrations = Registration.objects.filter(
            tournament__in=Tournament.objects.organised_by(request.user)
        )
        if obj is not None:
            registrations = registrations.filter(tournament=obj.tournament)
            form.base_fields["players"].initial = obj.chosen
        form.base_fields["players"].queryset = registrations.select_related("player", "tournament")
        return form

    def save_related(self, request: HttpRequest, form, formsets, change: bool) -> None:
        """The chosen players through their service (audited), not the form's own save."""
        stage_choice_set(
            stage=form.instance,
            registrations=form.cleaned_data.get("players", []),
            acting_user=request.user,
        )

    @admin.display(description=_("cut"))
    def cut(self, obj: Stage) -> str:
        """The cut as the public page explains it, and who is through."""
        if obj.pk is None:
            return gettext("Shown once the stage is saved.")
        current = next(item for item in stage_standings(obj.tournament) if item.stage == obj)
        through = ", ".join(str(entry.player) for entry in current.cut.qualified)
        lines = [cut_text(current.cut, obj.name), gettext("Through: %s") % through]
        return format_html_join("", "<p>{}</p>", ((line,) for line in lines))

    @admin.action(description=_("Seat the next round of the stage by its standings"))
    def seat_next_round(self, request: HttpRequest, queryset) -> None:
        for stage in queryset.select_related("tournament"):
            round_ = (
                Round.objects.filter(tournament=stage.tournament, number__gte=stage.first_round)
                .to_come()
                .first()
            )
            try:
                if round_ is None:
                    raise ValidationError(gettext("No round of this stage is left to seat."))
                stage_round_seat(stage=stage, round_=round_, acting_user=request.user)
            except ValidationError as error:
                self.message_user(request, f"{stage}: {' '.join(error.messages)}", messages.ERROR)
            else:
                self.message_user(
                    request,
                    gettext("%(stage)s: round %(round)s seated by the standings.")
                    % {"stage": stage, "round": round_.number},
                    messages.SUCCESS,
                )
