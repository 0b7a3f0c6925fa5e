"""The health check: /healthz answers "ok" from any application server that is up.

For a load balancer or a container's probe, and the benchmarks' floor: the same middleware
as every page, no query, no template, so what a page costs above it is the page's own.
"""

from django.http import HttpRequest, HttpResponse


def healthz(request: HttpRequest) -> HttpResponse:
    """The process answers; it reads nothing (a database outage shows on the pages)."""
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")
