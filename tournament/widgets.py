"""Form widgets of the staff pages."""

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString


class LongSelect(forms.Select):
    """A select of flat choices whose options are written in one pass rather than each
    through Django's option template: the score sheet's player lists name every player of
    the round (four lists of 320 at a large event), and a template per option made them
    most of the sheet page's time (docs/performance.md). The same HTML as `forms.Select`."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        if any(group for group, _choices, _index in widget["optgroups"]):
            raise ValueError("LongSelect takes flat choices, without groups")
        # As Django's attrs.html: False leaves the attribute out, True writes its name alone.
        attributes = format_html_join(
            "",
            " {}{}",
            (
                (key, "" if value is True else format_html('="{}"', value))
                for key, value in widget["attrs"].items()
                if value is not False
            ),
        )
        options = format_html_join(
            "",
            '\n  <option value="{}"{}>{}</option>\n',
            (
                (option["value"], " selected" if option["selected"] else "", option["label"])
                for _group, choices, _index in widget["optgroups"]
                for option in choices
            ),
        )
        return format_html('<select name="{}"{}>{}\n</select>', widget["name"], attributes, options)
