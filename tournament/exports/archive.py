"""A complete, re-importable archive of one tournament as JSON.

What belongs to a tournament is every row that points to it, directly or through other such
rows (registrations, teams, rounds, seats, score sheets with every version and confirmation,
penalties, seating runs, staff roles, the audit log), plus the rows those point to that
other tournaments share (players). Users are referred to by
username and carry no password. The models are read generically, so a field or a model
added later is archived without changing this module.

Each object keeps its primary key, and the import writes it back when it is free, so ids
written inside JSON data (a score sheet's seats name their registrations) stay right:
export → import into an empty database → export gives the same JSON.

Import (`archive_import`) is atomic: all of it or nothing. A player whose unique value (e.g.
the EMA number) already exists is the same person and is reused; an idempotency token
(a unique UUID) already in use is replaced by a fresh one. An account the import creates has
no password; the tournament's organisers get their Staff status back.
"""

import datetime
import json
import uuid
from collections import defaultdict
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, models, transaction
from django.utils.translation import gettext as _

from tournament.invalidation import standings_changed
from tournament.models import Tournament, TournamentStaff

FORMAT = "riichi-tournament-archive"
VERSION = 1
JSON_CONTENT_TYPE = "application/json"


class ArchiveError(Exception):
    """The file is not an archive this version can import, or it clashes with the data."""


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _user_model() -> type[models.Model]:
    return get_user_model()


def _foreign_keys(model: type[models.Model]) -> list[models.ForeignKey]:
    return [field for field in model._meta.concrete_fields if field.is_relation]


def _collect(
    tournament: Tournament,
) -> tuple[dict[type[models.Model], list[models.Model]], set[tuple[type[models.Model], Any]]]:
    """Every row owned by the tournament, and the shared rows they point to (not users),
    with the (model, pk) of the shared ones."""
    found: dict[type[models.Model], dict[Any, models.Model]] = defaultdict(dict)
    found[Tournament][tournament.pk] = tournament
    # Walk the reverse foreign keys out of every owned row, one query per relation and
    # round, until nothing new turns up.
    new = {Tournament: {tournament.pk}}
    while new:
        added: dict[type[models.Model], set[Any]] = defaultdict(set)
        for model, pks in new.items():
            for relation in model._meta.related_objects:
                if relation.many_to_many or not relation.field.concrete:
                    continue
                related = relation.related_model._meta.concrete_model
                lookup = {f"{relation.field.name}__in": pks}
                for instance in related._base_manager.filter(**lookup).order_by("pk"):
                    if instance.pk not in found[related]:
                        found[related][instance.pk] = instance
                        added[related].add(instance.pk)
        new = added
    user_model = _user_model()
    shared_keys: set[tuple[type[models.Model], Any]] = set()
    pending = [instance for rows in list(found.values()) for instance in rows.values()]
    while pending:
        instance = pending.pop()
        for field in _foreign_keys(type(instance)):
            target = field.related_model._meta.concrete_model
            value = getattr(instance, field.attname)
            if value is None or target is user_model or value in found[target]:
                continue
            shared = target._base_manager.get(pk=value)
            found[target][value] = shared
            shared_keys.add((target, value))
            pending.append(shared)
    ordered = {model: [rows[pk] for pk in sorted(rows)] for model, rows in found.items()}
    return ordered, shared_keys


def _model_order(models_: list[type[models.Model]]) -> list[type[models.Model]]:
    """Models so that every non-null foreign key points to an earlier model."""
    remaining = sorted(models_, key=_label)
    ordered: list[type[models.Model]] = []
    while remaining:
        for model in remaining:
            needs = {
                field.related_model._meta.concrete_model
                for field in _foreign_keys(model)
                if not field.null
            }
            if all(need in ordered or need not in remaining or need is model for need in needs):
                ordered.append(model)
                remaining.remove(model)
                break
        else:
            raise ArchiveError(_("The models' foreign keys form a cycle; cannot order them."))
    return ordered


def archive_export(tournament: Tournament) -> dict[str, Any]:
    """The tournament and everything that belongs to it (values as Django's "python"
    serializer gives them: datetimes, dates and Decimals stay Python objects)."""
    collected, shared_keys = _collect(tournament)
    user_model = _user_model()
    usernames: dict[Any, str] = {}
    user_ids = {
        getattr(instance, field.attname)
        for rows in collected.values()
        for instance in rows
        for field in _foreign_keys(type(instance))
        if field.related_model is user_model and getattr(instance, field.attname) is not None
    }
    users = []
    for user in user_model._base_manager.filter(pk__in=user_ids).order_by("username"):
        usernames[user.pk] = user.get_username()
        users.append(
            {
                "username": user.get_username(),
                "first_name": getattr(user, "first_name", ""),
                "last_name": getattr(user, "last_name", ""),
                "email": getattr(user, "email", ""),
            }
        )
    objects = []
    for model in _model_order(list(collected)):
        rows = collected[model]
        serialized = serializers.serialize("python", rows)
        for instance, data in zip(rows, serialized, strict=True):
            fields = data["fields"]
            for field in _foreign_keys(model):
                value = getattr(instance, field.attname)
                if value is None:
                    fields[field.name] = None
                elif field.related_model is user_model:
                    fields[field.name] = usernames[value]
                else:
                    fields[field.name] = value
            item = {"model": _label(model), "id": instance.pk, "fields": fields}
            if (model, instance.pk) in shared_keys:
                item["shared"] = True
            objects.append(item)
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": tournament.slug,
        "users": users,
        "objects": objects,
    }


class ArchiveEncoder(DjangoJSONEncoder):
    """Like Django's, but times keep their microseconds (Django's JSON cuts them to
    milliseconds, which would change the data on a round trip)."""

    def default(self, o):
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def archive_json(tournament: Tournament) -> bytes:
    data = archive_export(tournament)
    return json.dumps(data, cls=ArchiveEncoder, ensure_ascii=False, indent=1).encode()


class ArchiveJson:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def render(self) -> tuple[str, str, bytes]:
        return (
            f"{self.tournament.slug}-archive.json",
            JSON_CONTENT_TYPE,
            archive_json(self.tournament),
        )


def _check_header(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError(_("This file is not a tournament archive."))
    if data.get("version") != VERSION:
        raise ArchiveError(
            _("This archive has version %(found)s; this program reads version %(expected)s.")
            % {"found": data.get("version"), "expected": VERSION}
        )


def _existing_shared(model: type[models.Model], fields: dict[str, Any]) -> models.Model | None:
    """A shared row (e.g. a player) already in the database with the same unique value:
    a unique field, or a one-field unique constraint (e.g. a non-empty EMA number)."""
    lookups = [
        (field.name, None)
        for field in model._meta.concrete_fields
        if field.unique and not field.primary_key
    ]
    lookups += [
        (constraint.fields[0], constraint.condition)
        for constraint in model._meta.constraints
        if isinstance(constraint, models.UniqueConstraint) and len(constraint.fields) == 1
    ]
    for name, condition in lookups:
        if fields.get(name) in (None, ""):
            continue
        queryset = model._base_manager.filter(**{name: fields[name]})
        if condition is not None:
            queryset = queryset.filter(condition)
        found = queryset.first()
        if found is not None:
            return found
    return None


def _ids_taken(data: dict[str, Any]) -> bool:
    """Whether any archived row's primary key is already used in this database."""
    by_model: dict[str, list[Any]] = defaultdict(list)
    for item in data["objects"]:
        by_model[item["model"]].append(item["id"])
    return any(
        apps.get_model(label)._base_manager.filter(pk__in=ids).exists()
        for label, ids in by_model.items()
    )


# Keys of JSON data that hold a registration's id without saying so in their name (score
# sheets write their seats as {"registration": 12, "substitute": null, ...}).
REGISTRATION_KEYS = ("registration", "substitute")


def _translate_ids(value: Any, new_ids: dict[tuple[str, Any], Any], labels: dict[str, str]) -> Any:
    """Ids written inside JSON data, for a copy that got new primary keys: values under keys
    named `<model>_id` or in REGISTRATION_KEYS are translated; other numbers are left alone
    (a key such as "round" may hold a round's number, not its id)."""
    if isinstance(value, list):
        return [_translate_ids(item, new_ids, labels) for item in value]
    if not isinstance(value, dict):
        return value
    translated = {}
    for key, item in value.items():
        if key in REGISTRATION_KEYS:
            label = "tournament.registration"
        elif key.endswith("_id"):
            label = labels.get(key.removesuffix("_id"))
        else:
            label = None
        if label and isinstance(item, int | str) and (label, item) in new_ids:
            translated[key] = new_ids[(label, item)]
        else:
            translated[key] = _translate_ids(item, new_ids, labels)
    return translated


def _reset_sequences(models_: set[type[models.Model]]) -> None:
    """After rows were written with their own primary keys, PostgreSQL's sequences must
    move past them (SQLite needs nothing)."""
    statements = connection.ops.sequence_reset_sql(no_style(), sorted(models_, key=_label))
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


@transaction.atomic
def archive_import(data: dict[str, Any], *, slug: str | None = None) -> Tournament:
    """Create the archived tournament (under `slug` if given) with all its records.

    Into a database that does not hold these rows (a restore, e.g. on a new server) every
    row keeps its primary key, so ids written inside JSON data stay right. Next to the
    original (a copy under another slug) rows get new keys and `_translate_ids` fixes the
    ids it recognises in JSON data.
    """
    _check_header(data)
    new_slug = slug or data.get("tournament")
    if Tournament.objects.filter(slug=new_slug).exists():
        raise ArchiveError(
            _("A tournament with the slug “%(slug)s” exists already; import under another slug.")
            % {"slug": new_slug}
        )
    user_model = _user_model()
    users = {}
    for user in data.get("users", []):
        account, created = user_model._base_manager.get_or_create(
            username=user["username"],
            defaults={key: user.get(key, "") for key in ("first_name", "last_name", "email")},
        )
        if created:
            account.set_unusable_password()
            account.save(update_fields=["password"])
        users[user["username"]] = account.pk
    new_ids: dict[tuple[str, Any], Any] = {}
    deferred: list[tuple[type[models.Model], Any, str, tuple[str, Any]]] = []
    written: set[type[models.Model]] = set()
    json_fields: list[tuple[type[models.Model], Any, str, Any]] = []
    tournament = None
    try:
        keep_ids = not _ids_taken(data)
        labels = {
            apps.get_model(item["model"])._meta.model_name: item["model"]
            for item in data["objects"]
        }
        for item in data["objects"]:
            model = apps.get_model(item["model"])
            fields = dict(item["fields"])
            later = []
            later_json = []
            for field in _foreign_keys(model):
                value = fields.get(field.name)
                if value is None:
                    continue
                if field.related_model is user_model:
                    fields[field.name] = users[value]
                    continue
                key = (_label(field.related_model._meta.concrete_model), value)
                if key in new_ids:
                    fields[field.name] = new_ids[key]
                elif field.null:
                    fields[field.name] = None
                    later.append((field.attname, key))
                else:
                    raise ArchiveError(
                        _("The archive's %(model)s refers to a missing record.")
                        % {"model": item["model"]}
                    )
            if model is Tournament and slug:
                fields["slug"] = slug
            for field in model._meta.concrete_fields:
                if isinstance(field, models.UUIDField) and field.unique:
                    if model._base_manager.filter(**{field.name: fields.get(field.name)}).exists():
                        fields[field.name] = str(uuid.uuid4())
                if not keep_ids and isinstance(field, models.JSONField) and fields.get(field.name):
                    later_json.append((field.name, fields[field.name]))
            if item.get("shared"):
                existing = _existing_shared(model, fields)
                if existing is not None:
                    new_ids[(item["model"], item["id"])] = existing.pk
                    continue
            pk = item["id"] if keep_ids else None
            (obj,) = serializers.deserialize(
                "python", [{"model": item["model"], "pk": pk, "fields": fields}]
            )
            obj.save()
            written.add(model)
            new_ids[(item["model"], item["id"])] = obj.object.pk
            if model is Tournament:
                tournament = obj.object
            deferred += [(model, obj.object.pk, attname, key) for attname, key in later]
            json_fields += [(model, obj.object.pk, name, value) for name, value in later_json]
        for model, pk, attname, key in deferred:
            model._base_manager.filter(pk=pk).update(**{attname: new_ids[key]})

        # Once every row has its new key, the ids inside JSON data can be translated; a
        # model that writes registrations' ids where the generic rule cannot see them
        # translates its own (`translate_archived_ids`).
        def registration(old_id: int) -> int:
            return new_ids.get(("tournament.registration", old_id), old_id)

        for model, pk, name, value in json_fields:
            translated = _translate_ids(value, new_ids, labels)
            own = getattr(model, "translate_archived_ids", None)
            if own is not None:
                translated = own(name, translated, registration)
            model._base_manager.filter(pk=pk).update(**{name: translated})
        if keep_ids:
            _reset_sequences(written)
    except IntegrityError as error:
        raise ArchiveError(
            _("The archive clashes with the data already here (%(error)s).") % {"error": error}
        ) from error
    except (DeserializationError, KeyError, LookupError, TypeError, ValueError) as error:
        raise ArchiveError(_("The archive is damaged: %(error)s") % {"error": error}) from error
    if tournament is None:
        raise ArchiveError(_("The archive holds no tournament."))
    # Accounts come without passwords, and without the Staff status the admin needs to let
    # anyone in: the tournament's organisers get it back, as saving their role gives it
    # (`staff_admin_access`).
    user_model._base_manager.filter(
        pk__in=users.values(),
        is_staff=False,
        tournament_roles__tournament=tournament,
        tournament_roles__role=TournamentStaff.Role.ORGANISER,
    ).update(is_staff=True)
    # A restored database may reuse the primary keys of a deleted tournament whose
    # standings are still in a shared cache: give the standings a new version.
    standings_changed(tournament)
    return tournament
