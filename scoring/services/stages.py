"""A tournament's stages, as its organisers set them in the back office: created, changed,
deleted, and the players chosen by hand (at a tie on the cut line, or the whole list)."""

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import Stage
from tournament.models import Registration, Tournament
from tournament.services.audit import audit_record
from tournament.services.records import record_create, record_delete, record_update


@transaction.atomic
def stage_create(*, tournament: Tournament, acting_user, **values: Any) -> Stage:
    """A later stage of the tournament (``values``: the model's fields)."""
    return record_create(
        Stage(tournament=tournament, **values),
        tournament=tournament,
        action="stage.create",
        acting_user=acting_user,
    )


@transaction.atomic
def stage_update(*, stage: Stage, data: Mapping[str, Any], acting_user) -> Stage:
    """Change it (``data``: field: value), audited with what it held."""
    return record_update(
        stage, data, tournament=stage.tournament, action="stage.update", acting_user=acting_user
    )


@transaction.atomic
def stage_delete(*, stage: Stage, acting_user) -> None:
    """Its rounds go back to the earlier stage; the results stay."""
    record_delete(
        stage, tournament=stage.tournament, action="stage.delete", acting_user=acting_user
    )


@transaction.atomic
def stage_choice_set(*, stage: Stage, registrations: Iterable[Registration], acting_user) -> Stage:
    """The players the organiser chose (`Stage.chosen`: their registration ids), players of
    the tournament, audited with their names before and after."""
    chosen = list(registrations)
    if any(registration.tournament_id != stage.tournament_id for registration in chosen):
        raise ValidationError({"chosen": _("Choose players of this tournament.")})
    stored = Stage.objects.select_for_update().get(pk=stage.pk)
    before, after = sorted(stored.chosen), sorted(registration.pk for registration in chosen)
    if before != after:
        named = {
            registration.pk: registration.player.display_name
            for registration in Registration.objects.filter(
                pk__in=[*before, *after]
            ).select_related("player")
        }
        stage.chosen = after
        stage.save(update_fields=["chosen"])
        audit_record(
            tournament=stage.tournament,
            actor=acting_user,
            action="stage.choose",
            obj=stage,
            data={"chosen": [_names(before, named), _names(after, named)]},
        )
    return stage


def _names(pks: list[int], named: dict[int, str]) -> list[str]:
    return sorted(named.get(pk, str(pk)) for pk in pks)
