"""Old name of ``agent_memory.claims.cache`` (the same module object)."""

import sys

from .claims import cache as _cache

sys.modules[__name__] = _cache
