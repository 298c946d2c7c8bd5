"""On PostgreSQL, every change of a match's or a table's version sends a NOTIFY in its own
transaction (delivered when it commits, never when it rolls back), which wakes each worker's
live streams (games/stream.py): "m<id>" for a match, "t<id>" for a table, and for a match of a
table its table too (the table's page adds its matches up). A trigger, so that no change can
forget it: Match.changing(), Table.changing(), a rename, a match taken in, a rematch made.
SQLite has no NOTIFY: there the workers ask (games/stream.py)."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_live_notify() RETURNS trigger AS $$
BEGIN
    IF TG_TABLE_NAME = 'games_table' THEN
        PERFORM pg_notify('scorekeeper_live', 't' || NEW.id);
    ELSE
        PERFORM pg_notify('scorekeeper_live', 'm' || NEW.id);
        IF NEW.table_id IS NOT NULL THEN
            PERFORM pg_notify('scorekeeper_live', 't' || NEW.table_id);
        END IF;
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_match_live AFTER INSERT OR UPDATE OF version ON games_match
    FOR EACH ROW EXECUTE FUNCTION games_live_notify();
CREATE TRIGGER games_table_live AFTER UPDATE OF version ON games_table
    FOR EACH ROW EXECUTE FUNCTION games_live_notify();
"""
DROP = """
DROP TRIGGER IF EXISTS games_table_live ON games_table;
DROP TRIGGER IF EXISTS games_match_live ON games_match;
DROP FUNCTION IF EXISTS games_live_notify();
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0013_issue48")]

    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP))]
