from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor):
    """The database cache the limits per client count in (settings.CACHES["limits"])."""
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_entry_key_unique_clean_names")]

    operations = [migrations.RunPython(create_cache_tables, migrations.RunPython.noop)]
