"""python manage.py restore FILE: the database brought back from a copy manage.py backup wrote."""

import sys

from django.core.management.base import BaseCommand

from games import backup


class Command(BaseCommand):
    help = (
        "Bring back a copy written by manage.py backup: every match, round, table and payment "
        "as they were when it was written. Stop the server first (restore refuses while one "
        "runs on the data) and start it again after. The copy is checked whole, restored "
        "beside the database, brought to this version of the app and checked again before it "
        "replaces anything. A database that already holds matches or tables is left alone "
        "unless --replace is given; then what it holds is first written to one copy in the "
        "data folder (its name is shown; the next restore replaces it), so this can be undone "
        "by restoring that file."
    )
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="a file manage.py backup wrote")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace the matches and tables the database holds now (kept in a backup first)",
        )

    def handle(self, *args, **options):
        try:
            kept, holds = backup.restore(options["file"], options["replace"])
        except backup.Refused as refused:
            self.stderr.write(f"Nothing restored: {refused}")
            sys.exit(2)
        if kept:
            self.stdout.write(f"What the database held before is kept in {kept}.")
        self.stdout.write(
            f"Restored {options['file']}: {backup.counted(holds['matches'], 'match', 'matches')}, "
            f"{backup.counted(holds['tables'], 'table', 'tables')}, "
            f"{backup.counted(holds['rounds'], 'round', 'rounds')}, "
            f"{backup.counted(holds['payments'], 'payment', 'payments')}. Start the server again."
        )
