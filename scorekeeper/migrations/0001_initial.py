from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name="Tally",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("group", models.CharField(max_length=32)),
                ("address", models.CharField(max_length=64)),
                ("window", models.DateTimeField()),
                ("hits", models.PositiveIntegerField(default=0)),
            ],
            options={
                "indexes": [models.Index(fields=["group", "window"], name="tally_windows")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("group", "address", "window"), name="one_tally_per_window"
                    )
                ],
            },
        ),
        # The database cache django-ratelimit counted in before (made by games 0004).
        migrations.RunSQL("DROP TABLE IF EXISTS scorekeeper_limits", migrations.RunSQL.noop),
    ]
