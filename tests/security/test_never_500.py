"""Never a 500: hostile values posted into every form of the site, then every page and export
that shows the data loaded.

Each form starts from what a browser would send (the page's own form, read from its HTML),
and hypothesis replaces some of its fields with hostile values (huge, negative and
5,000-digit numbers, NaN and Infinity, control characters and bidirectional overrides, very
long strings, deeply nested JSON, wrong types, other tournaments' ids) or leaves them out.
Every answer must be below 500; a refused form must say what is wrong in the user's terms
(no database constraint, no Python value) and show again the text that was typed. Once a
form's examples have run, with all they saved, every public page, staff page, admin page and
export of the tournament must load.

The examples of one form share one database transaction: what one saved, the next finds.
A bounded number of examples per form keeps the whole suite within a few minutes in CI.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils.html import escape
from hypothesis import given
from hypothesis import strategies as st

from scoring.models import Penalty
from tests.conftest import (
    confirm_sheet,
    derandomised,
    make_registrations,
    make_rounds,
    make_seats,
    make_tournament,
)
from tournament.exports.registry import ROUND_EXPORTS, TOURNAMENT_EXPORTS
from tournament.models import Registration, Round, Team, Tournament

EXAMPLES = 10
SUITE = derandomised(EXAMPLES)

# --- hostile values -------------------------------------------------------------------------

HOSTILE_CONSTANTS = [
    "",
    " ",
    "-1",
    "0",
    "-0",
    "1.5",
    "25.000",
    "1e309",
    "-1e309",
    "NaN",
    "nan",
    "Infinity",
    "-Infinity",
    "inf",
    "0x1F",
    "１２３",  # full-width digits
    "٣٤",  # Arabic-Indic digits
    "9" * 5000,
    "-" + "9" * 5000,
    str(2**63),
    str(-(2**63) - 1),
    str(10**30),
    "\x00",
    "Zoé\x00\x07\x1b[31m",
    "\u202eevil\u202c",
    "\u2066\u2067\u2068",
    "x" * 20_000,
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%(name)s %s {0}",
    "null",
    "true",
    "[]",
    "{}",
    "[" * 5000 + "]" * 5000,
    '{"uma": ' * 3000 + "1" + "}" * 3000,
    '{"uma": [1e309, 0, 0, 0]}',
    '{"uma": ["NaN", "x", null, {}]}',
    '{"oka": 99999999999999999999999999999}',
    "2026-02-30",
    "99:99",
    "on",
]


def hostile_values(foreign_ids: list[int]) -> st.SearchStrategy[str]:
    """Any hostile text a field may receive; `foreign_ids` are another tournament's rows."""
    return st.one_of(
        st.sampled_from(HOSTILE_CONSTANTS),
        st.sampled_from([str(pk) for pk in foreign_ids] or ["0"]),
        st.integers(min_value=-(10**40), max_value=10**40).map(str),
        st.text(max_size=60),
    )


def mutations(
    fields: list[str], foreign_ids: list[int]
) -> st.SearchStrategy[dict[str, str | None]]:
    """Fields to replace by a hostile value, or to leave out (None)."""
    return st.dictionaries(
        st.sampled_from(fields),
        st.one_of(st.none(), hostile_values(foreign_ids)),
        min_size=1,
        max_size=min(4, len(fields)),
    )


# --- the forms as a browser sends them ------------------------------------------------------


class _Forms(HTMLParser):
    """The POST forms of a page: each one's fields with the values a browser would send."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        if tag == "form" and attributes.get("method", "").lower() == "post":
            self._form = {"id": attributes.get("id", ""), "fields": {}, "text": set()}
            self.forms.append(self._form)
            return
        form = self._form
        if form is None or "name" not in attributes and tag != "option":
            return
        name = attributes.get("name", "")
        if tag == "input":
            kind = attributes.get("type", "text").lower()
            if kind in ("submit", "button", "image", "file", "reset"):
                return
            if kind in ("checkbox", "radio") and "checked" not in attributes:
                return
            form["fields"].setdefault(name, []).append(attributes.get("value", "on"))
            if kind in ("text", "number", "email", "search", "url", "tel"):
                form["text"].add(name)
        elif tag == "select":
            self._select, self._options = name, []
            self._multiple = "multiple" in attributes
        elif tag == "option" and self._select is not None:
            self._options.append((attributes.get("value", ""), "selected" in attributes))
        elif tag == "textarea":
            self._textarea, self._text = name, []

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        form = self._form
        if tag == "form":
            self._form = None
        elif tag == "select" and form is not None and self._select is not None:
            chosen = [value for value, selected in self._options if selected]
            if not chosen and self._options and not self._multiple:
                chosen = [self._options[0][0]]
            if chosen:
                form["fields"][self._select] = chosen
            self._select = None
        elif tag == "textarea" and form is not None and self._textarea is not None:
            form["fields"][self._textarea] = ["".join(self._text).removeprefix("\n")]
            form["text"].add(self._textarea)
            self._textarea = None


def page_form(client, url: str, form_id: str = "") -> tuple[dict[str, list[str]], set[str]]:
    """The fields of the page's POST form (`form_id`, else the one with most fields), as a
    browser would post them untouched, and the names of its text fields."""
    response = client.get(url)
    assert response.status_code == 200, url
    parser = _Forms()
    parser.feed(response.content.decode())
    forms = [form for form in parser.forms if not form_id or form["id"] == form_id]
    form = max(forms, key=lambda form: len(form["fields"]))
    # The admin's inline formsets carry an empty form for its script to copy ("__prefix__").
    fields = {
        name: values
        for name, values in form["fields"].items()
        if name != "csrfmiddlewaretoken" and "__prefix__" not in name
    }
    return fields, form["text"]


def hostile_post(
    base: dict[str, list[str]], mutation: dict[str, str | None]
) -> dict[str, list[str]]:
    data = dict(base)
    for name, value in mutation.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = [value]
    return data


MANAGEMENT = ("TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS")

# Words of a refusal that only a developer reads: a database constraint, a Python value.
NOT_USER_TERMS = re.compile(
    r"Constraint “|violates|IntegrityError|Traceback|NoneType|object has no attribute|"
    r"invalid literal|Decimal\(|InvalidOperation|RecursionError|OverflowError"
)


def check_answer(response, data: dict[str, list[str]], text_fields: set[str]) -> None:
    """Below 500; a page shown again says why in the user's terms and keeps what was typed
    into `text_fields`."""
    assert response.status_code < 500
    if response.status_code != 200:
        return
    body = response.content.decode()
    assert not NOT_USER_TERMS.search(unescape(body)), NOT_USER_TERMS.search(unescape(body))
    refused = "errorlist" in body or "errornote" in body or 'class="error' in body
    if not refused:
        return
    for name in text_fields:
        typed = (data.get(name) or [""])[0].strip()
        # A value the field cleans (spaces, controls) comes back cleaned; the rest as typed.
        if typed and typed.isprintable():
            assert escape(typed) in body or typed in unescape(body), (name, typed[:80])


def post_and_check(client, url: str, data: dict[str, list[str]], text_fields: set[str]):
    response = client.post(url, data)
    check_answer(response, data, text_fields)
    return response


# --- the event ------------------------------------------------------------------------------


@pytest.fixture
def event(db, organiser):
    """Round 1 seated and playing (table 2 confirmed), round 2 planned, two teams; another
    tournament whose ids are posted as if they were this one's."""
    tournament = make_tournament(
        slug="hostile-open", confirmation_policy=Tournament.ConfirmationPolicy.SINGLE
    )
    registrations = make_registrations(tournament, 8, teams=2)
    first, second = make_rounds(tournament, 2)
    make_seats(first, registrations)
    first.status = Round.Status.PLAYING
    first.save()
    confirm_sheet(first, 2, organiser)
    other = make_tournament(slug="other-open")
    other_registrations = make_registrations(other, 4, teams=1)
    other_rounds = make_rounds(other, 1)
    foreign = [
        *(r.pk for r in other_registrations),
        *(r.pk for r in other_rounds),
        *Team.objects.filter(tournament=other).values_list("pk", flat=True),
        other.pk,
    ]
    return {
        "tournament": tournament,
        "registrations": registrations,
        "rounds": (first, second),
        "foreign": foreign,
    }


def every_page(event: dict) -> list[str]:
    """Every page and export that shows the tournament's data, to a visitor or its staff."""
    tournament = event["tournament"]
    slug = tournament.slug
    registrations = Registration.objects.filter(tournament=tournament)
    rounds = tournament.rounds.order_by("number")
    pages = [
        "/",
        f"/t/{slug}/",
        f"/t/{slug}/rankings/",
        f"/t/{slug}/rankings/?q=%E2%80%AE%00x&sort=-total",
        f"/t/{slug}/rankings/rows/",
        f"/t/{slug}/teams/",
        f"/t/{slug}/find-my-seat/?q=Player",
        f"/t/{slug}/find-my-seat/?q=%00%E2%80%AE",
        f"/manage/{slug}/scoring/",
        f"/manage/{slug}/scoring/standings/",
        f"/manage/{slug}/scoring/penalties/",
        f"/manage/{slug}/exports/",
        f"/manage/{slug}/seating/",
        reverse("admin:tournament_tournament_change", args=[tournament.pk]),
        reverse("admin:tournament_player_changelist"),
        reverse("admin:tournament_registration_changelist"),
        reverse("admin:tournament_team_changelist"),
        reverse("admin:tournament_auditentry_changelist"),
        reverse("admin:scoring_penalty_changelist"),
        reverse("admin:scoring_scoresheet_changelist"),
    ]
    pages += [f"/t/{slug}/players/{r.pk}/" for r in registrations if not r.is_substitute]
    pages += [reverse("admin:tournament_player_change", args=[r.player_id]) for r in registrations]
    pages += [f"/manage/{slug}/exports/{kind}/" for kind in TOURNAMENT_EXPORTS]
    for round_ in rounds:
        number = round_.number
        pages += [
            f"/t/{slug}/rounds/{number}/seating/",
            f"/t/{slug}/rounds/{number}/seating/players/",
            f"/t/{slug}/rounds/{number}/projector/tables/",
            f"/t/{slug}/rounds/{number}/projector/players/",
            f"/t/{slug}/rounds/{number}/clock/",
            f"/t/{slug}/rounds/{number}/clock/state/",
            f"/manage/{slug}/rounds/{number}/clock/",
            f"/manage/{slug}/scoring/round/{number}/",
        ]
        pages += [f"/manage/{slug}/rounds/{number}/exports/{kind}/" for kind in ROUND_EXPORTS]
        for table in sorted(set(round_.seats.values_list("table_number", flat=True))):
            base = f"/manage/{slug}/scoring/round/{number}/table/{table}/"
            pages += [base, f"{base}hands/", f"{base}history/"]
    return pages


def load_every_page(client, event: dict) -> None:
    """Every page and export answers below 500, to the organiser and to a visitor."""
    failures = []
    for url in every_page(event):
        status = client.get(url).status_code
        if status >= 500:
            failures.append((url, status))
    anonymous = type(client)()
    for url in every_page(event):
        if not url.startswith(("/manage/", "/admin/")):
            status = anonymous.get(url).status_code
            if status >= 500:
                failures.append((url, status))
    assert failures == []


def fuzz(
    client, event: dict, url: str, *, form_id: str = "", extra: dict[str, list[str]] | None = None
) -> Callable[[dict[str, str | None]], None]:
    """The check of one hostile post into the form of `url`, and its strategy's fields."""
    base, text_fields = page_form(client, url, form_id)
    base = {**base, **(extra or {})}

    def check(mutation: dict[str, str | None]) -> None:
        data = hostile_post(base, mutation)
        # What a person typed must come back; a formset's own counts, tampered with, leave
        # Django nothing to show its forms with.
        typed = {name for name, value in mutation.items() if value and name in text_fields}
        if any(name.endswith(MANAGEMENT) for name in mutation):
            typed = set()
        response = post_and_check(client, url, data, typed)
        # A sheet checked is saved with the digest its page gave, as Save does.
        checked = re.search(r'name="checked" value="([^"]+)"', response.content.decode())
        if response.status_code == 200 and checked:
            data = {**data, "action": ["save"], "checked": [checked.group(1)]}
            post_and_check(client, url, data, typed)

    check.fields = sorted(base)  # type: ignore[attr-defined]
    return check


# --- the forms ------------------------------------------------------------------------------


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def _sheet_url(event: dict, table: int = 1, page: str = "") -> str:
    return f"/manage/{event['tournament'].slug}/scoring/round/1/table/{table}/{page}"


def run_form(staff_client, event, url: str, **kwargs) -> None:
    """Hostile posts into the form of `url`, then every page and export."""
    check = fuzz(staff_client, event, url, **kwargs)

    @SUITE
    @given(mutations(check.fields, event["foreign"]))
    def examples(mutation):
        check(mutation)

    examples()
    load_every_page(staff_client, event)


# A valid sheet: the four add up to 4 × 30,000 start points (WRC 2015 §4.1).
FINAL_POINTS = {
    f"{wind}_points": [str(points)]
    for wind, points in zip("ESWN", (42300, 31000, 27700, 19000), strict=True)
}


def test_the_final_score_sheet(staff_client, event):
    run_form(
        staff_client,
        event,
        _sheet_url(event),
        form_id="sheet-form",
        extra={**FINAL_POINTS, "action": ["check"]},
    )


def test_huge_final_points_that_sum_right(staff_client, event):
    check = fuzz(
        staff_client,
        event,
        _sheet_url(event),
        form_id="sheet-form",
        extra={**FINAL_POINTS, "action": ["check"]},
    )
    huge = st.sampled_from([10**30, 2**63, 10**18, -(10**30), int("9" * 400)])

    @SUITE
    @given(huge)
    def examples(points):
        # South takes what East is given: the four still sum to 4 × 30,000 (WRC 2015 §4.1).
        check({"E_points": str(points), "S_points": str(73300 - points)})
        load_every_page(staff_client, event)

    examples()


def test_the_hand_by_hand_sheet(staff_client, event):
    run_form(
        staff_client,
        event,
        _sheet_url(event, page="hands/"),
        form_id="sheet-form",
        extra={"action": ["check"]},
    )


def test_a_correction_of_a_confirmed_sheet(staff_client, event):
    run_form(
        staff_client,
        event,
        _sheet_url(event, table=2, page="correct/"),
        form_id="sheet-form",
        extra={"action": ["check"], "reason": ["typo on the sheet"]},
    )


def test_the_penalty_form(staff_client, event):
    url = f"/manage/{event['tournament'].slug}/scoring/penalties/"
    run_form(staff_client, event, url, extra={"points": ["10"], "reason": ["late"]})


def test_the_penalty_cancel_and_disqualify_forms(staff_client, event, organiser):
    from scoring.services.penalties import penalty_give

    registration = event["registrations"][0]
    penalty = penalty_give(
        registration=registration,
        round_=None,
        kind=Penalty.Kind.OTHER,
        points=10,
        reason="x",
        acting_user=organiser,
    )
    slug = event["tournament"].slug
    run_form(
        staff_client,
        event,
        f"/manage/{slug}/scoring/penalties/{penalty.pk}/cancel/",
        extra={"reason": ["mistake"]},
    )
    run_form(
        staff_client,
        event,
        f"/manage/{slug}/scoring/players/{event['registrations'][1].pk}/disqualify/",
        extra={"reason": ["cheating"]},
    )


def test_the_tournament_admin_and_its_rule_options(staff_client, event):
    url = reverse("admin:tournament_tournament_change", args=[event["tournament"].pk])
    run_form(staff_client, event, url, form_id="tournament_form")


RULE_OPTIONS = [
    "[" * 5000 + "]" * 5000,
    '{"uma": ' * 3000 + "1" + "}" * 3000,
    '{"uma": [NaN, Infinity, -Infinity, 0]}',
    '{"uma": [' + "9" * 5000 + ", 0, 0, 0]}",
    '{"uma": "15"}',
    '{"no_such_option": 1}',
    '{"uma": [1, 2]}',
    "[1, 2, 3]",
    '"text"',
    "{",
    "\x00",
]


@pytest.mark.parametrize("options", RULE_OPTIONS)
def test_the_rule_options_said_wrong(staff_client, event, options):
    url = reverse("admin:tournament_tournament_change", args=[event["tournament"].pk])
    base, text_fields = page_form(staff_client, url, "tournament_form")
    data = hostile_post(base, {"rule_options": options})
    response = post_and_check(staff_client, url, data, set())
    assert response.status_code == 200  # refused, said on the page
    assert "errorlist" in response.content.decode()
    load_every_page(staff_client, event)


def test_a_huge_uma_is_refused_and_a_sheet_still_counts(staff_client, event, organiser):
    tournament = make_tournament(
        slug="huge-uma", confirmation_policy=Tournament.ConfirmationPolicy.SINGLE
    )
    first = make_rounds(tournament, 1)[0]
    make_seats(first, make_registrations(tournament, 4))
    first.status = Round.Status.PLAYING
    first.save()
    url = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    base, _text = page_form(staff_client, url, "tournament_form")
    uma = json.dumps({"uma": [10**30, 0, 0, -(10**30)]})
    response = staff_client.post(url, hostile_post(base, {"rule_options": uma}))
    assert response.status_code == 200  # refused by the option's range, said on the page
    assert "errorlist" in response.content.decode()
    tournament.refresh_from_db()
    assert "uma" not in tournament.rule_options
    confirm_sheet(first, 1, organiser)
    load_every_page(staff_client, {**event, "tournament": tournament})


def test_the_player_team_and_registration_admin(staff_client, event):
    for url, form_id in (
        (reverse("admin:tournament_player_add"), "player_form"),
        (
            reverse("admin:tournament_player_change", args=[event["registrations"][0].player_id]),
            "player_form",
        ),
        (reverse("admin:tournament_team_add"), "team_form"),
        (reverse("admin:tournament_registration_add"), "registration_form"),
        (
            reverse("admin:tournament_registration_change", args=[event["registrations"][2].pk]),
            "registration_form",
        ),
    ):
        run_form(staff_client, event, url, form_id=form_id)


def _csv(rows: list[list[str]]) -> bytes:
    lines = ["First name,Last name,Country,Club,EMA number,Team"]
    lines += [",".join(value.replace(",", " ").replace("\n", " ") for value in row) for row in rows]
    return "\n".join(lines).encode("utf-8", errors="surrogatepass")


def test_the_player_import(staff_client, event):
    tournament = event["tournament"]
    upload = reverse("admin:tournament_tournament_import", args=[tournament.pk])
    confirm = reverse("admin:tournament_tournament_import_confirm", args=[tournament.pk])
    row = st.lists(hostile_values(event["foreign"]), min_size=0, max_size=8)

    @SUITE
    @given(st.lists(row, min_size=1, max_size=4), st.booleans())
    def examples(rows, only_valid):
        content = _csv(rows)
        file = io.BytesIO(content)
        file.name = "players.csv"
        response = staff_client.post(upload, {"file": file})
        assert response.status_code < 500
        if response.status_code == 302:
            page = staff_client.get(confirm)
            assert page.status_code < 500
            answer = staff_client.post(confirm, {"only_valid": "on"} if only_valid else {})
            assert answer.status_code < 500

    examples()
    load_every_page(staff_client, event)


def test_the_clock(staff_client, event):
    slug = event["tournament"].slug

    @SUITE
    @given(
        st.sampled_from(["start", "pause", "extend", "reset", "nonsense", "\u202e", "%00"]),
        st.sampled_from([1, 2, 3, 0, 10**9]),
    )
    def examples(action, number):
        response = staff_client.post(f"/manage/{slug}/rounds/{number}/clock/{action}/")
        assert response.status_code < 500
        state = staff_client.get(f"/t/{slug}/rounds/{number}/clock/state/")
        assert state.status_code < 500
        if state.status_code == 200:
            json.loads(state.content)

    examples()
    load_every_page(staff_client, event)


def test_the_seating_forms(staff_client, event, settings):
    settings.SEATING_RUN_IN_BACKGROUND = False
    settings.SEATING_TIME_LIMIT = 1
    slug = event["tournament"].slug
    second = event["rounds"][1].pk
    common = {"priority": ["tables"], "keep_apart": ["team"], "seed": [""]}
    forms = {
        "generate": {**common, "rounds": [str(second)], "time_limit": ["1"]},
        "swiss": {**common, "round": [str(second)], "closeness": ["100"]},
        "substitutes": {"count": ["4"]},
    }
    for page, base in forms.items():
        seating_examples(staff_client, f"/manage/{slug}/seating/{page}/", base, event)()
    load_every_page(staff_client, event)


def seating_examples(client, url: str, base: dict[str, list[str]], event: dict):
    """Hostile posts into one of the seating overview's forms, from its fields' defaults."""

    @SUITE
    @given(mutations(sorted(base), event["foreign"]))
    def examples(mutation):
        check_answer(client.post(url, hostile_post(base, mutation)), {}, set())

    return examples


@pytest.mark.parametrize(
    "query",
    ["", "%00", "\u202e", "x" * 5000, "' OR 1=1", "%(q)s", "[" * 500],
)
def test_the_public_searches(client, event, query):
    slug = event["tournament"].slug
    for url in (f"/t/{slug}/rankings/", f"/t/{slug}/rankings/rows/", f"/t/{slug}/find-my-seat/"):
        for params in ({"q": query}, {"sort": query}, {"q": query, "sort": "-r1"}):
            assert client.get(url, params).status_code < 500


@pytest.mark.parametrize("value", [" ", "x", "1.5", "9" * 5000, "-1"])
def test_an_autocomplete_box_given_no_id_says_so(staff_client, event, value):
    """Django's autocomplete box looked the posted value up to show it again: a value that
    is no id answered a 500 instead of the field's error."""
    url = reverse("admin:tournament_registration_add")
    data = {"tournament": event["tournament"].pk, "player": value, "team": value}
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
