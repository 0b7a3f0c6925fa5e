"""One alert written and sent: in the player's language, to the players who may get it, each
mail ending with the player's page, calendar feed and unsubscribe link.

A player gets alerts when the organisers have their address (given at registration or in
the imported spreadsheet: they gave it for this) and they have not followed an unsubscribe
link of the tournament (`Registration.alerts_stopped_at`). The mails are plain text, in the
language of the player's registration form when they registered themselves, else in the
site's language (LANGUAGE_CODE): the worker has no reader whose language it could take.
"""

from collections.abc import Callable, Iterable
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournament.alerts.links import player_links, unsubscribe_url
from tournament.models import Registration, RegistrationRequest, Round, Tournament
from tournament.selectors import SeatView


def may_get_alerts(registration: Registration) -> bool:
    """It has an address and the player has not unsubscribed."""
    return bool(registration.player.email) and registration.alerts_stopped_at is None


def local_time(tournament: Tournament, round_: Round, format: str = "DATETIME_FORMAT") -> str:
    """The round's scheduled start in the tournament's zone, "" if it has none."""
    if round_.scheduled_start is None:
        return ""
    moment = round_.scheduled_start.astimezone(ZoneInfo(tournament.time_zone))
    return date_format(moment, format)


def seat_lines(
    tournament: Tournament, round_: Round, seat: SeatView, table: list[SeatView]
) -> list[str]:
    """The round's time, and the player's table, wind and opponents unless the organisers
    hide the seating (the mails of every player would rebuild the plan)."""
    lines = []
    start = local_time(tournament, round_)
    if start:
        lines.append(_("Start: %(time)s") % {"time": start})
    if tournament.show_seating:
        lines.append(
            _("Table %(table)s, %(wind)s") % {"table": seat.table_number, "wind": seat.wind_label}
        )
        lines.extend(
            _("%(wind)s: %(name)s") % {"wind": other.wind_label, "name": other.name}
            for other in table
            if other.registration.pk != seat.registration.pk
        )
    return lines


def _message(
    tournament: Tournament, registration: Registration, subject: str, body: str
) -> EmailMessage:
    links = player_links(tournament, registration)
    unsubscribe = unsubscribe_url(tournament, registration)
    footer = "\n".join(
        [
            _("Your page: %(url)s") % {"url": links["page"]},
            _("Your calendar: %(url)s") % {"url": links["calendar"]},
            "",
            _(
                "You get these e-mails because your address was given for %(tournament)s. "
                "To stop them: %(url)s"
            )
            % {"tournament": tournament.name, "url": unsubscribe},
        ]
    )
    return EmailMessage(
        subject=_("%(tournament)s: %(subject)s")
        % {"tournament": tournament.name, "subject": subject},
        body=f"{body}\n\n{footer}\n",
        to=[registration.player.email],
        # RFC 2369 and RFC 8058: mail apps show their own unsubscribe button.
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def send_alerts(
    tournament: Tournament,
    registrations: Iterable[Registration],
    write: Callable[[Registration], tuple[str, str]],
) -> int:
    """Send each registration that may get alerts the mail `write` gives it (subject, body),
    in the player's language (`_languages`), through one connection; how many were sent."""
    receiving = [registration for registration in registrations if may_get_alerts(registration)]
    languages = _languages(receiving)
    messages = []
    for registration in receiving:
        with translation.override(languages.get(registration.pk, settings.LANGUAGE_CODE)):
            messages.append(_message(tournament, registration, *write(registration)))
    if not messages:
        return 0
    return get_connection().send_messages(messages) or 0


def _languages(registrations: list[Registration]) -> dict[int, str]:
    """The language each self-registered player filled the form in, by registration."""
    return dict(
        RegistrationRequest.objects.filter(registration__in=registrations)
        .exclude(language="")
        .values_list("registration_id", "language")
    )
