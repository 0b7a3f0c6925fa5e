"""What every admin of the back office shares: rows and choices scoped to the tournaments
the user organises, list filters on the values in use, and the lists of players sorted and
searched as the pages do."""

from collections.abc import Callable
from typing import TypeVar

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Case, F, OrderBy, Q, Value, When
from django.db.models.functions import Length
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from django_countries import countries

from tournament.admin.time_zones import TournamentTimeZoneMixin
from tournament.models import Tournament
from tournament.names import names_match

T = TypeVar("T")


def per_request(request: HttpRequest, key: tuple, compute: Callable[[], T]) -> T:
    """``compute()`` once per request: Django asks an admin's permission and read-only
    questions several times for one page, and some read every score sheet."""
    memo = request.__dict__.setdefault("_admin_memo", {})
    if key not in memo:
        memo[key] = compute()
    return memo[key]


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
            .values_list(
                f"{path}pk",
                f"{path}first_name",
                f"{path}last_name",
                f"{path}nickname",
                f"{path}public_name",
            )
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


class IdAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete box looks up the value posted to show it again beside the
    field's error: a value that is no id (" ", "x") raised a ValueError, a 500, instead of
    "Select a valid choice". Only values its key can hold are looked up."""

    def optgroups(self, name, value, attr=None):
        key = self.field.remote_field.model._meta.pk
        usable = []
        for item in value:
            try:
                key.to_python(item)
            except ValidationError:
                continue
            usable.append(item)
        return super().optgroups(name, usable, attr)


class IdAutocompleteMixin:
    """Every autocomplete box of the back office is an `IdAutocompleteSelect`."""

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request):
            kwargs.setdefault(
                "widget",
                IdAutocompleteSelect(db_field, self.admin_site, using=kwargs.get("using")),
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class TournamentScopedAdmin(TournamentTimeZoneMixin, IdAutocompleteMixin, admin.ModelAdmin):
    """Rows and choices of the tournaments the user organises: a co-organiser's admin
    permissions (`permissions.OrganiserRoleBackend`) hold for every row of a model, so
    this is what keeps them out of the other tournaments."""

    tournament_path = "tournament"

    @property
    def time_zone_path(self) -> str:
        return f"{self.tournament_path}__time_zone"

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
        # The tournaments' own admin (admin.tournaments) lists the organised ones.
        if isinstance(related_admin, TournamentScopedAdmin) or (
            related_admin is not None and db_field.related_model is Tournament
        ):
            kwargs["queryset"] = related_admin.get_queryset(request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ReadOnlyAdmin(TournamentScopedAdmin):
    """Rows that only the audited services write (results, seats, seating runs, the audit
    log): the admin lists and shows them, and adds, changes or deletes none."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


def changeable_tournament(
    model_admin: admin.ModelAdmin, request: HttpRequest, pk: int
) -> Tournament:
    """The tournament of a page the admin adds beside the change form (player import,
    officials): one of the user's tournaments (a 404 for another's), which they may change."""
    tournament = get_object_or_404(model_admin.get_queryset(request), pk=pk)
    if not model_admin.has_change_permission(request, tournament):
        raise PermissionDenied
    return tournament
