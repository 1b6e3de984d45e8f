"""Who and where, without saying who: the repository's identity and the salted pseudonyms of an export.

A repository is named by a hash of its normalised ``origin`` URL, so every clone agrees whether it was
cloned over ssh or https; a person and each session by an HMAC under a salt that is created once in the
user store (mode 0600) and never leaves the machine. Standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..store import Paths, StoreLock, atomic_write

_SCP_LIKE = re.compile(r"^(?:(?P<user>[^@/\s]+)@)?(?P<host>[^:/\s]+):(?!//)(?P<path>.+)$")
_URL = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*)://(?:[^@/]*@)?(?P<host>[^/:]*)(?::\d*)?(?P<path>/.*)?$", re.I)


@dataclass(frozen=True)
class Repository:
    """The repository an export belongs to: its identity (16 hex) and what the identity was made from."""

    identity: str
    source: str  # "remote" (the origin URL) or "project name" (no remote: clones elsewhere will not agree)


def normalise_remote(url: str) -> str:
    """``host/owner/name`` of a remote URL, the same for its ssh, https, ``git://`` and ``.git`` forms.

    User names, passwords and ports are dropped (a token in an https URL never reaches the hash's input);
    host and path are case-folded, as the big forges treat them. A local path stays a path.
    """
    url = url.strip()
    found = _URL.match(url)
    if found and found.group("scheme").lower() != "file":
        host, path = found.group("host"), found.group("path") or ""
    elif found:
        host, path = "", found.group("path") or ""
    else:
        scp = _SCP_LIKE.match(url)
        host, path = (scp.group("host"), scp.group("path")) if scp and not re.match(r"^[A-Za-z]$", scp.group("host")) else ("", url)
    path = path.replace("\\", "/").strip("/")
    if path.endswith(".git"):
        path = path[:-4]
    path = path.rstrip("/")
    return f"{host}/{path}".strip("/").casefold()


def origin_url(project_root: Path) -> str:
    """``git config --get remote.origin.url`` in the project, ``""`` when there is none (or no git)."""
    try:
        done = subprocess.run(["git", "config", "--get", "remote.origin.url"], cwd=project_root,
                              capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def repository(paths: Paths) -> Repository:
    """This project's repository identity: from its origin URL, else (said so) from its name."""
    url = origin_url(paths.project_root)
    if url:
        return Repository(hashlib.sha256(("remote\x1f" + normalise_remote(url)).encode("utf-8")).hexdigest()[:16], "remote")
    return Repository(hashlib.sha256(("project\x1f" + paths.project_name).encode("utf-8")).hexdigest()[:16], "project name")


def salt(paths: Paths) -> bytes:
    """The user store's pseudonym key, created on first use (0600 from its first byte)."""
    where = paths.team_salt
    found = _read_salt(where)
    if found:
        return found
    paths.user.mkdir(parents=True, exist_ok=True)
    with StoreLock(paths.user):
        found = _read_salt(where)
        if found:
            return found
        try:  # an empty 0600 file first: the writer keeps a replaced file's mode, so the key is never readable by others
            os.close(os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass
        os.chmod(where, 0o600)
        atomic_write(where, secrets.token_hex(32) + "\n")
    return _read_salt(where)


def _read_salt(where: Path) -> bytes:
    try:
        text = where.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return b""
    return bytes.fromhex(text) if re.fullmatch(r"[0-9a-f]{64}", text) else b""


def pseudonym(key: bytes, *parts: str) -> str:
    """16 hex of an HMAC-SHA256 under ``key``: stable for this person, meaningless to anyone else."""
    return hmac.new(key, "\x1f".join(parts).encode("utf-8"), hashlib.sha256).hexdigest()[:16]
