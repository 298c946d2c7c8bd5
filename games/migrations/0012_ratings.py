from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce


def fill_ended(apps, schema_editor):
    """When each finished match ended, as near as the rows tell: its latest round's change, or
    when it started (a table rates its matches in that order)."""
    Result, Round, Match = (apps.get_model("games", name) for name in ("Result", "Round", "Match"))
    latest = Round.objects.filter(match=OuterRef("match")).order_by("-updated").values("updated")
    started = Match.objects.filter(pk=OuterRef("match")).values("created")
    Result.objects.filter(finished=True).update(
        ended=Coalesce(Subquery(latest[:1]), Subquery(started[:1]))
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0011_players_come_and_go")]

    operations = [
        migrations.AddField(
            model_name="result",
            name="ended",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill_ended, migrations.RunPython.noop),
    ]
