"""The registration list of a tournament as XLSX (also re-importable: same headers)."""

from django.utils.translation import gettext as _

from tournament.exports.base import XLSX_CONTENT_TYPE
from tournament.exports.xlsx import workbook_bytes
from tournament.models import Tournament
from tournament.names import player_sort_key


class RegistrationsXlsx:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def rows(self):
        # The pages' order, not the database's: accents folded, placeholder substitutes last.
        registrations = sorted(
            self.tournament.registrations.select_related("player", "team"), key=player_sort_key
        )
        for registration in registrations:
            player = registration.player
            yield [
                player.first_name,
                player.last_name,
                player.nickname,
                player.public_name,
                player.country.code or "",
                player.club,
                player.ema_number,
                player.email,
                registration.team.name if registration.team else "",
                _("yes") if registration.is_substitute else "",
                registration.get_status_display(),
            ]

    def render(self) -> tuple[str, str, bytes]:
        headers = [
            "First name",
            "Last name",
            "Nickname",
            "Public name",
            "Country",
            "Club",
            "EMA number",
            "E-mail",
            "Team",
            "Substitute",
            "Status",
        ]
        content = workbook_bytes([(_("Registrations"), headers, self.rows())])
        return f"{self.tournament.slug}-registrations.xlsx", XLSX_CONTENT_TYPE, content
