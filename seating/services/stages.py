"""A round of a later stage seated by the stage's standings: the best four at table 1, the
next four at table 2, and so on, each table's winds in standings order (E, S, W, N).

A final is seated so, not by the generator: the tables are the point of the stage. Only the
players who went through the cut are seated; the seats are replaced in one transaction,
audited as a seating is. A larger field (a semi-final of several rounds) is seated by the
generator instead, from the same players (`seating.stage_players`), so that its rounds keep apart
who already met.
"""

from django.db import transaction

from scoring.models import Stage
from scoring.selectors.stages import stage_standings
from seating.messages import seating_validation_error
from seating.services.runs import check_rounds, lock_runs, open_runs_discard
from tournament.models import WINDS, Round, Seat
from tournament.services.audit import audit_record


@transaction.atomic
def stage_round_seat(*, stage: Stage, round_: Round, acting_user) -> list[Seat]:
    """Seat ``round_`` of ``stage`` by the stage's standings as they stand (before its first
    round: the carry-over, in the order of the earlier stage). Refused while the cut is open
    or when the players are no multiple of four."""
    tournament = stage.tournament
    lock_runs(tournament)
    check_rounds(tournament, [round_])
    standings = next(
        item for item in stage_standings(tournament, fresh=True) if item.stage == stage
    )
    numbers = [stage.first_round, *_later_rounds(stage)]
    if round_.number not in numbers:
        raise seating_validation_error("stage_round_outside", round=round_.number, stage=stage)
    if not standings.cut.resolved:
        raise seating_validation_error("stage_cut_open", stage=stage)
    players = [entry.registration_id for entry in standings.entries if not entry.withdrawn]
    if not players or len(players) % 4:
        raise seating_validation_error(
            "stage_not_multiple_of_four", players=len(players), stage=stage
        )
    Seat.objects.filter(round=round_).delete()
    seats = Seat.objects.bulk_create(
        Seat(round=round_, table_number=index // 4 + 1, wind=WINDS[index % 4], registration_id=pk)
        for index, pk in enumerate(players)
    )
    round_.status = Round.Status.SEATED
    round_.save(update_fields=["status"])
    Round.objects.filter(pk=round_.pk).schedule_changed()
    open_runs_discard(tournament)
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action="seating.stage",
        obj=stage,
        data={
            "round": round_.number,
            "tables": [players[i : i + 4] for i in range(0, len(players), 4)],
        },
    )
    return seats


def _later_rounds(stage: Stage) -> range:
    """The stage's rounds after its first: up to the next stage's first, or the last round."""
    following = (
        Stage.objects.filter(tournament=stage.tournament, first_round__gt=stage.first_round)
        .order_by("first_round")
        .values_list("first_round", flat=True)
        .first()
    )
    end = following if following is not None else stage.tournament.rounds_count + 1
    return range(stage.first_round + 1, end)
