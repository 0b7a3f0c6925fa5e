"""English dates for a tournament read the world over: the day first and the month by name,
the 24-hour clock. Django's "en" writes 05/12/2026 9:30 a.m., which most players outside
the US read as 5 December. Typed dates are read day first too (05/07/2026 is 5 July, as on
the pages; ISO 2026-07-05 always works): Django's "en" read it as 7 May. Everything not set
here stays Django's (numbers)."""

DATE_FORMAT = "j F Y"  # 12 May 2026
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "j M Y"  # 12 May 2026, 24 Nov 2026
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
# Typed in forms (the admin's dates and scheduled starts); the first is how a date field
# shows its value. ISO is accepted too (Django adds it).
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%d/%m/%y", "%d.%m.%Y", "%d %B %Y", "%d %b %Y"]
DATETIME_INPUT_FORMATS = [
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
    "%d/%m/%y %H:%M",
    "%d.%m.%Y %H:%M",
]
