"""Stages: a stage's standings are its qualified players' carry-over plus the stage's rounds,
computed by hand here; the overall standings are unchanged (docs/organiser-guide.md,
"Stages")."""

from decimal import Decimal
from fractions import Fraction as F

import pytest
from django.core.exceptions import ValidationError

from scoring.selectors.stages import stage_standings
from scoring.selectors.standings import tournament_standings
from scoring.services.penalties import penalty_give
from scoring.services.stages import stage_choice_set, stage_update
from tests.conftest import confirm_sheet, make_seats
from tests.scoring.stages import final_stage, play_two_rounds
from tournament.models import AuditEntry, Round
from tournament.services.registrations import registration_withdraw


@pytest.fixture
def played(tournament, organiser):
    return play_two_rounds(tournament, organiser)


def _lines(standings):
    return [(entry.registration_id, entry.place, entry.carried, entry.total) for entry in standings]


def test_a_final_ranks_the_halved_carry_over_plus_its_rounds(played, organiser):
    tournament, p, rounds = played
    final_stage(tournament, organiser)
    # Round 3, the final's first: p5 E +27.3, p1 S +6.0, p4 W -7.3, p0 N -26.0; then a
    # penalty of 5 points to p5 given in round 3.
    make_seats(rounds[2], [p[5], p[1], p[4], p[0]])
    confirm_sheet(rounds[2], 1, organiser)
    penalty_give(
        registration=p[5],
        points=Decimal(5),
        reason="Phone",
        round_=rounds[2],
        acting_user=organiser,
    )
    qualifying, final = stage_standings(tournament)
    assert qualifying.stage is None
    assert qualifying.round_numbers == [1, 2]
    assert final.round_numbers == [3]
    assert [entry.registration_id for entry in final.cut.qualified] == [
        p[4].pk, p[0].pk, p[1].pk, p[5].pk,
    ]  # fmt: skip
    # carried: half of 54.6, 52.6, 12.0, 12.0
    assert _lines(final.entries) == [
        (p[5].pk, 1, F("6"), F("6") + F("27.3") - 5),  # 28.3
        (p[4].pk, 2, F("27.3"), F("27.3") - F("7.3")),  # 20.0
        (p[1].pk, 3, F("6"), F("6") + F("6")),  # 12.0
        (p[0].pk, 4, F("26.3"), F("26.3") - 26),  # 0.3
    ]
    assert set(final.entries[0].rounds) == {3}
    # The overall standings still add every round: p5 6 + 6 + 27.3 - 5
    overall = {
        entry.registration_id: entry.total for entry in tournament_standings(tournament).entries
    }
    assert overall[p[5].pk] == F("34.3")
    assert overall[p[0].pk] == F("52.6") - 26


def test_a_tie_at_the_cut_line_waits_for_the_organisers_choice(played, organiser):
    tournament, p, _rounds = played
    stage = final_stage(tournament, organiser, cut_size=3)
    _qualifying, final = stage_standings(tournament)
    # p1 and p5 share 3rd with 12.0 and the same hanchan: one seat left for the two
    assert [entry.registration_id for entry in final.cut.tied] == [p[1].pk, p[5].pk]
    assert (final.cut.open_seats, final.cut.resolved) == (1, False)
    assert [entry.registration_id for entry in final.entries] == [p[4].pk, p[0].pk]
    stage_choice_set(stage=stage, registrations=[p[5]], acting_user=organiser)
    _qualifying, final = stage_standings(tournament)
    assert final.cut.resolved
    assert [entry.registration_id for entry in final.cut.qualified] == [p[4].pk, p[0].pk, p[5].pk]
    entry = AuditEntry.objects.get(action="stage.choose")
    assert entry.data["chosen"][0] == []


def test_a_stage_without_a_cut_size_takes_the_organisers_list(played, organiser):
    tournament, p, _rounds = played
    stage = final_stage(tournament, organiser, cut_size=None, carry_over="bonus", bonus="30; 20,5")
    stage_choice_set(stage=stage, registrations=[p[7], p[2]], acting_user=organiser)
    _qualifying, final = stage_standings(tournament)
    # in the qualifying order: p2 (-14.6) first, then p7 (-52.0); bonus 30 and 20.5
    assert _lines(final.entries) == [(p[2].pk, 1, F(30), F(30)), (p[7].pk, 2, F("20.5"), F("20.5"))]


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"carry_over": "bonus", "bonus": ""}, "bonus"),
        ({"bonus": "30; twenty"}, "bonus"),
        ({"first_round": 9}, "first_round"),  # the tournament has 8 rounds
    ],
)
def test_a_stage_that_cannot_be_is_refused_in_the_organisers_terms(
    played, organiser, values, field
):
    tournament, _p, _rounds = played
    stage = final_stage(tournament, organiser)
    with pytest.raises(ValidationError) as caught:
        stage_update(stage=stage, data=values, acting_user=organiser)
    assert field in caught.value.message_dict


def test_stages_change_nothing_without_stages(played):
    tournament, _p, _rounds = played
    assert stage_standings(tournament) == []
    assert Round.objects.filter(tournament=tournament).count() == 4


def test_a_withdrawn_players_seat_at_the_cut_goes_to_the_next_ones(played, organiser):
    tournament, p, _rounds = played
    registration_withdraw(registration=p[4], reason="Train home", acting_user=organiser)
    final_stage(tournament, organiser)
    _qualifying, final = stage_standings(tournament)
    # p4 (54.6) leaves: p0, then p1 = p5 (12.0), then p2 = p6 (-14.6) share the 4th seat
    assert [entry.registration_id for entry in final.cut.qualified] == [p[0].pk, p[1].pk, p[5].pk]
    assert [entry.registration_id for entry in final.cut.tied] == [p[2].pk, p[6].pk]
    assert (final.cut.open_seats, final.cut.resolved) == (1, False)
