"""Reading a player list from a CSV or XLSX file and checking every row before anything is
written.

This module only reads and reports; `tournament.services.players.players_import` writes.
Organisers bring spreadsheets from other tools and federations, so headers are matched
loosely (English and French) and every problem is reported per row, in plain words.

A returning player's record is completed from the file where it is blank (EMA number, club,
nickname, country), if the organiser may change that player; a value the record already has
is never overwritten, and the preview names what is not applied and why.

Every text cell is cleaned the same way (`names.clean_text`). Players and teams are
recognised by a normalised form of their name (`names.name_key`), the same among the rows of
the file and against the database, so "ZOÉ MARTIN" is the registered "Zoé Martin" and
山田太郎 is 山田 太郎; `names.fold` tells whether a name is recognisably the one an EMA number
belongs to.
"""

import csv
import io
import re
import zipfile
from collections.abc import Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_countries import countries
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from tournament.import_headers import header_field
from tournament.models import Player, Tournament
from tournament.names import (
    clean_text,
    fold,
    is_east_asian,
    isolate,
    name_key,
    text_key,
    written_name,
)
from tournament.permissions import players_registered_elsewhere

# The key under which `read_table` keeps each row's number in the spreadsheet, since blank
# rows are left out and the rows after them would otherwise be reported under another number.
LINE = "line"
MAX_LENGTHS = {
    "first_name": 100,
    "last_name": 100,
    "nickname": 100,
    "public_name": 100,
    "club": 150,
    "email": 254,
    "team": 150,
}
TRUE_WORDS = {"1", "yes", "y", "true", "x", "oui", "o", "vrai"}
FALSE_WORDS = {"0", "no", "n", "false", "non", "faux"}
# The CSV separators understood, the first preferred when the header does not tell.
SEPARATORS = (",", ";", "\t")
# A spreadsheet that inflates beyond this when unzipped is refused (zip bomb).
MAX_UNZIPPED_BYTES = 50 * 1024 * 1024
# A player list has a dozen columns; a file with data further right is refused, so that no
# row costs more than this many cells.
MAX_COLUMNS = 100
# The columns as the preview names them, in the organiser's language.
COLUMN_LABELS = {
    "first_name": gettext_lazy("First name"),
    "last_name": gettext_lazy("Last name"),
    "nickname": gettext_lazy("Nickname"),
    "public_name": gettext_lazy("Public name"),
    "country": gettext_lazy("Country"),
    "club": gettext_lazy("Club"),
    "ema_number": gettext_lazy("EMA number"),
    "email": gettext_lazy("E-mail"),
    "team": gettext_lazy("Team"),
}
# The fields of a player's record that a returning player's row may fill in where they are
# blank. The name is who the row is, never changed from it.
RECORD_FIELDS = ("nickname", "public_name", "country", "club", "ema_number", "email")


class ImportFileError(Exception):
    """The file as a whole cannot be read; the message says why in the organiser's terms."""


def described(values: dict[str, str]) -> str:
    """Record fields and their values as the organiser reads them: Club “Lyon Riichi Club”,
    EMA number “04019999”."""
    return ", ".join(
        _("%(field)s “%(value)s”") % {"field": COLUMN_LABELS[key], "value": value}
        for key, value in values.items()
    )


@dataclass
class ImportRow:
    """One row of the file; ``returning`` is the existing player it names (by EMA number, or
    by name and country), who is registered again rather than created twice.

    For a returning player, ``fills`` are the file's values for fields blank on the record
    and ``differs`` the file's values where the record has another one; ``may_change`` says
    whether the organiser may change that player (`players_registered_elsewhere`).
    ``namesakes`` are other players of the row's name and country already registered in the
    tournament: the row registers one more person of that name."""

    line: int
    values: dict[str, str]
    problems: list[str] = field(default_factory=list)
    returning: Player | None = None
    fills: dict[str, str] = field(default_factory=dict)
    differs: dict[str, str] = field(default_factory=dict)
    may_change: bool = True
    namesakes: list[Player] = field(default_factory=list)

    @property
    def is_valid(self) -> bool:
        return not self.problems

    @property
    def completes(self) -> dict[str, str]:
        """What the import writes to the returning player's record."""
        return self.fills if self.returning and self.may_change else {}

    @property
    def left(self) -> dict[str, str]:
        """The file's values for the returning player that the import does not write."""
        if self.returning is None:
            return {}
        if self.may_change:
            return self.differs
        values = {**self.fills, **self.differs}
        return {key: values[key] for key in RECORD_FIELDS if key in values}  # column order

    @property
    def changes(self) -> list[str]:
        """What the import does to the returning player's record, in the organiser's words."""
        if not self.completes:
            return []
        return [_("Added to the record: %(values)s.") % {"values": described(self.completes)}]

    @property
    def warnings(self) -> list[str]:
        """What the organiser should read before importing a row without problems: the file's
        values the record keeps, and a namesake this row would register beside."""
        notes = []
        player = self.returning
        for key, value in self.differs.items():
            kept = {
                "field": COLUMN_LABELS[key],
                "current": getattr(player, key),
                "value": value,
            }
            if self.may_change:
                notes.append(
                    _(
                        "%(field)s on record: “%(current)s”; the file’s “%(value)s” is not "
                        "applied: change the player to update it."
                    )
                    % kept
                )
            else:
                notes.append(
                    _("%(field)s on record: “%(current)s”; the file’s “%(value)s” is not applied.")
                    % kept
                )
        if player and not self.may_change and self.left:
            if self.fills:
                notes.append(
                    _("Not added to the record: %(values)s.") % {"values": described(self.fills)}
                )
            notes.append(
                _(
                    "%(name)s (#%(id)s) is also registered in a tournament you do not organise: "
                    "only an administrator, or someone who organises every tournament this "
                    "player is registered in, can change the record."
                )
                % {"name": isolate(player.display_name), "id": player.pk}
            )
        for other in self.namesakes:
            notes.append(
                _(
                    "%(name)s (#%(id)s, %(details)s) is already registered in this tournament: "
                    "this row registers a second person of that name. If it is the same "
                    "person, remove the row from the file."
                )
                % {
                    "name": isolate(other.display_name),
                    "id": other.pk,
                    "details": other.distinguishing_details or "—",
                }
            )
        return notes

    @property
    def display_name(self) -> str:
        """As `Player.display_name`: 山田太郎 family name first, "Zoé Martin" otherwise."""
        return written_name(self.values.get("first_name", ""), self.values.get("last_name", ""))


def _split_name(name: str) -> tuple[str, str]:
    """First and last name from a single name cell. "Last, First" with a comma; family name
    first for Chinese, Japanese and Korean; "First Last" otherwise.

    >>> _split_name("Zoé Martin")
    ('Zoé', 'Martin')
    >>> _split_name("Berg, Anna")
    ('Anna', 'Berg')
    >>> _split_name("李 小龙")
    ('小龙', '李')

    山田太郎 (no space, as usually written) stays whole: it cannot be split safely.

    >>> _split_name("山田太郎")
    ('山田太郎', '')
    """
    last, comma, first = name.partition(",")
    if comma and last.strip() and first.strip():
        return clean_text(first), clean_text(last)
    name = clean_text(name.replace(",", " "))
    first, _sep, last = name.partition(" ")
    if is_east_asian(name) and last:
        last, _sep, first = name.partition(" ")  # 李 小龙: family name first
    return first, last


def _header_map(headers: list[object]) -> dict[int, str]:
    mapping = {}
    for index, header in enumerate(headers):
        key = header_field(header)
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
    return clean_text(str(value))


def _xlsx_rows(content: bytes) -> Generator[Sequence[object], None, None]:
    """The rows of the first visible sheet, one at a time, each as wide as its last cell.

    The size the sheet declares is not believed: a few KB declaring A1:XFD1048576 made
    openpyxl pad every row to 16,384 cells and yield a million of them."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_UNZIPPED_BYTES:
                raise ImportFileError(_("This spreadsheet is too large once unpacked."))
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except ImportFileError:
        raise
    except Exception as error:
        raise ImportFileError(_("This file is not a readable Excel workbook (.xlsx).")) from error
    try:
        # The first sheet the organiser can see: a hidden one's players would come in unseen.
        sheet = next((ws for ws in workbook.worksheets if ws.sheet_state == "visible"), None)
        if sheet is not None:
            sheet.reset_dimensions()
            yield from sheet.iter_rows(values_only=True)
    except Exception as error:
        raise ImportFileError(_("This file is not a readable Excel workbook (.xlsx).")) from error
    finally:
        workbook.close()


def _csv_rows(content: bytes) -> Generator[Sequence[object], None, None]:
    """The rows of a CSV file, one at a time. A stray quotation mark is refused with its
    line: read leniently, it would swallow the rows below it into one cell."""
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
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text), strict=True)
    line = 1
    try:
        for row in reader:
            yield row
            line = reader.line_num + 1
    except csv.Error as error:
        raise ImportFileError(
            _(
                'Line %(line)s of the file cannot be read: a quotation mark (") there opens a '
                'cell that is not closed properly. Remove it, or write it twice (""), and '
                "import the file again."
            )
            % {"line": line}
        ) from error


def _delimiter(text: str) -> str:
    """The separator the file uses: ",", ";" (French Excel) or a tab, whichever splits the
    first row into the most column names we read. The header is what every file has: guessed
    from the rows' regularity instead (csv.Sniffer), one blank line of a Windows file made
    the guess fail, and a semicolon file came in as one column. Only the separator is
    chosen: spreadsheet programs all quote with ", and a guessed quotation mark would take
    the apostrophes of 's-Hertogenbosch or 'Tiger' for quotes and run rows together.

    >>> _delimiter("PRÉNOM;NOM;Club, association ou ville"), _delimiter("Name,Club;Notes")
    (';', ',')
    """
    header = text.partition("\n")[0]

    def known_columns(separator: str) -> int:
        cells = next(csv.reader([header], delimiter=separator), [])
        return sum(header_field(cell) is not None for cell in cells)

    return max(SEPARATORS, key=known_columns)


def check_size(size: int) -> None:
    """Refuse a file over the limit before anything reads it into memory."""
    if size > settings.IMPORT_MAX_BYTES:
        raise ImportFileError(
            _("The file is larger than %(size)s MB.")
            % {"size": settings.IMPORT_MAX_BYTES // (1024 * 1024)}
        )


@dataclass(frozen=True)
class ImportTable:
    """What a file gives: its data rows, and the headers of the columns left unread, which
    the preview names so that nobody believes a "Ranking" or "Notes" column came in."""

    rows: list[dict[str, str]]
    ignored_columns: list[str]


def read_table(filename: str, content: bytes) -> ImportTable:
    """The file's data rows, as dicts keyed by our field names and `LINE` (empty rows
    dropped), and the columns it does not read."""
    check_size(len(content))
    name = filename.lower()
    if name.endswith(".xlsx"):
        lines = _xlsx_rows(content)
    elif name.endswith((".csv", ".txt")):
        lines = _csv_rows(content)
    else:
        raise ImportFileError(_("Choose a .xlsx or .csv file."))
    with closing(lines):  # the workbook too, when a row is refused half-way
        return _bounded_table(lines)


def _bounded_table(lines: Iterator[Sequence[object]]) -> ImportTable:
    """The rows read one at a time, keeping only our columns of at most IMPORT_MAX_ROWS
    data rows, so that what a file holds, not what it declares, sets the memory used. The
    rows beyond the limit are counted, to say how many there are, and not kept."""
    header = next(lines, None)
    if header is None:
        raise ImportFileError(_("The file is empty."))
    _check_width(1, header)
    mapping = _header_map(header)
    ignored = [
        _cell_text(cell)
        for index, cell in enumerate(header)
        if index not in mapping and _cell_text(cell)
    ]
    rows = []
    count = 0
    for line, raw in enumerate(lines, start=2):
        if not raw:  # a row the sheet leaves out
            continue
        _check_width(line, raw)
        values = {key: _cell_text(raw[index]) for index, key in mapping.items() if index < len(raw)}
        if any(values.values()):
            count += 1
            if count <= settings.IMPORT_MAX_ROWS:
                rows.append({**values, LINE: str(line)})
    if count > settings.IMPORT_MAX_ROWS:
        raise ImportFileError(
            _("The file has %(count)s rows; at most %(max)s can be imported at once.")
            % {"count": count, "max": settings.IMPORT_MAX_ROWS}
        )
    return ImportTable(rows, ignored)


def _check_width(line: int, cells: Sequence[object]) -> None:
    """Refuse a row with data beyond MAX_COLUMNS, before its cells are kept."""
    beyond = next(
        (index for index in range(MAX_COLUMNS, len(cells)) if _cell_text(cells[index])), None
    )
    if beyond is not None:
        raise ImportFileError(
            _(
                "The file is too large to import: row %(line)s has data in column %(column)s, "
                "beyond the %(max)s columns a player list may have. Delete what is there and "
                "import the file again."
            )
            % {"line": line, "column": get_column_letter(beyond + 1), "max": MAX_COLUMNS}
        )


def _normalise_country(text: str) -> str | None:
    """ISO 3166-1 alpha-2 code for a code (alpha-2 or alpha-3) or a name in one of the site's
    languages: a French list says "Allemagne"."""
    if not text:
        return ""
    code = countries.alpha2(text.upper()) if len(text) <= 3 else ""
    for language, _name in settings.LANGUAGES:
        code = code or countries.by_name(text, language=language)
    return code or None


def _is_email(text: str) -> bool:
    try:
        validate_email(text)
    except ValidationError:
        return False
    return True


def _normalise_ema(text: str) -> str:
    """Excel turns 04010001 into the number 4010001: put the lost leading zero back. Seven
    digits that begin with a zero were typed so (a digit is missing): Excel never writes a
    number with a leading zero, and padding them would make up a number nobody has.

    >>> _normalise_ema("4010001"), _normalise_ema("0401007")
    ('04010001', '0401007')
    """
    lost_zero = text.isdigit() and len(text) == 7 and not text.startswith("0")
    return text.zfill(8) if lost_zero else text


def check_rows(
    tournament: Tournament, rows: list[dict[str, str]], *, acting_user=None
) -> list[ImportRow]:
    """Each row cleaned, with its problems and what importing it would do; nothing is
    written. ``acting_user`` is the organiser importing, whose rights decide whether a
    returning player's blanks are filled in; None is a command run on the server, which
    answers to no organiser's role."""
    checked = []
    for number, values in enumerate(rows, start=2):
        # Again here: the rows may not come from `read_table` (an older pending import).
        values = {key: clean_text(str(value or "")) for key, value in values.items()}
        line = int(values.pop(LINE, "") or number)
        if "name" in values and not values.get("first_name"):
            first, last = _split_name(values.pop("name"))
            values["first_name"], values["last_name"] = first, values.get("last_name") or last
        values.pop("name", None)
        row = ImportRow(line=line, values=values)
        if not values.get("first_name"):
            row.problems.append(_("Missing name."))
        for key, limit in MAX_LENGTHS.items():
            if len(values.get(key, "")) > limit:
                row.problems.append(
                    _("%(field)s is longer than %(limit)s characters.")
                    % {"field": COLUMN_LABELS[key], "limit": limit}
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
        email = values.get("email", "")
        if email and not _is_email(email):
            row.problems.append(
                _("E-mail “%(email)s” is not an address such as name@example.org.")
                % {"email": email}
            )
        substitute = values.get("substitute", "")
        if substitute and substitute.casefold() not in TRUE_WORDS | FALSE_WORDS:
            # Read as "no", a substitute would be seated and ranked as a player.
            row.problems.append(
                _("Substitute “%(value)s”: write yes for a substitute, no or nothing for a player.")
                % {"value": substitute}
            )
        values["substitute"] = "1" if substitute.casefold() in TRUE_WORDS else ""
        checked.append(row)
    _match_teams(tournament, checked)
    _mark_duplicates(tournament, checked)
    _compare_with_records(checked, acting_user)
    return checked


def _match_teams(tournament: Tournament, rows: list[ImportRow]) -> None:
    """Spell each team as the tournament's existing team of that name, else as the first row
    that names it, so "paris riichi club" joins "Paris Riichi Club" instead of beside it."""
    existing = list(tournament.teams.values_list("name", flat=True))
    spelling: dict[str, str] = {}
    for name in existing:
        spelling.setdefault(text_key(name), name)
    for row in rows:
        team = row.values.get("team")
        if team and team not in existing:
            row.values["team"] = spelling.setdefault(text_key(team), team)


def _identity(values: dict[str, str]) -> tuple[str, str]:
    """Who a row names: `name_key` and country (an ISO code, or what the row says)."""
    name = name_key(values.get("first_name", ""), values.get("last_name", ""))
    return name, values.get("country", "") or ""


def _namesake(known: list[tuple[int, str]], ema: str) -> int | None:
    """The oldest player of the row's name and country who may be the row's player: one
    with another EMA number is somebody else."""
    return next((pk for pk, their_ema in known if not ema or their_ema in ("", ema)), None)


def _mark_duplicates(tournament: Tournament, rows: list[ImportRow]) -> None:
    seen_names: dict[tuple, int] = {}
    seen_ema: dict[str, ImportRow] = {}
    for row in rows:
        ident, ema = _identity(row.values), row.values.get("ema_number", "")
        same_name = seen_names.get(ident) if row.values.get("first_name") else None
        same_ema = seen_ema.get(ema) if ema else None
        if same_ema and _identity(same_ema.values)[0] != ident[0]:
            # Another name with this EMA number: a typo in one of them, not the same player.
            row.problems.append(
                _("Same EMA number as row %(line)s (%(name)s).")
                % {"line": same_ema.line, "name": isolate(same_ema.display_name)}
            )
        elif same_ema:
            same_name = same_name or same_ema.line
        if same_name:
            row.problems.append(_("Same player as row %(line)s.") % {"line": same_name})
        seen_names.setdefault(ident, row.line)
        if ema:
            seen_ema.setdefault(ema, row)

    emas = {row.values["ema_number"] for row in rows if row.values.get("ema_number")}
    wanted = {_identity(row.values) for row in rows if row.values.get("first_name")}
    if not tournament.is_demo:
        _mark_demo_numbers(rows, emas)
    # Names are compared in Python (`name_key`): the database cannot fold case beyond ASCII
    # (SQLite) nor normalise Unicode, so the candidates are the rows' countries' players.
    # A real tournament's rows are never the demo's made-up players.
    candidates = Player.objects.filter(
        Q(ema_number__in=emas) | Q(country__in={country for _name, country in wanted})
    ).order_by("pk")
    if not tournament.is_demo:
        candidates = candidates.filter(is_demo=False)
    ema_ids: dict[str, int] = {}
    name_ids: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for pk, first, last, country, ema in candidates.values_list(
        "pk", "first_name", "last_name", "country", "ema_number"
    ).iterator(chunk_size=2000):
        if ema in emas:
            ema_ids[ema] = pk
        ident = (name_key(first, last), country or "")
        if ident in wanted:
            name_ids.setdefault(ident, []).append((pk, ema))  # namesakes, oldest first
    players = Player.objects.in_bulk(
        {*ema_ids.values(), *(pk for known in name_ids.values() for pk, _ema in known)}
    )
    registered = set(
        tournament.registrations.filter(player_id__in=list(players)).values_list(
            "player_id", flat=True
        )
    )
    claimed: dict[int, ImportRow] = {}
    for row in rows:
        ema = row.values.get("ema_number") or ""
        known = name_ids.get(_identity(row.values), [])
        pk = ema_ids.get(ema) or _namesake(known, ema)
        row.namesakes = [players[other] for other, _ema in known if other in registered - {pk}]
        player = players.get(pk)
        if player is None:
            continue
        if ema in ema_ids and not _may_be(row.values, player):
            row.problems.append(
                _(
                    "EMA number %(ema)s belongs to %(name)s (#%(id)s): "
                    "correct the number or the name."
                )
                % {"ema": ema, "name": isolate(player.display_name), "id": player.pk}
            )
            continue
        earlier = claimed.setdefault(player.pk, row)
        if player.pk in registered:
            row.problems.append(
                _("%(name)s (#%(id)s) is already registered in this tournament.")
                % {"name": isolate(player.display_name), "id": player.pk}
            )
        elif earlier is not row:
            # Two spellings of one person ("Zoe Martin" with her number, "Zoé Martin"
            # without) would register her twice; the same spelling is already reported.
            same_player = _("Same player as row %(line)s.") % {"line": earlier.line}
            if same_player not in row.problems:
                row.problems.append(same_player)
        else:
            row.returning = player


def _mark_demo_numbers(rows: list[ImportRow], emas: set[str]) -> None:
    """A row of a real tournament with the EMA number of a demo player: the number is made
    up or the demo took it, and the import could not create the player with it."""
    demo = {
        player.ema_number: player
        for player in Player.objects.filter(is_demo=True, ema_number__in=emas)
    }
    for row in rows:
        player = demo.get(row.values.get("ema_number", ""))
        if player is not None:
            row.problems.append(
                _(
                    "EMA number %(ema)s belongs to %(name)s, a made-up player of the demo "
                    "tournament: correct the number, or remove the demo first "
                    "(manage.py remove_demo)."
                )
                % {"ema": player.ema_number, "name": isolate(player.display_name)}
            )


def _compare_with_records(rows: list[ImportRow], acting_user) -> None:
    """Set what each returning player's row would add to their record, and what it would
    not. Case and spaces are no difference: "lyon riichi club" is the recorded club."""
    returning = [row for row in rows if row.is_valid and row.returning]
    elsewhere = (
        players_registered_elsewhere(acting_user, {row.returning.pk for row in returning})
        if acting_user is not None
        else set()
    )
    for row in returning:
        player = row.returning
        row.may_change = player.pk not in elsewhere
        for key in RECORD_FIELDS:
            value, on_record = row.values.get(key, ""), str(getattr(player, key))
            if value and not on_record:
                row.fills[key] = value
            elif value and text_key(value) != text_key(on_record):
                row.differs[key] = value


def _may_be(values: dict[str, str], player: Player) -> bool:
    """Whether a row with this player's EMA number names them: the same name without regard
    to accents, or the same first name (a last name changes with a marriage). A stranger's
    name means a mistyped number, which would register the wrong person."""
    first, last = values.get("first_name", ""), values.get("last_name", "")
    if fold(name_key(first, last)) == fold(name_key(player.first_name, player.last_name)):
        return True
    return bool(last and player.last_name) and fold(first) == fold(player.first_name)
