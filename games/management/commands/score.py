"""python manage.py score [FILE]: print the result of a match document as JSON."""

import json
import sys

from django.core.management.base import BaseCommand

from games.rules import RulesError, gettext_noop, score


def read_document(path):
    """The match document from a file, or standard input for '-' or no file."""
    try:
        if path in (None, "-"):
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as source:
                text = source.read()
    except (OSError, UnicodeDecodeError) as error:
        raise RulesError(
            gettext_noop("cannot read %(path)s: %(why)s"),
            path=path,
            why=getattr(error, "strerror", None) or str(error),
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RulesError(
            gettext_noop("this is not JSON (line %(line)s, column %(column)s)"),
            line=error.lineno,
            column=error.colno,
        ) from None


class Command(BaseCommand):
    help = "Score a match document (FILE, or standard input) and print the result as JSON."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default="-")

    def handle(self, *args, **options):
        try:
            result = score(read_document(options["file"]))
        except RulesError as error:
            self.stderr.write(str(error))
            sys.exit(2)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=1))
