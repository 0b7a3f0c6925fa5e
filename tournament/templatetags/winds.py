"""The seat letters E, S, W, N in the page's language (French: E, S, O, N)."""

from django import template
from django.utils.translation import pgettext_lazy

register = template.Library()

_LETTERS = {
    "E": pgettext_lazy("wind letter", "E"),
    "S": pgettext_lazy("wind letter", "S"),
    "W": pgettext_lazy("wind letter", "W"),
    "N": pgettext_lazy("wind letter", "N"),
}


@register.filter
def wind_letter(wind: str) -> str:
    """The initial of a starting wind ("W" -> "O" in French); anything else unchanged."""
    letter = _LETTERS.get(str(wind))
    return str(letter) if letter is not None else wind
