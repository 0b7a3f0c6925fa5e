"""django-tables2 tables of the public rankings (players and teams).

The scores are formatted by `tournament.formatting`; a rounded score (+3.33…) carries its
exact value in the cell's title.
"""

import hashlib
from fractions import Fraction

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.selectors.rows import NO_HANCHAN_PLAYED, player_rows, team_rows
from scoring.selectors.stages import CutLine, StageEntry
from scoring.selectors.standings import Standings, TeamStanding
from tournament.formatting import NO_PLACE, format_place, score_text
from tournament.names import fold, player_search_text
from tournament.templatetags.names import bdi

NEGATIVE_INFINITY = float("-inf")
#: The rules' tie-break criteria (scoring.rules TIE_BREAK_CRITERIA), as the rankings say them.
TIE_BREAK_LABELS = {
    "best_hanchan": _("the best hanchan"),
    "firsts": _("more 1st places"),
    "seconds": _("more 2nd places"),
    "thirds": _("more 3rd places"),
    "fewest_fourths": _("fewer 4th places"),
    "fewest_penalties": _("fewer penalty points"),
    "played": _("more hanchans played"),
}
TIE_BREAK_MARK = "†"


def score_shown(value: Fraction) -> tuple[str, str]:
    """The score as a cell shows it, and its exact value where the text is rounded (the
    cell's title), for the HTML table and the page's poll alike."""
    text, rounded = score_text(value, signed=True)
    return text, str(Fraction(value)) if rounded else ""


def score_cell(value: Fraction | None, css: str = "") -> str:
    if value is None:
        return mark_safe('<span class="muted">–</span>')  # a constant: nothing to escape
    text, title = score_shown(value)
    classes = " ".join(filter(None, ["score", "negative" if value < 0 else "", css]))
    return format_html('<span class="{}" title="{}">{}</span>', classes, title, text)


def _sort_value(value: Fraction | None) -> float:
    return NEGATIVE_INFINITY if value is None else float(value)


class ScoreColumn(tables.Column):
    def render(self, value):
        return score_cell(value)


class RankingTable(tables.Table):
    """The live ranking: one row per player (`ranking_rows`), one column per round."""

    # empty_values=(): render_place also draws the "–" of a player with no place
    place = tables.Column(verbose_name=_("Place"), order_by=("place_sort",), empty_values=())
    name = tables.Column(verbose_name=_("Player"), order_by=("name_sort",))
    country = tables.Column(
        verbose_name=_("Country"),
        order_by=("country_name",),
        attrs={"td": {"class": "wide-only"}, "th": {"class": "wide-only"}},
    )
    club = tables.Column(
        verbose_name=_("Club / team"),
        order_by=("club",),
        attrs={"td": {"class": "wide-only"}, "th": {"class": "wide-only"}},
    )
    total = ScoreColumn(
        verbose_name=_("Total"),
        order_by=("total_sort",),
        attrs={"td": {"class": "number total"}, "th": {"class": "number"}},
    )
    penalty = ScoreColumn(
        verbose_name=_("Incl. penalties"),
        order_by=("penalty_sort",),
        attrs={"td": {"class": "number"}, "th": {"class": "number"}},
    )

    class Meta:
        template_name = "django_tables2/ranking.html"
        orderable = True
        attrs = {"class": "ranking"}
        row_attrs = {
            "data-registration": lambda record: record["registration_id"],
            "data-search": lambda record: record["search"],
        }
        sequence = ("place", "name", "country", "club", "total", "...", "penalty")

    def __init__(
        self,
        data,
        *,
        slug: str,
        round_numbers,
        provisional_rounds,
        tie_breaks=(),
        stale: bool = False,
        round_limit=None,
        **kwargs,
    ):
        self.slug = slug
        # The round held back from the public rankings (`public_round_limit`), said above
        # the table: a poll that brings the round in takes the notice away with it.
        self.round_limit = round_limit
        self.provisional_rounds = provisional_rounds
        # Ranked from the previous standings while another process builds the new ones.
        self.stale = stale
        # Said under the table when an equal total was ordered by them (the legend).
        self.tie_breaks = [TIE_BREAK_LABELS.get(name, name) for name in tie_breaks]
        self.tie_broken = any(row.get("decided_by") for row in data)
        extra = []
        for number in round_numbers:
            label = _("R%(number)s") % {"number": number}
            if number in provisional_rounds:
                label = format_html(
                    '{}<sup class="provisional" title="{}">*</sup>', label, _("provisional")
                )
            extra.append(
                (
                    f"r{number}",
                    ScoreColumn(
                        verbose_name=label,
                        accessor=f"rounds__{number}",
                        order_by=(f"round_sort__{number}",),
                        attrs={
                            "td": {
                                "class": "number round"
                                + (" provisional" if number in provisional_rounds else "")
                            },
                            "th": {"class": "number"},
                        },
                        default=None,
                    ),
                )
            )
        super().__init__(data, extra_columns=extra, **kwargs)
        # The page's script compares it with the poll's (`live`).
        self.attrs = {**self.attrs, "data-head": self.head}

    @property
    def head(self) -> str:
        """What the table shows besides its rows (headers, legends, sort links, language),
        hashed: the page's poll sends rows alone, and a page whose head differs fetches the
        whole table again."""
        signature = (
            get_language(),
            [str(column.header) for column in self.columns],
            str(self.order_by),
            sorted(self.provisional_rounds),
            self.tie_broken,
            [str(label) for label in self.tie_breaks],
            not self.data,
            self.round_limit and self.round_limit.pending,
        )
        return hashlib.sha256(repr(signature).encode()).hexdigest()[:16]

    def live(self) -> dict:
        """The rows as the page's poll sends them, in the table's order: only what the cells
        show, arrays rather than HTML (a tenth of the bytes); `static/public/rankings.js`
        draws them as this table's cells. Each row: id, place (None: no hanchan), the
        tie-break that ordered it, name, withdrawn, country code and name, club, search text,
        then the score columns in the table's order (total, rounds, penalties); a score is
        None, its text, or [text, exact]."""

        def score(value: Fraction | None) -> str | list[str] | None:
            if value is None:
                return None
            text, exact = score_shown(value)
            return [text, exact] if exact else text

        scores = [column for column in self.columns if isinstance(column.column, ScoreColumn)]
        rows = []
        for row in self.rows:
            record = row.record
            rows.append(
                [
                    record["registration_id"],
                    record["place_text"] if record["place"] is not None else None,
                    record.get("decided_by"),
                    record["name"],
                    int(record["withdrawn"]),
                    record["country"],
                    record["country_name"],
                    record["club"],
                    record["search"],
                    *(score(column.accessor.resolve(record, quiet=True)) for column in scores),
                ]
            )
        return {
            "head": self.head,
            "classes": [column.attrs["td"].get("class") or "" for column in self.columns],
            "player_url": reverse(
                "public:player", kwargs={"slug": self.slug, "registration_id": 0}
            ),
            "labels": {
                "no_place": str(NO_HANCHAN_PLAYED),
                "no_place_mark": NO_PLACE,
                "withdrawn": str(_("withdrawn")),
                "mark": TIE_BREAK_MARK,
                "decided": {key: self.decided_by_text(key) for key in TIE_BREAK_LABELS},
            },
            "rows": rows,
        }

    @staticmethod
    def decided_by_text(criterion: str) -> str:
        return _("Same total as the next place: decided by %(criterion)s.") % {
            "criterion": TIE_BREAK_LABELS.get(criterion, criterion)
        }

    def render_place(self, value, record):
        if value is None:
            return format_html(
                '<span class="muted" title="{}">{}</span>', NO_HANCHAN_PLAYED, NO_PLACE
            )
        place = record["place_text"]
        criterion = record.get("decided_by")
        if not criterion:
            return place
        said = self.decided_by_text(criterion)
        return format_html(
            '{}<sup class="tie-break" title="{}" aria-hidden="true">{}</sup>'
            '<span class="visually-hidden"> ({})</span>',
            place,
            said,
            TIE_BREAK_MARK,
            said,
        )

    def render_name(self, value, record):
        url = reverse(
            "public:player",
            kwargs={"slug": self.slug, "registration_id": record["registration_id"]},
        )
        if record.get("withdrawn"):
            return format_html(
                '<a href="{}">{}</a> <small class="muted">{}</small>',
                url,
                bdi(value),
                _("withdrawn"),
            )
        return format_html('<a href="{}">{}</a>', url, bdi(value))

    def render_country(self, value, record):
        if not value:
            return ""
        return format_html('<span title="{}">{}</span>', record["country_name"], value)


def ranking_rows(standings: Standings) -> list[dict]:
    """The standings' rows (`player_rows`) with what the table sorts and searches by."""
    rows = []
    for row in player_rows(standings):
        player = row.player
        scores = dict(zip(standings.round_numbers, row.scores, strict=True))
        rows.append(
            {
                "registration_id": row.registration_id,
                "place": row.place,
                "place_text": row.place_text,
                "place_sort": row.place if row.place is not None else 10**6,
                "decided_by": row.decided_by,
                "name": row.name,
                "withdrawn": row.withdrawn,
                "name_sort": fold(player.public_name or player.last_name or player.first_name),
                # As find my seat: "mueller" finds Müller, "山田太郎" 山田 太郎 (names).
                "search": player_search_text(*player.searched_names),
                "country": row.country,
                "country_name": str(player.country.name) if player.country else "",
                "club": row.team_or_club,
                "total": row.total,
                "total_sort": _sort_value(row.total),
                "penalty": row.penalty_total or None,
                "penalty_sort": _sort_value(row.penalty_total),
                "rounds": scores,
                "round_sort": {n: _sort_value(score) for n, score in scores.items()},
            }
        )
    return rows


class TeamRankingTable(tables.Table):
    """The team ranking; the players come last, the column that folds under its row on a
    phone (fold-last), so that place, team and total stay on one line."""

    place = tables.Column(verbose_name=_("Place"), orderable=False)
    name = tables.Column(verbose_name=_("Team"), orderable=False)
    total = ScoreColumn(
        verbose_name=_("Total"),
        orderable=False,
        attrs={"td": {"class": "number total"}, "th": {"class": "number"}},
    )
    members = tables.Column(verbose_name=_("Players"), orderable=False)

    class Meta:
        template_name = "django_tables2/ranking.html"
        attrs = {"class": "ranking fold-last"}


def team_ranking_rows(teams: list[TeamStanding]) -> list[dict]:
    """The team standings' rows (`team_rows`) as the table reads them."""
    return [
        {"place": row.place_text, "name": row.name, "members": row.members, "total": row.total}
        for row in team_rows(teams)
    ]


def cut_text(cut: CutLine, stage: str) -> str:
    """The cut into ``stage`` in the organiser's and the players' words: how many go
    through, and what happened at the line (a tie-break, or a place shared across it)."""
    names = ", ".join(str(entry.player) for entry in cut.tied)
    if cut.manual:
        return _("The organiser chose the players going through to %(stage)s.") % {"stage": stage}
    said = ngettext(
        "The best player goes through to %(stage)s.",
        "The best %(size)s players go through to %(stage)s.",
        cut.size,
    ) % {"size": cut.size, "stage": stage}
    if cut.tied and not cut.resolved:
        return " ".join(
            [
                said,
                ngettext(
                    "%(names)s share a place across the cut line and no tie-break separates "
                    "them: the organiser chooses %(seats)s of them.",
                    "%(names)s share a place across the cut line and no tie-break separates "
                    "them: the organiser chooses %(seats)s of them.",
                    cut.open_seats,
                )
                % {"names": names, "seats": cut.open_seats},
            ]
        )
    if cut.tied:
        chosen = ", ".join(str(entry.player) for entry in cut.qualified[-cut.open_seats :])
        return " ".join(
            [
                said,
                _(
                    "%(names)s shared a place across the cut line and no tie-break separated "
                    "them: the organiser chose %(chosen)s."
                )
                % {"names": names, "chosen": chosen},
            ]
        )
    if cut.decided_by:
        return " ".join(
            [
                said,
                _(
                    "The last player through and the first one out have the same total: "
                    "decided by %(criterion)s."
                )
                % {"criterion": TIE_BREAK_LABELS.get(cut.decided_by, cut.decided_by)},
            ]
        )
    return said


class StageRankingTable(tables.Table):
    """One stage's ranking: the carry-over, the stage's rounds and the total; the rows of the
    players going through to the next stage marked (``through``: their registration ids), a
    line under the last of them."""

    place = tables.Column(
        verbose_name=_("Place"), accessor="entry__place", orderable=False, empty_values=()
    )
    player = tables.Column(verbose_name=_("Player"), accessor="entry__player", orderable=False)
    team_or_club = tables.Column(
        verbose_name=_("Club / team"),
        accessor="entry__team_or_club",
        orderable=False,
        attrs={"td": {"class": "wide-only"}, "th": {"class": "wide-only"}},
    )
    carried = ScoreColumn(
        verbose_name=_("Carried over"),
        accessor="entry__carried",
        orderable=False,
        attrs={"td": {"class": "number"}, "th": {"class": "number"}},
    )
    total = ScoreColumn(
        verbose_name=_("Total"),
        accessor="entry__total",
        orderable=False,
        attrs={"td": {"class": "number total"}, "th": {"class": "number"}},
    )

    class Meta:
        template_name = "django_tables2/ranking.html"
        attrs = {"class": "ranking"}
        sequence = ("place", "player", "team_or_club", "carried", "...", "total")

    def __init__(self, entries: list[StageEntry], *, round_numbers, carried: bool, through):
        extra = [
            (
                f"r{number}",
                ScoreColumn(
                    verbose_name=_("R%(number)s") % {"number": number},
                    accessor=f"scores__{number}",
                    orderable=False,
                    empty_values=(),  # score_cell draws the "–" of a round not played
                    attrs={"td": {"class": "number round"}, "th": {"class": "number"}},
                ),
            )
            for number in round_numbers
        ]
        # The line is drawn under the last player through (the tied ones chosen may be
        # listed among the others sharing their place).
        marked = [entry.registration_id for entry in entries if entry.registration_id in through]
        last = marked[-1] if marked else None
        super().__init__(
            [
                {
                    "entry": entry,
                    "scores": {n: round_.score for n, round_ in entry.rounds.items()},
                    "through": entry.registration_id in through,
                    "last": entry.registration_id == last,
                }
                for entry in entries
            ],
            extra_columns=extra,
            exclude=() if carried else ("carried",),
            row_attrs={
                "class": lambda record: " ".join(
                    name for name in ("through", "last") if record[name]
                )
            },
        )

    def render_place(self, value, record):
        entry = record["entry"]
        text = format_place(value, entry.shared_place)
        if not entry.decided_by:
            return text
        return format_html(
            '{}<sup class="tie-break" title="{}">{}</sup>',
            text,
            RankingTable.decided_by_text(entry.decided_by),
            TIE_BREAK_MARK,
        )

    def render_player(self, value, record):
        return bdi(str(value))
