"""Three quick clicks on Generate started three seating runs, each taking a core for its
whole time limit. One run computes at a time per tournament: the tournament is locked while
a run is started, a database constraint keeps the rule, and the next click is told why."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.urls import reverse
from django.utils import translation

from seating.models import SeatingRun
from seating.services import seating_run_discard, seating_run_start, seating_run_swiss
from tests.conftest import make_registrations, make_rounds, make_tournament
from tests.security.concurrency import race_report

ENGLISH = "Another seating is being computed for this tournament"
FRENCH = "Un autre placement est en cours de calcul pour ce tournoi"


@pytest.fixture
def tournament(db):
    tournament = make_tournament(rounds_count=2)
    make_registrations(tournament, 8)
    make_rounds(tournament)
    return tournament


def _start(tournament, **kwargs) -> SeatingRun:
    """A run left computing in the background: in a test's transaction its thread, started
    on commit, never starts."""
    return seating_run_start(
        tournament=tournament, rounds=list(tournament.rounds.all()), acting_user=None, **kwargs
    )


def test_a_second_run_is_refused_while_one_computes(tournament):
    running = _start(tournament)
    assert running.status == SeatingRun.Status.RUNNING
    with pytest.raises(ValidationError, match=ENGLISH):
        _start(tournament)
    with translation.override("fr"), pytest.raises(ValidationError, match=FRENCH):
        _start(tournament)
    with pytest.raises(ValidationError, match=ENGLISH):
        seating_run_swiss(
            tournament=tournament,
            round=tournament.rounds.get(number=2),
            standings=[],
            acting_user=None,
        )
    assert SeatingRun.objects.filter(tournament=tournament).count() == 1


def test_a_run_finished_or_discarded_lets_the_next_one_start(tournament):
    done = _start(tournament, background=False, time_limit=1)
    assert done.status == SeatingRun.Status.DONE
    running = _start(tournament)
    seating_run_discard(run=running, acting_user=None)
    assert _start(tournament).status == SeatingRun.Status.RUNNING
    other = make_tournament(rounds_count=1)
    make_registrations(other, 8)
    make_rounds(other)
    assert _start(other).status == SeatingRun.Status.RUNNING  # each tournament its own


def test_the_database_keeps_one_running_run_a_tournament(tournament):
    running = _start(tournament)
    with pytest.raises(IntegrityError):
        SeatingRun.objects.create(
            tournament=tournament, seed=1, round_numbers=running.round_numbers
        )


def test_three_clicks_on_generate_start_one_run_and_say_why_not_again(
    tournament, client, organiser, settings
):
    settings.SEATING_RUN_IN_BACKGROUND = True
    client.force_login(organiser)
    url = reverse("seating:generate", args=[tournament.slug])
    data = {"rounds": [r.pk for r in tournament.rounds.all()], "priority": "tables"}
    data |= {"keep_apart": "team", "time_limit": 20}
    first = client.post(url, data)
    assert first.status_code == 302
    for _click in range(2):
        again = client.post(url, data, headers={"accept-language": "fr"})
        assert again.status_code == 200
        assert FRENCH in again.content.decode()
    assert ENGLISH in client.post(url, data).content.decode()
    assert SeatingRun.objects.filter(tournament=tournament).count() == 1


@pytest.mark.django_db(transaction=True)
def test_three_clicks_at_the_same_moment_start_one_run():
    """Real threads, one connection each, on the database kind this suite runs on."""
    report = race_report("tests.security.seating_race", "clicks")
    outcomes = sorted(click["outcome"] for click in report["race"])
    assert outcomes == ["refused", "refused", "started"], report
    refusals = [click["messages"] for click in report["race"] if click["outcome"] == "refused"]
    assert all(ENGLISH in " ".join(messages) for messages in refusals), refusals
    assert report["running"] == 1
