"""The organiser's tournament form explains what is wrong instead of failing."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import admin_form_data, make_tournament
from tournament.models import Round, Tournament


@pytest.mark.django_db
@pytest.mark.parametrize("options", [{"uma": [20, 10, -10, -10]}, {"foo": 1}])
def test_invalid_rule_overrides_are_an_error_on_the_field(options):
    # An uma that does not sum to zero, an unknown option: refused with the engine's reason
    tournament = make_tournament()
    tournament.rule_options = options
    with pytest.raises(ValidationError) as info:
        tournament.full_clean()
    assert list(info.value.message_dict) == ["rule_options"]


@pytest.mark.django_db
def test_a_last_day_before_the_first_day_says_so():
    tournament = make_tournament()
    tournament.end_date = tournament.start_date - datetime.timedelta(days=1)
    with pytest.raises(ValidationError) as info:
        tournament.full_clean()
    assert info.value.message_dict == {"end_date": ["The last day cannot be before the first day."]}


def _add_form_data(admin_client, **values) -> dict:
    """The admin's add page as the organiser fills it in (inline management forms too)."""
    data = admin_form_data(admin_client.get(reverse("admin:tournament_tournament_add")))
    data.update(name="QA Cup", slug="qa-cup", start_date="2026-12-01", end_date="2026-12-02")
    data.update(values)
    return data


def test_the_admin_form_shows_a_bad_override_on_its_field(admin_client):
    data = _add_form_data(admin_client, rule_options='{"uma": [20, 10, -10, -10]}')
    response = admin_client.post(reverse("admin:tournament_tournament_add"), data)
    assert response.status_code == 200
    assert "rule_options" in response.context["adminform"].form.errors


def test_a_new_tournament_gets_its_rounds_and_no_round_beyond_them(admin_client):
    data = _add_form_data(admin_client, rounds_count="5", rule_options="{}")
    response = admin_client.post(reverse("admin:tournament_tournament_add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    tournament = Tournament.objects.get(slug="qa-cup")
    assert list(tournament.rounds.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    sixth = Round(tournament=tournament, number=6)
    with pytest.raises(ValidationError) as info:
        sixth.full_clean()
    assert info.value.message_dict["number"] == [
        "This tournament has 5 rounds: raise its number of rounds first."
    ]
