"""Players: created, changed and deleted one at a time, or created and registered from an
imported file."""

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import ngettext

from tournament.importing import ImportRow, check_rows
from tournament.invalidation import standings_changed
from tournament.models import Player, Registration, Team, Tournament
from tournament.services.audit import audit_record
from tournament.services.records import record_create, record_delete, record_update


@transaction.atomic
def player_create(
    *,
    first_name: str,
    last_name: str = "",
    nickname: str = "",
    public_name: str = "",
    country: str = "",
    club: str = "",
    ema_number: str = "",
    email: str = "",
    acting_user,
) -> Player:
    """A person who may play in any tournament; the audit entry belongs to none of them."""
    player = Player(
        first_name=first_name,
        last_name=last_name,
        nickname=nickname,
        public_name=public_name,
        country=country,
        club=club,
        ema_number=ema_number,
        email=email,
    )
    return record_create(player, tournament=None, action="player.create", acting_user=acting_user)


@transaction.atomic
def player_update(*, player: Player, data: Mapping[str, Any], acting_user) -> Player:
    """Change a player's record (``data``: field: value): every tournament they are registered
    in shows the change, so the entry keeps what it was."""
    player = record_update(
        player, data, tournament=None, action="player.update", acting_user=acting_user
    )
    _standings_show(player)
    return player


def _standings_show(player: Player) -> None:
    """The standings of every tournament the player is registered in show their name, club
    and country: their audit entry belongs to none of them, so the standings' cache key
    would not move on its own."""
    for tournament_id in set(player.registrations.values_list("tournament_id", flat=True)):
        standings_changed(tournament_id)


@transaction.atomic
def player_delete(*, player: Player, acting_user) -> None:
    """Delete a record entered twice or by mistake; a registered player is protected (their
    registrations hold them)."""
    record_delete(player, tournament=None, action="player.delete", acting_user=acting_user)


@dataclass(frozen=True)
class ImportOutcome:
    """``created``: registrations made, ``returning`` of them for players already known.

    ``completed``: each known player whose blank fields the file filled in, with the values;
    ``left``: each known player with the file's values not applied, and why ("differs": the
    record has another value; "registered_elsewhere": the organiser may not change them);
    ``beside_namesakes``: each player registered beside namesakes already registered."""

    created: int
    skipped: int
    returning: int = 0
    completed: tuple[tuple[Player, dict[str, str]], ...] = ()
    left: tuple[tuple[Player, dict[str, str], str], ...] = ()
    beside_namesakes: tuple[tuple[Player, tuple[Player, ...]], ...] = ()


@transaction.atomic
def players_import(
    *,
    tournament: Tournament,
    rows: list[dict[str, str]],
    only_valid: bool = False,
    acting_user,
) -> ImportOutcome:
    """Create and register the players of a checked file, all or nothing. A player already
    known (same EMA number, or same name and country) is registered, not created again, and
    their record's blank fields are filled in from the file if `acting_user` may change
    them (`check_rows`); a value on record is never overwritten.

    The rows are checked again here because the database may have changed since the
    organiser saw the preview. With problems and without `only_valid`, nothing is written.
    """
    # Two imports at once would each check against the registrations before the other's.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    checked: list[ImportRow] = check_rows(tournament, rows, acting_user=acting_user)
    invalid = [row for row in checked if not row.is_valid]
    if invalid and not only_valid:
        raise ValidationError(
            ngettext(
                "%(count)s row has problems; nothing was imported.",
                "%(count)s rows have problems; nothing was imported.",
                len(invalid),
            )
            % {"count": len(invalid)}
        )
    teams = {team.name: team for team in tournament.teams.all()}
    created = returning = 0
    completed, left, beside_namesakes, audit = [], [], [], defaultdict(list)
    for row in checked:
        if not row.is_valid:
            continue
        values = row.values
        player = row.returning
        if player is not None and row.completes:
            for key, value in row.completes.items():
                setattr(player, key, value)
            player.full_clean()
            player.save(update_fields=list(row.completes))
            _standings_show(player)
            completed.append((player, row.completes))
            audit["completed"].append({**_audited(row, player), "fields": row.completes})
        if player is not None and row.left:
            reason = "differs" if row.may_change else "registered_elsewhere"
            left.append((player, row.left, reason))
            audit["not_applied"].append(
                {**_audited(row, player), "fields": row.left, "reason": reason}
            )
        if player is None:
            player = Player(
                first_name=values["first_name"],
                last_name=values.get("last_name", ""),
                nickname=values.get("nickname", ""),
                public_name=values.get("public_name", ""),
                country=values.get("country", ""),
                club=values.get("club", ""),
                ema_number=values.get("ema_number", ""),
                email=values.get("email", ""),
                is_demo=tournament.is_demo,
            )
            player.full_clean()
            player.save()
        else:
            returning += 1
        team = None
        if values.get("team"):
            team = teams.get(values["team"])
            if team is None:
                team = teams[values["team"]] = Team.objects.create(
                    tournament=tournament, name=values["team"]
                )
        registration = Registration(
            tournament=tournament,
            player=player,
            team=team,
            is_substitute=bool(values.get("substitute")),
        )
        # Checks the one registration per player too: a ValidationError undoes the import
        # where saving would fail with an IntegrityError.
        registration.full_clean()
        registration.save()
        created += 1
        if row.namesakes:
            beside_namesakes.append((player, tuple(row.namesakes)))
            audit["beside_namesakes"].append(
                {**_audited(row, player), "namesakes": [other.pk for other in row.namesakes]}
            )
    standings_changed(tournament)
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action="players.import",
        obj=tournament,
        data={"created": created, "skipped": len(invalid), "returning": returning, **audit},
    )
    return ImportOutcome(
        created=created,
        skipped=len(invalid),
        returning=returning,
        completed=tuple(completed),
        left=tuple(left),
        beside_namesakes=tuple(beside_namesakes),
    )


def _audited(row: ImportRow, player: Player) -> dict:
    """The row and player an audit detail is about, readable without looking them up."""
    return {"line": row.line, "player": player.pk, "name": player.display_name}
