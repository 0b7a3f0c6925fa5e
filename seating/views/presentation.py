"""How a seating proposal reads to an organiser: the quality report's rows, the plan with
names and winds, how it was made, and what its Swiss groups were made from.

Presentation only: the figures come from the run as the services stored it; nothing here
queries or writes.
"""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from seating.engine import pairs_always_together
from seating.models import SeatingRun
from tournament.models import WIND_LABELS, Seat

#: Every row is shown whatever the run asked for (the clashes of teams and clubs too, so that
#: what keeping one apart costs, or not keeping it apart, shows): (metric, label, bound).
QUALITY_ROWS = [
    ("repeat_pairs", gettext_lazy("Repeated meetings"), "repeat_lower_bound"),
    ("max_meetings", gettext_lazy("Most meetings of one pair"), "max_meetings_lower_bound"),
    (
        "table_reuse",
        gettext_lazy("Table reuse (extra visits to the same table)"),
        "table_reuse_lower_bound",
    ),
    ("clashes_team", gettext_lazy("Team mates seated together"), None),
    ("clashes_club", gettext_lazy("Club mates seated together"), None),
    (
        "wind_imbalance",
        gettext_lazy("Wind spread (most minus fewest of one wind)"),
        "wind_imbalance_lower_bound",
    ),
]
#: Kept apart by country, the clashes the generator weighed have a row of their own.
COUNTRY_ROW = ("team_clashes", gettext_lazy("Compatriots seated together"), None)

#: The engine's ``method`` (a log line, also in the CLI's output: "construction GF(5) + search
#: from the current seating") by how it starts → what it tells an organiser. Starts not
#: listed (a Swiss run, whose mode already says so) say nothing more and are left out.
METHOD_STARTS = [
    ("construction GF(", gettext_lazy("finite-field construction")),
    ("construction AG(", gettext_lazy("finite-field construction")),
    ("construction Z_", gettext_lazy("arithmetic construction")),
    ("construction cyclic design", gettext_lazy("arithmetic construction")),
    ("construction stored design", gettext_lazy("ready-made design")),
    ("best known plan", gettext_lazy("best plan known for this size")),
    ("the current seating", gettext_lazy("the current seating, kept")),
    ("search", gettext_lazy("computer search")),
]
SEARCH_ADDED = " + search"


def method_description(method: str) -> str:
    """How a plan was made, in the organiser's words ("" when that says nothing to them)."""
    start = next((label for prefix, label in METHOD_STARTS if method.startswith(prefix)), None)
    if start is None:
        return ""
    if SEARCH_ADDED in method:
        return _("%(start)s, then improved by a computer search") % {"start": start}
    return str(start)


def swiss_notes(run: SeatingRun) -> list[str]:
    """What a Swiss proposal's groups were made from, when the standings were not final: said
    on the run's page, which the progress bar reloads (a one-time message would be gone)."""
    if run.mode != SeatingRun.Mode.SWISS:
        return []
    if run.swiss_ranked == []:
        return [
            _(
                "There were no standings when this proposal was made: players were grouped in "
                "registration order."
            )
        ]
    incomplete = run.snapshot.get("incomplete_rounds", [])
    if not incomplete:
        return []
    # The last round is often seated while the one before is still being entered: groups
    # from half the results would be wrong.
    return [
        ngettext(
            "Round %(rounds)s was not complete when this proposal was made (some score sheets "
            "were not confirmed): its groups come from the standings as they were then. Seat "
            "round %(round)s again once it is complete.",
            "Rounds %(rounds)s were not complete when this proposal was made (some score "
            "sheets were not confirmed): its groups come from the standings as they were then. "
            "Seat round %(round)s again once they are complete.",
            len(incomplete),
        )
        % {"rounds": ", ".join(map(str, incomplete)), "round": run.round_numbers[0]}
    ]


def always_together(run: SeatingRun, registrations: dict) -> list[str]:
    """Names of the pairs the proposal seats together in every one of its rounds (two or
    more): the report's totals hide them, and players notice them first. Players fixed to
    one table are left out: they meet by the organiser's choice, whatever the priority."""
    fixed = run.snapshot.get("fixed_tables", {})
    pairs = pairs_always_together([item["tables"] for item in run.plan])
    return [
        _("%(first)s and %(second)s")
        % {
            "first": registrations[a].player.display_name,
            "second": registrations[b].player.display_name,
        }
        for a, b in pairs
        if a in registrations
        and b in registrations
        and (str(a) not in fixed or fixed[str(a)] != fixed.get(str(b)))
    ]


def _figure(metrics: dict[str, Any], key: str, keep_apart: str) -> Any:
    """A figure of the report; runs made before every clash was counted only counted the
    clashes of what they kept apart."""
    if key not in metrics and key == f"clashes_{keep_apart}":
        return metrics.get("team_clashes")
    return metrics.get(key)


def quality_rows(run: SeatingRun) -> list[dict[str, Any]]:
    """The quality report as table rows: as generated, before the last swap, now, bound."""
    rows = QUALITY_ROWS
    if run.keep_apart == SeatingRun.KeepApart.COUNTRY:
        rows = [*rows, COUNTRY_ROW]
    return [
        {
            "key": key,
            "label": label,
            "generated": _figure(run.generated_metrics, key, run.keep_apart),
            "previous": _figure(run.previous_metrics, key, run.keep_apart)
            if run.previous_metrics
            else None,
            "current": _figure(run.metrics, key, run.keep_apart),
            "bound": run.metrics.get(bound) if bound else None,
        }
        for key, label, bound in rows
    ]


def plan_rounds(run: SeatingRun, registrations: dict) -> list[dict[str, Any]]:
    """The proposed plan with names and winds, per round and table; the players of the last
    swap are marked. A Swiss round gives each ranked player's position in the standings it
    was seated from, so the organiser sees how closely its tables follow them."""
    winds = list(Seat.Wind)
    last = run.swaps[-1] if run.swaps else {"round": None, "players": []}
    places = run.snapshot.get("places")  # runs made before places were kept: ranks
    if places is None:
        position = {pk: index + 1 for index, pk in enumerate(run.swiss_ranked or [])}
    else:
        position = {int(pk): place for pk, place in places.items()}
    return [
        {
            "number": item["number"],
            "tables": [
                {
                    "number": index + 1,
                    "seats": [
                        {
                            "wind": WIND_LABELS[winds[seat].value],
                            "registration": registrations.get(player),
                            "standing": position.get(player),
                            "swapped": item["number"] == last["round"]
                            and player in last["players"],
                        }
                        for seat, player in enumerate(table)
                    ],
                }
                for index, table in enumerate(item["tables"])
            ],
        }
        for item in run.plan
    ]
