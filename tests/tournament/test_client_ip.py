"""Login throttling counts the real client behind a proxy, not the proxy."""

import pytest
from django.test import RequestFactory

from tournament.client_ip import client_ip


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.7", "10.0.0.2"),  # no trusted proxy: the header is ignored
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),  # a spoofed first entry is ignored
        (2, "203.0.113.7", "10.0.0.2"),  # fewer hops than proxies: do not trust it
    ],
)
def test_client_ip(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR="10.0.0.2")
    assert client_ip(request) == expected
