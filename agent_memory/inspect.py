"""Old home of the inspect views, now ``agent_memory.review.why``; kept for old imports (and shadows the
standard library's ``inspect`` when this folder is first on ``sys.path``, so it goes once no caller uses it)."""

from .review.why import cmd_inspect, contested, match_id, print_tier_table, resolve_why, tier_claims, why_json

__all__ = ["cmd_inspect", "contested", "match_id", "print_tier_table", "resolve_why", "tier_claims", "why_json"]
