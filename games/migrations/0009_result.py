import django.db.models.deletion
from django.db import migrations, models


def fill_results(apps, schema_editor):
    """Each match's result, from its live rounds as far as the engine can play them (what a
    table adds up, read from here from now on)."""
    from games.ledger import kept
    from games.screen import replayed

    Match, Round, Result = (apps.get_model("games", name) for name in ("Match", "Round", "Result"))
    for match in Match.objects.iterator():
        live = Round.objects.filter(match=match, deleted=None).order_by("number")
        document = {
            "game": match.game,
            "players": match.players,
            "options": match.options,
            "rounds": list(live.values_list("entry", flat=True)),
            "closed": match.closed,
        }
        game, table, closed, _refused = replayed(document)
        Result.objects.create(match=match, version=match.version, **kept(game, table, closed))


class Migration(migrations.Migration):
    dependencies = [("games", "0008_payment_entry_key")]

    operations = [
        migrations.CreateModel(
            name="Result",
            fields=[
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="result",
                        serialize=False,
                        to="games.match",
                    ),
                ),
                ("version", models.PositiveIntegerField(default=0)),
                ("players", models.JSONField(default=list)),
                ("rounds", models.PositiveIntegerField(default=0)),
                ("totals", models.JSONField(default=list)),
                ("finished", models.BooleanField(default=False)),
                ("winners", models.JSONField(default=list)),
                ("places", models.JSONField(default=list)),
                ("settlement", models.JSONField(blank=True, null=True)),
            ],
        ),
        migrations.RunPython(fill_results, migrations.RunPython.noop),
    ]
