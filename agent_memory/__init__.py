"""agent-memory: a memory for coding agents that is earned, not asserted.

The data's journey (one module per stage):
  transcripts/ (read L0) → markers (find atoms) → redact → store (L1 files, lock, clock)
  → index (FTS5 shadow) → claims (identity, contradictions) → promote (gates, staging)
  → inspect / adopt (human review) → hooks (unattended) → cli on top.
"""

__version__ = "0.1.0"
