"""Round release: a tournament showing complete rounds only keeps a round off its public
rankings until every table of it is confirmed or a head referee releases it by hand."""

from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.selectors.standings import public_round_limit, team_standings, tournament_standings
from scoring.services.penalties import penalty_give
from scoring.services.round_status import round_results_release
from tests.conftest import confirm_sheet
from tests.scoring.conftest import release_event
from tournament.models import AuditEntry, Round, Tournament, TournamentStaff

Role = TournamentStaff.Role
NOTICE = "Round 2 is not complete yet: the rankings show the results up to round 1."


@pytest.fixture
def event(db, django_user_model):
    return release_event(django_user_model)


def totals(standings) -> dict[int, Fraction]:
    return {entry.registration_id: entry.total for entry in standings.entries}


def test_standings_up_to_a_round_leave_the_later_rounds_and_their_penalties_out(event):
    tournament, last = event["tournament"], event["registrations"][-1]
    penalty_give(
        registration=last,
        points=Decimal(5),
        reason="Late",
        round_=event["second"],
        acting_user=event["head"],
    )
    full = tournament_standings(tournament)
    assert totals(full)[last.pk] == Fraction(-57)  # −26.0 twice, −5 in round 2
    upto = tournament_standings(tournament, rounds_up_to=1)
    assert upto.round_numbers == [1]
    # As if round 2 had not been played: each total is the player's round 1 score.
    assert sorted(totals(upto).values()) == sorted(
        Fraction(score, 10) for score in (273, 60, -73, -260) * 2
    )
    assert totals(upto)[last.pk] == Fraction(-26)
    assert all(set(entry.rounds) == {1} for entry in upto.entries)
    # Each limit is cached on its own: the full standings are still the full ones.
    assert totals(tournament_standings(tournament)) == totals(full)
    teams = {team.team_name: team.total for team in team_standings(tournament, rounds_up_to=1)}
    assert sum(teams.values()) == 0  # round 1's scores sum to zero (uma and oka)


def test_the_first_round_not_complete_nor_released_limits_the_public_rankings(event):
    tournament, second = event["tournament"], event["second"]
    limit = public_round_limit(tournament)
    assert (limit.pending, limit.shown_up_to) == (2, 1)
    round_results_release(round_=second, acting_user=event["head"])
    assert public_round_limit(tournament) is None
    tournament.release_complete_rounds = False
    second.results_released_at = None
    second.save()
    assert public_round_limit(tournament) is None  # the option off shows every round


def test_a_complete_round_needs_no_release(event):
    confirm_sheet(event["second"], 2, event["referee"])
    assert public_round_limit(event["tournament"]) is None


def test_release_is_audited_and_kept_to_head_referees(event):
    second = event["second"]
    with pytest.raises(PermissionDenied):
        round_results_release(round_=second, acting_user=event["referee"])
    second.refresh_from_db()
    assert second.results_released_at is None
    round_results_release(round_=second, acting_user=event["head"])
    released = Round.objects.get(pk=second.pk).results_released_at
    assert released is not None
    entry = AuditEntry.objects.get(action="round.release")
    assert (entry.actor, entry.tournament, entry.object_repr) == (
        event["head"],
        event["tournament"],
        "Round 2",
    )
    round_results_release(round_=second, acting_user=event["head"])  # the first one stands
    assert Round.objects.get(pk=second.pk).results_released_at == released
    assert AuditEntry.objects.filter(action="round.release").count() == 1


def test_release_button_on_the_staff_round_page(client, event):
    tournament, second = event["tournament"], event["second"]
    url = reverse("scoring:release_round", args=[tournament.slug, 2])
    client.force_login(event["referee"])
    assert client.post(url).status_code == 403
    client.force_login(event["head"])
    page = client.get(reverse("scoring:round", args=[tournament.slug, 2]))
    assert "Show this round on the public rankings now" in page.content.decode()
    response = client.post(url, follow=True)
    assert "Round 2 is released: the public rankings show it." in response.content.decode()
    assert "Released to the public rankings on" in response.content.decode()
    second.refresh_from_db()
    assert second.results_released_at is not None


def public_pages(client, tournament, registration) -> dict[str, str]:
    slug = tournament.slug
    return {
        name: client.get(reverse(f"public:{name}", args=args)).content.decode()
        for name, args in [
            ("rankings", [slug]),
            ("rankings_data", [slug]),
            ("team_rankings", [slug]),
            ("player", [slug, registration.pk]),
        ]
    }


def assert_every_round_shown(pages: dict[str, str]) -> None:
    for name, page in pages.items():
        assert NOTICE not in page, name
    for name in ("rankings", "rankings_data", "player"):
        assert "−52.0" in pages[name], name


def test_public_pages_hide_the_round_until_it_is_released(client, event):
    tournament, last = event["tournament"], event["registrations"][-1]
    pages = public_pages(client, tournament, last)
    for name in ("rankings", "team_rankings", "player"):
        assert NOTICE in pages[name], name
    for name, page in pages.items():
        assert "−52.0" not in page, name  # the last player's total after round 2
    assert "−26.0" in pages["rankings_data"]
    round_results_release(round_=event["second"], acting_user=event["head"])
    assert_every_round_shown(public_pages(client, tournament, last))


def test_a_penalty_of_a_held_back_round_waits_with_it_on_the_player_page(client, event):
    # The penalty is news from round 2: shown with the round's results, not before.
    tournament, last = event["tournament"], event["registrations"][-1]
    penalty_give(
        registration=last,
        points=Decimal(5),
        reason="Slow play, table 1",
        round_=event["second"],
        acting_user=event["head"],
    )
    url = reverse("public:player", args=[tournament.slug, last.pk])
    assert "Slow play, table 1" not in client.get(url).content.decode()
    round_results_release(round_=event["second"], acting_user=event["head"])
    assert "Slow play, table 1" in client.get(url).content.decode()


def test_public_pages_show_every_round_with_the_option_off(client, event):
    tournament, last = event["tournament"], event["registrations"][-1]
    Tournament.objects.filter(pk=tournament.pk).update(release_complete_rounds=False)
    assert_every_round_shown(public_pages(client, tournament, last))


def test_the_notice_speaks_french(client, event):
    page = client.get(
        reverse("public:rankings", args=[event["tournament"].slug]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert (
        "La ronde 2 n’est pas encore complète : le classement affiche les résultats "
        "jusqu’à la ronde 1." in page
    )
