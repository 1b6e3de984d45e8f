"""The store on disk: where things are, the one clock, the one atomic writer, the lock.

Nobody else in the package calls ``datetime.now()`` or opens a store file for writing;
they come here. Only the standard library is imported, so hooks can use it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

from . import fastjson, layout
from .model import StoreError, UsageError

STORE_GITIGNORE = """\
# Local, rebuildable or private: never committed.
L1/
index.db
index.db-*
logs/
backups/
lock
"""

# ---------------------------------------------------------------- the clock and the layout
# (their homes are clock.py and layout.py; these names stay importable from here)

from .clock import day_of, iso, now  # noqa: E402,F401
from .clock import parse_iso as parse_time  # noqa: E402,F401
from .layout import INSTRUCTION_FILES, Layout  # noqa: E402,F401


def find_project_root(start: str | os.PathLike[str]) -> Path:
    """The nearest ancestor holding ``.git``, else ``start`` itself."""
    return Path(layout.project_root(os.fspath(start)))


def agent_home(agent: str) -> Path:
    """An agent's user-level folder (see ``layout.agent_home``)."""
    return Path(layout.agent_home(agent))


class Paths:
    """``Layout`` as ``pathlib.Path`` objects for code that joins and tests paths; every name is Layout's."""

    __slots__ = ("layout",)

    def __init__(self, store: str | os.PathLike[str], user: str | os.PathLike[str], project_root: str | os.PathLike[str]) -> None:
        object.__setattr__(self, "layout", Layout(os.fspath(store), os.fspath(user), os.fspath(project_root)))

    @classmethod
    def resolve(cls, memory_dir: str | None = None, cwd: str | None = None) -> "Paths":
        """``--memory-dir``, else ``$AGENT_MEMORY_DIR``, else ``<project root>/.memory``."""
        return cls.of(Layout.resolve(memory_dir, cwd))

    @classmethod
    def of(cls, where: Layout) -> "Paths":
        return cls(where.store, where.user, where.project_root)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.layout, name)
        return Path(value) if isinstance(value, str) and name != "project_name" else value

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Paths is read-only")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Paths) and self.layout == other.layout

    def __hash__(self) -> int:
        return hash(self.layout)

    def __repr__(self) -> str:
        return f"Paths({self.layout.store!r}, {self.layout.user!r}, {self.layout.project_root!r})"


def ensure_store(paths: Paths) -> None:
    """Create the project store's folders and its ``.gitignore`` if missing."""
    try:
        paths.l1_dir.mkdir(parents=True, exist_ok=True)
        gitignore = paths.store / ".gitignore"
        if not gitignore.exists():
            atomic_write(gitignore, STORE_GITIGNORE)
    except OSError as exc:
        raise StoreError(f"cannot create the store at {paths.store}: {exc.strerror or exc}") from exc


# ---------------------------------------------------------------- writing


def atomic_write(path: Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` all at once: temp file, fsync, rename, fsync the folder."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(str(folder), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def append_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> int:
    """Append records to an append-only log (caller holds the lock); returns how many.

    A crash can leave a half-written last line; it is cut off here before appending,
    so the log always ends on a whole record.
    """
    lines = [json.dumps(r, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n" for r in records]
    if not lines:
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab+") as handle:
        _cut_partial_tail(handle)
        handle.write("".join(lines).encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())
    return len(lines)


def _cut_partial_tail(handle: Any) -> None:
    size = handle.seek(0, os.SEEK_END)
    if size == 0:
        return
    handle.seek(size - 1)
    if handle.read(1) == b"\n":
        return
    # walk back to the last newline and drop the torn record after it
    step = 4096
    pos = size
    while pos > 0:
        start = max(0, pos - step)
        handle.seek(start)
        chunk = handle.read(pos - start)
        cut = chunk.rfind(b"\n")
        if cut >= 0:
            handle.truncate(start + cut + 1)
            return
        pos = start
    handle.truncate(0)


def write_json(path: Path, value: Any) -> None:
    """Write a JSON document atomically, stable key order, readable in a diff."""
    atomic_write(path, json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1) + "\n")


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> None:
    """Rewrite a whole JSON-lines file atomically (for small, reviewable files like L2)."""
    body = "".join(
        json.dumps(r, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n" for r in records
    )
    atomic_write(path, body)


# ---------------------------------------------------------------- reading


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, record)`` for each whole, valid JSON object; skip the rest."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    with handle:
        for number, raw in enumerate(handle, 1):
            if not raw.endswith(b"\n"):
                break  # a torn last record is not a record
            try:
                record = json.loads(raw)
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(record, dict):
                yield number, record


def read_json(path: Path, default: Any) -> Any:
    """A JSON document, or ``default`` when it is missing or unreadable as JSON."""
    try:
        return fastjson.read_file(str(path), default)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc


# ---------------------------------------------------------------- the lock


class StoreLock:
    """An exclusive, inter-process lock on one store (``flock`` on ``<store>/lock``).

    Writers (ingest, promote --write, adopt, reject, verify, resolve) hold it; readers
    never wait for it.
    """

    def __init__(self, store: Path, timeout: float = 30.0) -> None:
        self.path = store / "lock"
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> "StoreLock":
        import fcntl

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(str(self.path), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot lock the store at {self.path.parent}: {exc.strerror or exc}") from exc
        deadline = time.monotonic() + self.timeout
        delay = 0.005
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise StoreError(f"cannot lock the store: {exc.strerror or exc}") from exc
            if time.monotonic() >= deadline:
                os.close(self._fd)
                self._fd = None
                raise StoreError(f"the store at {self.path.parent} is busy (another agent-memory is writing)")
            time.sleep(delay)
            delay = min(delay * 2, 0.1)

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            import fcntl

            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def log_error(paths: Paths, where: str, error: BaseException | str) -> None:
    """Append one line to ``<store>/logs/errors.log``; never raises (used by fail-open hooks).

    A store that cannot take the line (read-only, full disk) is the very error worth
    logging, so the line then goes to the user store's log, naming the store.
    """
    with contextlib.suppress(Exception):
        text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        record = {"at": iso(datetime.now(timezone.utc)), "where": where, "error": text[:2000]}
        for folder in (paths.logs, paths.user / "logs"):
            try:
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / "errors.log", "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(record) + "\n")
                return
            except OSError:
                record["store"] = str(paths.store)
