"""Records that travel through the pipeline: transcripts → turns → markers → atoms.

Every record is a frozen dataclass; what is written to disk is described by the JSON
Schemas in ``schemas/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

KINDS: tuple[str, ...] = ("instruction", "correction", "preference", "lesson", "failure")


@dataclass(frozen=True)
class Turn:
    """One message of a transcript, reduced to who said what, where and when.

    ``role`` is ``"user"`` only for words the person typed; assistant prose is
    ``"assistant"``. Tool output, injected context, slash-command expansions,
    compaction summaries and sub-agent prompts never become turns at all.
    """

    agent: str  # the agent's name in agents.NAMES
    session: str  # the agent's session id
    cwd: str  # working directory the session ran in ("" when unknown)
    timestamp: str  # ISO-8601 in UTC ("" when the record has none)
    role: str  # "user" | "assistant"
    text: str
    source: str  # transcript path as read
    line: int  # 1-based line of the file (message index for one-document JSON)
    message_id: str = ""  # groups assistant blocks split across lines


@dataclass(frozen=True)
class ReadResult:
    """What a reader got out of one transcript, with what it had to skip."""

    turns: tuple[Turn, ...]
    sessions: frozenset[str]
    skipped: int = 0  # malformed, truncated, non-UTF-8 or oversized lines
    end_offset: int = 0  # byte offset after the last complete line read
    end_line: int = 0  # number of the last complete line read
    cwd: str = ""
    lost: str = ""  # a one-document file that breaks off: what was kept and what was lost, in one line
    # records of a shape the reader does not know (a new type, part kind or event), dropped: (CLI version, count)
    # from a reader, ("<agent> <CLI version>", count) from ``read_transcript``
    unknown: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Marker:
    """A durable claim a marker rule found in one user turn."""

    kind: str  # one of KINDS
    rule_id: str  # stable id of the rule that fired (stored in atoms)
    text: str  # the claim in the person's own words, trimmed
    stated: bool  # the person explicitly asked to keep it
    reverses: str = ""  # for a reversal ("don't X anymore"): the claim it revokes, in its positive wording


@dataclass(frozen=True)
class Redaction:
    """Text after the redaction filter, and which rules fired on it."""

    text: str
    rule_ids: tuple[str, ...] = field(default_factory=tuple)

    @property
    def redacted(self) -> bool:
        return bool(self.rule_ids)
