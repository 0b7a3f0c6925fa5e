"""Seat letters follow the page's language."""

from django.utils import translation

from tournament.templatetags.winds import wind_letter


def test_west_is_o_in_french_and_w_in_english():
    # French seat names: Est, Sud, Ouest, Nord
    with translation.override("fr"):
        assert [wind_letter(w) for w in "ESWN"] == ["E", "S", "O", "N"]
    with translation.override("en"):
        assert [wind_letter(w) for w in "ESWN"] == ["E", "S", "W", "N"]
    assert wind_letter("") == ""
