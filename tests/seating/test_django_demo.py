"""The demo's seating step: all rounds seated once, never twice."""

from seating.demo import DEMO_SEED, seat_demo
from seating.models import SeatingRun
from tournament.demo import create_demo_tournament
from tournament.models import Round, Seat


def test_seat_demo_seats_every_round_once_and_is_idempotent(db):
    tournament, _created = create_demo_tournament()
    seat_demo(tournament)
    assert Seat.objects.filter(round__tournament=tournament).count() == 36 * 8
    rounds = tournament.rounds.all()
    assert {r.status for r in rounds} == {Round.Status.SEATED}
    assert {r.seating_seed for r in rounds} == {DEMO_SEED}
    assert SeatingRun.objects.get().status == SeatingRun.Status.APPLIED
    seat_demo(tournament)
    assert SeatingRun.objects.count() == 1
    assert Seat.objects.filter(round__tournament=tournament).count() == 36 * 8
