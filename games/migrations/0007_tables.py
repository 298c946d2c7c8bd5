import django.db.models.deletion
from django.db import migrations, models

import games.models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_series_first"),
    ]

    operations = [
        migrations.CreateModel(
            name="Table",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "public_id",
                    models.CharField(
                        default=games.models.new_token, editable=False, max_length=32, unique=True
                    ),
                ),
                (
                    "watch_id",
                    models.CharField(
                        default=games.models.new_token, editable=False, max_length=32, unique=True
                    ),
                ),
                ("name", models.CharField(max_length=60)),
                ("people", models.JSONField()),
                ("version", models.PositiveIntegerField(default=0)),
                ("created", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.CreateModel(
            name="Payment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("payer", models.CharField(max_length=40)),
                ("payee", models.CharField(max_length=40)),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                (
                    "unit",
                    models.CharField(
                        choices=[("beans", "beans"), ("money", "money")], max_length=8
                    ),
                ),
                ("deleted", models.DateTimeField(blank=True, null=True)),
                ("created", models.DateTimeField(auto_now_add=True)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="payments",
                        to="games.table",
                    ),
                ),
            ],
            options={
                "ordering": ["created", "pk"],
            },
        ),
        migrations.AddField(
            model_name="match",
            name="table",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="matches",
                to="games.table",
            ),
        ),
    ]
