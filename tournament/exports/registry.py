"""The downloads of the organiser's Exports page, gathered from every app (after pretix's
exporters).

Each app registers its exports when Django starts (`AppConfig.ready`): the page and its
download views (`tournament.views.staff`) list and serve them by kind without importing the
apps that own them. An export is a callable that takes the tournament, or the round, and
returns an object following `tournament.exports.base.Export`.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from tournament.exports.base import Export
from tournament.models import Tournament


@dataclass(frozen=True)
class ExportKind:
    kind: str  # in the URL: /manage/<slug>/exports/<kind>/
    label: str | Promise
    make: Callable[..., Export]  # the tournament (or the round) → the export
    position: int  # its place in the page's list, whichever app registered it first
    # Whether the page offers it for this tournament (e.g. the team rankings with teams only);
    # the download itself stays available.
    offered: Callable[[Tournament], bool] | None = None
    # Why the download is refused to this user now (None: it is not), said on the page.
    refusal: Callable[[Tournament, Any], str | None] | None = None
    # `make` also takes origin= (the site's scheme and host, as the download reached it):
    # an export printing addresses to scan (the table cards' QR codes) has no request.
    needs_origin: bool = False


#: kind → ExportKind, in the page's order.
TOURNAMENT_EXPORTS: dict[str, ExportKind] = {}
ROUND_EXPORTS: dict[str, ExportKind] = {}


def _register(exports: dict[str, ExportKind], export: ExportKind) -> None:
    exports[export.kind] = export
    ordered = sorted(exports.values(), key=lambda entry: entry.position)
    exports.clear()
    exports.update((entry.kind, entry) for entry in ordered)


def register_tournament_export(
    kind: str,
    label: str | Promise,
    make: Callable[[Tournament], Export],
    *,
    position: int,
    offered: Callable[[Tournament], bool] | None = None,
    refusal: Callable[[Tournament, Any], str | None] | None = None,
) -> None:
    """An export of the whole tournament (standings, archive…)."""
    _register(TOURNAMENT_EXPORTS, ExportKind(kind, label, make, position, offered, refusal))


def register_round_export(
    kind: str,
    label: str | Promise,
    make: Callable[..., Export],
    *,
    position: int,
    needs_origin: bool = False,
) -> None:
    """An export of one round (seating, score sheets…)."""
    _register(ROUND_EXPORTS, ExportKind(kind, label, make, position, needs_origin=needs_origin))


def offered_tournament_exports(tournament: Tournament) -> list[ExportKind]:
    return [
        export
        for export in TOURNAMENT_EXPORTS.values()
        if export.offered is None or export.offered(tournament)
    ]
