"""The regulars' tables this phone has opened, for Home (kept in its session, like its matches)."""

from django import template
from django.db.models import Q
from django.urls import reverse

from games.models import Table

register = template.Library()


@register.simple_tag(takes_context=True)
def tables_on_this_phone(context):
    """(table, link) for each table this phone has opened: by its score link, then watch link."""
    session = context["request"].session
    scoring, watching = session.get("tables", []), session.get("watching_tables", [])
    found = Table.objects.filter(Q(public_id__in=scoring) | Q(watch_id__in=watching))
    by_token = {t.public_id: t for t in found} | {t.watch_id: t for t in found}
    links = [(by_token[t], reverse("table", args=[t])) for t in scoring if t in by_token]
    return links + [
        (by_token[t], reverse("table_watch", args=[t])) for t in watching if t in by_token
    ]
