"""400 and 500 pages: rendered without a request (Django's own handlers may have none), so
they name no URL and load no static file, and still speak the reader's language."""

import pytest
from django.template.loader import render_to_string
from django.utils import translation


@pytest.mark.parametrize(
    ("template", "language", "heading"),
    [
        ("400.html", "en", "This request was not understood"),
        ("400.html", "fr", "Requête incomprise"),
        ("500.html", "en", "Something went wrong on our side"),
        ("500.html", "fr", "Un problème est survenu de notre côté"),
    ],
)
def test_an_error_page_renders_alone_in_the_readers_language(template, language, heading):
    with translation.override(language):
        page = render_to_string(template)
    assert "<title>" in page
    assert f"<h1>{heading}</h1>" in page
    assert '<a href="/">' in page
    assert "/static/" not in page
