"""The tournament's player list as a spreadsheet: imported (upload, check, confirm) and
exported, from the tournament's admin page."""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from tournament.admin.base import changeable_tournament
from tournament.exports.registrations import RegistrationsXlsx
from tournament.importing import ImportFileError, check_rows, check_size, described, read_table
from tournament.models import Player
from tournament.names import isolate
from tournament.services.players import ImportOutcome, players_import

IMPORT_SESSION_KEY = "player-import-{pk}"


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


class PlayerImportViews:
    """The tournament admin's pages for its player list: import a file (upload, then check
    and confirm) and export the registrations."""

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

    def import_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = changeable_tournament(self, request, pk)
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
        tournament = changeable_tournament(self, request, pk)
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
        tournament = changeable_tournament(self, request, pk)
        filename, content_type, content = RegistrationsXlsx(tournament).render()
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


def _import_notes(outcome: ImportOutcome) -> list[tuple[int, str]]:
    """What the import did besides registering, as the preview announced it: the known
    players' records it completed, the file's values it left off them, and the players
    registered beside a namesake."""

    def named(player: Player) -> str:
        return _("%(name)s (#%(id)s)") % {"name": isolate(player.display_name), "id": player.pk}

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
