"""A small tournament with a final, for the stages' tests (scoring and seating)."""

from decimal import Decimal

from scoring.models import Stage
from scoring.services.penalties import penalty_give
from scoring.services.stages import stage_create
from tests.conftest import confirm_sheet, make_registrations, make_rounds, make_seats
from tournament.models import Tournament


def play_two_rounds(tournament: Tournament, organiser) -> tuple:
    """Eight players, rounds 1 and 2 played at the same tables with the same points: E +27.3,
    S +6.0, W -7.3, N -26.0 (WRC 2015 §5.9.2's example), and a penalty of 2 points to p0 in
    round 1. After round 2: p4 54.6, p0 52.6, p1 = p5 12.0, p2 = p6 -14.6, p3 = p7 -52.0."""
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    players = make_registrations(tournament, 8)
    rounds = make_rounds(tournament, 4)
    for round_ in rounds[:2]:
        make_seats(round_, players)
        for table in (1, 2):
            confirm_sheet(round_, table, organiser)
    penalty_give(
        registration=players[0],
        points=Decimal(2),
        reason="Late back from the break",
        round_=rounds[0],
        acting_user=organiser,
    )
    return tournament, players, rounds


def final_stage(tournament: Tournament, organiser, **values) -> Stage:
    """A final from round 3, cut to 4, carry-over halved (``values`` change any of it)."""
    fields = {"name": "Final", "first_round": 3, "cut_size": 4, "carry_over": "halve"}
    return stage_create(tournament=tournament, acting_user=organiser, **(fields | values))
