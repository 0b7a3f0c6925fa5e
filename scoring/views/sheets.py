"""Entering, checking, confirming and correcting a table's score sheet."""

from __future__ import annotations

import dataclasses
import hashlib
import json

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from scoring.entries import SheetEntry, evaluate_entry
from scoring.forms import (
    CorrectionForm,
    HandForm,
    HandFormSet,
    SheetForm,
    with_room_for_more_hands,
)
from scoring.messages import message_for
from scoring.models import ScoreSheet, SheetVersion
from scoring.policy import (
    awaits_second_entry,
    confirmed_by_blind_entry,
    hidden_from,
    may_confirm,
    open_for_correction,
    open_for_entry,
)
from scoring.rules import SEATS, RulesErrors, unusual_points
from scoring.services.sheets import (
    EntryOutcome,
    SheetConflict,
    SheetError,
    resent_entry,
    round_locked_message,
    sheet_confirm,
    sheet_correct,
    sheet_enter,
)
from scoring.views.common import (
    TableMixin,
    describe_evaluation,
    describe_version,
    warn_of_consequences,
)
from tournament.kept_input import kept_input
from tournament.permissions import Role

Status = ScoreSheet.Status


def entry_digest(entry: SheetEntry) -> str:
    """Fingerprint of what was checked, so that what is saved is what the official saw."""
    return hashlib.sha256(json.dumps(entry.to_data(), sort_keys=True).encode()).hexdigest()[:32]


def problem_summary(form: SheetForm | None, formset=None) -> list[tuple[str, str]]:
    """What Check found wrong, as (text, anchor or ""), for the top of the page, in the
    page's order: the sheet as a whole, the hands, then the seats and the other fields.
    Each field keeps its own error too."""
    if form is None:
        return []
    lines = [(str(error), "") for error in form.non_field_errors()]
    if formset is not None:
        lines += [(str(error), "") for error in formset.non_form_errors()]
        for number, hand_form in enumerate(formset.forms, start=1):
            lines += hand_form.error_summary(number)
    return lines + form.field_error_summary()


def check_before_save(
    request, form: SheetForm, entry: SheetEntry, rules, context, hand_forms=None
) -> dict | None:
    """Check and Save of every sheet form (an official's, a table's report): None when the
    entry may be saved (it is what was checked, and unusual points are ticked as right);
    else what the page shows again, the input kept: the engine's errors put on their fields
    (nothing more to show), or the check to compare with the paper sheet."""
    action = request.POST.get("action", "check")
    try:
        evaluation = evaluate_entry(rules, entry, context)
    except RulesErrors as errors:
        form.add_rules_errors(errors, hand_forms)
        return {}
    digest = entry_digest(entry)
    checked = action == "save" and request.POST.get("checked") == digest
    unusual = [
        message_for(warning) for warning in unusual_points(rules, evaluation.entry.seat_sheets())
    ]
    if checked and (not unusual or form.cleaned_data["unusual_confirmed"]):
        return None
    if action == "save" and not checked:
        messages.warning(
            request, _("The sheet changed since it was checked: check this result, then save.")
        )
    elif action == "save":
        form.add_error(
            "unusual_confirmed",
            _(
                "These points are unusual: check them against the paper sheet, "
                "then tick the box to save them."
            ),
        )
    return {
        "preview": describe_evaluation(evaluation, context),
        "checked": digest,
        "unusual": unusual,
    }


class SheetPageMixin(TableMixin):
    """The page of one table's sheet: its state, the entry form, the preview."""

    kind = SheetVersion.Kind.FINAL
    correcting = False
    template_name = "scoring/sheet.html"
    keeps_input_over_login = True

    # --- state of the sheet ---------------------------------------------------------------

    def current(self) -> SheetVersion | None:
        return self.sheet.current if self.sheet else None

    def is_blind(self) -> bool:
        """In blind double entry, a second official must not see the first entry."""
        current = self.current()
        return current is not None and hidden_from(
            self.tournament, self.sheet, current, self.request.user
        )

    def round_locked(self) -> bool:
        """A locked round's results are final: its sheets are shown, never offered for entry,
        confirmation or correction (the services refuse them too)."""
        return self.round.is_locked

    def can_enter(self) -> bool:
        if self.round_locked():
            return False
        if self.correcting:
            return open_for_correction(self.sheet)
        return open_for_entry(self.sheet)

    def can_confirm(self) -> bool:
        return not self.round_locked() and may_confirm(
            self.tournament, self.sheet, self.request.user
        )

    def can_correct(self) -> bool:
        """A head referee corrects a confirmed sheet or settles a disputed one here."""
        return (
            not self.round_locked()
            and self.is_at_least(Role.HEAD_REFEREE)
            and open_for_correction(self.sheet)
        )

    def dispute_versions(self) -> list[SheetVersion]:
        if self.sheet is None or self.sheet.status != Status.DISPUTED:
            return []
        versions = list(
            self.sheet.versions.exclude(action=SheetVersion.Action.DRAFT)
            .select_related("entered_by")
            .order_by("-number")[:2]
        )
        return versions[::-1]

    def prefill(self) -> SheetEntry | None:
        """The stored entry the form starts from (none for a blind second entry)."""
        current = self.current()
        if current is None or self.is_blind():
            return None
        if self.sheet.status == Status.DISPUTED and not self.correcting:
            return None
        entry = SheetEntry.from_data(current.kind, current.data)
        if self.kind == SheetVersion.Kind.FINAL and self.sheet.status == Status.IN_PROGRESS:
            # Hands saved part-way give the running score, not the final points.
            seats = tuple(dataclasses.replace(seat, points=None, chombo=0) for seat in entry.seats)
            entry = dataclasses.replace(entry, seats=seats, riichi_sticks_left=0)
        return entry

    # --- forms ----------------------------------------------------------------------------

    def form_class(self):
        return CorrectionForm if self.correcting else SheetForm

    def actions(self) -> tuple[str, ...]:
        """What the page's buttons send: Check, then Save."""
        return ("check", "save")

    def make_form(self, data=None):
        initial = {"revision": self.sheet.revision if self.sheet else 0}
        entry = self.prefill()
        if entry is not None:
            initial.update(SheetForm.initial_from(entry))
        return self.form_class()(data, initial=initial, context=self.context, kind=self.kind)

    def hand_formset(self, data=None):
        return None

    def collect(self, form, formset) -> SheetEntry:
        return form.to_entry()

    # --- rendering ------------------------------------------------------------------------

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.base_context())
        form = kwargs.get("form")
        formset = kwargs.get("formset")
        if form is None and self.can_enter():
            form = self.make_form()
            formset = self.hand_formset()
        if not (self.can_enter() or kwargs.get("kept")):
            form = None
        current = self.current()
        # Checked hands replace the running score of the hands saved part-way, which would
        # push the check and its Save a screen down on a phone.
        superseded = (
            kwargs.get("preview") is not None
            and self.sheet is not None
            and self.sheet.status == Status.IN_PROGRESS
        )
        show_current = current is not None and not self.is_blind() and not superseded
        context.update(
            kind=self.kind,
            correcting=self.correcting,
            form=form,
            formset=formset,
            blind=self.is_blind(),
            can_confirm=self.can_confirm(),
            can_correct=self.can_correct(),
            current_view=(
                describe_version(current, self.context, self.rules) if show_current else None
            ),
            disputed=[
                describe_version(version, self.context, self.rules)
                for version in self.dispute_versions()
            ],
            urls=self.urls(),
            start_points=self.rules.start_points,
            thousand_separator=get_format("THOUSAND_SEPARATOR"),
            locked_notice=round_locked_message(self.round) if self.round_locked() else "",
            # A full entry by another official waits: a part-way save would set it aside.
            part_way=not awaits_second_entry(self.sheet, self.request.user),
            problems=problem_summary(form, formset),
        )
        return context

    def urls(self) -> dict[str, str]:
        names = ("sheet", "hands", "confirm", "correct", "correct_hands", "history")
        return {name: self.table_url(name) for name in names} | {
            "round": reverse(
                "scoring:round", kwargs={"slug": self.tournament.slug, "number": self.round.number}
            )
        }

    def render(self, form, formset=None, status: int = 200, **extra):
        context = self.get_context_data(form=form, formset=formset, **extra)
        return self.render_to_response(context, status=status)

    def get(self, request, *args, **kwargs):
        """The page; or, just after a login, the sheet that was sent when the session had
        ended, filled in again and not saved."""
        data = kept_input(request)
        if data is None:
            return super().get(request, *args, **kwargs)
        self.setup_table()
        messages.warning(
            request,
            _(
                "You were logged out when you sent this sheet: what you typed is back below "
                "and nothing was saved. Check it, then save."
            ),
        )
        return self.render(self.make_form(data), self.hand_formset(data), kept=True)

    # --- POST -----------------------------------------------------------------------------

    def post(self, request, *args, **kwargs):
        self.setup_table()
        return self.handle_post(request)

    def handle_post(self, request):
        if not self.can_enter():
            return self.refuse(request)
        form = self.make_form(request.POST)
        formset = self.hand_formset(request.POST)
        action = request.POST.get("action", "check")
        valid = form.is_valid()
        if formset is not None:
            valid = formset.is_valid() and valid
        if action not in self.actions():
            # No button sends it (an old page, a hand-made request): saving it would skip
            # the Check, so the input is shown again instead.
            error = _("This page cannot do that: check the sheet, then save it.")
            return self.render(form, formset, status=400, error=error)
        if not valid:
            return self.render(form, formset)
        entry = self.collect(form, formset)
        if action in ("check", "save"):
            shown = check_before_save(
                request, form, entry, self.rules, self.context, self.used_hand_forms(formset)
            )
            if shown is not None:
                return self.render(form, formset, **shown)
        try:
            outcome = self.save(form, entry, draft=action == "draft")
        except RulesErrors as errors:
            form.add_rules_errors(errors, self.used_hand_forms(formset))
            return self.render(form, formset)
        except SheetConflict as conflict:
            return self.render_conflict(form, formset, conflict)
        except SheetError as error:
            return self.render(form, formset, error=str(error))
        self.announce(outcome)
        return redirect(self.page_url())

    def page_url(self) -> str:
        """This sheet's entry page (final scores or hand by hand), where a save returns."""
        return self.urls()["hands" if self.kind == "hands" else "sheet"]

    def refuse(self, request):
        """The sheet was confirmed, disputed or settled, or its round locked, after this page
        was loaded. A save sent again is recognised by its token; any other input is shown
        again beside what stands now, never dropped."""
        resent = resent_entry(self.sheet, request.POST.get("token", ""))
        if resent is not None:
            self.announce(resent)
            return redirect(self.page_url())
        form = self.make_form(request.POST)
        form.is_valid()
        formset = self.hand_formset(request.POST)
        if formset is not None:
            formset.is_valid()
        status = self.sheet.status if self.sheet else None
        if self.round_locked():
            error = round_locked_message(self.round)
        elif self.correcting:
            error = _("This sheet is no longer confirmed or disputed; see its state below.")
        elif status == Status.DISPUTED:
            error = _("This sheet became disputed meanwhile; a head referee settles it.")
        else:
            error = _(
                "This sheet was confirmed by someone else meanwhile (shown below). Your input "
                "is kept under it to compare; if the confirmed sheet is wrong, a head referee "
                "corrects it, with a reason."
            )
        return self.render(form, formset, error=error, kept=True)

    def used_hand_forms(self, formset):
        return None

    def save(self, form, entry: SheetEntry, draft: bool) -> EntryOutcome:
        data = form.cleaned_data
        if self.correcting:
            return sheet_correct(
                sheet=self.sheet,
                entry=entry,
                token=data["token"],
                revision=data["revision"],
                reason=data["reason"],
                acting_user=self.request.user,
            )
        return sheet_enter(
            round_=self.round,
            table_number=self.table_number,
            entry=entry,
            token=data["token"],
            revision=data["revision"],
            acting_user=self.request.user,
            draft=draft,
        )

    def render_conflict(self, form, formset, conflict: SheetConflict):
        """Show what is there now next to the official's input, which is kept; the form now
        names the current revision, so saving again is a deliberate choice."""
        self.setup_table()
        data = self.request.POST.copy()
        data["revision"] = str(self.sheet.revision if self.sheet else 0)
        form = self.make_form(data)
        form.is_valid()
        formset = self.hand_formset(data)
        if formset is not None:
            formset.is_valid()
        conflict_view = (
            describe_version(conflict.current, self.context, self.rules)
            if conflict.current is not None and not self.is_blind()
            else None
        )
        return self.render(form, formset, error=str(conflict), conflict=conflict_view)

    def announce(self, outcome: EntryOutcome) -> None:
        if not outcome.created:
            messages.info(
                self.request,
                _("This sheet was already saved (version %(number)s); nothing was saved twice.")
                % {"number": outcome.version.number},
            )
            return
        status = outcome.sheet.status
        level = messages.SUCCESS
        if status == Status.CONFIRMED:
            text = _("Saved and confirmed: the sheet counts in the standings.")
        elif status == Status.IN_PROGRESS:
            text = _("Hands saved. Continue when you can; nothing counts until the sheet is done.")
        elif status == Status.DISPUTED:
            # Not a success: the sheet counts for nobody until a head referee settles it.
            level = messages.WARNING
            text = _(
                "Your entry differs from the first one: the table is disputed. "
                "A head referee settles it."
            )
        elif confirmed_by_blind_entry(self.tournament):
            text = _("Saved. It counts once a second official enters it blind and both agree.")
        else:
            text = _("Saved. It counts once a second official confirms it.")
        messages.add_message(self.request, level, text)
        if status == Status.CONFIRMED:
            warn_of_consequences(self.request, self.tournament)


class SheetView(SheetPageMixin, TemplateView):
    """Final-score entry of a table (WRC 2015 §8.2 sheet)."""


class SheetCorrectView(SheetPageMixin, TemplateView):
    """A head referee corrects a confirmed sheet or settles a dispute, with a reason."""

    required_role = Role.HEAD_REFEREE
    correcting = True


class HandsPageMixin(SheetPageMixin):
    """Hand-by-hand entry: the engine replays the hands; the final points are derived."""

    kind = SheetVersion.Kind.HANDS
    template_name = "scoring/hands.html"

    def prefill(self) -> SheetEntry | None:
        entry = super().prefill()
        return entry if entry is not None and entry.kind == self.kind else None

    def hand_formset(self, data=None):
        seat_names = {
            wind: registration.player.display_name
            for wind, registration in zip(SEATS, self.context.seated, strict=True)
            if registration is not None
        }
        form_kwargs = {"rules": self.rules, "seat_names": seat_names}
        if data is not None:
            # No initial on a POST: a submitted hand equal to its initial would count as an
            # unchanged blank row and be dropped.
            return HandFormSet(
                with_room_for_more_hands(data), prefix="hands", form_kwargs=form_kwargs
            )
        entry = self.prefill()
        initial = [HandForm.initial_from(hand) for hand in entry.hands] if entry else []
        return HandFormSet(initial=initial, prefix="hands", form_kwargs=form_kwargs)

    def get_context_data(self, **kwargs):
        return {
            **super().get_context_data(**kwargs),
            "hand_fields": HandForm.fields_by_result(self.rules),
            "several_winners": self.rules.multiple_ron != "head_bump",
        }

    def actions(self) -> tuple[str, ...]:
        """An entry hand by hand also saves part-way; a correction never does."""
        return super().actions() + (() if self.correcting else ("draft",))

    def used_hand_forms(self, formset):
        return [form for form in formset.forms if not form.is_blank()] if formset else None

    def collect(self, form, formset) -> SheetEntry:
        hands = tuple(hand_form.to_hand() for hand_form in self.used_hand_forms(formset))
        return form.to_entry(hands=hands)


class HandsView(HandsPageMixin, TemplateView):
    pass


class HandsCorrectView(HandsPageMixin, TemplateView):
    required_role = Role.HEAD_REFEREE
    correcting = True


class SheetConfirmView(TableMixin, View):
    """POST: confirm the shown version (second official, or a head referee in a dispute)."""

    http_method_names = ["post", "options"]

    def post(self, request, *args, **kwargs):
        self.setup_table()
        target = self.table_url("sheet")
        if self.sheet is None:
            messages.error(request, _("Nothing has been entered for this table yet."))
            return redirect(target)
        try:
            version_number = int(request.POST.get("version", ""))
            sheet_confirm(sheet=self.sheet, version_number=version_number, acting_user=request.user)
        except ValueError:
            messages.error(request, _("There is no such version of this sheet to confirm."))
        except SheetError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Confirmed: the sheet counts in the standings."))
            warn_of_consequences(request, self.tournament)
        return redirect(target)


class SheetHistoryView(TableMixin, TemplateView):
    """Every version of the sheet: who, when, what, why, and who confirmed it."""

    template_name = "scoring/history.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.base_context())
        versions = []
        if self.sheet is not None:
            queryset = self.sheet.versions.select_related("entered_by").prefetch_related(
                "confirmations__user"
            )
            for version in queryset.order_by("-number"):
                blind = hidden_from(self.tournament, self.sheet, version, self.request.user)
                versions.append(
                    {
                        "version": version,
                        "view": None
                        if blind
                        else describe_version(version, self.context, self.rules),
                        "confirmations": list(version.confirmations.all()),
                        "is_current": version.pk == self.sheet.current_id,
                    }
                )
        context["versions"] = versions
        context["sheet_url"] = self.table_url("sheet")
        return context
