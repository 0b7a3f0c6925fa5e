"""The rule options as typed fields on the tournament's admin page: defaults and citations,
only what differs stored, the engine's errors beside their field, the JSON box's part."""

from fractions import Fraction
from html import escape, unescape

import pytest
from django.urls import reverse

from scoring.rules import RULESETS, ruleset_options
from scoring.selectors.standings import tournament_standings
from tests.conftest import (
    admin_form_data,
    confirm_sheet,
    make_registrations,
    make_rounds,
    make_seats,
    make_tournament,
)
from tournament.models import Tournament
from tournament.rule_options_form import OPTION_LABELS

pytestmark = pytest.mark.django_db


def _url(tournament: Tournament) -> str:
    return reverse("admin:tournament_tournament_change", args=[tournament.pk])


def _post(client, tournament: Tournament, language: str = "en", **values):
    """Save the tournament's page as shown, with `values` typed into it."""
    data = admin_form_data(client.get(_url(tournament)))
    data.update(values)
    return client.post(_url(tournament), data, headers={"accept-language": language})


def _uma(*places: int) -> dict[str, str]:
    return {f"option_uma_{index}": str(value) for index, value in enumerate(places)}


@pytest.mark.parametrize("key", list(RULESETS))
def test_each_option_shows_the_rule_sets_default_and_its_citation(admin_client, key):
    tournament = make_tournament(ruleset=key)
    page = admin_client.get(_url(tournament))
    form = page.context["adminform"].form
    body = page.content.decode()
    for spec in ruleset_options():
        field = form.fields[f"option_{spec.name}"]
        default = spec.defaults[key]
        assert field.initial == (list(default) if isinstance(default, tuple) else default)
        assert str(OPTION_LABELS[spec.name]) in unescape(body)
        citation = spec.sources[key] or "the rule book does not say"
        assert citation in field.help_text, spec.name
        assert field.help_text in unescape(body), spec.name


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "Default: 15, 5, -5, -15 (WRC 2015 §5.9.2)."),
        ("fr", "Par défaut : 15, 5, -5, -15 (WRC 2015 §5.9.2)."),
    ],
)
def test_the_wrc_uma_is_shown_with_its_section(admin_client, language, shown):
    # WRC 2015 §5.9.2: +15 / +5 / −5 / −15
    url = _url(make_tournament(ruleset="wrc2015"))
    page = admin_client.get(url, headers={"accept-language": language})
    help_text = page.context["adminform"].form.fields["option_uma"].help_text
    assert help_text.startswith(shown)


def test_a_new_uma_is_stored_alone_and_a_confirmed_sheet_is_scored_with_it(admin_client, organiser):
    tournament = make_tournament(confirmation_policy=Tournament.ConfirmationPolicy.SINGLE)
    first = make_rounds(tournament, 1)[0]
    east, _south, _west, north = make_registrations(tournament, 4)
    make_seats(first, [east, _south, _west, north])
    response = _post(admin_client, tournament, **_uma(20, 10, -10, -20))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"uma": [20, 10, -10, -20]}
    # 42 300 and 19 000 points: (42 300 − 30 000) / 1 000 + 20 and (19 000 − 30 000) / 1 000
    # − 20, where the default uma (WRC 2015 §5.9.2) gave +27.3 and −26.0.
    confirm_sheet(first, 1, organiser)
    totals = {e.registration_id: e.total for e in tournament_standings(tournament).entries}
    assert totals[east.pk] == Fraction("32.3")
    assert totals[north.pk] == Fraction(-31)


def test_an_option_set_back_to_its_default_is_removed(admin_client):
    tournament = make_tournament(rule_options={"uma": [20, 10, -10, -20], "kiriage": False})
    response = _post(admin_client, tournament, **_uma(15, 5, -5, -15))  # WRC 2015 §5.9.2
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"kiriage": False}


def test_a_value_typed_equal_to_the_default_is_not_stored(admin_client):
    tournament = make_tournament()
    # 30 000 start points are WRC's own (WRC 2015 §4.1)
    response = _post(admin_client, tournament, option_start_points="30000", **_uma(15, 5, -5, -15))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


@pytest.mark.parametrize(
    ("values", "field", "english", "french"),
    [
        (
            # start points: 100,000 at most (docs/rules-engine.md, "Ranges")
            {"option_start_points": "100100"},
            "option_start_points",
            'Option "start_points" must be at most 100000; got 100100.',
            'L’option "start_points" doit valoir au plus 100000 ; reçu 100100.',
        ),
        (
            _uma(20, 10, -10, -30),
            "option_uma",
            "The uma must add up to zero; [20, 10, -10, -30] adds up to -10.",
            "La somme de l’uma doit être nulle ; [20, 10, -10, -30] fait -10.",
        ),
        (
            # WRC 2015 §7.1: 20 penalty points a chombo; ten of them at most
            {"option_chombo_amount": "500"},
            "option_chombo_amount",
            'Option "chombo_amount" must be at most 200 when a chombo costs penalty points',
            'L’option "chombo_amount" doit valoir au plus 200 quand un chombo coûte des '
            "points de pénalité",
        ),
    ],
)
def test_an_out_of_range_value_is_refused_beside_its_field_and_kept(
    admin_client, values, field, english, french
):
    tournament = make_tournament()
    for language, message in (("en", english), ("fr", french)):
        response = _post(admin_client, tournament, language, **values)
        assert response.status_code == 200
        errors = response.context["adminform"].form.errors
        assert list(errors) == [field]
        assert errors[field][0].startswith(message)
        body = response.content.decode()
        for name, typed in values.items():
            assert f'name="{name}" value="{typed}"' in body
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_another_rule_set_does_not_take_the_old_defaults_as_overrides(admin_client):
    # The page showed WRC's 30 000 start points (WRC 2015 §4.1); Mahjong Soul starts at
    # 25 000 (Évriichi §7): untouched, the field is no override of the new rule set.
    tournament = make_tournament(rule_options={"uma": [20, 10, -10, -20]})
    response = _post(admin_client, tournament, ruleset="mahjongsoul", option_oka="20000")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.ruleset == "mahjongsoul"
    assert tournament.rule_options == {"uma": [20, 10, -10, -20], "oka": 20000}
    page = admin_client.get(_url(tournament))
    assert page.context["adminform"].form["option_start_points"].value() == 25000


def test_the_json_box_is_applied_when_edited(admin_client):
    tournament = make_tournament()
    response = _post(admin_client, tournament, rule_options='{"oka": 20000, "kiriage": true}')
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"oka": 20000}  # kiriage is WRC's (WRC 2015 §6.1)


def test_an_option_changed_in_its_field_and_the_box_to_different_values_is_refused(
    admin_client,
):
    tournament = make_tournament()
    response = _post(
        admin_client,
        tournament,
        rule_options='{"uma": [30, 10, -10, -30]}',
        **_uma(20, 10, -10, -20),
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"option_uma", "rule_options"}
    assert "both here and in the stored overrides" in errors["option_uma"][0]
    body = response.content.decode()
    assert 'name="option_uma_0" value="20"' in body
    assert escape('{"uma": [30, 10, -10, -30]}') in body
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_a_field_and_the_box_may_change_different_options(admin_client):
    tournament = make_tournament()
    response = _post(
        admin_client, tournament, rule_options='{"oka": 20000}', **_uma(20, 10, -10, -20)
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"oka": 20000, "uma": [20, 10, -10, -20]}


def test_once_a_sheet_exists_the_refusal_is_beside_the_option_changed(admin_client, organiser):
    tournament = make_tournament(confirmation_policy=Tournament.ConfirmationPolicy.SINGLE)
    first = make_rounds(tournament, 1)[0]
    make_seats(first, make_registrations(tournament, 4))
    confirm_sheet(first, 1, organiser)
    response = _post(admin_client, tournament, **_uma(20, 10, -10, -20))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert list(errors) == ["option_uma"]
    assert errors["option_uma"][0].startswith("Score sheets have already been entered")
    tournament.refresh_from_db()
    assert tournament.rule_options == {}
