"""English dates for a tournament read the world over: the day first and the month by name,
the 24-hour clock. Django's "en" writes 05/12/2026 9:30 a.m., which most players outside
the US read as 5 December. Everything not set here stays Django's (input formats,
numbers)."""

DATE_FORMAT = "j F Y"  # 12 May 2026
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "j M Y"  # 12 May 2026, 24 Nov 2026
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
