"""Every URL of the site × every role → the status that role must get.

The URL patterns are discovered from the resolver, so a page added tomorrow is in the matrix
at once; a pattern whose kind this file cannot classify, or whose URL arguments it cannot
fill, fails with a message saying what to add here.

Roles: anonymous, player (logged in, no role), scorer of another tournament, scorer
(referee) of this tournament, head referee, organiser (tournament roles only, no Django
staff flag), co-organiser (the organiser role with the staff flag, which saving the role in
the admin ticks: the admin gives them the permissions of the role) and superuser.

Outcomes: "200", "403", "404", "405" (a POST-only view read with GET), "login" (redirect to
the login page), "admin-login" (redirect to the admin's login page), "redirect" (any other
redirect).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from scoring.models import Penalty, Stage
from scoring.table_keys import table_key
from seating.models import SeatingRun
from tests.conftest import make_registrations, make_rounds, make_staff, make_tournament
from tournament.alerts.links import unsubscribe_key
from tournament.models import AuditEntry, RegistrationRequest, Seat, TournamentStaff
from tournament.permissions import (
    ORGANISER_ADMIN_PERMISSIONS,
    ROLE_RANK,
    TournamentStaffMixin,
)
from tournament.registration_links import CONFIRM, WITHDRAW, request_key
from tournament.views import staff as staff_views

Role = TournamentStaff.Role
ROLES = (
    "anonymous",
    "player",
    "scorer_other",
    "scorer",
    "head_referee",
    "organiser",
    "co_organiser",
    "superuser",
)
# The tournament role each matrix role holds in the tournament under test (None: none).
TOURNAMENT_ROLE = {
    "anonymous": None,
    "player": None,
    "scorer_other": None,
    "scorer": Role.REFEREE,
    "head_referee": Role.HEAD_REFEREE,
    "organiser": Role.ORGANISER,
    "co_organiser": Role.ORGANISER,
    "superuser": Role.ORGANISER,
}
STAFF_NAMESPACES = {"staff", "scoring", "seating"}
# Staff pages in the admin's look (the organiser's seating pages): the admin's login. The
# head referee's pages of the same namespace (the winds played) are score-sheet pages.
ADMIN_LOGIN_NAMESPACES = {"seating"}
# Pages outside the namespaces: (outcome for anonymous, outcome for any logged-in user).
ACCOUNT_PAGES = {
    "login": ("200", "200"),
    "logout": ("405", "405"),  # POST only since Django 5.0
    "password_change": ("login", "200"),
    "password_change_done": ("login", "200"),
    "set_language": ("redirect", "redirect"),
    "healthz": ("200", "200"),  # the health check: "ok", nothing read
    # An invited official's one-time link: the sample token is no valid link (410 Gone),
    # and the password it leads to is asked only right after such a login.
    "login_link": ("410", "410"),
    "login_link_password": ("login", "redirect"),
}


@dataclass(frozen=True)
class Route:
    route: str
    name: str  # "namespace:name", or the admin's pattern name
    namespace: str
    pattern: URLPattern

    @property
    def view_class(self):
        return getattr(self.pattern.callback, "view_class", None)

    def __str__(self) -> str:
        return self.route or "/"


def _walk(resolver: URLResolver, prefix: str = "", namespace: str = ""):
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or namespace
            yield from _walk(pattern, prefix + str(pattern.pattern), inner)
        else:
            name = f"{namespace}:{pattern.name}" if namespace else (pattern.name or "")
            yield Route(prefix + str(pattern.pattern), name, namespace, pattern)


ROUTES = [
    route
    for route in _walk(get_resolver())
    # The admin's catch-all and its bare-id redirect have no page of their own.
    if "(?P<url>.*)" not in route.route and not route.route.endswith("<path:object_id>/")
]


@pytest.fixture
def world(db, django_user_model):
    """A tournament with teams, a seated round, a final, staff in every role, and another
    tournament whose referee must get nothing here."""
    tournament = make_tournament(slug="matrix-open")
    other = make_tournament(slug="other-open")
    registrations = make_registrations(tournament, 8, teams=2)
    rounds = make_rounds(tournament, 2)
    Stage.objects.create(tournament=tournament, name="Final", first_round=2, cut_size=4)
    rounds[0].status = rounds[0].Status.SEATED
    rounds[0].save()
    for index, registration in enumerate(registrations):
        Seat.objects.create(
            round=rounds[0],
            table_number=index // 4 + 1,
            wind="ESWN"[index % 4],
            registration=registration,
        )
    users = {"anonymous": None}
    for role in ROLES[1:]:
        # No password: hashing one per role would make the matrix slow; force_login needs none.
        if role == "superuser":
            users[role] = django_user_model.objects.create_superuser(role, f"{role}@x.org", None)
        else:
            users[role] = django_user_model.objects.create_user(
                role, f"{role}@x.org", None, is_staff=role == "co_organiser"
            )
        if TOURNAMENT_ROLE[role] and role != "superuser":
            make_staff(tournament, users[role], TOURNAMENT_ROLE[role])
    make_staff(other, users["scorer_other"], Role.REFEREE)
    AuditEntry.objects.create(tournament=tournament, action="matrix.test")
    Group.objects.create(name="Referees")
    penalty = Penalty.objects.create(
        tournament=tournament,
        registration=registrations[1],
        kind=Penalty.Kind.DISCRETIONARY,
        points=-5,
        reason="Phone rang",
        given_by=users["head_referee"],
    )
    run = SeatingRun.objects.create(
        tournament=tournament,
        seed=7,
        status=SeatingRun.Status.FAILED,
        error_code="matrix",
        error_message="Nothing to seat.",
    )
    registration_request = RegistrationRequest.objects.create(
        tournament=tournament, first_name="Matrix", email="matrix@example.org"
    )
    return {
        "tournament": tournament,
        "registration_request": registration_request,
        "registration": registrations[0],
        "penalty": penalty,
        "run": run,
        "users": users,
    }


def _admin_model(route: Route):
    """The model of an admin page named `<app>_<model>_<action>`, if any."""
    for model in apps.get_models():
        prefix = f"{model._meta.app_label}_{model._meta.model_name}_"
        if route.pattern.name and route.pattern.name.startswith(prefix):
            return model
    return None


def _sample_kwargs(route: Route, world: dict) -> dict[str, object]:
    tournament = world["tournament"]
    values: dict[str, object] = {
        "slug": tournament.slug,
        "number": 1,
        "registration_id": world["registration"].pk,
        "registration": world["registration"].pk,
        "table": 1,
        "pk": world["penalty"].pk if route.name == "scoring:penalty_cancel" else tournament.pk,
        "run": world["run"].pk,
        "app_label": "tournament",
        "uidb64": "MQ",
        "token": "set-password",
        "action": "start",
        "staff": tournament.staff.order_by("pk").first().pk,
        # A table card's key: the table's page opens to anyone who has it.
        "key": table_key(tournament.rounds.get(number=1), 1),
    }
    if route.name in ("public:register_confirm", "public:register_withdraw"):
        # A registration mail's link: its page opens to anyone who has it.
        purpose = CONFIRM if route.name == "public:register_confirm" else WITHDRAW
        values["key"] = request_key(world["registration_request"], purpose)
    if route.name == "public:alerts_stop":
        # A player's unsubscribe link: it opens to anyone who has the mail.
        values["key"] = unsubscribe_key(world["registration"])
    if route.name == "staff:export":
        values["kind"] = next(iter(staff_views.TOURNAMENT_EXPORTS), "none")
    elif route.name == "staff:round_export":
        values["kind"] = next(iter(staff_views.ROUND_EXPORTS), "none")
    if "object_id" in route.pattern.pattern.converters or "<path:object_id>" in route.route:
        model = _admin_model(route)
        instance = model.objects.order_by("pk").first() if model else None
        values["object_id"] = instance.pk if instance else 0
    if "<id>" in route.route or "<int:id>" in route.route:
        values["id"] = world["users"]["player"].pk
    if route.name == "admin:view_on_site":
        values["content_type_id"] = ContentType.objects.get_for_model(tournament).pk
        values["object_id"] = tournament.pk
    needed = set(route.pattern.pattern.converters) | _regex_groups(route)
    needed |= {part.split(":")[-1] for part in _angle_names(route.route)}
    missing = needed - set(values)
    assert not missing, (
        f"{route}: the permission matrix has no sample value for {sorted(missing)}; "
        "add one in _sample_kwargs"
    )
    return {name: values[name] for name in needed}


def _angle_names(route: str) -> list[str]:
    return [chunk.split(">", 1)[0] for chunk in route.split("<")[1:]]


def _regex_groups(route: Route) -> set[str]:
    regex = getattr(route.pattern.pattern, "regex", None)
    return set(regex.groupindex) if regex is not None else set()


def _path(route: Route, world: dict) -> str:
    kwargs = _sample_kwargs(route, world)
    path = "/" + route.route
    for name in _angle_names(route.route):
        path = path.replace(f"<{name}>", str(kwargs[name.split(":")[-1]]))
    return "/admin/tournament/" if route.name == "admin:app_list" else path


def _outcome(response) -> str:
    if response.status_code in (301, 302):
        location = response["Location"]
        if location.startswith("/admin/login/"):
            return "admin-login"
        if location.startswith("/accounts/login/"):
            return "login"
        return "redirect"
    return str(response.status_code)


def _answers(view_class, method: str) -> bool:
    return hasattr(view_class, method) and method in view_class.http_method_names


def _is_role_page(route: Route) -> bool:
    """Pages guarded by a tournament role (not the Django staff flag): the staff namespaces."""
    return route.namespace in STAFF_NAMESPACES


def _expected_staff(route: Route, role: str) -> str:
    view_class = route.view_class
    assert view_class is not None, f"{route} is a staff page served by a function view"
    assert issubclass(view_class, TournamentStaffMixin), (
        f"{route} is a staff page without TournamentStaffMixin"
    )
    if role == "anonymous":
        in_admin_look = route.namespace in ADMIN_LOGIN_NAMESPACES and (
            view_class.required_role == Role.ORGANISER
        )
        return "admin-login" if in_admin_look else "login"
    required = view_class.required_role
    held = TOURNAMENT_ROLE[role]
    if held is None or ROLE_RANK[held] < ROLE_RANK[required]:
        return "403"
    if not _answers(view_class, "get"):
        return "405"
    if route.name == "staff:export" and not staff_views.TOURNAMENT_EXPORTS:
        return "404"
    return "200"


def _organiser_may_open(route: Route) -> bool:
    """Whether the organiser role's admin permissions open this admin page: an admin model
    page needs its model's permission (a list, page or history: view; the tournament's own
    pages, e.g. the import: change); the admin's other pages need none."""
    model = _admin_model(route)
    if model is None:
        return True
    meta = model._meta
    action = route.pattern.name.removeprefix(f"{meta.app_label}_{meta.model_name}_")
    needed = {"changelist": "view", "change": "view", "history": "view"}.get(action, action)
    if needed not in ("view", "add", "delete"):
        needed = "change"
    return f"{meta.app_label}.{needed}_{meta.model_name}" in ORGANISER_ADMIN_PERMISSIONS


def _expected(route: Route, role: str) -> set[str]:
    """The outcomes allowed for this role (usually exactly one)."""
    if route.namespace == "public":
        return {"200"}
    if _is_role_page(route):
        return {_expected_staff(route, role)}
    if route.namespace == "admin":
        if role == "co_organiser" and not _organiser_may_open(route):
            # A page of a row that does not exist sends everyone to the index, refused or not.
            no_row = "object_id" in route.route and not _admin_model(route).objects.exists()
            return {"403", "redirect"} if no_row else {"403"}
        if role not in ("superuser", "co_organiser"):
            # The admin's logout sends anyone who is not admin staff to the admin index.
            special = {"admin:login": "200", "admin:logout": "redirect"}
            return {special.get(route.name, "admin-login")}
        if route.name == "admin:logout":
            return {"405"}
        if route.name in ("admin:login", "admin:view_on_site"):
            return {"redirect"}
        # The superuser (and a co-organiser, on a model page their role opens) gets in: the
        # page, a redirect (a change page of a model with no row here), or a refusal a
        # ModelAdmin makes for everyone (no "add" on the audit log).
        return {"200", "redirect", "403", "405"}
    assert route.name in ACCOUNT_PAGES, (
        f"{route} ({route.name!r}) is neither public, staff nor admin: classify it in "
        "ACCOUNT_PAGES or a namespace of test_permission_matrix.py"
    )
    anonymous, logged_in = ACCOUNT_PAGES[route.name]
    return {anonymous if role == "anonymous" else logged_in}


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_every_role_gets_the_right_answer_on_every_page(route, world, client):
    path = _path(route, world)
    actual, wrong = {}, {}
    for role in ROLES:
        client.logout()
        if world["users"][role] is not None:
            client.force_login(world["users"][role])
        outcome = _outcome(client.get(path))
        expected = _expected(route, role)
        actual[role] = outcome
        if outcome not in expected:
            wrong[role] = f"got {outcome}, expected {' or '.join(sorted(expected))}"
    assert not wrong, f"GET {path}: {wrong} (all: {actual})"


WRITE_ROUTES = [
    route for route in ROUTES if _is_role_page(route) and _answers(route.view_class, "post")
]


@pytest.mark.parametrize("route", WRITE_ROUTES, ids=str)
def test_no_write_is_accepted_from_a_role_that_may_not_make_it(route, world, client):
    """A POST from anonymous or a too-low role is refused before anything is written."""
    path = _path(route, world)
    audit_before = AuditEntry.objects.count()
    wrong = {}
    for role in ROLES:
        expected = _expected_staff(route, role)
        if expected not in ("login", "403"):
            continue
        client.logout()
        if world["users"][role] is not None:
            client.force_login(world["users"][role])
        outcome = _outcome(client.post(path, {}))
        if outcome != expected:
            wrong[role] = f"got {outcome}, expected {expected}"
    assert not wrong, f"POST {path}: {wrong}"
    assert AuditEntry.objects.count() == audit_before
    assert Penalty.objects.get().cancelled_at is None


def test_the_matrix_covers_the_public_staff_and_admin_pages():
    namespaces = {route.namespace for route in ROUTES}
    assert {"public", "staff", "admin"} <= namespaces
    assert len(ROUTES) > 30


# The one exemption, on purpose: a visitor's language switch carries no token, so that no
# public page holds one and they can be compressed (BREACH); the view checks the token of a
# logged-in user itself (tournament.views.language, tests/public/test_compression.py). And a
# player's unsubscribe link, whose signed key stands for the token: a mail app's one-click
# unsubscribe (RFC 8058) posts without one, and forging it only stops that player's mails.
CSRF_EXEMPT_ON_PURPOSE = {"set_language", "public:alerts_stop"}


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_no_view_is_exempt_from_csrf(route):
    exempt = getattr(route.pattern.callback, "csrf_exempt", False)
    assert not exempt or route.name in CSRF_EXEMPT_ON_PURPOSE, f"{route} is csrf_exempt"


@pytest.mark.parametrize("route", WRITE_ROUTES, ids=str)
def test_a_post_without_the_csrf_token_is_refused(route, world):
    """Even from the superuser, a form posted without its CSRF token changes nothing."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["users"]["superuser"])
    audit_before = AuditEntry.objects.count()
    response = client.post(_path(route, world), {})
    assert response.status_code == 403
    assert b"This page had expired" in response.content  # the CSRF refusal, not a role's
    assert AuditEntry.objects.count() == audit_before


def test_the_login_form_needs_its_csrf_token(db):
    response = Client(enforce_csrf_checks=True).post(
        "/accounts/login/", {"username": "x", "password": "y"}
    )
    assert response.status_code == 403
