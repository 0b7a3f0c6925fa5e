"""The plain writes of a row for a service (created, changed, deleted): validated, saved and
audited in the caller's transaction, the audit entry saying what the row held or how it
changed.

Services whose write is a rule of the event (a check-in, a lock, a seating) say it in their
own words; these serve the rows an organiser simply fills in (players, teams, roles...).
"""

from collections.abc import Mapping
from typing import Any, TypeVar

from django.db.models import Model

from tournament.models import Tournament
from tournament.services.audit import audit_record

M = TypeVar("M", bound=Model)


def record_create(instance: M, *, tournament: Tournament | None, action: str, acting_user) -> M:
    """Validate and save a new row, audited with the values it was given."""
    instance.full_clean()
    instance.save()
    fields = instance._meta.concrete_fields
    values = {
        field.name: _audited(instance, field.name)
        for field in fields
        if field.editable and not field.primary_key
    }
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action=action,
        obj=instance,
        data={"id": instance.pk} | values,
    )
    return instance


def record_update(
    instance: M,
    data: Mapping[str, Any],
    *,
    tournament: Tournament | None,
    action: str,
    acting_user,
) -> M:
    """Set ``data`` (field name: value) on a saved row and save the fields whose stored value
    differs, audited as {field: [before, after]}; nothing changed, nothing saved or audited.

    The stored row is read (and locked) afresh: an admin's form has already set its values
    on ``instance``, so only the database still knows what they were.
    """
    stored = type(instance)._base_manager.select_for_update().get(pk=instance.pk)
    for name, value in data.items():
        setattr(instance, name, value)
    changed = [name for name in data if _raw(instance, name) != _raw(stored, name)]
    if changed:
        instance.full_clean()
        instance.save(update_fields=changed)
        audit_record(
            tournament=tournament,
            actor=acting_user,
            action=action,
            obj=instance,
            data={name: [_audited(stored, name), _audited(instance, name)] for name in changed},
        )
    return instance


def record_delete(
    instance: Model, *, tournament: Tournament | None, action: str, acting_user
) -> None:
    """Delete a row, audited first (the entry keeps its name and id)."""
    audit_record(
        tournament=tournament,
        actor=acting_user,
        action=action,
        obj=instance,
        data={"id": instance.pk},
    )
    instance.delete()


def _raw(instance: Model, name: str) -> Any:
    return instance._meta.get_field(name).value_from_object(instance)


def _audited(instance: Model, name: str) -> Any:
    """A field's value as an audit entry's data keeps it (JSON): a related row by its name,
    a date or a country by its text."""
    field = instance._meta.get_field(name)
    if field.is_relation:
        related = getattr(instance, name)
        return None if related is None else str(related)
    value = field.value_from_object(instance)
    if value is None or isinstance(value, str | int | float | list | dict):
        return value
    return field.value_to_string(instance)
