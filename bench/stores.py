"""Project stores holding N atoms, built the honest way: synthetic transcripts, ingested.

Each store lives at ``<project>/.memory`` of a project folder with a ``.git`` marker, next to
the history it was built from. After ingest, the most-supported proposals are staged and
a few dozen adopted, as a user would, so the hooks find L2 claims to work with.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import synth

ADOPTED = 30  # claims a user has typically adopted into L2
MANIFEST = "bench-store.json"


@dataclass
class Store:
    """A built store and how it was built."""

    target: int  # atoms asked for
    project: Path  # the project root (holds .git and the store)
    history: Path  # the transcripts it was built from
    atoms: int  # atoms in L1
    chunks: int
    history_bytes: int
    history_files: int
    sessions: int
    generate_seconds: float
    ingest_seconds: float
    ingest_workers: int
    adopted: int
    staged: int
    profile: str = "dense"  # the synthetic history's profile (``synth.PROFILES``)

    @property
    def store(self) -> Path:
        return self.project / ".memory"

    def as_json(self) -> dict[str, Any]:
        found = dict(self.__dict__)
        found["project"], found["history"] = str(self.project), str(self.history)
        return found


def count_lines(path: Path) -> int:
    """Lines in a file (0 when it is missing)."""
    if not path.exists():
        return 0
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def cli(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``python -m agent_memory ARGS`` in a project folder."""
    return subprocess.run([sys.executable, "-m", "agent_memory", *args], cwd=str(cwd), env=env, capture_output=True,
                          text=True, timeout=3600, check=False)


def _adopt_some(project: Path, env: dict[str, str]) -> tuple[int, int]:
    """Stage proposals, adopt the best-supported few into a file Claude does not load; (staged, adopted)."""
    done = cli("promote", "--write", "--json", cwd=project, env=env)
    if done.returncode != 0:
        return 0, 0
    try:
        proposals = json.loads(done.stdout).get("proposals", [])
    except ValueError:
        return 0, 0
    best = sorted(proposals, key=lambda p: (-len(p.get("sessions", [])), p.get("id", "")))[:ADOPTED]
    ids = [p["id"] for p in best if p.get("to") == "L2" and p.get("id")]
    if not ids:
        return len(proposals), 0
    # AGENTS.md: an instruction file Claude Code does not read, so session-start has claims to inject
    adopted = cli("adopt", *ids, "--target", "AGENTS.md", "--json", cwd=project, env=env)
    try:
        count = len(json.loads(adopted.stdout).get("adopted", []))
    except ValueError:
        count = 0
    return len(proposals), count


def build(work: Path, target: int, env: dict[str, str], seed: int = 7, workers: int | None = None,
          progress: bool = False, reuse: bool = False, profile: synth.Profile = synth.DENSE) -> Store:
    """A store with about ``target`` atoms, from a dense synthetic history (reused when ``reuse`` and built alike).

    Runs in the benchmark's sandbox environment (``env`` is that environment, for the CLI).
    """
    from agent_memory.backfill import backfill
    from agent_memory.store import Paths

    folder = work / (f"store-{target}" if profile is synth.DENSE else f"store-{profile.name}-{target}")
    manifest = folder / MANIFEST
    wanted = {"target": target, "seed": seed, "profile": profile.name}
    if reuse and manifest.exists():
        found = json.loads(manifest.read_text(encoding="utf-8"))
        if all(found.get(k) == v for k, v in wanted.items()):
            data = found["store"]
            data["project"], data["history"] = Path(data["project"]), Path(data["history"])
            return Store(**data)
    if folder.exists():
        import shutil

        shutil.rmtree(folder)
    project = folder / "project"
    (project / ".git").mkdir(parents=True)
    history_root = folder / "history"
    started = time.perf_counter()
    # sized by claim turns (each carries one claim the marker rules find); the L1 count is reported as found
    history = synth.write_history(history_root, atoms=target, seed=seed, profile=profile)
    generated = time.perf_counter() - started
    paths = Paths.resolve(cwd=str(project))
    report = backfill(paths, [str(history_root)], workers=workers, progress=progress)
    staged, adopted = _adopt_some(project, env)
    store = Store(
        target=target, project=project, history=history_root, atoms=count_lines(paths.atoms),
        chunks=count_lines(paths.chunks), history_bytes=history.bytes, history_files=history.files,
        sessions=history.sessions, generate_seconds=generated, ingest_seconds=report.seconds,
        ingest_workers=report.workers, adopted=adopted, staged=staged, profile=profile.name,
    )
    manifest.write_text(json.dumps({**wanted, "store": store.as_json()}, indent=1), encoding="utf-8")
    return store
