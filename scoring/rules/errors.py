"""Errors raised by the rules engine.

Two families, after Tabbycat's ``DrawUserError`` / ``DrawFatalError``:

* :class:`RulesError` — the input is understood but breaks a rule; the user can fix it.
  It carries a stable ``code`` (the Django layer translates codes), the ``params`` needed to
  build a message, the ``field`` it concerns (``"seats[2].points"``, ``"hands[5].fu"``) and an
  English ``message`` in the user's terms. Several may be raised together as
  :class:`RulesErrors`.
* :class:`RulesFatalError` — "cannot happen": an invariant of the engine itself failed. It is
  a bug, never the user's fault, and is not translated.

This module holds no rule logic.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["RulesError", "RulesErrors", "RulesFatalError", "ErrorInfo"]


@dataclass(frozen=True)
class ErrorInfo:
    """Plain, serialisable view of one user error (what the CLI prints)."""

    code: str
    message: str
    field: str | None = None
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The CLI error shape: ``{"code", "message", "field"}`` (plus ``params``)."""
        return {
            "code": self.code,
            "message": self.message,
            "field": self.field,
            "params": {k: _jsonable(v) for k, v in self.params.items()},
        }


def _jsonable(value: Any) -> Any:
    from fractions import Fraction

    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


class RulesError(ValueError):
    """A user-fixable violation of the rules.

    >>> e = RulesError("points_sum", "The points do not add up.", field="seats", total=1)
    >>> (e.code, e.field, e.params["total"])
    ('points_sum', 'seats', 1)
    """

    def __init__(self, code: str, message: str, *, field: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params: dict[str, Any] = dict(params)

    def with_field_prefix(self, prefix: str) -> RulesError:
        """Same error, with ``field`` nested under ``prefix`` (``hands[5]`` + ``fu``)."""
        nested = f"{prefix}.{self.field}" if self.field else prefix
        return RulesError(self.code, self.message, field=nested, **self.params)

    @property
    def info(self) -> ErrorInfo:
        return ErrorInfo(self.code, self.message, self.field, dict(self.params))

    def __repr__(self) -> str:
        return f"RulesError({self.code!r}, field={self.field!r}, params={self.params!r})"


class RulesErrors(ValueError):
    """Several :class:`RulesError` found in one input (e.g. a score sheet with two faults).

    Iterating yields the individual errors; ``.errors`` is a tuple of them.
    """

    def __init__(self, errors: Iterable[RulesError]) -> None:
        self.errors: tuple[RulesError, ...] = tuple(errors)
        if not self.errors:
            raise RulesFatalError("RulesErrors raised without any error")
        super().__init__("; ".join(e.message for e in self.errors))

    def __iter__(self):
        return iter(self.errors)

    def __len__(self) -> int:
        return len(self.errors)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(e.code for e in self.errors)


class RulesFatalError(RuntimeError):
    """An internal invariant failed: a bug in the engine, not a user error."""


def raise_collected(errors: list[RulesError]) -> None:
    """Raise the collected errors as one :class:`RulesErrors` (no-op when empty)."""
    if errors:
        raise RulesErrors(errors)
