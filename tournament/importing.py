"""Reading a player list from a CSV or XLSX file and checking every row before anything is
written.

This module only reads and reports; `tournament.services.players.players_import` writes.
Organisers bring spreadsheets from other tools and federations, so headers are matched
loosely (English and French) and every problem is reported per row, in plain words.
"""

import csv
import io
import re
import zipfile
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext as _
from django_countries import countries
from openpyxl import load_workbook

from tournament.models import Player, Tournament, is_east_asian

HEADER_ALIASES = {
    "first_name": {"first name", "firstname", "given name", "prénom", "prenom"},
    "last_name": {"last name", "lastname", "surname", "family name", "nom", "nom de famille"},
    "name": {"name", "full name", "player", "joueur", "nom complet"},
    "nickname": {"nickname", "pseudo", "surnom"},
    "country": {"country", "pays", "nation", "country code"},
    "club": {"club", "association"},
    "ema_number": {"ema", "ema number", "ema id", "ema no", "numéro ema", "numero ema", "ema #"},
    "team": {"team", "équipe", "equipe"},
    "substitute": {"substitute", "remplaçant", "remplacant", "sub"},
}
MAX_LENGTHS = {"first_name": 100, "last_name": 100, "nickname": 100, "club": 150, "team": 150}
TRUE_WORDS = {"1", "yes", "y", "true", "x", "oui", "o", "vrai"}
# A spreadsheet that inflates beyond this when unzipped is refused (zip bomb).
MAX_UNZIPPED_BYTES = 50 * 1024 * 1024


class ImportFileError(Exception):
    """The file as a whole cannot be read; the message says why in the organiser's terms."""


@dataclass
class ImportRow:
    """One row of the file; ``returning`` is the existing player it names (by EMA number, or
    by name and country), who is registered again rather than created twice."""

    line: int
    values: dict[str, str]
    problems: list[str] = field(default_factory=list)
    returning: Player | None = None

    @property
    def is_valid(self) -> bool:
        return not self.problems

    @property
    def display_name(self) -> str:
        return f"{self.values.get('first_name', '')} {self.values.get('last_name', '')}".strip()


def _normalise_header(text: object) -> str:
    return re.sub(r"[\s_\-.]+", " ", str(text or "")).strip().casefold()


def _header_map(headers: list[object]) -> dict[int, str]:
    lookup = {alias: key for key, aliases in HEADER_ALIASES.items() for alias in aliases}
    lookup.update({key.replace("_", " "): key for key in HEADER_ALIASES})
    mapping = {}
    for index, header in enumerate(headers):
        key = lookup.get(_normalise_header(header))
        if key and key not in mapping.values():
            mapping[index] = key
    if not {"first_name", "name"} & set(mapping.values()):
        raise ImportFileError(
            _(
                "No name column found. The first row must hold the column names, for example: "
                "First name, Last name, Country, Club, EMA number, Team."
            )
        )
    return mapping


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _read_xlsx(content: bytes) -> list[list[object]]:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_UNZIPPED_BYTES:
                raise ImportFileError(_("This spreadsheet is too large once unpacked."))
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except ImportFileError:
        raise
    except Exception as error:
        raise ImportFileError(_("This file is not a readable Excel workbook (.xlsx).")) from error
    sheet = workbook.worksheets[0]
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    workbook.close()
    return rows


def _read_csv(content: bytes) -> list[list[object]]:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportFileError(
            _(
                "This CSV file is not in UTF-8, so names with accents or other scripts would be "
                "damaged. Save it again as “CSV UTF-8” and import it again."
            )
        ) from error
    if "\x00" in text:
        raise ImportFileError(_("This file is not a CSV text file."))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return [row for row in csv.reader(io.StringIO(text), dialect)]


def check_size(size: int) -> None:
    """Refuse a file over the limit before anything reads it into memory."""
    if size > settings.IMPORT_MAX_BYTES:
        raise ImportFileError(
            _("The file is larger than %(size)s MB.")
            % {"size": settings.IMPORT_MAX_BYTES // (1024 * 1024)}
        )


def read_rows(filename: str, content: bytes) -> list[dict[str, str]]:
    """The file's data rows as dicts keyed by our field names (empty rows dropped)."""
    check_size(len(content))
    name = filename.lower()
    if name.endswith(".xlsx"):
        table = _read_xlsx(content)
    elif name.endswith((".csv", ".txt")):
        table = _read_csv(content)
    else:
        raise ImportFileError(_("Choose a .xlsx or .csv file."))
    if not table:
        raise ImportFileError(_("The file is empty."))
    mapping = _header_map(table[0])
    rows = []
    for raw in table[1:]:
        values = {key: _cell_text(raw[index]) for index, key in mapping.items() if index < len(raw)}
        if any(values.values()):
            rows.append(values)
    if len(rows) > settings.IMPORT_MAX_ROWS:
        raise ImportFileError(
            _("The file has %(count)s rows; at most %(max)s can be imported at once.")
            % {"count": len(rows), "max": settings.IMPORT_MAX_ROWS}
        )
    return rows


def _normalise_country(text: str) -> str | None:
    """ISO 3166-1 alpha-2 code for a code (alpha-2 or alpha-3) or an English name."""
    if not text:
        return ""
    code = countries.alpha2(text.upper()) if len(text) <= 3 else ""
    if not code:
        code = countries.by_name(text) or ""
    return code or None


def _normalise_ema(text: str) -> str:
    # Excel turns 04010001 into the number 4010001: put the lost leading zero back.
    return text.zfill(8) if text.isdigit() and len(text) == 7 else text


def check_rows(tournament: Tournament, rows: list[dict[str, str]]) -> list[ImportRow]:
    """Each row cleaned and with its problems; nothing is written."""
    checked = []
    for number, values in enumerate(rows, start=2):
        values = dict(values)
        if "name" in values and not values.get("first_name"):
            name = values.pop("name").strip()
            first, _sep, last = name.partition(" ")
            if is_east_asian(name) and last:
                last, _sep, first = name.partition(" ")  # 李 小龙: family name first
            # 山田太郎 (no space, as usually written) stays whole: it cannot be split safely.
            values["first_name"], values["last_name"] = first, values.get("last_name") or last
        values.pop("name", None)
        row = ImportRow(line=number, values=values)
        if not values.get("first_name"):
            row.problems.append(_("Missing name."))
        for key, limit in MAX_LENGTHS.items():
            if len(values.get(key, "")) > limit:
                row.problems.append(
                    _("%(field)s is longer than %(limit)s characters.")
                    % {"field": key.replace("_", " ").capitalize(), "limit": limit}
                )
        country = _normalise_country(values.get("country", ""))
        if country is None:
            row.problems.append(
                _("Unknown country “%(country)s”: use an ISO code such as FR or JP.")
                % {"country": values["country"]}
            )
        else:
            values["country"] = country
        ema = _normalise_ema(values.get("ema_number", ""))
        values["ema_number"] = ema
        if ema and not re.fullmatch(r"\d{8}", ema):
            row.problems.append(
                _("EMA number “%(ema)s” must have exactly 8 digits.") % {"ema": ema}
            )
        values["substitute"] = (
            "1" if values.get("substitute", "").strip().casefold() in TRUE_WORDS else ""
        )
        checked.append(row)
    _mark_duplicates(tournament, checked)
    return checked


def _identity(values: dict[str, str]) -> tuple[str, str, str]:
    return (
        values.get("first_name", "").casefold(),
        values.get("last_name", "").casefold(),
        values.get("country", "") or "",
    )


def _mark_duplicates(tournament: Tournament, rows: list[ImportRow]) -> None:
    seen_names: dict[tuple, int] = {}
    seen_ema: dict[str, int] = {}
    for row in rows:
        ident, ema = _identity(row.values), row.values.get("ema_number", "")
        earlier = seen_ema.get(ema) if ema else None
        earlier = earlier or (seen_names.get(ident) if ident[0] else None)
        if earlier:
            row.problems.append(_("Same player as row %(line)s.") % {"line": earlier})
        seen_names.setdefault(ident, row.line)
        if ema:
            seen_ema.setdefault(ema, row.line)

    emas = [row.values["ema_number"] for row in rows if row.values.get("ema_number")]
    first_names = {row.values.get("first_name", "") for row in rows}
    existing = Player.objects.filter(Q(ema_number__in=emas) | Q(first_name__in=first_names))
    by_ema = {p.ema_number: p for p in existing if p.ema_number}
    by_name = {
        (p.first_name.casefold(), p.last_name.casefold(), p.country.code or ""): p for p in existing
    }
    registered = set(
        tournament.registrations.filter(player__in=existing).values_list("player_id", flat=True)
    )
    for row in rows:
        player = by_ema.get(row.values.get("ema_number") or "") or by_name.get(
            _identity(row.values)
        )
        if player is None:
            continue
        if player.pk in registered:
            row.problems.append(
                _("%(name)s (#%(id)s) is already registered in this tournament.")
                % {"name": player.display_name, "id": player.pk}
            )
        else:
            row.returning = player
