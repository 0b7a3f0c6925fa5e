"""The tournament's page: its set-up checklist, settings, teams and staff."""

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.selectors.standings import has_score_sheets
from tournament.admin.officials import OfficialsViews
from tournament.admin.player_import import PlayerImportViews
from tournament.admin.staff import (
    StaffInline,
    accounts_of,
    accounts_of_deleted_tournaments,
    follow_admin_access,
)
from tournament.admin.teams import TeamInline
from tournament.admin.time_zones import TournamentTimeZoneMixin
from tournament.admin.writes import ServiceWritesMixin, Writes
from tournament.checklist import setup_checklist
from tournament.models import Tournament, TournamentStaff
from tournament.rule_options import RuleOptionsField
from tournament.rule_options_form import RuleOptionsForm
from tournament.services.rounds import rounds_in_use_beyond
from tournament.services.tournaments import (
    tournament_create,
    tournament_delete,
    tournament_update,
)
from tournament.time_zones import TimeZoneInput


class TournamentAdminForm(RuleOptionsForm):
    """The admin builds its Meta (model and fields) from TournamentAdmin."""

    RULE_FIELDS = ("ruleset", "rule_options")

    class Meta:
        widgets = {"time_zone": TimeZoneInput(attrs={"class": "vTextField"})}

    def clean(self) -> dict:
        """Scores are recomputed from the current rules (scoring.models), so once a sheet
        exists a new rule set or option would silently re-score every result, locked
        rounds included."""
        cleaned = super().clean()
        # Against the stored values, not the page's hidden initial ones; no override is {}.
        changed = [
            name
            for name in self.RULE_FIELDS
            if name in cleaned and (cleaned[name] or {}) != (self.initial.get(name) or {})
        ]
        if changed and self.instance.pk and has_score_sheets(self.instance):
            # Said where the change was typed: the rule set, an option's field, the JSON box.
            typed = [name for name in changed if name != "rule_options"]
            if "rule_options" in changed:
                typed += self.option_inputs_changed or ["rule_options"]
            for name in typed:
                self.add_error(
                    name,
                    _(
                        "Score sheets have already been entered under the current rules: "
                        "changing the rule set or its options would change every result "
                        "entered so far, locked rounds included. Keep the rules of this "
                        "tournament as they are."
                    ),
                )
        return cleaned

    def clean_rounds_count(self) -> int:
        """Fewer rounds may only drop rounds that hold nothing yet."""
        count = self.cleaned_data["rounds_count"]
        in_use = rounds_in_use_beyond(self.instance, count) if self.instance.pk else []
        if in_use:
            raise ValidationError(
                ngettext(
                    "Round %(rounds)s already has seating, score sheets or penalties, so the "
                    "tournament cannot have fewer than %(needed)s rounds.",
                    "Rounds %(rounds)s already have seating, score sheets or penalties, so the "
                    "tournament cannot have fewer than %(needed)s rounds.",
                    len(in_use),
                )
                % {"rounds": ", ".join(map(str, in_use)), "needed": in_use[-1]}
            )
        return count


@admin.register(Tournament)
class TournamentAdmin(
    TournamentTimeZoneMixin,
    ServiceWritesMixin,
    OfficialsViews,
    PlayerImportViews,
    admin.ModelAdmin,
):
    writes = Writes(
        row="tournament",
        create=tournament_create,
        update=tournament_update,
        delete=tournament_delete,
    )
    form = TournamentAdminForm
    fieldsets = [
        (None, {"fields": ["name", "slug", "start_date", "end_date", "venue", "time_zone"]}),
        (
            gettext_lazy("Rules"),
            {
                "fields": ["ruleset", *TournamentAdminForm.OPTION_FIELDS],
                "description": gettext_lazy(
                    "Each option shows the default of the rule set saved with the tournament "
                    "and where its rule book says so. Only the options that differ from the "
                    "default are stored. After choosing another rule set, press “Save and "
                    "continue editing” to see its options and defaults: the options changed "
                    "so far are kept where they differ from its defaults."
                ),
            },
        ),
        (
            gettext_lazy("Stored overrides (advanced)"),
            {
                "fields": ["rule_options"],
                "classes": ["collapse"],
                "description": gettext_lazy(
                    "What is stored: the options that differ from the rule set's defaults, "
                    "as JSON. It is applied only if you edit it; an option changed both here "
                    "and in its field above, to different values, is refused."
                ),
            },
        ),
        (
            gettext_lazy("Running the tournament"),
            {
                "fields": [
                    "rounds_count",
                    "round_minutes",
                    "confirmation_policy",
                    "is_public",
                    "show_rankings",
                    "release_complete_rounds",
                    "show_seating",
                    "table_reports",
                    "status",
                    "mers_qualification",
                ]
            },
        ),
        (
            gettext_lazy("Registration"),
            {
                "fields": [
                    "self_registration",
                    "registration_closes",
                    "player_cap",
                    "registration_approval",
                ]
            },
        ),
    ]
    formfield_overrides = {models.JSONField: {"form_class": RuleOptionsField}}
    list_display = ["name", "start_date", "venue", "ruleset", "status", "is_public", "is_demo"]
    list_filter = ["status", "ruleset", "is_public", "is_demo"]
    search_fields = ["name", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [TeamInline, StaffInline]
    change_form_template = "admin/tournament/tournament/change_form.html"
    time_zone_path = "time_zone"

    def change_view(self, request: HttpRequest, object_id: str, form_url="", extra_context=None):
        """The set-up checklist above the form: what comes next, and where it is done."""
        tournament = self.get_object(request, object_id)
        if tournament is not None:
            extra_context = {**(extra_context or {}), "checklist": setup_checklist(tournament)}
        return super().change_view(request, object_id, form_url, extra_context)

    def save_formset(self, request: HttpRequest, form, formset, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        if formset.model is TournamentStaff:
            changed = [form for form in formset.forms if form.instance.pk and form.has_changed()]
            removed = accounts_of(formset.deleted_objects)
            follow_admin_access(self, request, accounts_of(changed) + removed)

    def delete_model(self, request: HttpRequest, obj: Tournament) -> None:
        accounts = accounts_of_deleted_tournaments(obj.staff.all())
        super().delete_model(request, obj)
        follow_admin_access(self, request, accounts)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        roles = TournamentStaff.objects.filter(tournament__in=queryset)
        accounts = accounts_of_deleted_tournaments(roles)
        super().delete_queryset(request, queryset)
        follow_admin_access(self, request, accounts)

    def get_queryset(self, request: HttpRequest):
        return Tournament.objects.organised_by(request.user)
