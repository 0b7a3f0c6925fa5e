"""A round of a later stage seated by the stage's standings: 1–4 at table 1, 5–8 at table 2,
only the players through the cut, audited; refused while the cut is open. The rounds of a
larger stage (a semi-final) seated by the generator: only the players through its cut."""

import pytest
from django.core.exceptions import ValidationError

from scoring.services.stages import stage_choice_set
from seating.models import SeatingRun
from seating.services import seating_run_apply, seating_run_start, stage_round_seat
from tests.conftest import confirm_sheet
from tests.scoring.stages import final_stage, play_two_rounds
from tournament.models import AuditEntry, Round, Seat
from tournament.services.registrations import registration_withdraw


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


def _run(tournament, rounds):
    return seating_run_start(
        tournament=tournament, rounds=rounds, seed=1, background=False, acting_user=None
    )


def test_the_generator_seats_a_stage_s_rounds_with_the_players_through_its_cut(played, organiser):
    # Eight players, cut to the best four (tests/scoring/stages.py): a plan of rounds 3 and 4
    # seated all eight before, the four left out among them.
    tournament, p, rounds = played
    final_stage(tournament, organiser)
    run = _run(tournament, rounds[2:])
    assert run.status == SeatingRun.Status.DONE
    seating_run_apply(run=run, acting_user=organiser)
    through = {p[4].pk, p[0].pk, p[1].pk, p[5].pk}  # halved carry-over, as above
    for round_ in rounds[2:]:
        assert set(_tables(round_)[1].values()) == through
        assert set(_tables(round_)) == {1}


def test_a_plan_across_two_stages_is_refused_in_the_organisers_terms(played, organiser):
    tournament, _p, rounds = played
    final_stage(tournament, organiser, first_round=4)
    with pytest.raises(ValidationError, match="seat the rounds of one stage at a time"):
        _run(tournament, rounds[2:])
    assert not SeatingRun.objects.exists()


def test_a_stage_s_plan_waits_for_its_cut(played, organiser):
    tournament, p, rounds = played
    stage = final_stage(tournament, organiser, cut_size=None)
    with pytest.raises(ValidationError, match="choose who goes through"):
        _run(tournament, rounds[2:])
    stage_choice_set(stage=stage, registrations=p[4:], acting_user=organiser)
    seating_run_apply(run=_run(tournament, rounds[2:]), acting_user=organiser)
    assert set(_tables(rounds[2])[1].values()) == {r.pk for r in p[4:]}


def test_a_plan_made_before_the_cut_changed_is_stale(played, organiser):
    tournament, p, rounds = played
    final_stage(tournament, organiser)
    run = _run(tournament, rounds[2:])
    registration_withdraw(registration=p[4], reason="Train", acting_user=organiser)
    with pytest.raises(ValidationError):
        seating_run_apply(run=run, acting_user=organiser)
    assert not Seat.objects.filter(round__in=rounds[2:]).exists()
