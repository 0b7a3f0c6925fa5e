"""A complete, re-importable archive of one tournament as JSON.

What belongs to a tournament is every row that points to it, directly or through other such
rows (registrations, teams, rounds, seats, score sheets with every version and confirmation,
penalties, seating runs, tables' extra time, wrong-seat corrections, staff roles, the audit
log, the alerts sent once per round), plus the rows those point to that other tournaments
share (players). Users are referred to by username and carry no password. The models are
read generically, so a field added later is archived without changing this module; a model
added later joins `ARCHIVED_MODELS`.

An archive is a file anyone can edit, so the import trusts nothing in it: it writes only the
models of `ARCHIVED_MODELS`, accounts by name only (never a password, a flag, a group or a
permission), and checks every object before it is written (its fields, their types and
values, its references, which must stay inside the archive); one object that fails refuses
the whole file with an `ArchiveError` that names it.

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
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, models, transaction
from django.utils.translation import gettext as _

from tournament.models import Tournament, TournamentStaff
from tournament.signals import archive_requested, results_rescored

FORMAT = "riichi-tournament-archive"
VERSION = 1
JSON_CONTENT_TYPE = "application/json"
# Every model a tournament's records live in; the import writes these and no other (an
# archive naming auth.user is refused). A model that points to a tournament's rows joins the
# list, or its archives stop importing (tests.exports.test_archive checks it).
#: Rows derived from the archived ones, left out of the file and derived again on import (the
#: seat results the standings rank: `tournament.signals.results_rescored`).
DERIVED_MODELS = frozenset({"scoring.seatresult"})
ARCHIVED_MODELS = frozenset(
    {
        "tournament.tournament",
        "tournament.player",
        "tournament.team",
        "tournament.registration",
        "tournament.registrationrequest",
        "tournament.round",
        "tournament.seat",
        "tournament.tabletimegrant",
        "tournament.tournamentstaff",
        "tournament.auditentry",
        "tournament.alertsent",
        "scoring.scoresheet",
        "scoring.sheetversion",
        "scoring.confirmation",
        "scoring.penalty",
        "scoring.tablekey",
        "scoring.refereecall",
        "scoring.stage",
        "seating.fixedtable",
        "seating.seatingrun",
        "seating.seatcorrection",
    }
)
# The people other tournaments share: the only rows an archive may match to rows already
# here (a player with the same EMA number is the same person). Matched so, a tournament or a
# score sheet would let the archive write into another tournament.
SHARED_MODELS = frozenset({"tournament.player"})
# What the archive says of an account: its name. An account already here is used as it is.
USER_KEYS = ("username", "first_name", "last_name", "email")
ARCHIVE_KEYS = frozenset({"format", "version", "tournament", "users", "objects"})
OBJECT_KEYS = frozenset({"model", "id", "fields", "shared"})


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
                if related._meta.label_lower in DERIVED_MODELS:
                    continue
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


def tournament_rows(tournament: Tournament) -> dict[type[models.Model], list[Any]]:
    """The primary keys of the rows that belong to the tournament (not the players it shares
    with other tournaments), by model, each model after those its rows must point to: to
    delete them, go backwards."""
    collected, shared_keys = _collect(tournament)
    return {
        model: [row.pk for row in collected[model] if (model, row.pk) not in shared_keys]
        for model in _model_order(list(collected))
    }


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


def archive_refusal(tournament: Tournament, user) -> str | None:
    """Why the archive is not given to `user` now, as the apps whose records it holds answer
    `archive_requested` (the first reason), or None."""
    for _receiver, reason in archive_requested.send(Tournament, tournament=tournament, user=user):
        if reason:
            return reason
    return None


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
    unknown = sorted(set(data) - ARCHIVE_KEYS)
    if unknown:
        raise ArchiveError(
            _(
                "The archive holds “%(key)s”, which this program does not know. Nothing was "
                "imported."
            )
            % {"key": unknown[0]}
        )
    if not (
        isinstance(data.get("tournament"), str)
        and isinstance(data.get("users", []), list)
        and isinstance(data.get("objects"), list)
    ):
        raise ArchiveError(_("This file is not a tournament archive."))


def _shown(value: Any, *, bare: bool = False) -> str:
    """A value of the file as the error names it, cut short; text in quotes unless `bare`."""
    text = value if bare and isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else f"{text[:39]}…"


def _account_error(number: int, entry: Any, problem: str) -> ArchiveError:
    """The refusal of the whole file, naming the account by its place and name."""
    name = entry.get("username") if isinstance(entry, dict) else None
    return ArchiveError(
        _("The archive's account %(number)s (%(name)s): %(problem)s Nothing was imported.")
        % {"number": number, "name": _shown(name, bare=True), "problem": problem}
    )


def _checked_users(entries: list[Any]) -> list[dict[str, str]]:
    """The archive's accounts: a name each and nothing more, as the export writes them."""
    user_model = _user_model()
    checked = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise _account_error(number, entry, _("it is not an account."))
        extra = sorted(set(entry) - set(USER_KEYS))
        if extra:
            raise _account_error(
                number,
                entry,
                _(
                    "it holds “%(key)s”, but an archive names an account and nothing more: "
                    "never a password, a status, a group or a permission."
                )
                % {"key": extra[0]},
            )
        values = {key: entry.get(key, "") for key in USER_KEYS}
        for key, value in values.items():
            try:
                if not isinstance(value, str):
                    raise ValidationError(_("it cannot be %(value)s.") % {"value": _shown(value)})
                user_model._meta.get_field(key).clean(value, None)
            except ValidationError as error:
                problem = f"{key}: {' '.join(error.messages)}"
                raise _account_error(number, entry, problem) from error
        checked.append(values)
    return checked


def _object_error(number: int, item: Any, problem: str) -> ArchiveError:
    """The refusal of the whole file, naming the object by its place, model and id."""
    label, ident = (item.get("model"), item.get("id")) if isinstance(item, dict) else (None, None)
    return ArchiveError(
        _(
            "Object %(number)s of the archive (%(model)s, id %(id)s): %(problem)s Nothing was "
            "imported."
        )
        % {
            "number": number,
            "model": _shown(label, bare=True),
            "id": _shown(ident),
            "problem": problem,
        }
    )


def _is_whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fits(field: models.Field, value: Any) -> bool:
    """Whether a value has the JSON type the export writes for this field: numbers for
    numbers, true or false for a flag, text for the rest (dates, decimals and UUIDs are
    written as text), anything in a JSON field."""
    if isinstance(field, models.JSONField):
        return True
    if isinstance(field, models.BooleanField):
        return isinstance(value, bool)
    if isinstance(field, models.IntegerField):
        return _is_whole_number(value)
    if isinstance(field, models.FloatField):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)


def _object_keys(objects: list[Any]) -> set[tuple[str, int]]:
    """The (model, id) of every object, each checked to be a record of `ARCHIVED_MODELS`
    with a whole-number id of its own, shared only if it is a player; one tournament."""
    present: set[tuple[str, int]] = set()
    for number, item in enumerate(objects, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("fields"), dict):
            raise _object_error(number, item, _("it is not a record."))
        extra = sorted(set(item) - OBJECT_KEYS)
        if extra:
            raise _object_error(
                number, item, _("“%(key)s” is not part of a record.") % {"key": extra[0]}
            )
        if item.get("model") not in ARCHIVED_MODELS:
            raise _object_error(number, item, _("a tournament archive holds no such record."))
        if not _is_whole_number(item.get("id")):
            raise _object_error(number, item, _("its id must be a whole number."))
        if (item["model"], item["id"]) in present:
            raise _object_error(number, item, _("another object has the same model and id."))
        if item.get("shared", False) is not False and (
            item["shared"] is not True or item["model"] not in SHARED_MODELS
        ):
            raise _object_error(number, item, _("only players are shared with other tournaments."))
        present.add((item["model"], item["id"]))
    tournaments = sum(label == _label(Tournament) for label, _id in present)
    if tournaments > 1:
        raise ArchiveError(
            _("An archive holds one tournament; this one holds %(count)s. Nothing was imported.")
            % {"count": tournaments}
        )
    return present


def _field_problem(
    field: models.Field | None, value: Any, present: set[tuple[str, int]], usernames: set[str]
) -> str | None:
    """What is wrong with one value of an object (None: nothing): a field the model does not
    have, a value of another type, or a reference to a record or an account outside the
    archive, which would let the file reach another tournament's rows."""
    if field is None:
        return _("it is not a field of this record.")
    if value is None:
        return None if field.null else _("it cannot be empty.")
    if field.is_relation and field.related_model is _user_model():
        if value not in usernames:
            return _("it names the account %(value)s, not among the archive's.") % {
                "value": _shown(value)
            }
        return None
    if field.is_relation:
        target = _label(field.related_model._meta.concrete_model)
        if not _is_whole_number(value) or (target, value) not in present:
            return _("it refers to %(model)s %(id)s, which is not in the archive.") % {
                "model": target,
                "id": _shown(value),
            }
        return None
    if not _fits(field, value):
        return _("it cannot be %(value)s.") % {"value": _shown(value)}
    if not isinstance(field, models.JSONField):
        try:
            field.to_python(value)
        except ValidationError as error:
            return " ".join(error.messages)
    return None


def _check_objects(objects: list[Any], usernames: set[str]) -> None:
    """Every object as the export writes it, checked before anything is written."""
    present = _object_keys(objects)
    for number, item in enumerate(objects, start=1):
        fields = {
            field.name: field
            for field in apps.get_model(item["model"])._meta.concrete_fields
            if not field.primary_key
        }
        for name, value in item["fields"].items():
            problem = _field_problem(fields.get(name), value, present, usernames)
            if problem:
                raise _object_error(number, item, f"{name}: {problem}")


def _invalid(error: ValidationError) -> str:
    """A record's validation errors, field by field."""
    return " ".join(
        " ".join(messages) if name == NON_FIELD_ERRORS else f"{name}: {' '.join(messages)}"
        for name, messages in error.message_dict.items()
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
    new_slug = slug or data["tournament"]
    if Tournament.objects.filter(slug=new_slug).exists():
        raise ArchiveError(
            _("A tournament with the slug “%(slug)s” exists already; import under another slug.")
            % {"slug": new_slug}
        )
    accounts = _checked_users(data.get("users", []))
    _check_objects(data["objects"], {account["username"] for account in accounts})
    user_model = _user_model()
    users = {}
    for values in accounts:
        account, created = user_model._base_manager.get_or_create(
            username=values["username"],
            defaults={key: values[key] for key in USER_KEYS if key != "username"},
        )
        if created:
            account.set_unusable_password()
            account.save(update_fields=["password"])
        users[values["username"]] = account.pk
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
        for number, item in enumerate(data["objects"], start=1):
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
                    later_record = _("it refers to a record that comes later in the archive.")
                    raise _object_error(number, item, f"{field.name}: {later_record}")
            if model is Tournament:
                fields["slug"] = new_slug
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
            try:
                obj.object.full_clean()
            except ValidationError as error:
                raise _object_error(number, item, _invalid(error)) from error
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
    # The sheets' results are scored again under the restored rules (which also gives the
    # standings a new version: a restored database may reuse the primary keys of a deleted
    # tournament whose standings are still in a shared cache).
    results_rescored.send(sender=Tournament, tournament=tournament)
    return tournament
