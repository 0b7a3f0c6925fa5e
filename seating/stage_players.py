"""Which players the generator seats in the rounds of a later stage (a semi-final of several
rounds): those through the stage's cut, not the whole field. Read when a run starts and again
when it is applied (`seating.inputs.load_input` is given them), so a cut changed in between
makes the proposal stale rather than seat the wrong players.
"""

from collections.abc import Collection

from scoring.models import Stage
from scoring.selectors.stages import stage_standings, tournament_stages
from seating.messages import seating_validation_error
from tournament.models import Tournament


def stage_players(tournament: Tournament, numbers: Collection[int]) -> tuple[int, ...] | None:
    """The players the generator seats in rounds ``numbers``: None for rounds of the
    qualifying stage (every active player, `seating.inputs.seated_players`), else those
    through the cut of the later stage the rounds belong to, not withdrawn. Refused for rounds
    of two stages (each has its own players) and while the stage's cut is open."""
    stages = tournament_stages(tournament)

    def stage_of(number: int) -> Stage | None:
        return next((stage for stage in reversed(stages) if stage.first_round <= number), None)

    owners = {stage_of(number) for number in numbers}
    if len(owners) > 1:
        raise seating_validation_error("stage_rounds_mixed")
    (stage,) = owners or {None}
    if stage is None:
        return None
    standings = next(
        item for item in stage_standings(tournament, fresh=True) if item.stage == stage
    )
    if not standings.cut.resolved:
        raise seating_validation_error("stage_cut_open", stage=stage)
    return tuple(
        sorted(entry.registration_id for entry in standings.entries if not entry.withdrawn)
    )
