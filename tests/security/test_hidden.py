"""Hidden means hidden: a private tournament, hidden rankings or seating and unpublished rounds
answer 404 to the public on every page, JSON endpoint and export; error pages show nothing
of the code or the settings."""

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver

from scoring.models import Stage
from scoring.table_keys import table_key
from tests.conftest import make_registrations, make_rounds, make_staff, make_tournament
from tournament.alerts.links import unsubscribe_key
from tournament.models import RegistrationRequest, Round, Seat, TournamentStaff
from tournament.registration_links import CONFIRM, WITHDRAW, request_key
from tournament.views import public
from tournament.views import staff as staff_views


def _public_routes() -> list[str]:
    """Every public route of a tournament (with a slug), discovered from the resolver."""
    routes = []
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLResolver) and pattern.namespace == "public":
            routes += [
                str(inner.pattern) for inner in pattern.url_patterns if "<slug:slug>" in str(inner)
            ]
    return routes


PUBLIC_ROUTES = _public_routes()
#: A player's unsubscribe link opens to the holder of its signed key whatever the switches:
#: every mail carries it, and hiding the tournament must not keep a player's mails coming.
UNSUBSCRIBE = "t/<slug:slug>/alerts/stop/<str:key>/"
HIDDEN_ROUTES = [route for route in PUBLIC_ROUTES if route != UNSUBSCRIBE]
RANKING_PAGES = ("rankings", "teams", "stages", "players/<")
RANKING_ROUTES = [r for r in PUBLIC_ROUTES if any(page in r for page in RANKING_PAGES)]
SEATING_ROUTES = [r for r in PUBLIC_ROUTES if "seating" in r or "projector" in r or "find-my" in r]


@pytest.fixture
def event(db, django_user_model):
    tournament = make_tournament(slug="quiet-open")
    registrations = make_registrations(tournament, 4, teams=2)
    first, second = make_rounds(tournament, 2)
    # A final from round 2, so that the stages page opens too.
    Stage.objects.create(tournament=tournament, name="Final", first_round=2, cut_size=4)
    first.status = Round.Status.PLAYING
    first.save()
    for index, registration in enumerate(registrations):
        Seat.objects.create(
            round=first, table_number=1, wind="ESWN"[index], registration=registration
        )
    referee = django_user_model.objects.create_user("ref", "ref@x.org", None)
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    outsider = django_user_model.objects.create_user("outsider", "out@x.org", None)
    registration_request = RegistrationRequest.objects.create(
        tournament=tournament, first_name="Quiet", email="quiet@example.org"
    )
    return {
        "tournament": tournament,
        "registration_request": registration_request,
        "registration": registrations[0],
        "referee": referee,
        "outsider": outsider,
        "unpublished": second,
    }


def _url(route: str, event: dict, number: int = 1) -> str:
    # A player's unsubscribe key for their link, a registration mail's key for its links;
    # else a table card's key, for round 1's table: a hidden tournament hides them too.
    if route.startswith("t/<slug:slug>/alerts/"):
        key = unsubscribe_key(event["registration"])
    elif "/register/" in route:
        purpose = CONFIRM if "/confirm/" in route else WITHDRAW
        key = request_key(event["registration_request"], purpose)
    else:
        key = table_key(event["tournament"].rounds.get(number=1), 1)
    return "/" + (
        route.replace("<slug:slug>", event["tournament"].slug)
        .replace("<int:number>", str(number))
        .replace("<int:registration_id>", str(event["registration"].pk))
        .replace("<str:key>", key)
    )


def _statuses(client: Client, routes: list[str], event: dict, number: int = 1) -> dict[str, int]:
    return {route: client.get(_url(route, event, number)).status_code for route in routes}


def test_the_public_routes_are_found():
    assert "t/<slug:slug>/rankings/" in PUBLIC_ROUTES
    assert "t/<slug:slug>/rounds/<int:number>/clock/state/" in PUBLIC_ROUTES
    assert RANKING_ROUTES
    assert SEATING_ROUTES


def test_a_visible_tournament_opens_every_public_page(event, client):
    assert set(_statuses(client, PUBLIC_ROUTES, event).values()) == {200}


def test_a_hidden_tournament_is_a_404_on_every_page_and_json_endpoint(event, client):
    event["tournament"].is_public = False
    event["tournament"].save()
    assert set(_statuses(client, HIDDEN_ROUTES, event).values()) == {404}
    assert event["tournament"].name not in client.get("/").content.decode()


def test_a_hidden_tournament_is_a_404_for_a_logged_in_outsider(event, client):
    event["tournament"].is_public = False
    event["tournament"].save()
    client.force_login(event["outsider"])
    assert set(_statuses(client, HIDDEN_ROUTES, event).values()) == {404}


def test_a_hidden_tournament_s_player_can_still_stop_their_mails_and_nobody_else(event, client):
    event["tournament"].is_public = False
    event["tournament"].save()
    assert client.get(_url(UNSUBSCRIBE, event)).status_code == 200
    forged = _url(UNSUBSCRIBE, event).replace(":", ":x", 1)
    assert client.get(forged).status_code == 404


def test_a_hidden_tournament_stays_open_to_its_staff(event, client):
    event["tournament"].is_public = False
    event["tournament"].save()
    client.force_login(event["referee"])
    assert set(_statuses(client, PUBLIC_ROUTES, event).values()) == {200}


def test_hidden_rankings_are_a_404_on_every_ranking_page(event, client):
    event["tournament"].show_rankings = False
    event["tournament"].save()
    assert set(_statuses(client, RANKING_ROUTES, event).values()) == {404}
    other_pages = [route for route in PUBLIC_ROUTES if route not in RANKING_ROUTES]
    assert set(_statuses(client, other_pages, event).values()) == {200}


def test_hidden_rankings_stay_open_to_the_staff(event, client):
    event["tournament"].show_rankings = False
    event["tournament"].save()
    client.force_login(event["referee"])
    assert set(_statuses(client, RANKING_ROUTES, event).values()) == {200}


def test_hidden_seating_is_a_404_on_every_seating_page(event, client):
    event["tournament"].show_seating = False
    event["tournament"].save()
    assert set(_statuses(client, SEATING_ROUTES, event).values()) == {404}


def test_the_seating_of_an_unpublished_round_is_a_404(event, client):
    number = event["unpublished"].number
    round_routes = [route for route in SEATING_ROUTES if "<int:number>" in route]
    assert set(_statuses(client, round_routes, event, number).values()) == {404}


def _export_paths(slug: str) -> list[str]:
    """Every download the site offers (whole tournament and per round)."""
    return [f"/manage/{slug}/exports/{kind}/" for kind in staff_views.TOURNAMENT_EXPORTS] + [
        f"/manage/{slug}/rounds/1/exports/{kind}/" for kind in staff_views.ROUND_EXPORTS
    ]


def test_no_export_of_a_hidden_tournament_reaches_the_public(event, client):
    event["tournament"].is_public = False
    event["tournament"].save()
    paths = _export_paths(event["tournament"].slug)
    assert len(paths) >= 4
    for path in paths:
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/accounts/login/"), path
    client.force_login(event["outsider"])
    assert {client.get(path).status_code for path in paths} == {403}


def test_no_export_reaches_a_referee_either(event, client):
    """Exports (the archive holds every sheet and the audit log) are the organiser's."""
    client.force_login(event["referee"])
    assert {client.get(path).status_code for path in _export_paths(event["tournament"].slug)} == {
        403
    }


SECRETS = ("Traceback", "SECRET_KEY", "DATABASES", "INSTALLED_APPS", "urlpatterns", ".py")


def test_a_404_with_debug_off_shows_no_detail(event, client, settings):
    settings.DEBUG = False
    event["tournament"].is_public = False
    event["tournament"].save()
    response = client.get(f"/t/{event['tournament'].slug}/rankings/")
    body = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in body
    assert "matches the given query" not in body
    assert not [secret for secret in SECRETS if secret in body]


def test_a_500_with_debug_off_shows_no_detail(event, settings, monkeypatch):
    settings.DEBUG = False

    def explode(*args, **kwargs):
        raise RuntimeError("database password is hunter2")

    monkeypatch.setattr(public.TournamentView, "get", explode)
    client = Client(raise_request_exception=False)
    response = client.get(f"/t/{event['tournament'].slug}/")
    body = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in body
    assert "hunter2" not in body
    assert not [secret for secret in SECRETS if secret in body]


def test_a_403_with_debug_off_shows_no_detail(event, client, settings):
    settings.DEBUG = False
    client.force_login(event["outsider"])
    response = client.get(f"/manage/{event['tournament'].slug}/exports/")
    body = response.content.decode()
    assert response.status_code == 403
    assert "Not allowed" in body
    assert not [secret for secret in SECRETS if secret in body]


@pytest.mark.parametrize(
    ("language", "title"), [("en", "This request was not understood"), ("fr", "Requête incomprise")]
)
def test_a_400_with_debug_off_is_the_sites_own_page(db, settings, language, title):
    # A host name the site does not serve (ALLOWED_HOSTS), or a form past the upload limits,
    # answered Django's bare English "Bad Request (400)".
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["riichi.example.org"]
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.get("/", HTTP_HOST="www.riichi.example.org")
    body = response.content.decode()
    assert response.status_code == 400
    assert title in body
    assert "Bad Request (400)" not in body
    assert "www.riichi.example.org" not in body
    assert not [secret for secret in SECRETS if secret in body]


def _seating_leaks(body: str, event: dict) -> list[str]:
    """What of round 1's seating a page shows: the opponents' names, the seating links."""
    slug = event["tournament"].slug
    leaks = [
        f"/t/{slug}/rounds/1/seating/",
        f"/t/{slug}/rounds/1/projector/",
        f"/t/{slug}/find-my-seat/",
        'class="opponent"',
    ]
    return [leak for leak in leaks if leak in body]


@pytest.mark.parametrize("route", PUBLIC_ROUTES)
def test_hidden_seating_shows_on_no_public_page(event, client, route):
    """Every player page listed each round's table, wind and opponents: enumerating the
    players rebuilt the plan that the seating pages hid."""
    event["tournament"].show_seating = False
    event["tournament"].save()
    url = _url(route, event)
    response = client.get(url)
    assert response.status_code in (200, 404)
    body = response.content.decode().replace(url, "")  # a 404 page names the address asked
    assert _seating_leaks(body, event) == []
    if route.endswith(".ics"):
        # The calendar keeps the round times only (tests/public/test_calendar_feed.py).
        assert "Table" not in body
        others = event["tournament"].registrations.exclude(pk=event["registration"].pk)
        assert all(other.player.display_name not in body for other in others)
    elif "players/<" in route:
        (row,) = response.context["rounds"]
        assert (row["table_number"], row["wind"], row["opponents"]) == (None, "", [])
        assert ">Table<" not in body
        assert ">Wind<" not in body


def test_hidden_seating_stays_on_every_page_for_the_staff(event, client):
    event["tournament"].show_seating = False
    event["tournament"].save()
    client.force_login(event["referee"])
    player = client.get(_url("t/<slug:slug>/players/<int:registration_id>/", event))
    (row,) = player.context["rounds"]
    assert (row["table_number"], row["wind"], len(row["opponents"])) == (1, "E", 3)
    assert _seating_leaks(player.content.decode(), event) == ['class="opponent"']
    page = client.get(_url("t/<slug:slug>/", event)).content.decode()
    assert len(_seating_leaks(page, event)) == 3


def test_shown_seating_is_on_the_player_page_and_the_tournament_page(event, client):
    player = client.get(_url("t/<slug:slug>/players/<int:registration_id>/", event))
    (row,) = player.context["rounds"]
    assert (row["table_number"], row["wind"], len(row["opponents"])) == (1, "E", 3)
    assert len(_seating_leaks(client.get(_url("t/<slug:slug>/", event)).content.decode(), event))
