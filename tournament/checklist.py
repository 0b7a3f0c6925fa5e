"""The set-up checklist of the tournament's admin page: what an organiser does before round 1
starts, in order, each step with its state and the page where it is done.

Reads only (a handful of counts): the admin shows it and highlights the first step not done,
so that nobody wonders what comes next. The seating app's own checks (a plan that no longer
matches the players, a fixed table moved) stay on its pages; this list asks the ground
floor's records only (registrations, roles, rounds, seats), as every layer may.
"""

from dataclasses import dataclass
from enum import Enum

from django.db.models import Count, Q
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from tournament.models import Round, Tournament, TournamentStaff

#: Four players a table (WRC 2015 §3.1: the game is played by four).
TABLE_SIZE = 4


class State(Enum):
    DONE = "done"
    TODO = "todo"
    WARNING = "warning"


STATE_LABELS = {
    State.DONE: pgettext_lazy("checklist step", "Done"),
    State.TODO: pgettext_lazy("checklist step", "To do"),
    State.WARNING: pgettext_lazy("checklist step", "Check"),
}


@dataclass(frozen=True)
class Link:
    label: str | Promise
    url: str


@dataclass(frozen=True)
class Step:
    key: str
    title: str | Promise
    state: State
    detail: str
    links: tuple[Link, ...]
    #: The first step not done: the page highlights it.
    is_next: bool = False

    @property
    def state_label(self) -> str | Promise:
        return STATE_LABELS[self.state]


@dataclass(frozen=True)
class Players:
    """The registrations that play, as the seating counts them."""

    players: int
    substitutes: int

    @property
    def missing(self) -> int:
        """Substitutes the tables still need to be full."""
        return -self.players % TABLE_SIZE

    @property
    def seated(self) -> int:
        """Players a round seats: everyone, and the substitutes that fill the last table."""
        return self.players + min(self.missing, self.substitutes) if self.missing else self.players


def _players(tournament: Tournament) -> Players:
    counts = tournament.registrations.active().aggregate(
        players=Count("pk", filter=Q(is_substitute=False)),
        substitutes=Count("pk", filter=Q(is_substitute=True)),
    )
    return Players(**counts)


def _players_step(tournament: Tournament, players: Players) -> Step:
    links = (
        Link(
            _("Import players"), reverse("admin:tournament_tournament_import", args=[tournament.pk])
        ),
        Link(
            _("Register a player"),
            f"{reverse('admin:tournament_registration_add')}?tournament={tournament.pk}",
        ),
    )
    if tournament.self_registration:
        requests = reverse("admin:tournament_registrationrequest_changelist")
        links += (
            Link(_("Registration requests"), f"{requests}?tournament__id__exact={tournament.pk}"),
        )
    title = _("Players")
    count = ngettext("%(count)s player", "%(count)s players", players.players) % {
        "count": players.players
    }
    if not players.players:
        return Step("players", title, State.TODO, _("No player is registered yet."), links)
    if players.missing > players.substitutes:
        detail = ngettext(
            "%(players)s: not a multiple of 4. Add %(missing)s substitute on the seating page.",
            "%(players)s: not a multiple of 4. Add %(missing)s substitutes on the seating page.",
            players.missing - players.substitutes,
        ) % {"players": count, "missing": players.missing - players.substitutes}
        seating = Link(_("Seating"), reverse("seating:overview", args=[tournament.slug]))
        return Step("players", title, State.WARNING, detail, (*links, seating))
    tables = ngettext("%(count)s table", "%(count)s tables", players.seated // TABLE_SIZE) % {
        "count": players.seated // TABLE_SIZE
    }
    return Step("players", title, State.DONE, f"{count}, {tables}.", links)


def _staff_step(tournament: Tournament) -> Step:
    roles = dict(tournament.staff.values_list("role").annotate(count=Count("pk")).order_by("role"))
    officials = roles.get(TournamentStaff.Role.REFEREE, 0) + roles.get(
        TournamentStaff.Role.HEAD_REFEREE, 0
    )
    links = (
        Link(
            _("Invite an official"),
            reverse("admin:tournament_tournament_officials", args=[tournament.pk]),
        ),
    )
    title = _("Staff")
    if not officials:
        detail = _("No referee yet: invite the officials who will enter the score sheets.")
        return Step("staff", title, State.TODO, detail, links)
    count = ngettext("%(count)s official", "%(count)s officials", officials) % {"count": officials}
    if (
        tournament.confirmation_policy != Tournament.ConfirmationPolicy.SINGLE
        and sum(roles.values()) < 2
    ):
        detail = _(
            "%(officials)s: every score sheet is entered or confirmed by a second official, "
            "so invite another one."
        ) % {"officials": count}
        return Step("staff", title, State.WARNING, detail, links)
    return Step("staff", title, State.DONE, f"{count}.", links)


def _seating_step(tournament: Tournament, players: Players, first: Round | None) -> Step:
    built = tournament.rounds.count()
    links = (
        Link(_("Seating"), reverse("seating:overview", args=[tournament.slug])),
        # Who is missing, before round 1 is seated without them.
        Link(_("Check-in: who is missing"), reverse("staff:check_in", args=[tournament.slug])),
    )
    title = _("Rounds and seating")
    if built < tournament.rounds_count:
        detail = _(
            "%(built)s of %(count)s rounds exist: save the tournament below to create the others."
        ) % {"built": built, "count": tournament.rounds_count}
        return Step("seating", title, State.WARNING, detail, links)
    if first is None or not first.seat_count:
        return Step("seating", title, State.TODO, _("Round 1 is not seated yet."), links)
    if first.seat_count != players.seated and first.status not in Round.PLAYED_STATUSES:
        detail = _("Round 1 seats %(seated)s players but %(playing)s play now: seat it again.") % {
            "seated": first.seat_count,
            "playing": players.seated,
        }
        return Step("seating", title, State.WARNING, detail, links)
    return Step("seating", title, State.DONE, _("Round 1 is seated."), links)


def _printing_step(tournament: Tournament, first: Round | None) -> Step:
    title = _("Table cards and score sheets")
    if first is None:
        return Step("printing", title, State.TODO, _("Round 1 is not seated yet."), ())
    links = (
        Link(
            _("Seating (PDF)"),
            reverse("staff:round_export", args=[tournament.slug, 1, "seating-pdf"]),
        ),
        Link(
            _("Score sheets (PDF)"),
            reverse("staff:round_export", args=[tournament.slug, 1, "score-sheets-pdf"]),
        ),
    )
    if tournament.table_reports:
        # The cards' QR codes open each table's page (scoring.table_keys).
        cards = reverse("staff:round_export", args=[tournament.slug, 1, "table-cards-pdf"])
        links += (Link(_("Table cards (PDF)"), cards),)
    links += (Link(_("Exports"), reverse("staff:exports", args=[tournament.slug])),)
    if not first.seat_count:
        detail = _("Seat round 1 first: its seating and score sheets name its players.")
        return Step("printing", title, State.TODO, detail, links)
    detail = (
        _("Round 1's seating, table cards and score sheets are ready to print.")
        if tournament.table_reports
        else _("Round 1's seating and score sheets are ready to print.")
    )
    return Step("printing", title, State.DONE, detail, links)


def _clock_step(tournament: Tournament, first: Round | None) -> Step:
    title = _("Clock")
    minutes = ngettext(
        "%(minutes)s minute a round", "%(minutes)s minutes a round", tournament.round_minutes
    ) % {"minutes": tournament.round_minutes}
    if first is None:
        return Step("clock", title, State.TODO, _("Round 1 does not exist yet."), ())
    links = (
        Link(_("Clock controls"), reverse("staff:clock", args=[tournament.slug, 1])),
        Link(_("Clock screen"), reverse("public:clock", args=[tournament.slug, 1])),
    )
    detail = _("%(minutes)s; start round 1's clock from its controls when play begins.") % {
        "minutes": minutes
    }
    return Step("clock", title, State.DONE, detail, links)


def _publication_step(tournament: Tournament, first: Round | None) -> Step:
    title = _("Publication")
    settings_link = Link(
        _("Public, rankings and seating switches"),
        reverse("admin:tournament_tournament_change", args=[tournament.pk]) + "#id_is_public",
    )
    public = Link(_("Public page"), tournament.get_absolute_url())
    if not tournament.is_public:
        detail = _("The tournament is hidden: tick Public below so that players find it.")
        return Step("publication", title, State.TODO, detail, (settings_link,))
    if first is None or first.status == Round.Status.PLANNED:
        detail = _("Round 1's seating is not published: seat it and apply the seating.")
        seating = Link(_("Seating"), reverse("seating:overview", args=[tournament.slug]))
        return Step("publication", title, State.TODO, detail, (seating, public))
    hidden = {
        (False, False): _("Public, but the seating and the rankings are hidden from the players."),
        (False, True): _("Public, but the seating is hidden from the players."),
        (True, False): _("Public, but the rankings are hidden from the players."),
    }.get((tournament.show_seating, tournament.show_rankings))
    if hidden:
        return Step("publication", title, State.WARNING, hidden, (settings_link, public))
    detail = _("Public: round 1's seating and the rankings are shown.")
    return Step("publication", title, State.DONE, detail, (public, settings_link))


def setup_checklist(tournament: Tournament) -> list[Step]:
    """The set-up steps in the order they are done; the first one not done is marked next."""
    players = _players(tournament)
    first = tournament.rounds.filter(number=1).annotate(seat_count=Count("seats")).first()
    steps = [
        _players_step(tournament, players),
        _staff_step(tournament),
        _seating_step(tournament, players, first),
        _printing_step(tournament, first),
        _clock_step(tournament, first),
        _publication_step(tournament, first),
    ]
    for index, step in enumerate(steps):
        if step.state is not State.DONE:
            steps[index] = Step(**{**step.__dict__, "is_next": True})
            break
    return steps
