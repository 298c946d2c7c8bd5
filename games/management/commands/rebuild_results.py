"""python manage.py rebuild_results: write every match's stored result anew from its rounds."""

from django.core.management.base import BaseCommand

from games.models import Match


class Command(BaseCommand):
    help = (
        "Write every match's result row (what a table adds up) anew from its stored rounds, "
        "each under its match's write lock. The rounds are the truth: nothing else changes."
    )

    def handle(self, *args, **options):
        count = 0
        for match in Match.objects.only("pk", "public_id").iterator():
            match.rebuild_result()
            count += 1
        self.stdout.write(f"{count} results written from the rounds.")
