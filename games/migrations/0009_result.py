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
        result = kept(game, table, closed)
        Result.objects.create(
            match=match, version=match.version, finished=result["finished"], kept=result
        )


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
                ("finished", models.BooleanField(default=False)),
                ("kept", models.JSONField(default=dict)),
            ],
        ),
        migrations.RunPython(fill_results, migrations.RunPython.noop),
    ]
