"""A table's page, opened by the QR code of its table card: the players report their result,
or call a referee.

No account: the key in the address (`scoring.table_keys`) opens this one table of this one
round, until the round is locked or the card issued again. The report is checked by the
referee's form and the rules engine, with their messages, and saved by the same service as
an official's entry (`sheet_enter`, as a table report): it waits for an official, never
counts by itself. The referee call is a button of the same page (`action` "call"), so
the key is checked in one place; while the report's form is open, the button and its reason
belong to that form, so a call made half-way through typing the report loses nothing of it.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring.entries import table_context
from scoring.forms import TableReportForm
from scoring.models import ScoreSheet
from scoring.policy import open_for_entry
from scoring.rules import RulesErrors
from scoring.services.referee_calls import open_call, referee_call_make
from scoring.services.sheets import (
    SheetConflict,
    SheetError,
    resent_entry,
    sheet_enter,
)
from scoring.table_keys import table_of_key
from scoring.views.common import describe_version
from scoring.views.sheets import check_before_save, problem_summary
from tournament.models import WINDS
from tournament.views.public import PublicTournamentMixin

Status = ScoreSheet.Status


class TableReportView(PublicTournamentMixin, TemplateView):
    """The table's four players and winds, what stands on its sheet, the report form and the
    referee call."""

    template_name = "scoring/table.html"

    def dispatch(self, request, *args, **kwargs):
        # A hidden tournament is hidden here too (a 404 but for its staff), as on every
        # public page; a key that opens nothing is a 404 that names nobody.
        self.tournament = self.get_tournament()
        access = table_of_key(self.tournament, kwargs["key"])
        if access is None:
            return render(
                request, "scoring/table_closed.html", {"tournament": self.tournament}, status=404
            )
        self.round, self.table_number = access.round, access.table_number
        self.context = table_context(self.round, self.table_number)
        self.rules = self.tournament.get_rules()
        self.sheet = (
            ScoreSheet.objects.select_related("current__entered_by")
            .filter(round=self.round, table_number=self.table_number)
            .first()
        )
        return super().dispatch(request, *args, **kwargs)

    def make_form(self, data=None, typed: dict | None = None) -> TableReportForm:
        revision = self.sheet.revision if self.sheet else 0
        initial = {"revision": revision, **(typed or {})}
        return TableReportForm(data, initial=initial, context=self.context)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = kwargs.get("form")
        if form is None and open_for_entry(self.sheet):
            form = self.make_form()
        current = self.sheet.current if self.sheet else None
        shown = current is not None and self.sheet.status != Status.IN_PROGRESS
        context.update(
            call=open_call(self.round, self.table_number),
            round=self.round,
            table_number=self.table_number,
            seated=list(zip(WINDS, self.context.seated, strict=True)),
            status=self.sheet.status if self.sheet else Status.NOT_ENTERED,
            status_label=(
                self.sheet.get_status_display() if self.sheet else Status.NOT_ENTERED.label
            ),
            current_view=describe_version(current, self.context, self.rules) if shown else None,
            form=form,
            problems=problem_summary(form),
        )
        return context

    def render(self, form, status: int = 200, **extra):
        return self.render_to_response(self.get_context_data(form=form, **extra), status=status)

    def post(self, request, *args, **kwargs):
        if request.POST.get("action") == "call":
            return self.call_referee(request)
        form = self.make_form(request.POST)
        if not open_for_entry(self.sheet):
            return self.refuse(request, form)
        if request.POST.get("action", "check") not in ("check", "save"):
            error = _("This page cannot do that: check the sheet, then save it.")
            form.is_valid()
            return self.render(form, status=400, error=error)
        if not form.is_valid():
            return self.render(form)
        entry = form.to_entry()
        shown = check_before_save(request, form, entry, self.rules, self.context)
        if shown is not None:
            return self.render(form, **shown)
        try:
            outcome = sheet_enter(
                round_=self.round,
                table_number=self.table_number,
                entry=entry,
                token=form.cleaned_data["token"],
                revision=form.cleaned_data["revision"],
                acting_user=None,
                table_report=True,
            )
        except RulesErrors as errors:
            form.add_rules_errors(errors)
            return self.render(form)
        except SheetConflict as conflict:
            return self.render_conflict(request, conflict)
        except SheetError as error:
            return self.render(form, error=str(error))
        self.announce(outcome.sheet.status, created=outcome.created)
        return redirect(request.path)

    def call_referee(self, request):
        """One tap calls a referee; a second one while the call is open finds it."""
        _call, created = referee_call_make(
            round_=self.round,
            table_number=self.table_number,
            reason=request.POST.get("reason", ""),
            acting_user=None,  # the table: no account
        )
        messages.success(
            request,
            _("A referee is called to your table.")
            if created
            else _("A referee is already called to your table: they are on their way."),
        )
        if "token" not in request.POST or not open_for_entry(self.sheet):
            return redirect(request.path)
        # The button belongs to the report's form while there is one: what the table had
        # typed comes back in it, as typed, not checked yet (a half-typed report is no error).
        sent = self.make_form(request.POST)
        typed = {name: sent[name].data for name, field in sent.fields.items() if not field.disabled}
        return self.render(self.make_form(typed=typed))

    def refuse(self, request, form: TableReportForm):
        """The sheet was confirmed or disputed since the page was loaded: a report sent
        again is recognised by its token; any other is shown again, beside what stands."""
        resent = resent_entry(self.sheet, request.POST.get("token", ""))
        if resent is not None:
            self.announce(resent.sheet.status, created=False)
            return redirect(request.path)
        form.is_valid()
        if self.sheet.status == Status.DISPUTED:
            error = _("This sheet is disputed: a referee settles it with your table.")
        else:
            error = _(
                "An official has confirmed this sheet meanwhile (shown below). If it is wrong, "
                "call a referee: your input is kept below to show them."
            )
        return self.render(form, error=error, kept=True)

    def render_conflict(self, request, conflict: SheetConflict):
        """Someone saved the sheet since the page was loaded: what stands is shown above, the
        input is kept, and saving again is a deliberate choice."""
        data = request.POST.copy()
        data["revision"] = str(conflict.current.sheet.revision if conflict.current else 0)
        form = self.make_form(data)
        form.is_valid()
        return self.render(form, error=str(conflict))

    def announce(self, status: str, *, created: bool) -> None:
        if not created:
            messages.info(
                self.request, _("This report was already saved; nothing was saved twice.")
            )
        elif status == Status.DISPUTED:
            messages.warning(
                self.request,
                _(
                    "Your report differs from the one before: the table is disputed. A referee "
                    "settles it with your table."
                ),
            )
        else:
            messages.success(
                self.request,
                _("Reported. It counts once an official confirms it against the signed sheet."),
            )
