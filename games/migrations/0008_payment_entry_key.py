from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="payment",
            name="entry_key",
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.AddConstraint(
            model_name="payment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("entry_key", ""), _negated=True),
                fields=("table", "entry_key"),
                name="one_payment_per_entry_key",
            ),
        ),
    ]
