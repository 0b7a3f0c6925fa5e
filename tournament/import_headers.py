"""The column headers a player list may carry, in English and French, and the field each
fills: organisers' spreadsheets name their columns every which way ("N° EMA", "Prénom")."""

import re

from tournament.names import clean_text

HEADER_ALIASES = {
    "first_name": {"first name", "firstname", "given name", "prénom", "prenom"},
    "last_name": {"last name", "lastname", "surname", "family name", "nom", "nom de famille"},
    "name": {"name", "full name", "player", "joueur", "nom complet"},
    "nickname": {"nickname", "pseudo", "surnom"},
    "public_name": {
        "public name",
        "preferred name",
        "display name",
        "nom public",
        "nom affiché",
        "nom affiche",
    },
    "country": {
        "country",
        "pays",
        "nation",
        "country code",
        "nationality",
        "nationalité",
        "nationalite",
    },
    "club": {"club", "association"},
    "ema_number": {
        "ema",
        "ema number",
        "ema id",
        "ema no",
        "no ema",
        "ema nr",
        "nr ema",
        "numéro ema",
        "numero ema",
        "ema #",
    },
    "email": {"email", "e mail", "mail", "courriel", "adresse e mail", "adresse mail"},
    "team": {"team", "équipe", "equipe"},
    "substitute": {"substitute", "remplaçant", "remplacant", "sub"},
}


def normalise_header(text: object) -> str:
    """The header in lower case with "_", "-" and "." as spaces, and the French "N°" (also
    written "Nº") as "no": "N° EMA", "N°EMA" and "No. EMA" are all "no ema".

    >>> normalise_header(" N°EMA "), normalise_header("First_Name"), normalise_header("Nº")
    ('no ema', 'first name', 'no')
    """
    text = re.sub(r"[°º]", "o ", clean_text(str(text or "")))
    return re.sub(r"[\s_\-.]+", " ", text).strip().casefold()


# Every header we read, normalised (`normalise_header`), with the field it fills.
HEADER_FIELDS = {
    **{alias: key for key, aliases in HEADER_ALIASES.items() for alias in aliases},
    **{key.replace("_", " "): key for key in HEADER_ALIASES},
}


def header_field(header: object) -> str | None:
    """The player field a column of this header fills, or None for a column not read."""
    return HEADER_FIELDS.get(normalise_header(header))
