"""The marked block: the one region of an instruction file the tool writes, and the inert text inside it.

The block, appended at the end of the file when absent::

    <!-- agent-memory:begin hash=<16 hex of sha256(body)>; ... -->
    <body: a lead line, then one "- " bullet per adopted, unretired claim, sorted>
    <!-- agent-memory:end -->

The hash covers the body (line endings folded to ``\\n``); a body that no longer matches
its hash was edited by a person, and is never overwritten. A begin/end pair with an empty
body and no hash is a placeholder a person may put where the block should go. A block left
with no claim (the last one forgotten or retired) is taken out whole, never left empty.
"""

from __future__ import annotations

import codecs
import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable

from ..errors import UsageError

# Inert text: the exact rule for a claim's words once they are inside an instruction file.
# A bullet is one line, "- " followed by the claim text (already cleared of absolute paths
# and user names by redact.scrub_paths), where
#   1. every control, format, line- or paragraph-separator character and every run of
#      whitespace becomes one space: a claim is one line and can start no heading, setext
#      underline (=== / ---), fence, list or other block of its own;
#   2. "<" and ">" become "&lt;" and "&gt;": no HTML tag, no comment opener "<!--", and no
#      "-->" that could close a comment or the block's markers;
#   3. every "@" becomes "＠" (U+FF20): Claude Code imports "@path" at a line start or after
#      whitespace, outside code spans, so changing every "@" leaves no way to start one;
#   4. a first character Markdown would read as block syntax inside a list item
#      (# = - * + _ > | ~ ` [ ! :, or "1." / "1)") is backslash-escaped;
#   5. at most 500 characters are kept.
INERT_LIMIT = 500
_LEADING_SYNTAX = set("#=-*+_>|~`[!:")
_ORDERED = re.compile(r"^(\d{1,9})([.)])")

BEGIN = "<!-- agent-memory:begin"
END = "<!-- agent-memory:end -->"
_BEGIN_LINE = re.compile(r"^<!-- agent-memory:begin(?P<attrs>[^\r\n]*?)-->[ \t]*(?=\r?\n|\Z)", re.M)
_END_LINE = re.compile(r"^<!-- agent-memory:end -->[ \t]*(?=\r?\n|\Z)", re.M)
_HASH = re.compile(r"\bhash=([0-9a-f]{16})\b")
_NOTE = "written by agent-memory from adopted claims; edit outside this block"
LEAD = {
    "project": "Remembered from past sessions in this project and adopted by a person:",
    "user": "Remembered across projects and adopted by a person:",
}

class BlockEdited(UsageError):
    """A person changed the text inside the tool's block since the tool wrote it."""


class BlockDamaged(UsageError):
    """The block's markers are missing, doubled or out of order."""


# ---------------------------------------------------------------- inert text and the block


def inert(text: str) -> str:
    """Claim text made safe to sit on one bullet line of an instruction file (rule above)."""
    chars = []
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cf":
            continue
        chars.append(" " if category in ("Cc", "Zl", "Zp") or ch.isspace() else ch)
    flat = " ".join("".join(chars).split())
    flat = flat.replace("<", "&lt;").replace(">", "&gt;").replace("@", "\uff20")
    if len(flat) > INERT_LIMIT:
        flat = flat[: INERT_LIMIT - 1].rstrip() + "…"
    if flat[:1] in _LEADING_SYNTAX:
        flat = "\\" + flat
    flat = _ORDERED.sub(lambda m: m.group(1) + "\\" + m.group(2), flat, count=1)
    return flat


def body_digest(body: str) -> str:
    """The hash recorded in the begin marker: sha256 of the body with line endings folded."""
    folded = body.replace("\r\n", "\n").encode("utf-8", "surrogateescape")
    return hashlib.sha256(folded).hexdigest()[:16]


def block_lines(entries: Iterable[dict[str, Any]], scope: str) -> list[str]:
    """The body lines for a set of adopted entries: a lead line and one bullet per claim."""
    bullets = sorted({inert(str(e.get("text", ""))) for e in entries} - {""}, key=lambda b: (b.casefold(), b))
    return [LEAD[scope], *(f"- {b}" for b in bullets)] if bullets else []


def render_block(lines: list[str], nl: str = "\n") -> str:
    """The whole block, from the begin marker to the end marker (no newline after it)."""
    body = "".join(line + nl for line in lines)
    return f"{BEGIN} hash={body_digest(body)}; {_NOTE} -->{nl}{body}{END}"


@dataclass(frozen=True)
class Found:
    start: int  # where the begin marker starts
    end: int  # just after the end marker (its line ending is outside the block)
    body: str
    attrs: str


def decode_text(data: bytes) -> str:
    """UTF-8 text of a tool-written file; surrogateescape keeps any other byte, so it round-trips exactly."""
    return data.decode("utf-8", "surrogateescape")


def encode_text(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


class UnsupportedEncoding(UsageError):
    """An instruction file in an encoding the block cannot be written in without corrupting the file."""


# byte order marks the block is written in; UTF-32's are checked first (its LE mark starts like UTF-16's)
_UTF32_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


@dataclass(frozen=True)
class Encoding:
    """How an instruction file's bytes map to text: its byte order mark (if any) and its codec."""

    bom: bytes = b""
    codec: str = "utf-8"

    def encode(self, text: str) -> bytes:
        errors = "surrogateescape" if self.codec == "utf-8" else "strict"
        return self.bom + text.encode(self.codec, errors)


def decode_file(data: bytes, label: str) -> tuple[str, Encoding]:
    """The text of an instruction file and its encoding (BOM-detected UTF-8 or UTF-16, else UTF-8),
    or ``UnsupportedEncoding`` rather than a block in the wrong encoding."""
    if data.startswith(_UTF32_BOMS):
        raise UnsupportedEncoding(f"{label} is UTF-32, so no block is written into it: save it as UTF-8 and try again")
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec, "surrogateescape" if codec == "utf-8" else "strict"), Encoding(bom, codec)
            except UnicodeDecodeError:
                raise UnsupportedEncoding(f"{label} does not decode as the {codec.upper()} its byte order mark says,"
                                          " so no block is written into it") from None
    if b"\x00" in data:
        raise UnsupportedEncoding(f"{label} holds NUL bytes (UTF-16 without a byte order mark?), so no block is"
                                  " written into it: save it as UTF-8 and try again")
    return decode_text(data), Encoding()


_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")


def _fences(text: str) -> tuple[list[tuple[int, int]], bool]:
    """Where fenced code blocks are (start, end), and whether the text ends inside one (CommonMark rules)."""
    spans: list[tuple[int, int]] = []
    opened: tuple[int, str, int] | None = None
    pos = 0
    for line in re.findall(r"[^\n]*\n|[^\n]+\Z", text):
        body = line.rstrip("\r\n")
        if opened is None:
            found = _FENCE_OPEN.fullmatch(body)
            if found and not (found.group(1)[0] == "`" and "`" in found.group(2)):
                opened = (pos, found.group(1)[0], len(found.group(1)))
        elif re.fullmatch(rf" {{0,3}}{re.escape(opened[1])}{{{opened[2]},}}[ \t]*", body):
            spans.append((opened[0], pos + len(line)))
            opened = None
        pos += len(line)
    if opened is not None:
        spans.append((opened[0], len(text)))
    return spans, opened is not None


def locate(text: str, label: str) -> Found | None:
    """The block, if the file has one; markers inside a fenced code example are a person's text, not ours."""
    spans, _ = _fences(text)

    def outside(match: re.Match[str]) -> bool:
        return not any(start <= match.start() < end for start, end in spans)

    begins = [m for m in _BEGIN_LINE.finditer(text) if outside(m)]
    ends = [m for m in _END_LINE.finditer(text) if outside(m)]
    if not begins and not ends:
        return None
    if len(begins) != 1 or len(ends) != 1 or ends[0].start() < begins[0].end():
        raise BlockDamaged(
            f"{label}: the agent-memory markers are damaged (need exactly one begin and one end marker, in order);"
            " fix them by hand, then try again"
        )
    begin, end = begins[0], ends[0]
    body_start = begin.end()
    if text.startswith("\r\n", body_start):
        body_start += 2
    elif text.startswith("\n", body_start):
        body_start += 1
    return Found(begin.start(), end.end(), text[body_start : end.start()], begin.group("attrs"))


def check_untouched(found: Found, label: str) -> None:
    recorded = _HASH.search(found.attrs)
    if recorded is None and not found.body.strip():
        return  # an empty placeholder a person put where the block should go
    if recorded is None or recorded.group(1) != body_digest(found.body):
        raise BlockEdited(
            f"{label}: the agent-memory block was edited by hand since it was written; move those edits"
            " outside the block (or undo them) and try again"
        )


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def rewrite_file(before: bytes | None, lines: list[str], label: str) -> tuple[bytes, str]:
    """New bytes of an instruction file with its block set to ``lines``, and the separator added if appended.

    Raises ``BlockEdited`` / ``BlockDamaged`` instead of overwriting a person's words.
    """
    text, encoding = decode_file(before, label) if before is not None else ("", Encoding())
    nl = _newline(text)
    block = render_block(lines, nl)
    found = locate(text, label)
    if found is not None:
        check_untouched(found, label)
        return encoding.encode(text[: found.start] + block + text[found.end :]), ""
    if _fences(text)[1]:
        raise BlockDamaged(f"{label} ends inside an unclosed code fence, so a block added at its end would read as code:"
                           " close the fence and try again")
    if not text or text.endswith(("\n\n", "\r\n\r\n")):
        separator = ""
    elif text.endswith("\n"):
        separator = nl
    else:
        separator = nl + nl
    return encoding.encode(text + separator + block + nl), separator


def remove_block(data: bytes, separator: str, label: str) -> bytes:
    """The file without its block (and the separator adopt added before it), for rollback."""
    text, encoding = decode_file(data, label)
    found = locate(text, label)
    if found is None:
        return data
    check_untouched(found, label)
    head, tail = text[: found.start], text[found.end :]
    nl = _newline(text)
    if tail.startswith(nl):
        tail = tail[len(nl) :]
    if separator and head.endswith(separator):
        head = head[: -len(separator)]
    return encoding.encode(head + tail)


def drop_emptied(data: bytes, label: str, separator: str = "") -> bytes:
    """The file without the block once no claim is left in it: the markers and the line ending after them go,
    and so does ``separator`` (what adopt put before the block it appended) while the block still ends the
    file. Every other byte stays; a person's empty placeholder (no hash) is theirs and stays too."""
    text, encoding = decode_file(data, label)
    found = locate(text, label)
    if found is None:
        return data
    check_untouched(found, label)
    if _HASH.search(found.attrs) is None:
        return data
    head, tail = text[: found.start], text[found.end :]
    tail = tail[2:] if tail.startswith("\r\n") else tail[1:] if tail.startswith("\n") else tail
    if not tail and separator and head.endswith(separator):
        head = head[: -len(separator)]
    return encoding.encode(head + tail)


def entry_targets(entry: dict[str, Any]) -> list[str]:
    """The instruction files an adopted entry is written into."""
    names = entry.get("targets")
    if isinstance(names, list) and names:
        return [str(n) for n in names]
    return [str(entry["target"])] if entry.get("target") else []


def lines_for(entries: Iterable[dict[str, Any]], names: Iterable[str], scope: str) -> list[str]:
    """Body lines of one file's block: the unretired entries written into any of its ``names``."""
    wanted = set(names)
    chosen = [e for e in entries if not e.get("retired") and wanted & set(entry_targets(e))]
    return block_lines(chosen, scope)

