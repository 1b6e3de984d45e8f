"""Where the shared real data lives: ``../shared/data`` beside the checkout, or one folder further up."""

from __future__ import annotations

from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]


def shared_data() -> Path:
    """The first ``shared/data`` folder that exists (the first candidate when none does: tests then skip)."""
    candidates = [_ROOT.parent / "shared" / "data", _ROOT.parent.parent / "shared" / "data"]
    return next((c for c in candidates if c.is_dir()), candidates[0])
