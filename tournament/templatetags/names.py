"""Names on the pages: a right-to-left name (or one still carrying a bidirectional control)
inside a sentence or a line could reorder it; `<bdi>` keeps its direction to itself."""

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

from tournament.names import needs_isolation

register = template.Library()


@register.filter
def bdi(value: object) -> SafeString:
    """The value escaped, in `<bdi>` where it needs isolation (`needs_isolation`); a
    left-to-right name is left as it is."""
    if not needs_isolation(str(value)):
        return conditional_escape(value)
    return format_html("<bdi>{}</bdi>", value)
