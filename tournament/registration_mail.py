"""The mails of the public registration: each one a task, queued once the change that
brings it is committed, in the language the player filled the form in.

What each kind says (`templates/mail/registration_<kind>.txt`): "confirm" asks the player to
confirm their address; "approval" that an organiser will approve the registration;
"waiting" the player's place on the waiting list; "registered" that they have a place,
with their check-in code. Every mail but the first carries the withdrawal link.
"""

from functools import partial

from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django_tasks import task

from tournament.models import RegistrationRequest
from tournament.registration_links import (
    CONFIRM,
    WITHDRAW,
    check_in_code,
    check_in_url,
    request_url,
)

#: Each mail and the request's status it tells: a mail whose news is already stale when
#: its task runs (a place came before the "waiting" mail went) is not sent.
KINDS = {
    "confirm": RegistrationRequest.Status.UNCONFIRMED,
    "approval": RegistrationRequest.Status.AWAITING_APPROVAL,
    "waiting": RegistrationRequest.Status.WAITING,
    "registered": RegistrationRequest.Status.REGISTERED,
}


def queue_registration_mail(request: RegistrationRequest, kind: str) -> None:
    """Send the mail once the current transaction commits (never for a change undone)."""
    if kind not in KINDS:
        raise ValueError(kind)
    transaction.on_commit(partial(send_registration_mail.enqueue, request.pk, kind))


@task()
def send_registration_mail(request_pk: int, kind: str) -> None:
    request = (
        RegistrationRequest.objects.select_related("tournament", "registration")
        .filter(pk=request_pk)
        .first()
    )
    if request is None or request.status != KINDS[kind]:
        return
    with translation.override(request.language or None):
        subject, body = registration_mail(request, kind)
    send_mail(subject, body, None, [request.email])


def registration_mail(request: RegistrationRequest, kind: str) -> tuple[str, str]:
    """The subject and text of a mail, in the active language."""
    tournament = request.tournament
    context = {"request": request, "tournament": tournament, "name": str(request)}
    if kind == "confirm":
        context["confirm_url"] = request_url(request, CONFIRM)
    else:
        context["withdraw_url"] = request_url(request, WITHDRAW)
    if kind == "waiting":
        waiting = list(tournament.registration_requests.waiting().values_list("pk", flat=True))
        context["position"] = waiting.index(request.pk) + 1
    if kind == "registered" and request.registration_id:
        code = check_in_code(request.registration)
        context.update(code=code, check_in_url=check_in_url(tournament, code))
    subjects = {
        "confirm": _("Confirm your registration for %(tournament)s"),
        "approval": _("Your registration for %(tournament)s awaits approval"),
        "waiting": _("You are on the waiting list of %(tournament)s"),
        "registered": _("You are registered for %(tournament)s"),
    }
    subject = subjects[kind] % {"tournament": tournament.name}
    return subject, render_to_string(f"mail/registration_{kind}.txt", context)
