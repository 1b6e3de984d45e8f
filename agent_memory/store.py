"""The store on disk: where things are, the one clock, the one atomic writer, the lock.

Nobody else in the package calls ``datetime.now()`` or opens a store file for writing;
they come here. Only the standard library is imported, so hooks can use it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .fastjson import JSON_ERRORS
from . import fastjson, layout
from .clock import iso
from .errors import StoreError, UsageError
from .layout import Layout

STORE_GITIGNORE = """\
# Local, rebuildable or private: never committed.
L1/
index.db
index.db-*
logs/
backups/
lock
"""


def find_project_root(start: str | os.PathLike[str]) -> Path:
    """The nearest ancestor holding ``.git``, else ``start`` itself."""
    return Path(layout.project_root(os.fspath(start)))


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
    refuse_foreign_store(paths.store)
    try:
        paths.l1_dir.mkdir(parents=True, exist_ok=True)
        gitignore = paths.store / ".gitignore"
        if not gitignore.exists():
            atomic_write(gitignore, STORE_GITIGNORE)
    except OSError as exc:
        raise StoreError(f"cannot create the store at {paths.store}: {exc.strerror or exc}") from exc


# ---------------------------------------------------------------- writing


class FileChanged(StoreError):
    """A file changed on disk between being read and being replaced; it was left as it was."""

    def __init__(self, message: str, name: str = "") -> None:
        super().__init__(message)
        self.name = name  # the file's name, for a caller that words its own message


class _Unchecked:
    """The default of ``atomic_write(expect=...)``: replace whatever the file holds."""


ANY = _Unchecked()
_MASK = 0o777  # permission bits a replaced file keeps (never set-id or sticky bits)
_STALE_MARGIN = 2.0  # seconds a temp file must predate the lock before it counts as left by a killed writer
_TEMP = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")  # what mkstemp(prefix=".NAME.", suffix=".tmp") makes
_held: dict[str, tuple[float, str]] = {}  # real store folder -> (when this process took its lock, the folder as named)
_swept: set[str] = set()  # folders already cleared of stale temp files under the current lock


def atomic_write(path: Path, data: str | bytes, *, expect: bytes | None | _Unchecked = ANY) -> None:
    """Replace ``path`` with ``data`` all at once: temp file, fsync, rename, fsync the folder.

    The file keeps its permission bits (a new file gets 0666 less the umask). With ``expect``, the file
    must still hold exactly those bytes (``None``: must not exist) just before the rename, else
    ``FileChanged`` is raised and the file is left as it is.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    _refuse_escape(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep_stale_temps(path.parent)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if not isinstance(expect, _Unchecked):
            check_unchanged(path, expect)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _foreign(store: Path) -> bool:
    if store.name != ".memory" or not os.path.islink(store):
        return False
    target, project = os.path.realpath(store), os.path.realpath(store.parent)
    return target == project or not _inside(target, project)


def refuse_foreign_store(store: Path) -> None:
    """Refuse a project's ``.memory`` that is a symlink out of its project: a repository that ships one must
    not make the tool build a store wherever it points (a home's ``.ssh``, say)."""
    if _foreign(store):
        raise StoreError(f"{store} is a symlink out of the project, so no store is written through it")


def _refuse_escape(path: Path) -> None:
    """Refuse to write a file named inside a locked store whose folder really lies outside it (a symlinked
    ``staged/`` or ``L1/``)."""
    named = os.path.abspath(path.parent)
    for store, (_since, store_named) in _held.items():
        if _inside(named, store_named) and not _inside(os.path.realpath(named), store):
            raise StoreError(f"{path.parent} is a symlink out of the store at {store_named}, so nothing is written there")


def check_unchanged(path: Path, expect: bytes | None) -> None:
    """Raise ``FileChanged`` unless ``path`` holds exactly ``expect`` (``None``: does not exist)."""
    try:
        current: bytes | None = path.read_bytes()
    except FileNotFoundError:
        current = None
    if current != expect:
        raise FileChanged(f"{path.name} changed while this command ran, so it was left as it is: run the command again", path.name)


def _mode_for(path: Path) -> int:
    try:
        return os.stat(path).st_mode & _MASK
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    # the only way to read the umask is to set it (briefly to a safe 022) and put it back
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sweep_stale_temps(folder: Path) -> None:
    """Remove temp files a killed writer left in ``folder``: only under this process's store lock, only by
    our naming pattern, and only those older than the lock (no live writer can own them)."""
    real = os.path.realpath(folder)
    since = next((t for store, (t, _named) in _held.items() if _inside(real, store)), None)
    if since is None or real in _swept:
        return
    _swept.add(real)
    with contextlib.suppress(OSError):
        for entry in os.scandir(real):
            if not _TEMP.match(entry.name):
                continue
            with contextlib.suppress(OSError):
                if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < since - _STALE_MARGIN:
                    os.unlink(entry.path)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(str(folder), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _jsonl_encoder() -> Any:
    """L1's one line format: compact, keys sorted, non-ASCII kept, as ``json.dumps`` writes it.

    CPython's C encoder is made once and called directly (``JSONEncoder.encode`` makes it again for
    every record); records are never circular, so it keeps no list of the objects it is inside.
    """
    made = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    try:
        from _json import encode_basestring, make_encoder
    except ImportError:  # pragma: no cover - an interpreter without the accelerator
        return lambda record: [made.encode(record)]
    encode = make_encoder(None, made.default, encode_basestring, None, ":", ",", True, False, True)
    return lambda record: encode(record, 0)


_JSONL_CHUNKS = _jsonl_encoder()


def jsonl_lines(records: Iterable[dict[str, Any]]) -> list[str]:
    """Records as ``append_jsonl`` writes them, one line each (with its newline)."""
    chunks = _JSONL_CHUNKS
    return ["".join(chunks(r)) + "\n" for r in records]


def jsonl_bytes(records: Iterable[dict[str, Any]]) -> list[bytes]:
    """``jsonl_lines`` as the UTF-8 bytes ``append_lines`` writes (encoded once: written, then hashed by the index)."""
    chunks = _JSONL_CHUNKS
    return [("".join(chunks(r)) + "\n").encode("utf-8") for r in records]


def append_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> int:
    """Append records to an append-only log (caller holds the lock); returns how many."""
    lines = jsonl_bytes(records)
    if lines:
        append_lines(path, lines)
    return len(lines)


def append_lines(path: Path, lines: list[bytes]) -> int:
    """Append lines made by ``jsonl_bytes`` (caller holds the lock); returns the byte offset the first one starts at.

    A crash can leave a half-written last line; it is cut off here before appending,
    so the log always ends on a whole record.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab+") as handle:
        start = _cut_partial_tail(handle)
        handle.write(b"".join(lines))
        handle.flush()
        os.fsync(handle.fileno())
    return start


def _cut_partial_tail(handle: Any) -> int:
    """Cut a torn last record off; the size the file is left with."""
    size = handle.seek(0, os.SEEK_END)
    if size == 0:
        return 0
    handle.seek(size - 1)
    if handle.read(1) == b"\n":
        return size
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
            return start + cut + 1
        pos = start
    handle.truncate(0)
    return 0


def write_json(path: Path, value: Any, *, expect: bytes | None | _Unchecked = ANY, compact: bool = False) -> None:
    """Write a JSON document atomically, stable key order, readable in a diff.

    ``compact``: on one line, for a large file only the program reads (indented, ``json`` encodes in Python
    rather than C: three times as long for ``ingested.json`` of 5,000 transcripts).
    """
    if compact:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    else:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1)
    atomic_write(path, text + "\n", expect=expect)


def write_jsonl(path: Path, records: Iterable[dict[str, Any]], *, expect: bytes | None | _Unchecked = ANY) -> None:
    """Rewrite a whole JSON-lines file atomically (for small, reviewable files like L2)."""
    body = "".join(
        json.dumps(r, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n" for r in records
    )
    atomic_write(path, body, expect=expect)


def remove_database(path: Path | str) -> None:
    """Delete an SQLite file and its journal, WAL and shared-memory companions (a derived one, to be built again)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(path) + suffix)


def rewrite_lines(path: Path, change: Callable[[bytes], bytes | None]) -> int:
    """Pass every whole line of ``path`` through ``change`` (new bytes, or None to keep it) and replace the file
    atomically only when some line changed; returns how many did. Streams: a file of any size costs a
    line's memory. A torn last line is kept as it is. The file must be as it was when reading began
    (same inode, size and mtime) just before the rename, else ``FileChanged``. Caller holds the lock.
    """
    try:
        before = os.stat(path)
    except FileNotFoundError:
        return 0
    _refuse_escape(path)
    _sweep_stale_temps(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    changed = 0
    try:
        with os.fdopen(fd, "wb") as out, open(path, "rb") as source:
            os.fchmod(out.fileno(), before.st_mode & _MASK)
            for raw in source:
                new = change(raw) if raw.endswith(b"\n") else None
                if new is not None and new != raw:
                    changed += 1
                    raw = new
                out.write(raw)
            out.flush()
            if changed:
                os.fsync(out.fileno())
        if changed:
            now = os.stat(path)
            if (now.st_ino, now.st_size, now.st_mtime_ns) != (before.st_ino, before.st_size, before.st_mtime_ns):
                raise FileChanged(f"{path.name} changed while it was rewritten, so it was left as it is", path.name)
            os.replace(tmp, path)
            _fsync_dir(path.parent)
        else:
            os.unlink(tmp)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return changed


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
            except JSON_ERRORS:
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
        self._real = ""

    def __enter__(self) -> "StoreLock":
        import fcntl

        refuse_foreign_store(self.path.parent)
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
                self._real = os.path.realpath(self.path.parent)
                _held.setdefault(self._real, (time.time(), os.path.abspath(self.path.parent)))
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

            if _held.pop(self._real, None) is not None:
                _swept.difference_update([f for f in _swept if f == self._real or f.startswith(self._real + os.sep)])
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
        folders = [paths.logs, paths.user / "logs"]
        if _foreign(paths.store):  # never write through a .memory that leads out of the project
            folders, record["store"] = folders[1:], str(paths.store)
        for folder in folders:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / "errors.log", "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(record) + "\n")
                return
            except OSError:
                record["store"] = str(paths.store)
