"""A full 8-round, 36-player tournament driven through the web forms gives exactly the
standings the rules engine computes directly from the same sheets."""

import random

import pytest
from django.urls import reverse

from scoring.models import ScoreSheet
from scoring.rules import PlayerRecord, SeatSheet, compute_standings, score_hanchan
from scoring.selectors.standings import tournament_standings
from tests.conftest import make_registrations, make_rounds, make_staff, make_tournament
from tests.scoring.conftest import (
    WINDS,
    Role,
    check_and_save,
    seat_round,
    sheet_form_data,
    table_registrations,
)
from tournament.models import Round, Tournament

PLAYERS, ROUNDS = 36, 8


def _sheet(rng: random.Random):
    """Final points that add up (WRC: 4 × 30 000 minus the sticks left), some chombo and
    lateness, a tie now and then."""
    sticks = rng.choice((0, 0, 1, 2))
    points = [rng.randrange(100, 500) * 100 for _seat in range(3)]
    if rng.random() < 0.2:
        points[1] = points[0]  # a tie at the table: shared uma (WRC 2015 §5.9.2)
    points.append(120000 - 1000 * sticks - sum(points))
    changes = {}
    if rng.random() < 0.15:
        changes[rng.choice(WINDS)] = {"chombo": 1}
    if rng.random() < 0.15:
        wind = rng.choice([wind for wind in WINDS if wind not in changes])
        changes[wind] = {"late": rng.randrange(1, 10)}
    return points, sticks, changes


@pytest.mark.django_db
def test_full_tournament_through_the_forms_matches_the_engine(client, django_user_model):
    tournament = make_tournament(
        rounds_count=ROUNDS, confirmation_policy=Tournament.ConfirmationPolicy.SECOND_OFFICIAL
    )
    registrations = make_registrations(tournament, PLAYERS, teams=9)
    rounds = make_rounds(tournament)
    scorer = django_user_model.objects.create_user("scorer")
    checker = django_user_model.objects.create_user("checker")
    make_staff(tournament, scorer, Role.REFEREE)
    make_staff(tournament, checker, Role.REFEREE)
    rng = random.Random(2015)
    rules = tournament.get_rules()
    scores: dict[int, list] = {registration.pk: [None] * ROUNDS for registration in registrations}
    places: dict[int, list] = {registration.pk: [None] * ROUNDS for registration in registrations}
    for index, round_ in enumerate(rounds):
        seat_round(round_, registrations, shift=index)
        for table in range(1, PLAYERS // 4 + 1):
            players = table_registrations(round_, table)
            points, sticks, changes = _sheet(rng)
            url = reverse("scoring:sheet", args=[tournament.slug, round_.number, table])
            client.force_login(scorer)
            data = sheet_form_data(players, points=points, sticks=sticks, **changes)
            assert check_and_save(client, url, data).status_code == 302
            client.force_login(checker)
            confirm = reverse("scoring:confirm", args=[tournament.slug, round_.number, table])
            client.post(confirm, {"version": "1"})
            sheet = [
                SeatSheet(
                    str(player.pk),
                    points[seat],
                    chombo=changes.get(WINDS[seat], {}).get("chombo", 0),
                    late_minutes=changes.get(WINDS[seat], {}).get("late", 0),
                )
                for seat, player in enumerate(players)
            ]
            for player, seat in zip(
                players, score_hanchan(rules, sheet, sticks).seats, strict=True
            ):
                scores[player.pk][index] = seat.score
                places[player.pk][index] = seat.place
        round_.refresh_from_db()
        assert round_.status == Round.Status.FINISHED
    assert ScoreSheet.objects.filter(status=ScoreSheet.Status.CONFIRMED).count() == 72
    records = [PlayerRecord(str(pk), tuple(scores[pk]), places=tuple(places[pk])) for pk in scores]
    expected = [
        (int(row.key), row.place, row.total, row.shared)
        for row in compute_standings(records, rules.tie_breaks)
    ]
    standings = tournament_standings(tournament)
    got = [(e.registration_id, e.place, e.total, e.shared_place) for e in standings.entries]
    assert got == expected
    assert standings.complete_rounds == set(range(1, ROUNDS + 1))
    assert standings.provisional_rounds == set()
