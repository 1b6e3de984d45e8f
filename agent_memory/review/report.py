"""``agent-memory report``: a read-only review of what was adopted, for a person deciding what to forget.

Five findings, each refused when unsure (precision over recall):
stale (an adopted claim not said again for ``health.stale_days``), near-duplicate lines in the
block (or a block line a hand-written line of the same file already says), instruction files
over what their agent loads, adopted claims naming a file, script, make target or npm script the
repository no longer has, and claims not followed (corrected again in several sessions after
their adoption). Writes nothing.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..fastjson import JSON_ERRORS
from ..claims import claim_key, trigram_similarity
from ..config import load_config
from ..promote import Claim, plan
from ..agents import every
from ..clock import now, parse_iso
from ..store import Paths

NEAR = 0.8  # trigram similarity of two claim keys from which two lines say the same thing
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".memory", ".venv", "venv", "__pycache__", ".tox", "dist", "build", "target"})
TREE_LIMIT = 100_000  # files walked at most when looking for a named file

# a bare name (no folder) counts as a file only with one of these endings: "Node.js" or "Go.rs" is no file name
_EXT = ("sh", "bash", "zsh", "py", "rb", "pl", "ps1", "bat", "cmd", "json", "yaml", "yml", "toml", "cfg", "ini",
        "lock", "txt", "md", "mk", "sql", "env", "conf")
_CODE_EXT = ("js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "rs", "java", "kt", "c", "h", "cpp", "cs", "swift", "php")
_PATH = re.compile(r"(?<![\w@:/.~-])(?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)*/?(?![\w/-])")
_FILE = re.compile(rf"\.(?:{'|'.join(_EXT)})$", re.I)
_ANY_FILE = re.compile(rf"\.(?:{'|'.join(_EXT + _CODE_EXT)})$", re.I)
_NAMED = frozenset({"Makefile", "Dockerfile", "Justfile", "Rakefile", "Gemfile", "Procfile", "Vagrantfile"})
# "make lint" as a command: in backticks or after run/use/with, never "make sure" or "make it"
_MAKE = re.compile(r"(?:`|\b(?:run|runs|running|use|using|with|via)\s+)make\s+(?:-\S+\s+)*([A-Za-z0-9][\w.-]*)", re.I)
_NOT_TARGETS = frozenset({"sure", "it", "this", "that", "the", "a", "an", "them", "sense", "changes", "use", "any",
                          "every", "all", "one", "your", "our", "my", "things", "each", "no", "some", "so"})
_TARGET = re.compile(r"^([A-Za-z0-9_./-][\w./ -]*?)\s*::?(?!=)")
_NPM = re.compile(r"\b(?:npm|pnpm|yarn|bun)\s+run\s+([\w:.-]+)")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.I)


def _days(a: str, b: str) -> int | None:
    first, second = parse_iso(a) if a else None, parse_iso(b) if b else None
    if first is None or second is None:
        return None
    return int((second - first).total_seconds() // 86400)


def _adopted(claims: Iterable[Claim]) -> list[Claim]:
    return [c for c in claims if c.tier in ("L2", "L3") and c.record is not None]


# ---------------------------------------------------------------- stale and not followed


def last_said(claim: Claim) -> str:
    """The newest timestamp of any observation of the claim (L1 atoms and the adopted record's sources)."""
    stamps = [str(s.get("timestamp") or "") for s in claim.sources()]
    found = [(parse_iso(s), s) for s in stamps if s]
    found = [(t, s) for t, s in found if t is not None]
    return max(found)[1] if found else ""


def stale(claims: list[Claim], days: float, moment: str) -> list[dict[str, Any]]:
    """Adopted claims nobody said again for ``days`` days."""
    rows = []
    for claim in claims:
        said = last_said(claim) or str((claim.record or {}).get("adopted_at", ""))
        age = _days(said, moment)
        if age is not None and age >= days:
            rows.append({"claim_id": claim.id, "text": claim.text, "tier": claim.tier, "last_said": said, "days": age})
    return sorted(rows, key=lambda r: (-r["days"], r["claim_id"]))


def not_followed(claims: list[Claim], sessions: int) -> list[dict[str, Any]]:
    """Adopted claims corrected again, in ``sessions`` or more sessions after their adoption: the rule is not working."""
    rows = []
    for claim in claims:
        adopted = parse_iso(str((claim.record or {}).get("adopted_at", "")))
        if adopted is None:
            continue
        later = []
        for atom in claim.atoms:
            when = parse_iso(str(atom.get("timestamp") or "")) if atom.get("timestamp") else None
            if atom.get("kind") == "correction" and when is not None and when > adopted:
                later.append(atom)
        seen = sorted({str(a.get("session", "")) for a in later} - {""})
        if len(seen) >= max(1, sessions):
            rows.append({"claim_id": claim.id, "text": claim.text, "tier": claim.tier, "corrections": len(later),
                         "sessions": len(seen), "adopted_at": str(claim.record.get("adopted_at", "")) if claim.record else "",
                         "last": max(str(a.get("timestamp")) for a in later)})
    return sorted(rows, key=lambda r: (-r["sessions"], r["claim_id"]))


# ---------------------------------------------------------------- the instruction files


def instruction_files(paths: Paths) -> list[tuple[str, Path]]:
    """(agent, file) for every instruction file of this project and user that exists, as each agent weighs them."""
    kept = []
    for agent in every():
        seen: set[str] = set()
        for name in agent.report_files(str(paths.project_root)):
            path, real = Path(name), os.path.realpath(name)
            if path.is_file() and real not in seen:
                seen.add(real)
                kept.append((agent.name, path))
    return kept


def _display(paths: Paths, path: Path) -> str:
    for base, shown in ((paths.project_root, ""), (Path.home(), "~/")):
        try:
            return shown + path.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def over_budget(paths: Paths, files: list[tuple[str, Path]]) -> list[dict[str, Any]]:
    """Instruction files longer than what their agent loads (each agent says how it counts)."""
    rows = []
    for agent in every():
        mine = [(_display(paths, path), path.read_bytes()) for name, path in files if name == agent.name]
        rows.extend({"agent": agent.name, **row} for row in agent.over_budget(mine) if mine)
    return rows


def _block_and_rest(text: str) -> tuple[list[str], list[str]]:
    """The block's bullet texts and the file's other lines (as plain text)."""
    from .block import locate

    try:
        found = locate(text, "")
    except Exception:  # noqa: BLE001 - damaged markers: adopt says so; here there is simply no block to read
        return [], []
    if found is None:
        return [], []
    bullets = [line[2:].strip() for line in found.body.splitlines() if line.startswith("- ")]
    rest = (text[: found.start] + "\n" + text[found.end :]).splitlines()
    return bullets, [_plain(line) for line in rest if len(_plain(line).split()) >= 3]


def _plain(line: str) -> str:
    line = re.sub(r"<!--.*?-->", " ", line)
    line = re.sub(r"^\s*(?:[-*+•]|\d+[.)]|#+)\s+", "", line)
    line = line.replace("&lt;", "<").replace("&gt;", ">").replace("\uff20", "@").lstrip("\\")
    return " ".join(line.replace("**", "").replace("`", "").split())


def _same(a: str, b: str) -> float:
    """How alike two lines read as claims: 1.0 for one key, else the keys' trigram similarity (0 when they clash)."""
    ka, kb = claim_key(a), claim_key(b)
    if not ka.text or not kb.text or ka.negated != kb.negated:
        return 0.0
    if ka.text == kb.text:
        return 1.0
    return trigram_similarity(ka.text, kb.text)


def duplicates(paths: Paths, files: list[tuple[str, Path]]) -> list[dict[str, Any]]:
    """Lines of a block that say what another line of the block, or of the same file, already says."""
    rows = []
    done: set[str] = set()
    for _agent, path in files:
        real = os.path.realpath(path)
        if real in done:
            continue
        done.add(real)
        bullets, rest = _block_and_rest(path.read_bytes().decode("utf-8", "replace"))
        for i, a in enumerate(bullets):
            for b in bullets[i + 1 :]:
                score = _same(a, b)
                if score >= NEAR:
                    rows.append({"file": _display(paths, path), "line": a, "other": b, "where": "block", "similarity": round(score, 2)})
            for b in rest:
                score = _same(a, b)
                if score >= NEAR:
                    rows.append({"file": _display(paths, path), "line": a, "other": b, "where": "file", "similarity": round(score, 2)})
    return rows


# ---------------------------------------------------------------- names that no longer exist


def _tree(root: Path) -> Iterator[str]:
    """Relative paths of the repository's files (version-control and tool folders left out), bounded."""
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        rel = os.path.relpath(folder, root)
        for name in files:
            count += 1
            if count > TREE_LIMIT:
                return
            yield name if rel == "." else f"{rel}/{name}".replace(os.sep, "/")


class _Repo:
    """What the repository holds, read once and only when a claim names something."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: list[str] | None = None

    @property
    def files(self) -> list[str]:
        if self._files is None:
            self._files = list(_tree(self.root))
        return self._files

    def has_file(self, name: str) -> bool:
        clean = name[2:] if name.startswith("./") else name
        if clean.startswith("../"):
            return True  # outside the repository: not ours to judge
        clean = clean.rstrip("/")
        if (self.root / clean).exists():
            return True
        if "/" in clean:
            return any(f == clean or f.endswith("/" + clean) or f.startswith(clean + "/") or f"/{clean}/" in f"/{f}" for f in self.files)
        return any(f.rsplit("/", 1)[-1] == clean for f in self.files) or any(f"/{clean}/" in f"/{f}" for f in self.files)

    def make_targets(self) -> set[str] | None:
        for name in ("Makefile", "makefile", "GNUmakefile"):
            path = self.root / name
            if path.is_file():
                targets: set[str] = set()
                for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                    found = _TARGET.match(line)
                    if found:
                        targets.update(found.group(1).split())
                return targets
        return None

    def npm_scripts(self) -> dict[str, Any] | None:
        path = self.root / "package.json"
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, *JSON_ERRORS):
            return None
        scripts = found.get("scripts") if isinstance(found, dict) else None
        return scripts if isinstance(scripts, dict) else {}


def named(text: str) -> list[tuple[str, str]]:
    """What a claim names that can be checked: ("file", path) / ("make", target) / ("npm", script)."""
    text = _URL.sub(" ", text)
    found: list[tuple[str, str]] = []
    for match in _MAKE.finditer(text):
        if match.group(1).lower() not in _NOT_TARGETS:
            found.append(("make", match.group(1)))
    for match in _NPM.finditer(text):
        found.append(("npm", match.group(1)))
    for match in _PATH.finditer(text):
        token = match.group(0).rstrip(".")
        last = token.rstrip("/").rsplit("/", 1)[-1]
        foldered = "/" in token.strip("/") or token.startswith(("./", "../"))
        if not last or re.fullmatch(r"[\d.]+", last.rsplit(".", 1)[0] or "0"):
            continue
        if _FILE.search(last) or (foldered and _ANY_FILE.search(last)):
            found.append(("file", token))
        elif last in _NAMED:
            found.append(("file", token))
        elif foldered:
            found.append(("dir?", token))
    return list(dict.fromkeys(found))


# what a claim may call by name: how to say it, what holds the names, and what is said when one is gone
_CALLED = {
    "make": ("make {}", "Makefile", "target in the Makefile"),
    "npm": ("run {}", "package.json", "script in package.json"),
}


def missing(paths: Paths, claims: list[Claim]) -> list[dict[str, Any]]:
    """Adopted claims naming a file, script, make target or npm script the repository no longer has."""
    repo = _Repo(paths.project_root)
    rows = []
    for claim in claims:
        gone = []
        for kind, name in named(claim.text):
            if kind == "file" and not repo.has_file(name):
                gone.append({"name": name, "why": "no such file in the repository"})
            elif kind == "dir?":
                first = name[2:] if name.startswith("./") else name
                head = first.split("/", 1)[0]
                # only where the path starts in a folder the repository has: "and/or" is no path
                if (paths.project_root / head).is_dir() and not repo.has_file(name):
                    gone.append({"name": name, "why": "no such file or folder in the repository"})
            elif kind in _CALLED:
                spoken, holder, entry = _CALLED[kind]
                known = repo.make_targets() if kind == "make" else repo.npm_scripts()
                if known is None:
                    gone.append({"name": spoken.format(name), "why": f"no {holder} in the repository"})
                elif name not in known:
                    gone.append({"name": spoken.format(name), "why": f"no such {entry}"})
        if gone:
            rows.append({"claim_id": claim.id, "text": claim.text, "tier": claim.tier, "missing": gone})
    return rows


# ---------------------------------------------------------------- the report


def report(paths: Paths) -> dict[str, Any]:
    """Every finding (the ``report --json`` shape); reads only."""
    from ..clock import iso

    config = load_config(paths.config)
    moment = iso(now())
    claims = _adopted(plan(paths, config).claims)
    files = instruction_files(paths)
    health = config["health"]
    return {
        "now": moment,
        "adopted": len(claims),
        "files": [{"agent": a, "file": _display(paths, p)} for a, p in files],
        "stale": stale(claims, float(health["stale_days"]), moment),
        "duplicates": duplicates(paths, files),
        "over_budget": over_budget(paths, files),
        "missing": missing(paths, claims),
        "not_followed": not_followed(claims, int(health["not_followed_sessions"])),
        "stale_days": health["stale_days"],
    }
