"""Writes of the seating app: runs (generate, swap, apply, discard), substitutes, fixed tables,
wrong-seat corrections, a stage's round seated by its standings and the winds of the rounds
to come evened out.

Every function is atomic (a run's computation excepted, see `runs`) and audited.
"""

from seating.services.fixed_tables import fixed_table_remove, fixed_table_set
from seating.services.runs import (
    seating_run_apply,
    seating_run_discard,
    seating_run_execute,
    seating_run_start,
    seating_run_swap,
    seating_run_swiss,
)
from seating.services.stages import stage_round_seat
from seating.services.substitutes import substitutes_add
from seating.services.winds import seat_correction_record, winds_rebalance

__all__ = [
    "fixed_table_remove",
    "fixed_table_set",
    "seat_correction_record",
    "seating_run_apply",
    "seating_run_discard",
    "seating_run_execute",
    "seating_run_start",
    "seating_run_swap",
    "seating_run_swiss",
    "stage_round_seat",
    "substitutes_add",
    "winds_rebalance",
]
