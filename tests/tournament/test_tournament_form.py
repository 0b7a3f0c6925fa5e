"""The organiser's tournament form explains what is wrong instead of failing."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import make_tournament


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


def test_the_admin_form_shows_a_bad_override_on_its_field(admin_client):
    page = admin_client.get(reverse("admin:tournament_tournament_add"))
    form = page.context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(
        name="QA Cup",
        slug="qa-cup",
        start_date="2026-12-01",
        end_date="2026-12-02",
        rule_options='{"uma": [20, 10, -10, -10]}',
    )
    response = admin_client.post(reverse("admin:tournament_tournament_add"), data)
    assert response.status_code == 200
    assert "rule_options" in response.context["adminform"].form.errors
