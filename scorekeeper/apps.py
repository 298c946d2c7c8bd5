from django.apps import AppConfig
from django.core.signals import request_started


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"

    def ready(self):
        """Connect the guard that runs before Django makes each request (middleware.py)."""
        from scorekeeper.middleware import query_read_when_asked

        request_started.connect(query_read_when_asked, dispatch_uid="query_read_when_asked")
