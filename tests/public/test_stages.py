"""The public stages page: each stage's ranking, the players through marked, the cut line
and a tie at it explained; the tournament page links it."""

import pytest
from django.urls import reverse

from scoring.services.stages import stage_choice_set
from tests.scoring.stages import final_stage, play_two_rounds


@pytest.fixture
def played(tournament, organiser):
    tournament.is_public = True
    tournament.save()
    return play_two_rounds(tournament, organiser)


def test_the_stages_page_shows_each_stage_and_explains_a_tie_at_the_cut(client, played, organiser):
    tournament, p, _rounds = played
    stage = final_stage(tournament, organiser, cut_size=3)
    url = reverse("public:stages", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert "Qualifying" in page
    assert "Final" in page
    assert "The best 3 players go through to Final." in page
    # p4's rounds 1 and 2 in the qualifying table, and no empty cell said "None"
    assert page.count(">+27.3<") >= 4
    assert "None" not in page
    assert f"{p[1].player}, {p[5].player} share a place across the cut line" in page
    assert page.count('class="through') == 2  # p4 and p0 so far
    stage_choice_set(stage=stage, registrations=[p[5]], acting_user=organiser)
    page = client.get(url).content.decode()
    assert f"the organiser chose {p[5].player}." in page
    assert page.count('class="through') == 3  # the final's table marks no one
    assert "Halve the total" in page
    home = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert url in home


def test_a_tournament_without_stages_has_no_stages_page(client, played):
    tournament, _p, _rounds = played
    assert client.get(reverse("public:stages", args=[tournament.slug])).status_code == 404
