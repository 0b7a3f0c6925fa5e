"""Registration requests from the public form: the waiting list in its order, the requests
awaiting approval, and the organiser's approval or refusal (actions calling the services).
What a player typed is theirs: the admin shows it and changes none of it."""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy, ngettext

from tournament.admin.base import ReadOnlyAdmin, listed
from tournament.models import RegistrationRequest
from tournament.services.self_registration import request_approve, request_withdraw


@admin.register(RegistrationRequest)
class RegistrationRequestAdmin(ReadOnlyAdmin):
    list_display = [
        "__str__",
        "tournament",
        "status",
        "waiting_since",
        "email",
        "ema_number",
        "country",
        "club",
        "created_at",
    ]
    list_filter = [listed("tournament"), "status"]
    search_fields = ["first_name", "last_name", "public_name", "email", "ema_number"]
    list_select_related = ["tournament"]
    actions = ["approve", "refuse"]

    def get_ordering(self, request: HttpRequest) -> list[str]:
        """The waiting list in its order, first come first served."""
        return ["waiting_since", "-created_at"]

    def _act(self, request: HttpRequest, queryset, service, done_message) -> None:
        done = 0
        for registration_request in queryset.select_related("tournament"):
            try:
                service(request=registration_request, acting_user=request.user)
                done += 1
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
        self.message_user(request, done_message(done) % {"count": done})

    @admin.action(description=gettext_lazy("Approve (a place, or the waiting list)"))
    def approve(self, request: HttpRequest, queryset) -> None:
        self._act(
            request,
            queryset,
            request_approve,
            lambda done: ngettext(
                "%(count)s request approved.", "%(count)s requests approved.", done
            ),
        )

    @admin.action(description=gettext_lazy("Refuse or withdraw"))
    def refuse(self, request: HttpRequest, queryset) -> None:
        self._act(
            request,
            queryset,
            request_withdraw,
            lambda done: ngettext(
                "%(count)s request withdrawn.", "%(count)s requests withdrawn.", done
            ),
        )
