"""The tournament's officials, from its admin page: invite one in one step (an account, its
role and a login card with a one-time link), print a card again, take a role away."""

import segno
from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.admin.base import changeable_tournament
from tournament.admin.staff import accounts_of, follow_admin_access
from tournament.login_links import login_link_expiry, login_link_path, may_have_login_link
from tournament.models import Tournament, TournamentStaff
from tournament.names import strip_controls
from tournament.selectors import accounts_like, officials_of
from tournament.services.staff import official_invite, staff_role_delete

#: The choice of a new account among the accounts found.
NEW_ACCOUNT = "new"


def account_label(account) -> str:
    """How an account is offered: its user name, and its name and e-mail when it has them."""
    details = " · ".join(filter(None, [account.get_full_name(), account.email]))
    return f"{account.get_username()} ({details})" if details else account.get_username()


class InviteForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=150)
    email = forms.EmailField(label=gettext_lazy("E-mail (optional)"), required=False)
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=TournamentStaff.Role.choices,
        initial=TournamentStaff.Role.REFEREE,
    )
    account = forms.ChoiceField(
        label=gettext_lazy("Account"), required=False, widget=forms.RadioSelect
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.matches = {}
        if self.is_bound:
            found = accounts_like(
                strip_controls(self.data.get("name", "")), self.data.get("email", "")
            )
            self.matches = {str(account.pk): account for account in found}
        self.fields["account"].choices = [
            *((pk, account_label(account)) for pk, account in self.matches.items()),
            (NEW_ACCOUNT, _("A new account for this person")),
        ]

    def clean_name(self) -> str:
        name = " ".join(strip_controls(self.cleaned_data["name"]).split())
        if not name:
            raise ValidationError(_("Type the official's name."))
        return name

    def clean_account(self):
        """An existing account the organiser chose, or None for a new one. Offered first
        whenever one looks like the person, so nobody gets a second account."""
        choice = self.cleaned_data["account"]
        if choice == NEW_ACCOUNT or not self.matches:
            return None
        if not choice:
            raise ValidationError(
                _(
                    "An account like this one already exists: give the role to it, or "
                    "choose a new account if this is somebody else."
                )
            )
        account = self.matches[choice]
        held = self.tournament.staff.filter(user=account).first()
        if held:
            raise ValidationError(
                _("%(account)s is already %(role)s of this tournament.")
                % {"account": account.get_username(), "role": held.get_role_display()}
            )
        return account


class OfficialsViews:
    """The tournament admin's page of officials, the login card and the role removal."""

    def get_urls(self):
        custom = [
            path(
                "<int:pk>/officials/",
                self.admin_site.admin_view(self.officials_view),
                name="tournament_tournament_officials",
            ),
            path(
                "<int:pk>/officials/<int:staff>/card/",
                self.admin_site.admin_view(self.login_card_view),
                name="tournament_tournament_login_card",
            ),
            path(
                "<int:pk>/officials/<int:staff>/remove/",
                self.admin_site.admin_view(self.remove_role_view),
                name="tournament_tournament_remove_role",
            ),
        ]
        return custom + super().get_urls()

    def officials_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = changeable_tournament(self, request, pk)
        form = InviteForm(request.POST or None, tournament=tournament)
        if request.method == "POST" and form.is_valid():
            try:
                staff = official_invite(
                    tournament=tournament,
                    role=form.cleaned_data["role"],
                    name=form.cleaned_data["name"],
                    email=form.cleaned_data["email"],
                    account=form.cleaned_data["account"],
                    acting_user=request.user,
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(
                    request,
                    _("%(account)s is now %(role)s of %(tournament)s.")
                    % {
                        "account": staff.user.get_username(),
                        "role": staff.get_role_display(),
                        "tournament": tournament,
                    },
                )
                if may_have_login_link(staff.user, request.user):
                    return redirect(
                        "admin:tournament_tournament_login_card", tournament.pk, staff.pk
                    )
                messages.info(request, _("They log in with the password they already have."))
                return redirect("admin:tournament_tournament_officials", tournament.pk)
        officials = [
            (staff, may_have_login_link(staff.user, request.user))
            for staff in officials_of(tournament)
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": _("Officials of %(tournament)s") % {"tournament": tournament},
            "tournament": tournament,
            "opts": self.model._meta,
            "form": form,
            "officials": officials,
            "confirm_own": request.GET.get("confirm", ""),
        }
        return TemplateResponse(request, "admin/tournament/officials.html", context)

    def _staff(self, request: HttpRequest, pk: int, staff: int) -> TournamentStaff:
        tournament = changeable_tournament(self, request, pk)
        return get_object_or_404(
            TournamentStaff.objects.select_related("user", "tournament"),
            pk=staff,
            tournament=tournament,
        )

    def login_card_view(self, request: HttpRequest, pk: int, staff: int) -> HttpResponse:
        """A printable card with a fresh one-time link and its QR code."""
        role = self._staff(request, pk, staff)
        if not may_have_login_link(role.user, request.user):
            messages.error(
                request,
                _(
                    "%(account)s has a password already: no login link is made for it. A "
                    "forgotten password is set again by an administrator."
                )
                % {"account": role.user.get_username()},
            )
            return redirect("admin:tournament_tournament_officials", pk)
        link = request.build_absolute_uri(login_link_path(role.user))
        context = {
            "staff": role,
            "tournament": role.tournament,
            "link": link,
            "qr_code": segno.make(link, error="m").svg_inline(scale=5, border=2),
            "expires": login_link_expiry(),
        }
        return TemplateResponse(request, "admin/tournament/login_card.html", context)

    def remove_role_view(self, request: HttpRequest, pk: int, staff: int) -> HttpResponse:
        """One click, audited; the account stays."""
        role = self._staff(request, pk, staff)
        back = redirect("admin:tournament_tournament_officials", pk)
        if request.method != "POST":
            return back
        own = role.user_id == request.user.pk and not request.user.is_superuser
        if own and request.POST.get("own") != "confirmed":
            messages.warning(
                request,
                _(
                    "That is your own role: once it is removed you can no longer run "
                    "%(tournament)s. Press “Remove my own role” to confirm."
                )
                % {"tournament": role.tournament},
            )
            return redirect(
                reverse("admin:tournament_tournament_officials", args=[pk]) + f"?confirm={role.pk}"
            )
        try:
            staff_role_delete(staff=role, acting_user=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return back
        follow_admin_access(self, request, accounts_of([role]))
        messages.success(
            request,
            _("%(account)s is no longer %(role)s of %(tournament)s.")
            % {
                "account": role.user.get_username(),
                "role": role.get_role_display(),
                "tournament": role.tournament,
            },
        )
        if not self.get_queryset(request).filter(pk=pk).exists():
            return redirect("admin:index")  # their own organiser role, taken away
        return redirect(reverse("admin:tournament_tournament_officials", args=[pk]))
