"""What ties a registration to the event's results, and the refusal to delete it then.

Seats and penalties protect their registration in the database, but its refusal names no
player, and a substitute named on a score sheet is held only by the sheet's data, where a
deleted registration would leave a seat of the results nobody's. So deleting a registration
on its own is refused here, with the reason, before anything is deleted: by the admin, which
asks first (`refuse_deleting_results`), and for any other caller (a shell, a command) by
`refuse_deleting_alone`, which answers the registrations' own signal before they are
deleted (`tournament.signals.registrations_deleting`). A tournament deleted as a whole
still takes its registrations with it.
"""

from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Penalty, SheetVersion
from tournament.models import Registration, Seat


@dataclass(frozen=True)
class ResultsHeld:
    """What ties a registration to the event's results, so that it must not be deleted."""

    seated_rounds: list[int]
    penalties: int
    substitute_at: list[tuple[int, int]]  # (round, table) of the sheets naming them

    def __bool__(self) -> bool:
        return bool(self.seated_rounds or self.penalties or self.substitute_at)


def results_held(registration: Registration) -> ResultsHeld:
    """What ties this registration to the results (see `results_held_for`)."""
    return results_held_for([registration])[registration.pk]


def results_held_for(registrations: list[Registration]) -> dict[int, ResultsHeld]:
    """Seats and penalties protect their registration in the database; a substitute named
    on a score sheet is held only by the sheet's data, where a deleted registration would
    leave a seat of the results nobody's. Three queries for any number of registrations."""
    pks = {registration.pk for registration in registrations}
    seated: dict[int, set[int]] = {pk: set() for pk in pks}
    for pk, number in Seat.objects.filter(registration__in=pks).values_list(
        "registration_id", "round__number"
    ):
        seated[pk].add(number)
    penalties = Counter(
        Penalty.objects.filter(registration__in=pks).values_list("registration_id", flat=True)
    )
    substitute_at: dict[int, set[tuple[int, int]]] = {pk: set() for pk in pks}
    versions = SheetVersion.objects.filter(
        sheet__round__tournament_id__in={r.tournament_id for r in registrations}
    ).values_list("sheet__round__number", "sheet__table_number", "data")
    for round_number, table, data in versions:
        for seat in data.get("seats", []):
            if seat.get("substitute") in substitute_at:
                substitute_at[seat["substitute"]].add((round_number, table))
    return {
        pk: ResultsHeld(sorted(seated[pk]), penalties[pk], sorted(substitute_at[pk])) for pk in pks
    }


def results_held_message(registration: Registration, held: ResultsHeld) -> str:
    """Why the registration is not deleted and what to do instead, in the active language."""
    uses = []
    if held.seated_rounds:
        uses.append(
            ngettext(
                "seated in round %(rounds)s",
                "seated in rounds %(rounds)s",
                len(held.seated_rounds),
            )
            % {"rounds": ", ".join(map(str, held.seated_rounds))}
        )
    if held.penalties:
        uses.append(
            ngettext("given %(count)s penalty", "given %(count)s penalties", held.penalties)
            % {"count": held.penalties}
        )
    if held.substitute_at:
        uses.append(
            _("a substitute on the score sheet of %(tables)s")
            % {
                "tables": ", ".join(
                    _("round %(round)s, table %(table)s") % {"round": number, "table": table}
                    for number, table in held.substitute_at
                )
            }
        )
    return _(
        "%(player)s is not deleted: %(uses)s. Withdraw them instead (action “Withdraw”, with "
        "a reason), so that the rounds played keep their results."
    ) % {"player": registration.player, "uses": "; ".join(uses)}


class ResultsHeldError(Exception):
    """Registrations that hold results were to be deleted: nothing was. `held` says, for
    each of them, what ties it to the results; `messages` says it to the user."""

    def __init__(self, held: dict[Registration, ResultsHeld]) -> None:
        self.held = held
        self.messages = [results_held_message(r, uses) for r, uses in held.items()]
        super().__init__(" ".join(self.messages))


def refuse_deleting_results(registrations: list[Registration]) -> None:
    """Raise `ResultsHeldError` if any of the registrations holds results: the rounds
    played would lose a player. The database protects seats and penalties on its own, but
    not a substitute named in a score sheet's data, and its refusal names no player."""
    held = results_held_for(registrations)
    refused = {r: held[r.pk] for r in registrations if held[r.pk]}
    if refused:
        raise ResultsHeldError(refused)


def refuse_deleting_alone(sender, registrations: list[Registration], **kwargs) -> None:
    """Answers `tournament.signals.registrations_deleting`: a shell or a command deleting a
    registration that holds results gets the reason, not the database's ProtectedError
    naming seats but no player (nor nothing at all for a substitute on a sheet)."""
    refuse_deleting_results(registrations)
