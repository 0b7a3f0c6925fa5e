"""/healthz: what a load balancer asks, and the benchmarks' floor (docs/performance.md)."""

import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_the_health_check_answers_ok_without_a_query(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"].startswith("text/plain")
