"""Mongolian dates as Mongolian tables write them (Django ships none for mn)."""

DATE_FORMAT = "Y.m.d"
SHORT_DATE_FORMAT = "Y.m.d"
DATETIME_FORMAT = "Y.m.d H:i"
SHORT_DATETIME_FORMAT = "Y.m.d H:i"
TIME_FORMAT = "H:i"
