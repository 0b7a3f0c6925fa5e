"""The permission ladder of every staff page: anonymous → login; staff of another tournament
or a lower role → 403; the right role → 200 (302 for a POST-only action)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services.penalties import penalty_give
from tests.conftest import make_staff, make_tournament
from tests.scoring.conftest import Role

REFEREE_PAGES = [
    ("rounds", {}),
    ("standings", {}),
    ("ema", {}),
    ("round", {"number": 1}),
    ("sheet", {"number": 1, "table": 1}),
    ("hands", {"number": 1, "table": 1}),
    ("history", {"number": 1, "table": 1}),
]
HEAD_REFEREE_PAGES = [
    ("correct", {"number": 1, "table": 1}),
    ("correct_hands", {"number": 1, "table": 1}),
    ("penalties", {}),
    ("penalty_cancel", {"pk": "penalty"}),
    ("disqualify", {"registration": "player"}),
]


@pytest.fixture
def ladder(event, django_user_model):
    outsider = django_user_model.objects.create_user("outsider")
    make_staff(make_tournament(), outsider, Role.ORGANISER)
    penalty = penalty_give(
        registration=event["registrations"][0],
        points=Decimal(5),
        reason="Phone",
        acting_user=event["users"][Role.ORGANISER],
    )
    return {**event, "outsider": outsider, "penalty": penalty}


def _url(ladder, name, kwargs):
    values = {"slug": ladder["tournament"].slug}
    for key, value in kwargs.items():
        if value == "penalty":
            value = ladder["penalty"].pk
        elif value == "player":
            value = ladder["registrations"][0].pk
        values[key] = value
    return reverse(f"scoring:{name}", kwargs=values)


def _walk(client, ladder, url, lower, allowed, method="get", ok=200):
    response = getattr(client, method)(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    client.force_login(ladder["outsider"])
    assert getattr(client, method)(url).status_code == 403
    if lower is not None:
        client.force_login(ladder["users"][lower])
        assert getattr(client, method)(url).status_code == 403
    for role in allowed:
        client.force_login(ladder["users"][role])
        assert getattr(client, method)(url).status_code == ok, (url, role)


@pytest.mark.parametrize(("name", "kwargs"), REFEREE_PAGES)
def test_referee_pages(client, ladder, name, kwargs):
    roles = [Role.REFEREE, Role.HEAD_REFEREE, Role.ORGANISER]
    _walk(client, ladder, _url(ladder, name, kwargs), None, roles)


@pytest.mark.parametrize(("name", "kwargs"), HEAD_REFEREE_PAGES)
def test_head_referee_pages(client, ladder, name, kwargs):
    roles = [Role.HEAD_REFEREE, Role.ORGANISER]
    _walk(client, ladder, _url(ladder, name, kwargs), Role.REFEREE, roles)


def test_confirm_is_a_post_for_referees(client, ladder):
    url = _url(ladder, "confirm", {"number": 1, "table": 1})
    _walk(client, ladder, url, None, [Role.REFEREE], method="post", ok=302)


def test_a_superuser_is_organiser_everywhere(client, ladder, organiser):
    client.force_login(organiser)
    assert client.get(_url(ladder, "penalties", {})).status_code == 200


def test_a_table_that_does_not_exist_is_404(client, ladder):
    client.force_login(ladder["users"][Role.REFEREE])
    assert client.get(_url(ladder, "sheet", {"number": 1, "table": 9})).status_code == 404
    assert client.get(_url(ladder, "sheet", {"number": 7, "table": 1})).status_code == 404
