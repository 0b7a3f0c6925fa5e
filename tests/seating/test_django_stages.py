"""A round of a later stage seated by the stage's standings: 1–4 at table 1, 5–8 at table 2,
only the players through the cut, audited; refused while the cut is open."""

import pytest
from django.core.exceptions import ValidationError

from scoring.services.stages import stage_choice_set
from seating.services import stage_round_seat
from tests.conftest import confirm_sheet
from tests.scoring.stages import final_stage, play_two_rounds
from tournament.models import AuditEntry, Round, Seat


@pytest.fixture
def played(tournament, organiser):
    return play_two_rounds(tournament, organiser)


def _tables(round_):
    seats = Seat.objects.filter(round=round_).order_by("table_number", "wind")
    by_table = {}
    for seat in seats:
        by_table.setdefault(seat.table_number, {})[seat.wind] = seat.registration_id
    return by_table


def test_a_final_is_seated_by_the_carry_over_then_by_the_stage_standings(played, organiser):
    tournament, p, rounds = played
    stage = final_stage(tournament, organiser)
    stage_round_seat(stage=stage, round_=rounds[2], acting_user=organiser)
    # halved: p4 27.3, p0 26.3, p1 = p5 6.0 (shared, in the qualifying order)
    assert _tables(rounds[2]) == {1: {"E": p[4].pk, "S": p[0].pk, "W": p[1].pk, "N": p[5].pk}}
    rounds[2].refresh_from_db()
    assert rounds[2].status == Round.Status.SEATED
    assert AuditEntry.objects.filter(action="seating.stage").count() == 1
    # Round 3 played with E +27.3, S +6, W -7.3, N -26: p4 54.6, p0 32.3, p1 -1.3, p5 -20
    confirm_sheet(rounds[2], 1, organiser)
    stage_round_seat(stage=stage, round_=rounds[3], acting_user=organiser)
    assert _tables(rounds[3]) == {1: {"E": p[4].pk, "S": p[0].pk, "W": p[1].pk, "N": p[5].pk}}


def test_a_stage_round_is_seated_only_once_its_cut_is_settled(played, organiser):
    tournament, p, rounds = played
    stage = final_stage(tournament, organiser, cut_size=None)  # the organiser's list, empty
    with pytest.raises(ValidationError, match="choose who goes through"):
        stage_round_seat(stage=stage, round_=rounds[2], acting_user=organiser)
    assert not Seat.objects.filter(round=rounds[2]).exists()
    stage_choice_set(stage=stage, registrations=p[4:], acting_user=organiser)
    stage_round_seat(stage=stage, round_=rounds[2], acting_user=organiser)
    assert set(_tables(rounds[2])[1].values()) == {r.pk for r in p[4:]}


def test_a_stage_of_players_no_multiple_of_four_is_refused(played, organiser):
    tournament, _p, rounds = played
    stage = final_stage(tournament, organiser, cut_size=6)
    with pytest.raises(ValidationError, match="multiple of four"):
        stage_round_seat(stage=stage, round_=rounds[2], acting_user=organiser)


def test_a_round_before_the_stage_is_not_seated_by_it(played, organiser):
    tournament, _p, rounds = played
    stage = final_stage(tournament, organiser, first_round=4)
    with pytest.raises(ValidationError, match="not a round of the stage"):
        stage_round_seat(stage=stage, round_=rounds[2], acting_user=organiser)
