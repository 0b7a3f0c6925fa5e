"""The key in a table card's QR code: what opens a table's page to its four players.

The players of a table report their result, without an account, from the page the QR code
of their table card opens. The key in its address is signed by the site (Django's signing,
a salt of its own), nothing to store, and names one round, one table and the card's issue:
it opens that table's page of that round, never another table, round or tournament. It
stops working when the organiser locks the round (the results are final), when the
tournament switches table reports off, and when the card is issued again
(`scoring.services.table_reports.table_key_reissue`): a lost or photographed card is
revoked by printing the table's card again.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.urls import reverse

from scoring.models import TableKey
from tournament.models import Round, Seat, Tournament

_SALT = "scoring.table_keys"


@dataclass(frozen=True)
class TableAccess:
    """The round and table a valid key opens."""

    round: Round
    table_number: int


def current_issue(round_: Round, table_number: int) -> int:
    """The issue a table's card carries now (0 until it is issued again)."""
    issue = (
        TableKey.objects.filter(round=round_, table_number=table_number)
        .values_list("issue", flat=True)
        .first()
    )
    return issue or 0


def issues_of_round(round_: Round) -> dict[int, int]:
    """table number → the issue its card carries now, for the tables issued again."""
    return dict(TableKey.objects.filter(round=round_).values_list("table_number", "issue"))


def table_key(round_: Round, table_number: int, issue: int | None = None) -> str:
    """The signed key of a table's card (`issue`: the current one unless given)."""
    if issue is None:
        issue = current_issue(round_, table_number)
    return signing.Signer(salt=_SALT).sign(f"{round_.pk}.{table_number}.{issue}")


def table_path(round_: Round, table_number: int, issue: int | None = None) -> str:
    """The address the card's QR code opens."""
    return reverse(
        "public:table",
        kwargs={
            "slug": round_.tournament.slug,
            "key": table_key(round_, table_number, issue),
        },
    )


def table_of_key(tournament: Tournament, key: str) -> TableAccess | None:
    """The table a key opens in this tournament, or None: altered, another tournament's,
    issued again since, its round locked, no such table, or table reports switched off."""
    if not tournament.table_reports:
        return None
    try:
        round_pk, table_number, issue = (
            int(part) for part in signing.Signer(salt=_SALT).unsign(key).split(".")
        )
    except (signing.BadSignature, ValueError):
        return None
    round_ = (
        Round.objects.select_related("tournament")
        .filter(pk=round_pk, tournament=tournament)
        .first()
    )
    if round_ is None or round_.is_locked:
        return None
    if issue != current_issue(round_, table_number):
        return None
    if not Seat.objects.filter(round=round_, table_number=table_number).exists():
        return None
    return TableAccess(round_, table_number)
