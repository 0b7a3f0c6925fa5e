"""The organisers' back office.

Organisers who are not superusers see only the tournaments they organise (their admin
permissions come from that role). Status changes and imports go through services so they
are atomic and audited.
"""

from collections.abc import Callable
from typing import TypeVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Case, F, OrderBy, Q, Value, When
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django_countries import countries

from scoring.results_held import ResultsHeldError, refuse_deleting_results, results_held
from scoring.selectors.standings import has_score_sheets
from scoring.services.locking import lock_refusal, round_lock
from tournament.exports.registrations import RegistrationsXlsx
from tournament.importing import (
    ImportFileError,
    check_rows,
    check_size,
    described,
    read_table,
)
from tournament.models import (
    WIND_ORDER,
    AuditEntry,
    Player,
    Registration,
    Round,
    Seat,
    Team,
    Tournament,
    TournamentStaff,
)
from tournament.names import names_match
from tournament.permissions import players_registered_elsewhere
from tournament.selectors import (
    namesakes,
    seated_in_rounds_to_come,
    unseated_in_rounds_to_come,
)
from tournament.services.players import ImportOutcome, players_import
from tournament.services.registrations import (
    registration_check_in,
    registration_disqualify,
    registration_reinstate,
    registration_withdraw,
)
from tournament.services.rounds import (
    round_record_status,
    rounds_follow_count,
    rounds_in_use_beyond,
)
from tournament.services.staff import AdminAccess, staff_admin_access
from tournament.templatetags.rounds import lock_note

IMPORT_SESSION_KEY = "player-import-{pk}"

T = TypeVar("T")


def per_request(request: HttpRequest, key: tuple, compute: Callable[[], T]) -> T:
    """``compute()`` once per request: Django asks an admin's permission and read-only
    questions several times for one page, and some read every score sheet."""
    memo = request.__dict__.setdefault("_admin_memo", {})
    if key not in memo:
        memo[key] = compute()
    return memo[key]


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


class ValuesInListFilter(admin.SimpleListFilter):
    """Only the values the listed rows hold (reached through `path`), not every one the
    field could hold or every tournament's."""

    path: str

    def offered(self, values: set) -> list[tuple]:
        """(value, label) of the values held, in the order to offer them."""
        return sorted((value, value) for value in values)

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list:
        values = (
            model_admin.get_queryset(request)
            .values_list(self.path, flat=True)
            .order_by()  # DISTINCT would also take in the list's ordering
            .distinct()
        )
        return self.offered({value for value in values if value not in ("", None)})

    def queryset(self, request: HttpRequest, queryset):
        if self.value():
            return queryset.filter(**{self.path: self.value()})
        return queryset


class CountryInUseFilter(ValuesInListFilter):
    """The countries of the listed players, not all ~250 of the field's choices."""

    title = gettext_lazy("country")
    parameter_name = "country"
    path = "country"

    def offered(self, values: set) -> list[tuple]:
        return sorted(((code, countries.name(code)) for code in values), key=lambda item: item[1])


class PlayerCountryFilter(CountryInUseFilter):
    path = "player__country"


def player_ordering(path: str = "", *, descending: bool = False) -> list[OrderBy]:
    """Players (reached through `path`, e.g. "registration__player__") in the admin's lists
    and search boxes as in the pages' (`names.player_sort_key`): by last then first
    name, then the placeholder substitutes ("Substitute 2", numbered in the last name), 2
    before 10. The database's plain name order put "Substitute 1" first.

    A list is sorted by the database and cut into pages, so the pages' Python key cannot
    serve: a flag puts the placeholders last. The database does not fold accents either:
    "Émile" goes where its collation puts him (among the E with PostgreSQL's usual locales).
    """
    last_name = f"{path}last_name"
    placeholder = Q(**{f"{last_name}__regex": r"^[0-9]+$"})  # as `Player.is_placeholder`
    keys = [
        Case(When(placeholder, then=Value(1)), default=Value(0)),
        Case(When(placeholder, then=Length(last_name)), default=Value(0)),
        F(last_name),
        F(f"{path}first_name"),
    ]
    return [key.desc() if descending else key.asc() for key in keys]


class PlayerColumnChangeList(ChangeList):
    """Sorting a list by its admin's `player_column` orders it by `player_ordering`, not by
    the players' model order, which puts the placeholders first."""

    def get_ordering(self, request: HttpRequest, queryset) -> list:
        column, path = self.model_admin.player_column, self.model_admin.player_path
        ordering = []
        for part in super().get_ordering(request, queryset):
            if isinstance(part, str) and part.removeprefix("-") == column:
                ordering += player_ordering(path, descending=part.startswith("-"))
            else:
                ordering.append(part)
        return ordering


class PlayerListMixin:
    """For the admins whose rows each name one player (registrations, seats, penalties, ...),
    reached through `player_path` and shown in the `player_column` column.

    Sorting by that column keeps the placeholder substitutes last (`player_ordering`). The
    search box also finds players by names typed without their accents or with their letters
    spelled out ("zoe" finds Zoé, "mueller" Müller), as find my seat does: the database
    cannot fold accents (SQLite), so the names are matched in Python.
    """

    player_path = "registration__player__"
    player_column = "registration"

    def get_changelist(self, request: HttpRequest, **kwargs) -> type[ChangeList]:
        return PlayerColumnChangeList

    def get_search_results(self, request: HttpRequest, queryset, search_term: str):
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if not search_term.strip():
            return found, may_have_duplicates
        path = self.player_path
        # Each player once (a seat list names a player every round), and only the rows the
        # database search missed.
        names = (
            queryset.exclude(pk__in=found.values("pk"))
            .values_list(f"{path}pk", f"{path}first_name", f"{path}last_name", f"{path}nickname")
            .order_by()  # the admin's ordering would join in every row again under DISTINCT
            .distinct()
        )
        players = [pk for pk, *parts in names if names_match(parts, search_term)]
        if not players:
            return found, may_have_duplicates
        also = Q(**{f"{path}pk__in": players})
        return queryset.filter(Q(pk__in=found.values("pk")) | also), False


def listed(path: str) -> tuple[str, type[admin.ListFilter]]:
    """A list filter on a relation offering only what the list's rows hold: the
    tournaments (and teams) one organises, not every one in the database."""
    return (path, admin.RelatedOnlyFieldListFilter)


def _organised_up_to_two(request: HttpRequest) -> list[Tournament]:
    """Enough of the tournaments the user organises to tell whether they run just one."""
    return per_request(
        request,
        ("organised_up_to_two",),
        lambda: list(Tournament.objects.organised_by(request.user)[:2]),
    )


class TournamentScopedAdmin(admin.ModelAdmin):
    """Rows and choices of the tournaments the user organises: a co-organiser's admin
    permissions (`permissions.OrganiserRoleBackend`) hold for every row of a model, so
    this is what keeps them out of the other tournaments."""

    tournament_path = "tournament"

    def get_queryset(self, request: HttpRequest):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        organised = Tournament.objects.organised_by(request.user)
        return queryset.filter(**{f"{self.tournament_path}__in": organised})

    def get_list_display(self, request: HttpRequest):
        """No tournament column for one who runs a single tournament (the usual site): it
        would repeat one name on every row and push the last columns off a laptop screen."""
        columns = super().get_list_display(request)
        if "tournament" in columns and len(_organised_up_to_two(request)) < 2:
            return [column for column in columns if column != "tournament"]
        return columns

    def get_changeform_initial_data(self, request: HttpRequest) -> dict:
        """A new row starts in the tournament when one organises only that one (the usual
        site): its team box then offers that tournament's teams from the start."""
        initial = super().get_changeform_initial_data(request)
        if self.tournament_path == "tournament" and "tournament" not in initial:
            organised = _organised_up_to_two(request)
            if len(organised) == 1:
                initial["tournament"] = organised[0].pk
        return initial

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        """Choices are the rows the related model's admin lists (as its search box does)."""
        related_admin = self.admin_site._registry.get(db_field.related_model)
        if isinstance(related_admin, (TournamentScopedAdmin, TournamentAdmin)):
            kwargs["queryset"] = related_admin.get_queryset(request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ImportUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Player list"),
        help_text=gettext_lazy(
            "A .xlsx or .csv file whose first row names the columns: First name, Last name, "
            "Nickname, Country, Club, EMA number, Team, Substitute."
        ),
    )


class ImportConfirmForm(forms.Form):
    only_valid = forms.BooleanField(
        label=gettext_lazy("Import only the rows without problems"),
        label_suffix="",  # the label follows its checkbox: "[x] Import only …", no colon
        required=False,
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )


def _accounts_of_deleted_tournaments(roles) -> list[tuple]:
    """The accounts of the roles a tournament's deletion takes with it (it names none)."""
    return [(staff.user, None) for staff in roles.select_related("user")]


def _accounts_of(forms_or_rows) -> list[tuple]:
    """(account, tournament) of saved or removed roles, and the account a role was taken
    from when its user changed."""
    pairs = []
    for item in forms_or_rows:
        staff = getattr(item, "instance", item)
        pairs.append((staff.user, staff.tournament))
        previous = getattr(item, "initial", {}).get("user")
        if previous and previous != staff.user_id and "user" in item.changed_data:
            pairs.append((get_user_model().objects.get(pk=previous), staff.tournament))
    return pairs


def _follow_admin_access(modeladmin, request: HttpRequest, accounts: list[tuple]) -> None:
    """After roles are saved or removed: their accounts' Staff status, and say so."""
    for user, tournament in accounts:
        change = staff_admin_access(user=user, tournament=tournament, acting_user=request.user)
        if change is AdminAccess.OPENED:
            message = _(
                "The account “%(user)s” can now log in to the admin (Staff status ticked) to "
                "run %(tournament)s."
            )
        elif change is AdminAccess.CLOSED:
            message = _(
                "The account “%(user)s” organises no tournament any more: its Staff status is "
                "unticked, so it no longer logs in to the admin."
            )
        else:
            continue
        modeladmin.message_user(
            request, message % {"user": user.get_username(), "tournament": tournament}
        )


class TeamInline(admin.TabularInline):
    model = Team
    extra = 0


class StaffInline(admin.TabularInline):
    model = TournamentStaff
    extra = 0
    autocomplete_fields = ["user"]


class TournamentAdminForm(forms.ModelForm):
    """The admin builds its Meta (model and fields) from TournamentAdmin."""

    RULE_FIELDS = ("ruleset", "rule_options")

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
            for name in changed:
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
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = ["name", "start_date", "venue", "ruleset", "status", "is_public"]
    list_filter = ["status", "ruleset", "is_public"]
    search_fields = ["name", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [TeamInline, StaffInline]
    change_form_template = "admin/tournament/tournament/change_form.html"

    def save_model(self, request: HttpRequest, obj: Tournament, form, change: bool) -> None:
        """Its rounds follow the number of rounds (new ones added, empty ones removed)."""
        super().save_model(request, obj, form, change)
        rounds_follow_count(obj)

    def save_formset(self, request: HttpRequest, form, formset, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        if formset.model is TournamentStaff:
            changed = [form for form in formset.forms if form.instance.pk and form.has_changed()]
            removed = _accounts_of(formset.deleted_objects)
            _follow_admin_access(self, request, _accounts_of(changed) + removed)

    def delete_model(self, request: HttpRequest, obj: Tournament) -> None:
        accounts = _accounts_of_deleted_tournaments(obj.staff.all())
        super().delete_model(request, obj)
        _follow_admin_access(self, request, accounts)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        roles = TournamentStaff.objects.filter(tournament__in=queryset)
        accounts = _accounts_of_deleted_tournaments(roles)
        super().delete_queryset(request, queryset)
        _follow_admin_access(self, request, accounts)

    def get_queryset(self, request: HttpRequest):
        return Tournament.objects.organised_by(request.user)

    def get_urls(self):
        custom = [
            path(
                "<int:pk>/import/",
                self.admin_site.admin_view(self.import_view),
                name="tournament_tournament_import",
            ),
            path(
                "<int:pk>/import/confirm/",
                self.admin_site.admin_view(self.import_confirm_view),
                name="tournament_tournament_import_confirm",
            ),
            path(
                "<int:pk>/export-registrations/",
                self.admin_site.admin_view(self.export_registrations_view),
                name="tournament_tournament_export_registrations",
            ),
        ]
        return custom + super().get_urls()

    def _tournament(self, request: HttpRequest, pk: int) -> Tournament:
        tournament = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
        return tournament

    def import_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)
        bound = request.method == "POST"
        form = ImportUploadForm(request.POST if bound else None, request.FILES if bound else None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                check_size(upload.size)
                table = read_table(upload.name, upload.read())
            except ImportFileError as error:
                form.add_error("file", str(error))
            else:
                request.session[IMPORT_SESSION_KEY.format(pk=pk)] = {
                    "filename": upload.name,
                    "rows": table.rows,
                    "ignored_columns": table.ignored_columns,
                }
                return redirect("admin:tournament_tournament_import_confirm", pk=pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Import players into %(tournament)s") % {"tournament": tournament},
            "tournament": tournament,
            "opts": self.model._meta,
            "form": form,
        }
        return TemplateResponse(request, "admin/tournament/import_upload.html", context)

    def import_confirm_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)
        pending = request.session.get(IMPORT_SESSION_KEY.format(pk=pk))
        if not pending:
            messages.warning(request, _("Upload a player list first."))
            return redirect("admin:tournament_tournament_import", pk=pk)
        form = ImportConfirmForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                outcome = players_import(
                    tournament=tournament,
                    rows=pending["rows"],
                    only_valid=form.cleaned_data["only_valid"],
                    acting_user=request.user,
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                del request.session[IMPORT_SESSION_KEY.format(pk=pk)]
                registered = ngettext(
                    "%(created)s player registered (%(returning)s already known).",
                    "%(created)s players registered (%(returning)s already known).",
                    outcome.created,
                ) % {"created": outcome.created, "returning": outcome.returning}
                skipped = ngettext(
                    "%(skipped)s row skipped.", "%(skipped)s rows skipped.", outcome.skipped
                ) % {"skipped": outcome.skipped}
                messages.success(request, f"{registered} {skipped}")
                for level, message in _import_notes(outcome):
                    messages.add_message(request, level, message)
                return redirect("admin:tournament_tournament_change", tournament.pk)
        checked = check_rows(tournament, pending["rows"], acting_user=request.user)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Check the player list before importing"),
            "tournament": tournament,
            "opts": self.model._meta,
            "form": form,
            "filename": pending["filename"],
            "ignored_columns": pending.get("ignored_columns", []),
            "rows": checked,
            "valid_count": sum(row.is_valid for row in checked),
            "invalid_count": sum(not row.is_valid for row in checked),
            "warning_count": sum(row.is_valid and bool(row.warnings) for row in checked),
        }
        return TemplateResponse(request, "admin/tournament/import_preview.html", context)

    def export_registrations_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)
        filename, content_type, content = RegistrationsXlsx(tournament).render()
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


def _import_notes(outcome: ImportOutcome) -> list[tuple[int, str]]:
    """What the import did besides registering, as the preview announced it: the known
    players' records it completed, the file's values it left off them, and the players
    registered beside a namesake."""

    def named(player: Player) -> str:
        return _("%(name)s (#%(id)s)") % {"name": player.display_name, "id": player.pk}

    separator = pgettext("between the players of a list", "; ")

    notes = []
    if outcome.completed:
        completed = separator.join(
            _("%(player)s: %(values)s") % {"player": named(player), "values": described(values)}
            for player, values in outcome.completed
        )
        notes.append(
            (
                messages.INFO,
                _("Added to the records of players already known: %(players)s.")
                % {"players": completed},
            )
        )
    if outcome.left:
        why = {
            "differs": _("the record has another value: change the player to update it"),
            "registered_elsewhere": _("also registered in a tournament you do not organise"),
        }
        left = separator.join(
            _("%(player)s: %(values)s (%(why)s)")
            % {"player": named(player), "values": described(values), "why": why[reason]}
            for player, values, reason in outcome.left
        )
        notes.append(
            (
                messages.WARNING,
                _("Not applied to the records of players already known: %(players)s.")
                % {"players": left},
            )
        )
    if outcome.beside_namesakes:
        beside = separator.join(
            _("%(player)s beside %(namesakes)s")
            % {
                "player": named(player),
                "namesakes": ", ".join(_("#%(id)s") % {"id": other.pk} for other in others),
            }
            for player, others in outcome.beside_namesakes
        )
        notes.append(
            (
                messages.WARNING,
                _(
                    "Registered beside a namesake already in this tournament: %(players)s. "
                    "If they are one person, delete the newer registration."
                )
                % {"players": beside},
            )
        )
    return notes


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
                    "name": holder.display_name,
                    "details": holder.distinguishing_details,
                }
            )
        return number


@admin.register(Player)
class PlayerAdmin(PlayerListMixin, admin.ModelAdmin):
    player_path = ""
    player_column = "last_name"  # sorting by last name keeps the placeholders last
    form = PlayerAdminForm
    ordering = player_ordering()  # the list and the search box for a registration's player
    list_display = ["last_name", "first_name", "nickname", "country", "club", "ema_number"]
    list_filter = [CountryInUseFilter]
    search_fields = ["first_name", "last_name", "nickname", "club", "ema_number"]

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


def _rounds_of_players(registrations: list, rounds_by_id: dict[int, list[int]]) -> str:
    """The players who have rounds, e.g. "Anna Berg (rounds 6, 7); Zoé Martin (round 7)"."""
    return "; ".join(
        ngettext("%(player)s (round %(rounds)s)", "%(player)s (rounds %(rounds)s)", len(rounds))
        % {"player": registration.player, "rounds": ", ".join(map(str, rounds))}
        for registration in registrations
        if (rounds := rounds_by_id.get(registration.pk))
    )


def _warn_still_seated(modeladmin, request: HttpRequest, registrations: list) -> None:
    """The seats of the rounds to come stay until an organiser seats those rounds again: a
    table would otherwise wait for a player who is gone."""
    still_seated = _rounds_of_players(registrations, seated_in_rounds_to_come(registrations))
    if still_seated:
        modeladmin.message_user(
            request,
            _(
                "Still seated in the rounds to come: %(players)s. Seat those rounds again "
                "(Generate seating) before they are played."
            )
            % {"players": still_seated},
            messages.WARNING,
        )


def _warn_not_seated(modeladmin, request: HttpRequest, registrations: list) -> None:
    """A reinstated player has no seat in the rounds seated while they were out: they would
    find no table (find my seat says "Not seated in this round")."""
    not_seated = _rounds_of_players(registrations, unseated_in_rounds_to_come(registrations))
    if not_seated:
        modeladmin.message_user(
            request,
            _(
                "Not seated in the rounds to come: %(players)s. Seat those rounds again "
                "(Generate seating) before they are played."
            )
            % {"players": not_seated},
            messages.WARNING,
        )


def _reason_action(service, verb: str, done_message: str, warn=_warn_still_seated):
    """An admin action that asks for a reason, applies ``service`` to each registration
    and says whom it changed (``done_message`` names them), then what ``warn`` finds in the
    seating of the rounds to come."""

    def action(modeladmin, request: HttpRequest, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            done = []
            for registration in queryset.select_related("player", "tournament"):
                try:
                    service(
                        registration=registration,
                        reason=form.cleaned_data["reason"],
                        acting_user=request.user,
                    )
                    done.append(registration)
                except ValidationError as error:
                    modeladmin.message_user(request, " ".join(error.messages), messages.ERROR)
            if done:
                names = ", ".join(str(registration.player) for registration in done)
                modeladmin.message_user(request, done_message % {"players": names})
            warn(modeladmin, request, done)
            return None
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": verb,
            "form": form,
            "queryset": queryset,
            "action": request.POST.get("action"),
            "opts": modeladmin.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/tournament/reason_action.html", context)

    return action


@transaction.atomic
def _delete_unless_results(modeladmin, request: HttpRequest, queryset):
    """Django's "Delete selected" for the registrations that hold no result, checked and
    deleted in one transaction."""
    try:
        refuse_deleting_results(list(queryset.select_related("player")))
    except ResultsHeldError as error:
        for message in error.messages:
            modeladmin.message_user(request, message, messages.ERROR)
        return None
    return admin.actions.delete_selected(modeladmin, request, queryset)


@admin.register(Registration)
class RegistrationAdmin(PlayerListMixin, TournamentScopedAdmin):
    player_path = "player__"
    player_column = "player"
    # The list, the action's confirmation and every search box for a registration (fixed
    # tables) come from this ordering.
    ordering = player_ordering("player__")
    list_display = ["player", "tournament", "status", "team", "is_substitute", "checked_in_at"]
    list_filter = [
        listed("tournament"),
        "status",
        PlayerCountryFilter,
        listed("team"),
        "is_substitute",
    ]
    search_fields = ["player__first_name", "player__last_name", "player__nickname"]
    autocomplete_fields = ["player", "team"]
    list_select_related = ["player", "tournament", "team"]
    readonly_fields = ["status", "status_reason", "checked_in_at"]

    def get_readonly_fields(self, request: HttpRequest, obj: Registration | None = None):
        """A registration stays in its tournament; one that holds results keeps its player
        too (seats, penalties and sheets would pass to somebody else)."""
        fields = [*super().get_readonly_fields(request, obj)]
        if obj is not None:
            fields.append("tournament")
            if per_request(request, ("results_held", obj.pk), lambda: results_held(obj)):
                fields.append("player")
        return fields

    actions = ["check_in", "withdraw", "disqualify", "reinstate"]

    @admin.action(description=gettext_lazy("Check in"))
    def check_in(self, request: HttpRequest, queryset) -> None:
        done = 0
        for registration in queryset.select_related("player", "tournament"):
            try:
                registration_check_in(registration=registration, acting_user=request.user)
                done += 1
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
        self.message_user(
            request,
            ngettext("%(count)s player checked in.", "%(count)s players checked in.", done)
            % {"count": done},
        )

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            _func, name, description = actions["delete_selected"]
            actions[name] = (_delete_unless_results, name, description)
        return actions

    @method_decorator(transaction.atomic)
    def delete_view(self, request: HttpRequest, object_id: str, extra_context=None):
        """A registration with seats, penalties or a sheet naming it is withdrawn, never
        deleted: the results of the rounds played would lose a player."""
        registration = self.get_object(request, object_id)
        try:
            if registration is not None:
                refuse_deleting_results([registration])
        except ResultsHeldError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            return redirect("admin:tournament_registration_change", registration.pk)
        return super().delete_view(request, object_id, extra_context)

    withdraw = admin.action(description=gettext_lazy("Withdraw (with a reason)"))(
        _reason_action(
            registration_withdraw,
            gettext_lazy("Withdraw players"),
            gettext_lazy("Withdrawn: %(players)s."),
        )
    )
    disqualify = admin.action(description=gettext_lazy("Disqualify (with a reason)"))(
        _reason_action(
            registration_disqualify,
            gettext_lazy("Disqualify players"),
            gettext_lazy("Disqualified: %(players)s."),
        )
    )
    reinstate = admin.action(description=gettext_lazy("Reinstate (with a reason)"))(
        _reason_action(
            registration_reinstate,
            gettext_lazy("Reinstate players"),
            gettext_lazy("Reinstated: %(players)s."),
            warn=_warn_not_seated,
        )
    )


@admin.register(Team)
class TeamAdmin(TournamentScopedAdmin):
    list_display = ["name", "tournament"]
    list_filter = [listed("tournament")]
    search_fields = ["name"]
    list_select_related = ["tournament"]


class RoundNumberFilter(ValuesInListFilter):
    """The round numbers of the listed seats only, not every tournament's."""

    title = gettext_lazy("round")
    parameter_name = "round_number"
    path = "round__number"


def seat_ordering() -> list:
    """Tables in order, each E, S, W, N (the model's order is the letters')."""
    winds = Case(*(When(wind=wind, then=Value(index)) for wind, index in WIND_ORDER.items()))
    return ["round", "table_number", winds]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["table_number", "wind", "registration"]

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).order_by(*seat_ordering())

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class RoundAdminForm(forms.ModelForm):
    class Meta:
        model = Round
        fields = ["status", "scheduled_start", "is_swiss"]

    def clean_status(self) -> str:
        """A locked round's results are final: every table must have a confirmed sheet. A
        round with sheets has been played, so it cannot go back to planned or seated."""
        status = self.cleaned_data["status"]
        if (
            status in (Round.Status.PLANNED, Round.Status.SEATED)
            and status != self.initial.get("status")
            and self.instance.pk
            and self.instance.score_sheets.exists()
        ):
            raise ValidationError(
                _(
                    "This round already has score sheets, so it has been played: it can be "
                    "“%(playing)s”, “%(finished)s” or “%(locked)s”, not “%(status)s”."
                )
                % {
                    "playing": Round.Status.PLAYING.label,
                    "finished": Round.Status.FINISHED.label,
                    "locked": Round.Status.LOCKED.label,
                    "status": Round.Status(status).label,
                }
            )
        if (
            status == Round.Status.LOCKED
            and self.instance.pk
            and (self.initial.get("status") != Round.Status.LOCKED)
        ):
            refusal = lock_refusal(self.instance)
            if refusal:
                raise ValidationError(refusal)
        return status


@admin.register(Round)
class RoundAdmin(TournamentScopedAdmin):
    form = RoundAdminForm
    list_display = ["__str__", "tournament", "status", "scheduled_start", "is_swiss"]
    list_filter = [listed("tournament"), "status"]
    list_select_related = ["tournament"]
    fields = [
        "tournament",
        "number",
        "status",
        "scheduled_start",
        "is_swiss",
        "seating_seed",
        "lock_changed",
        "started_at",
        "ended_at",
    ]
    readonly_fields = [
        "tournament",
        "number",
        "lock_changed",
        "seating_seed",
        "started_at",
        "ended_at",
    ]
    inlines = [SeatInline]
    actions = ["lock_results"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Rounds follow the tournament's number of rounds: raise it to add one."""
        return False

    @admin.action(description=gettext_lazy("Lock the results"), permissions=["change"])
    def lock_results(self, request: HttpRequest, queryset) -> None:
        """At the end of an event, every round at once rather than one change form each."""
        locked = []
        for round_ in queryset.select_related("tournament").order_by("tournament", "number"):
            try:
                if round_lock(round_=round_, acting_user=request.user):
                    locked.append(round_)
            except ValidationError as error:
                self.message_user(request, f"{round_}: {' '.join(error.messages)}", messages.ERROR)
        if locked:
            self.message_user(
                request,
                _("Results locked: %(rounds)s.") % {"rounds": ", ".join(map(str, locked))},
            )

    @admin.display(description=gettext_lazy("Results locked or unlocked"))
    def lock_changed(self, obj: Round) -> str | None:
        return lock_note(obj) or None  # None: the admin's "-", as for "Started at"

    def save_model(self, request: HttpRequest, obj: Round, form, change: bool) -> None:
        """A status change (locking a round's results, reopening it) is recorded."""
        super().save_model(request, obj, form, change)
        if change and "status" in form.changed_data:
            round_record_status(
                round_=obj, previous=form.initial.get("status"), acting_user=request.user
            )


@admin.register(Seat)
class SeatAdmin(PlayerListMixin, TournamentScopedAdmin):
    tournament_path = "round__tournament"
    list_display = ["round", "table_number", "wind", "registration"]
    list_filter = [listed("round__tournament"), RoundNumberFilter]
    search_fields = ["registration__player__first_name", "registration__player__last_name"]
    list_select_related = ["round__tournament", "registration__player"]
    ordering = seat_ordering()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(TournamentStaff)
class TournamentStaffAdmin(TournamentScopedAdmin):
    list_display = ["user", "tournament", "role"]
    list_filter = [listed("tournament"), "role"]
    autocomplete_fields = ["user"]
    search_fields = ["user__username"]

    def save_model(self, request: HttpRequest, obj: TournamentStaff, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        _follow_admin_access(self, request, _accounts_of([form]))

    def delete_model(self, request: HttpRequest, obj: TournamentStaff) -> None:
        super().delete_model(request, obj)
        _follow_admin_access(self, request, _accounts_of([obj]))

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        rows = list(queryset.select_related("user", "tournament"))
        super().delete_queryset(request, queryset)
        _follow_admin_access(self, request, _accounts_of(rows))


@admin.register(AuditEntry)
class AuditEntryAdmin(TournamentScopedAdmin):
    list_display = ["created_at", "tournament", "actor", "action", "object_repr", "reason"]
    list_filter = [listed("tournament"), "action"]
    search_fields = ["object_repr", "reason"]
    list_select_related = ["tournament", "actor"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
