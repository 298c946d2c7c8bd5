"""The per-worker memo: Django's local-memory cache, bounded in bytes as well as in entries."""

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache


class BoundedMemoryCache(LocMemCache):
    """Past OPTIONS["MAX_BYTES"] of pickled values, the least recently used entries go first."""

    def __init__(self, name, params):
        super().__init__(name, params)
        self._max_bytes = int(params.get("OPTIONS", {}).get("MAX_BYTES", 64 * 2**20))

    def _set(self, key, value, timeout=DEFAULT_TIMEOUT):
        if len(value) > self._max_bytes:
            self._delete(key)  # too big to keep at all
            return
        super()._set(key, value, timeout)
        held = sum(map(len, self._cache.values()))
        while held > self._max_bytes:
            old_key, old_value = self._cache.popitem()  # the least recently used
            del self._expire_info[old_key]
            held -= len(old_value)
