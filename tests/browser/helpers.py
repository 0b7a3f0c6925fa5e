"""The demo tournament, seated and partly scored, for the browser tests and screenshots."""

from django.contrib.auth import get_user_model

from tests.conftest import confirm_sheet, make_seats, make_staff
from tournament.demo import create_demo_tournament
from tournament.models import Round, Tournament, TournamentStaff

# Each scroll box (overflow-x auto or scroll) that is wider inside than on screen, and the
# page's own width: what a reader would have to scroll sideways.
SIDEWAYS = """() => ({
  page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  boxes: [...document.querySelectorAll('body *')]
    .filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
    .filter(e => e.scrollWidth > e.clientWidth)
    .map(e => e.firstElementChild ? e.firstElementChild.className : e.className),
})"""

# How far a ranking's columns before the rounds (place, player, total…) reach past its
# scroll box (the table given by a selector): the rounds' columns, one per round, may
# continue beyond it (its scroll shadows say so).
ROUNDS_OVERHANG = """(selector) => {
  const table = document.querySelector(selector);
  const box = table.parentElement.getBoundingClientRect();
  const firstRound = table.querySelector('tbody td.round').cellIndex;
  const cells = [...table.rows].flatMap(row => [...row.cells])
    .filter(cell => cell.cellIndex < firstRound && cell.getClientRects().length);
  return Math.max(...cells.map(cell => cell.getBoundingClientRect().right)) - box.right;
}"""


def demo_event() -> tuple[Tournament, object]:
    """Demo tournament (36 players), round 1 seated and playing, single-entry sheets."""
    tournament, _created = create_demo_tournament()
    tournament.confirmation_policy = Tournament.ConfirmationPolicy.SINGLE
    tournament.save()
    round_ = tournament.rounds.get(number=1)
    registrations = list(tournament.registrations.order_by("pk"))
    # Spread the clubs over the tables: player i sits at table i mod 9.
    order = sorted(registrations, key=lambda r: (registrations.index(r) % 9, r.pk))
    make_seats(round_, order)
    round_.status = Round.Status.PLAYING
    round_.save()
    referee = get_user_model().objects.create_user("scorer", password="pw-scorer-1")
    make_staff(tournament, referee, TournamentStaff.Role.REFEREE)
    return tournament, referee


def confirm_table(tournament: Tournament, referee, table: int, points=None) -> None:
    round_ = tournament.rounds.get(number=1)
    if points:
        confirm_sheet(round_, table, referee, points)
    else:
        confirm_sheet(round_, table, referee)
