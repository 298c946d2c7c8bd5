"""A retried save is stored once (entry keys unique per match); names that no page can show
(a lone surrogate, stored before names were checked for it) are repaired."""

from django.db import migrations, models


def blank_repeated_keys(apps, schema_editor):
    """Before the constraint: a key stored twice keeps it on its first round only."""
    Round = apps.get_model("games", "Round")
    seen = set()
    for pk, match_id, key in Round.objects.exclude(entry_key="").order_by("pk").values_list(
            "pk", "match_id", "entry_key"):
        if (match_id, key) in seen:
            Round.objects.filter(pk=pk).update(entry_key="")
        seen.add((match_id, key))


def repaired(name):
    """name with each lone surrogate (U+D800-U+DFFF) replaced by U+FFFD."""
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in name)


def repair_names(apps, schema_editor):
    """A name holding a lone surrogate gets the replacement character in its place."""
    Match = apps.get_model("games", "Match")
    for match in Match.objects.only("pk", "players"):
        names = [repaired(n) if isinstance(n, str) else n for n in match.players]
        if names != match.players:
            Match.objects.filter(pk=match.pk).update(players=names)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_rematch_of"),
    ]

    operations = [
        migrations.RunPython(blank_repeated_keys, migrations.RunPython.noop),
        migrations.RunPython(repair_names, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                condition=models.Q(("entry_key", ""), _negated=True),
                fields=("match", "entry_key"), name="one_round_per_entry_key"),
        ),
    ]
