"""Old name of ``agent_memory.promote.tiers`` (the same module object)."""

import sys

from .promote import tiers as _tiers

sys.modules[__name__] = _tiers
