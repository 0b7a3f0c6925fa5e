"""The seating generator's error codes in the organiser's words, and the seating's warnings to
officials on other apps' pages.

The engine raises `SeatingError(code, params)` in plain English; runs that fail in the
background store the code and parameters, and pages translate them when they are shown.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from seating.engine import SeatingError
from seating.selectors import swiss_rounds_outdated
from tournament.models import Tournament


def error_message(code: str, params: dict[str, Any], fallback: str = "") -> str:
    """A translated sentence for an error code and its parameters."""
    p = dict(params)
    if code == "not_multiple_of_four":
        return (
            ngettext(
                "%(players)s active players cannot be seated four to a table: "
                "add %(substitutes_needed)s substitute.",
                "%(players)s active players cannot be seated four to a table: "
                "add %(substitutes_needed)s substitutes.",
                p.get("substitutes_needed", 0),
            )
            % p
        )
    if code == "fixed_table_out_of_range":
        return (
            ngettext(
                "%(player_name)s is fixed to table %(table)s, but there is only %(tables)s table.",
                "%(player_name)s is fixed to table %(table)s, but there are only %(tables)s "
                "tables.",
                p.get("tables", 0),
            )
            % p
        )
    messages = {
        "too_few_players": _(
            "%(players)s active players cannot fill a table: at least 4 are needed."
        ),
        "too_many_players": _(
            "%(players)s active players are more than the seating generator seats: at most "
            "%(maximum)s."
        ),
        "duplicate_players": _("Some players appear twice in the list of players."),
        "fixed_table_full": _("More than four players are fixed to table %(table)s."),
        "fixed_player_unknown": _("A player with a fixed table is not playing."),
        "invalid_history": _(
            "Round %(round)s, table %(table)s of the rounds already played does not have "
            "four players."
        ),
        "swiss_failed": _("The Swiss round could not be seated."),
        "no_rounds": _("Choose at least one round to seat."),
        "round_played": _(
            "Round %(round)s has started already (or has score sheets); its seats can no "
            "longer be changed."
        ),
        "stale": _(
            "The players, fixed tables or played rounds changed since this seating was "
            "generated. Generate it again."
        ),
        "not_open": _("This seating can no longer be changed (it is “%(status)s”)."),
        "swap_unknown_player": _("Both players must be seated in round %(round)s."),
        "swap_same_player": _("Choose two different players."),
        "swap_fixed_table": _("%(player_name)s must stay at table %(table)s (fixed table)."),
        "substitutes_count": _("Add between 1 and %(maximum)s substitutes at a time."),
        "interrupted": _(
            "The generator stopped before it finished, twice: the worker computing it was "
            "stopped (restarted, or out of memory). Generate the seating again; if it stops "
            "again, ask whoever runs the server to check the worker (manage.py db_worker)."
        ),
        "internal": _("The seating generator failed unexpectedly: %(detail)s"),
        "stage_round_outside": _("Round %(round)s is not a round of the stage “%(stage)s”."),
        "stage_rounds_mixed": _(
            "These rounds belong to different stages, each with its own players: seat the "
            "rounds of one stage at a time."
        ),
        "stage_cut_open": _(
            "Players share a place across the cut line of “%(stage)s”: choose who goes "
            "through before seating it."
        ),
        "stage_not_multiple_of_four": _(
            "%(players)s players went through to “%(stage)s”: seated by the standings, a "
            "stage needs a multiple of four."
        ),
    }
    template = messages.get(code)
    if template is None:
        return fallback or code
    try:
        return template % p
    except (KeyError, TypeError, ValueError):
        return fallback or template


def seating_validation_error(code: str, **params: Any) -> ValidationError:
    """A ValidationError whose message is the translated sentence for `code`."""
    return ValidationError(error_message(code, params), code=code)


def engine_error_params(error: SeatingError, names: dict[int, str]) -> dict[str, Any]:
    """The engine error's parameters, with the player's name beside the player's id."""
    params = {key: value for key, value in error.params.items() if _is_json(value)}
    if isinstance(params.get("player"), int):
        params["player_name"] = names.get(params["player"], str(params["player"]))
    return params


def from_engine_error(error: SeatingError, names: dict[int, str]) -> ValidationError:
    """Translate an engine error, naming the player instead of showing an id."""
    params = engine_error_params(error, names)
    return ValidationError(error_message(error.code, params, error.message), code=error.code)


def _is_json(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return all(_is_json(item) for item in value)
    return value is None or isinstance(value, str | int | float | bool)


def swiss_outdated_warnings(sender, tournament: Tournament, **kwargs) -> list[str]:
    """Answers `scoring.signals.standings_changed_by_official`: a Swiss round to come was
    seated from the standings before the change, so its groups are stale, which only the
    seating overview said before."""
    rounds = swiss_rounds_outdated(tournament)
    if not rounds:
        return []
    return [
        ngettext(
            "Round %(rounds)s was seated as a Swiss round from the standings before this "
            "sheet: an organiser seats it again (admin → Generate seating) before it is "
            "played.",
            "Rounds %(rounds)s were seated as Swiss rounds from the standings before this "
            "sheet: an organiser seats them again (admin → Generate seating) before they "
            "are played.",
            len(rounds),
        )
        % {"rounds": ", ".join(map(str, rounds))}
    ]
