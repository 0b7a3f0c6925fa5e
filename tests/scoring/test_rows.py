"""The standings' rows every screen and export shows (scoring.selectors.rows)."""

from fractions import Fraction

import pytest

from scoring.selectors.rows import player_rows, team_rows
from scoring.selectors.standings import team_standings, tournament_standings
from tests.conftest import confirm_sheet, make_seats
from tests.public.test_rankings import confirm_round, make_event
from tournament.models import Round, Seat


@pytest.mark.django_db
def test_a_row_has_one_score_per_round_and_none_where_no_sheet_is_confirmed(django_user_model):
    # WRC 2015 §5.9.2: each table's East +27.3; round 2's table 2 is not confirmed yet.
    tournament, registrations, rounds, referee = make_event(django_user_model)
    make_seats(rounds[1], registrations)
    rounds[1].status = Round.Status.SEATED
    rounds[1].save()
    confirm_round(rounds[0], referee, tables=2)
    confirm_sheet(rounds[1], 1, referee)
    standings = tournament_standings(tournament)
    rows = {row.registration_id: row for row in player_rows(standings)}
    east_1, east_2 = (
        Seat.objects.get(round=rounds[0], table_number=table, wind="E").registration_id
        for table in (1, 2)
    )
    assert standings.round_numbers == [1, 2]
    assert rows[east_1].scores == (Fraction(273, 10), Fraction(273, 10))
    assert (rows[east_1].place_text, rows[east_1].total) == ("1", Fraction(546, 10))
    assert rows[east_2].scores == (Fraction(273, 10), None)
    assert rows[east_2].team_or_club == rows[east_2].team_name == "Team 1"


@pytest.mark.django_db
def test_team_rows_mark_a_shared_place_and_list_the_players(django_user_model):
    # Four equal points at table 1 share the uma: 0 each (WRC 2015 §5.9.2, docs/rules.md
    # §7.1); table 2 not confirmed yet: both teams on 0.
    tournament, _registrations, rounds, referee = make_event(django_user_model)
    confirm_sheet(rounds[0], 1, referee, points=(30000, 30000, 30000, 30000))
    teams = team_standings(tournament)
    rows = team_rows(teams)
    assert [(row.place_text, row.total) for row in rows] == [("1=", 0), ("1=", 0)]
    assert rows[0].members == ", ".join(m.player.display_name for m in teams[0].members)
