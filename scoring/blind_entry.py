"""What blind double entry keeps from a second official beyond the sheet pages.

Under double blind a first entry stays hidden from whoever may still enter the sheet second
(`scoring.policy.hidden_from`). The sheet pages and the admin hide it version by version.
The complete archive holds every version of every sheet, so it is refused to that official
while such a sheet waits (`refuse_archive_while_blind`, the scoring app's answer to
`tournament.signals.archive_requested`), and given once the second entries are in. Refused
rather than given without those versions: an archive is the tournament's backup, and one
without a sheet's standing version would not import (the sheet points to it), or would
restore the sheet without its first entry. The server's own backups
(`manage.py backup`) are not a download and keep everything.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import ScoreSheet
from scoring.policy import hidden_from
from tournament.models import Tournament


def tables_hidden_from(tournament: Tournament, user) -> list[tuple[int, int]]:
    """(round, table) of the sheets whose first entry `user` must not see yet."""
    sheets = (
        ScoreSheet.objects.filter(
            round__tournament=tournament,
            status=ScoreSheet.Status.ENTERED,
            current__isnull=False,
        )
        .select_related("round", "current")
        .order_by("round__number", "table_number")
    )
    return [
        (sheet.round.number, sheet.table_number)
        for sheet in sheets
        if hidden_from(tournament, sheet, sheet.current, user)
    ]


def refuse_archive_while_blind(sender, *, tournament: Tournament, user, **kwargs) -> str | None:
    """The archive refused while it would show `user` a first entry they may still enter
    second (None: it would not)."""
    tables = tables_hidden_from(tournament, user)
    if not tables:
        return None
    names = "; ".join(
        _("round %(round)s, table %(table)s") % {"round": round_, "table": table}
        for round_, table in tables
    )
    return ngettext(
        "Blind double entry: the sheet of %(tables)s waits for its second entry, which you "
        "may make, and the complete archive would show you its first entry. Download the "
        "archive once that entry is in.",
        "Blind double entry: the sheets of %(tables)s wait for their second entry, which you "
        "may make, and the complete archive would show you their first entries. Download the "
        "archive once those entries are in.",
        len(tables),
    ) % {"tables": names}
