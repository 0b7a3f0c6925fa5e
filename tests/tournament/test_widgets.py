"""`LongSelect` writes what Django's `Select` writes, without a template per option."""

import pytest
from django import forms

from tournament.widgets import LongSelect

CHOICES = [("", "—"), (1, "Anne <Ann>"), (2, 'Bo & "Bob"'), (3, "Chloé")]


@pytest.mark.parametrize(
    ("value", "attrs"),
    [
        (None, None),
        (2, {"id": "id_E_player"}),
        ("3", {"id": "id_S_player", "aria-invalid": "true", "aria-describedby": "err"}),
        (99, {"disabled": True, "form": "sheet-form"}),  # a value not among the choices
        ("", {"required": False, "data-seat": "W"}),
    ],
)
def test_the_same_html_as_djangos_select(value, attrs):
    django_select = forms.Select(choices=CHOICES, attrs={"required": True})
    long_select = LongSelect(choices=CHOICES, attrs={"required": True})
    assert long_select.render("N_player", value, attrs) == django_select.render(
        "N_player", value, attrs
    )


def test_a_grouped_list_is_refused_rather_than_written_flat():
    grouped = LongSelect(choices=[("Table 1", [(1, "Anne"), (2, "Bo")])])
    with pytest.raises(ValueError, match="flat choices"):
        grouped.render("E_player", 1)
