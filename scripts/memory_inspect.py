#!/usr/bin/env python3
"""``agent-memory inspect`` from a checkout, installed or not: same arguments, same output and exit codes."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent_memory.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["inspect", *sys.argv[1:]]))
