"""Who may enter, confirm, correct and see a score sheet, under the tournament's policy.

The confirmation policy (`Tournament.ConfirmationPolicy`) is one of: single entry (an entry
counts at once), confirmed by a second official (another official confirms the entry), or
double blind (a second official enters the sheet without seeing the first entry, and the two
must agree). Each rule is one predicate here, asked both by the service that enforces it
(`scoring.services.sheets`) and by the pages that offer the action (`scoring.views.sheets`),
so a page offers what the service accepts. The predicates only read what they are given: no
query, no write.

Not here: the round's lock (`Round.is_locked`) and the staff roles (`tournament.permissions`),
asked beside these.
"""

from __future__ import annotations

from scoring.models import ScoreSheet, SheetVersion
from tournament.models import Tournament

Status = ScoreSheet.Status
Policy = Tournament.ConfirmationPolicy

# Past entry: a confirmed sheet is corrected, a disputed one settled, by a head referee.
_CLOSED_TO_ENTRY = (Status.CONFIRMED, Status.DISPUTED)


def confirmed_on_entry(tournament: Tournament) -> bool:
    """Single entry: an official's entry counts at once."""
    return tournament.confirmation_policy == Policy.SINGLE


def confirmed_by_blind_entry(tournament: Tournament) -> bool:
    """Double blind: a second entry that agrees confirms the sheet, never a button."""
    return tournament.confirmation_policy == Policy.DOUBLE_BLIND


def open_for_entry(sheet: ScoreSheet | None) -> bool:
    """Officials enter the sheet until it is confirmed or disputed."""
    return sheet is None or sheet.status not in _CLOSED_TO_ENTRY


def open_for_correction(sheet: ScoreSheet | None) -> bool:
    """A head referee corrects a confirmed sheet or settles a disputed one."""
    return sheet is not None and sheet.status in _CLOSED_TO_ENTRY


def awaits_second_entry(sheet: ScoreSheet | None, user) -> bool:
    """The sheet is entered in full by another official (or by the players' table report)
    and waits for this one's entry or confirmation. A second entry is compared with it (it
    confirms or disputes the sheet); a part-way save would become the current version
    instead: the table would go back to "hands being entered", the full entry left out of
    the comparison (and, under blind double entry, shown in the history to the official who
    must not see it). `user` None is a table report, compared with any full entry, an
    earlier report of the table included."""
    entered = sheet is not None and sheet.status == Status.ENTERED and sheet.current is not None
    if user is None:
        return entered
    return entered and sheet.current.entered_by_id != user.pk


def may_confirm(tournament: Tournament, sheet: ScoreSheet | None, user) -> bool:
    """`user` may confirm the entered version with a button: never under double blind (a
    second entry does it), and with a second official, only someone who did not enter it."""
    if sheet is None or sheet.status != Status.ENTERED or sheet.current is None:
        return False
    if confirmed_by_blind_entry(tournament):
        return False
    return confirmed_on_entry(tournament) or sheet.current.entered_by_id != user.pk


def hidden_from(tournament: Tournament, sheet: ScoreSheet, version: SheetVersion, user) -> bool:
    """Under double blind, what another official entered stays hidden from `user` while the
    sheet waits for the second entry: seen, the second entry would be a copy."""
    return (
        confirmed_by_blind_entry(tournament)
        and sheet.status == Status.ENTERED
        and version.entered_by_id != user.pk
    )
