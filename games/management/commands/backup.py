"""python manage.py backup FILE: a consistent copy of the whole database, while the server runs."""

import sys

from django.core.management.base import BaseCommand
from django.template.defaultfilters import filesizeformat

from games import backup


class Command(BaseCommand):
    help = (
        "Write a copy of the whole database (every match, round, table and payment) to FILE, "
        "while the server runs: saves go on, and the copy is the database as it was at one "
        "moment. FILE may be a folder: the copy is then named scorekeeper-DATE-TIME.backup in "
        "it. An existing file is never overwritten. Keep the copy off this machine (a USB "
        "stick, another computer); bring it back with: manage.py restore FILE."
    )
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="the new backup file, or a folder to write it in")

    def handle(self, *args, **options):
        try:
            written, matches, tables = backup.write(options["file"])
        except backup.Refused as refused:
            self.stderr.write(f"Nothing written: {refused}")
            sys.exit(2)
        self.stdout.write(
            f"Wrote {written}: {backup.counted(matches, 'match', 'matches')}, "
            f"{backup.counted(tables, 'table', 'tables')}, "
            f"{filesizeformat(written.stat().st_size)}."
        )
