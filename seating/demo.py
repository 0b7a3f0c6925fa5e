"""The demo tournament's seating: every round seated through the services, once.

Called by `load_demo` after the demo's players and rounds exist. Idempotent: a tournament
whose rounds already have seats is left alone.
"""

from seating.services import seating_run_apply, seating_run_start
from tournament.models import Seat, Tournament

DEMO_SEED = 2026
DEMO_TIME_LIMIT = 5  # seconds; the demo must load quickly


def seat_demo(tournament: Tournament) -> None:
    """Generate and apply the seating of all the demo's rounds with a fixed seed."""
    if Seat.objects.filter(round__tournament=tournament).exists():
        return
    rounds = list(tournament.rounds.to_come())
    if not rounds:
        return
    run = seating_run_start(
        tournament=tournament,
        rounds=rounds,
        seed=DEMO_SEED,
        time_limit=DEMO_TIME_LIMIT,
        background=False,
        acting_user=None,
    )
    seating_run_apply(run=run, acting_user=None)
