from django.db import migrations, models


def fill_series_first(apps, schema_editor):
    """Each rematch's series_first: the original its chain of rematches goes back to (a rematch
    is made after the match it follows, so in id order the one before is done)."""
    Match = apps.get_model("games", "Match")
    firsts, rematches = {}, []
    for pk, before in (
        Match.objects.exclude(rematch_of=None).order_by("pk").values_list("pk", "rematch_of")
    ):
        firsts[pk] = firsts.get(before, before)
        rematches.append(Match(pk=pk, series_first_id=firsts[pk]))
    Match.objects.bulk_update(rematches, ["series_first"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_heartbeat")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="series_first",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.deletion.SET_NULL,
                related_name="+",
                to="games.match",
            ),
        ),
        migrations.RunPython(fill_series_first, migrations.RunPython.noop),
    ]
