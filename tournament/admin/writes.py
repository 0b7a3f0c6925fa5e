"""Admin saves and deletions through the audited services: the admin's form builds and checks
a row, a service writes it (atomic, validated, audited), never the ORM from here.

The services follow one pattern, which `Writes` relies on: ``<entity>_create(**values,
acting_user)``, ``<entity>_update(<row>=..., data=values, acting_user)`` and
``<entity>_delete(<row>=..., acting_user)``.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model
from django.forms import BaseModelFormSet, ModelForm
from django.http import HttpRequest


@dataclass(frozen=True)
class Writes:
    """The services that write one model's rows; ``row`` names the row in their arguments."""

    row: str
    create: Callable[..., Model]
    update: Callable[..., Model]
    delete: Callable[..., None]

    def save(self, form: ModelForm, obj: Model, acting_user) -> None:
        """Create or update ``obj`` with what the form set on it. A new row's id goes back to
        ``obj``: the admin goes on with it (its inlines, its log entry, the redirect)."""
        values = form_values(form, obj)
        if obj.pk is None:
            obj.pk = self.create(**values, acting_user=acting_user).pk
        else:
            self.update(**{self.row: obj}, data=values, acting_user=acting_user)

    def remove(self, obj: Model, acting_user) -> None:
        self.delete(**{self.row: obj}, acting_user=acting_user)


def form_values(form: ModelForm, obj: Model) -> dict[str, Any]:
    """What the form set on ``obj``, by model field: its fields, read-only ones left out."""
    return {
        field.name: getattr(obj, field.name)
        for field in obj._meta.concrete_fields
        if field.name in form.fields and not field.primary_key
    }


class ServiceWritesMixin:
    """A ModelAdmin whose saves and deletions (one row, or "Delete selected") call the
    services of its ``writes``, and whose inlines' rows those of the inline's ``writes``."""

    writes: Writes

    def save_model(self, request: HttpRequest, obj: Model, form: ModelForm, change: bool) -> None:
        self.writes.save(form, obj, request.user)

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        self.writes.remove(obj, request.user)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for obj in queryset:
            self.writes.remove(obj, request.user)

    def save_formset(
        self, request: HttpRequest, form: ModelForm, formset: BaseModelFormSet, change: bool
    ) -> None:
        """As Django's formset.save(): the deleted rows first, then the changed, then the new
        ones; its lists of them (which the admin's history reads) are filled the same way."""
        writes = next(inline.writes for inline in self.inlines if inline.model is formset.model)
        formset.save(commit=False)
        for obj in formset.deleted_objects:
            writes.remove(obj, request.user)
        for row_form in formset.saved_forms:
            writes.save(row_form, row_form.instance, request.user)
