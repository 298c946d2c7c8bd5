from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0004_limits_cache")]

    operations = [
        migrations.CreateModel(
            name="Heartbeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField()),
            ],
        ),
    ]
