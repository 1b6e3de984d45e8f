"""L1's bytes as the claim tables see them: the running hash of the prefix they cover, and the whole lines after it.

A prefix's hash is kept while the file is untouched, so the writers of one process (the session-end worker:
ingest, then stage) hash a file of tens of megabytes once. Standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Any

from ..errors import StoreError
from ..store import Paths


def is_prefix(paths: Paths, size: int, digest: str) -> bool:
    """Whether L1 still begins with the ``size`` bytes whose SHA-1 is ``digest`` (it only grew since)."""
    seen = prefix_hash(paths.atoms, size)
    return seen is not None and seen.hexdigest() == digest


def read_prefix(path: Path, end: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(end)
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc


def whole_lines(path: Path) -> bytes:
    """L1 up to its last newline (a torn last record is not a record yet)."""
    data = read_prefix(path, -1)
    return data[: data.rfind(b"\n") + 1]


def prefix_hash(path: Path, size: int) -> Any:
    """The running SHA-1 of L1's first ``size`` bytes, or None when L1 is shorter.

    One process (the session-end worker: ingest, then stage) asks for the same prefix of a file of
    tens of megabytes several times: the last answer is kept while the file is untouched since (same
    device, inode, size, modification and change times; any write or replacement changes them).
    """
    try:
        found = _identity(path)
    except FileNotFoundError:
        return None if size else hashlib.sha1()
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    known = _PREFIXES.get(str(path))
    if known is not None and known[:2] == (found, size):
        return known[2].copy()
    digest = _hash_prefix(path, size)
    if digest is not None:
        _PREFIXES[str(path)] = (found, size, digest.copy())
    return digest


_PREFIXES: dict[str, tuple[Any, ...]] = {}  # path → (its identity, prefix size, running SHA-1 of that prefix)


def forget_all() -> None:
    """Drop every kept prefix hash (a file changed behind the process's back, as a test makes it)."""
    _PREFIXES.clear()


def _identity(path: Path) -> tuple[int, ...]:
    found = os.stat(path)
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)


def identity_text(path: Path) -> str:
    """The file's identity (device, inode, size, modification and change times) as text; "" when it cannot be read."""
    try:
        return ":".join(map(str, _identity(path)))
    except OSError:
        return ""


def remember(path: Path, size: int, digest: Any) -> None:
    """A writer that just hashed all ``size`` bytes of the file as it now stands keeps the answer."""
    with contextlib.suppress(OSError):
        _PREFIXES[str(path)] = (_identity(path), size, digest.copy())


def _hash_prefix(path: Path, size: int) -> Any:
    digest = hashlib.sha1()
    left = size
    try:
        with open(path, "rb") as handle:
            while left > 0:
                piece = handle.read(min(left, 1 << 20))
                if not piece:
                    return None
                digest.update(piece)
                left -= len(piece)
    except FileNotFoundError:
        return None if size else digest
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return digest


def tail_lines(path: Path, start: int) -> bytes:
    """L1's whole lines from byte ``start`` on (a torn last record is not a record yet)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            data = handle.read()
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return data[: data.rfind(b"\n") + 1]
