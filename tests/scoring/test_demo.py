"""The demo tournament's results: confirmed sheets for rounds 1-3 with a tie, a chombo, a
late player and a substitute; loading them twice changes nothing."""

import datetime

import pytest
from django.utils import timezone

from scoring.demo import add_demo_results
from scoring.forms import late_minutes_from_check_in
from scoring.models import ScoreSheet, SheetVersion
from scoring.selectors.penalties import penalty_list
from scoring.selectors.standings import tournament_standings
from tests.scoring.conftest import seat_round
from tournament.demo import create_demo_tournament
from tournament.models import Round


@pytest.mark.django_db
def test_demo_results_are_confirmed_and_idempotent():
    tournament, _created = create_demo_tournament()
    registrations = list(tournament.registrations.order_by("pk"))
    rounds = list(tournament.rounds.order_by("number"))
    for index, round_ in enumerate(rounds[:3]):
        seat_round(round_, registrations, shift=index)
    add_demo_results(tournament)
    add_demo_results(tournament)
    assert ScoreSheet.objects.filter(status=ScoreSheet.Status.CONFIRMED).count() == 27
    assert SheetVersion.objects.count() == 27
    assert [r.status for r in tournament.rounds.order_by("number")][:4] == [
        Round.Status.FINISHED,
        Round.Status.FINISHED,
        Round.Status.FINISHED,
        Round.Status.PLANNED,
    ]
    kinds = {line.kind for line in penalty_list(tournament)}
    assert kinds == {"chombo", "lateness", "missed_hanchan"}
    standings = tournament_standings(tournament)
    assert standings.complete_rounds == {1, 2, 3}
    tie = [e for e in standings.entries if e.rounds[1].table_number == 1 and e.rounds[1].place == 1]
    assert len(tie) == 2  # two players share 1st place at table 1 of round 1


@pytest.mark.django_db
def test_demo_players_are_checked_in_before_the_first_round(monkeypatch):
    # Loaded at 17:30 on its first day, the demo checked everyone in at 17:30, after round 4
    # had started (15:30): every seat of its sheets came up "120 minutes late".
    late_afternoon = datetime.datetime(2026, 11, 24, 16, 30, tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: late_afternoon)
    tournament, _created = create_demo_tournament()
    for round_ in tournament.rounds.all():
        for registration in tournament.registrations.all():
            assert late_minutes_from_check_in(registration, round_) == 0
