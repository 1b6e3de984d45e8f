"""Whether ingest writes exactly what another revision writes: L1's atoms and chunks and every index table.

``python -m bench.same_output [--against REV] [--data DIR] [--work DIR]`` ingests the shared real
transcripts (each agent alone and all together), synthetic histories of every profile, and the shared
secrets corpus and labelled turns said as person turns and assistant prose in all three agents' formats,
once with this tree and once with ``REV`` (default ``main``, unpacked by ``git archive``), each into a
fresh store, and compares digests. A speed-up of ingest must leave every line the same: exit status 1
names the corpora that differ. Index rows are compared whole, the ``sources`` table (paths, file
signatures) aside and the L1 file's modification time (the date of a record without one) masked;
``--without-row-ids`` also masks each row's id and the schema version, for a change that defines the id anew.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _shared_lines(data: Path) -> tuple[list[str], list[str]]:
    """The secrets corpus's lines (first field) and the labelled person turns' texts."""
    secrets = []
    for name in ("positives.txt", "negatives.txt", "negatives_near_miss.txt", "excluded_ambiguous.txt"):
        path = data / "secrets" / name
        if path.is_file():
            secrets += [line.split("\t")[0] for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
                        if line and not line.startswith("#")]
    turns = []
    tsv = data / "real_turns" / "turns.tsv"
    if tsv.is_file():
        for line in tsv.read_text(encoding="utf-8").splitlines():
            parts = line.split("\t")
            if line and not line.startswith("#") and len(parts) > 2:
                turns.append(parts[2].replace("\\n", "\n").replace("\\t", "\t"))
    return secrets, turns


def make_corpora(root: Path, data: Path) -> None:
    """Write the synthetic and the secrets-and-turns corpora under ``root`` (deterministic)."""
    sys.path.insert(0, str(REPO / "tests"))
    from bench import synth
    from bench.throughput import MIXED as TOOLS

    import agent_formats as af  # type: ignore[import-not-found]

    for name, profile, megabytes, seed in (("tools", TOOLS, 12, 17), ("realistic", synth.REALISTIC, 6, 13),
                                           ("dense", synth.DENSE, 4, 5), ("mixed", synth.MIXED, 4, 9),
                                           ("stress", synth.STRESS, 3, 11)):
        synth.write_history(root / name, megabytes=megabytes, seed=seed, profile=profile)
    secrets, turns = _shared_lines(data)
    if not secrets and not turns:
        return
    rng = random.Random(3)
    lead = ["Always use this key: ", "From now on never commit ", "", "Remember that the token is ", "We use ",
            "Don't ever paste ", "今後は必ず ", "请记住 ", "I prefer ", "Note: the password is "]
    tail = ["", ". Always run pytest -q before pushing.", "\nNever use npm; use pnpm."]
    texts = [rng.choice(lead) + s + rng.choice(tail) for s in secrets] + turns
    rng.shuffle(texts)
    prose = secrets or turns
    for n in range(0, len(texts), 25):
        session = f"s{n // 25:04d}-0000-4000-8000-000000000000"
        stamped = [(f"2026-03-{1 + (n // 25) % 28:02d}T10:{i // 60:02d}:{i % 60:02d}Z", t) for i, t in enumerate(texts[n:n + 25])]
        records = af.claude_lines(session, "/home/alice/src/shop", stamped)
        for record in records:
            if record["type"] == "assistant":
                record["message"]["content"][0]["text"] = rng.choice(prose) + " " + rng.choice(texts)
        af.write_jsonl(root / "secrets-claude" / f"{session}.jsonl", records)
        af.codex_rollout(root / "secrets-codex" / f"rollout-{session}.jsonl", session, "/home/alice/src/shop", stamped)
        af.gemini_session(root / "secrets-gemini" / ".gemini" / f"session-{session}.json", session,
                          "/home/alice/src/shop", stamped)


def _index_digest(path: Path, l1: Path, row_ids: bool = True) -> dict[str, str]:
    stamps = {datetime.fromtimestamp((l1 / f).stat().st_mtime, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
              for f in ("atoms.jsonl", "chunks.jsonl") if (l1 / f).exists()}
    con = sqlite3.connect(path)
    found: dict[str, str] = {}
    try:
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").fetchall():
            if table == "sources":
                continue
            digest, count = hashlib.sha256(), 0
            rows = con.execute(f'SELECT * FROM "{table}"')
            masked = set() if row_ids else {"docs": {"id"}, "meta": {"value"}}.get(table, set())
            names = [column[0] for column in rows.description]
            for row in rows:
                digest.update(repr(tuple("<mtime>" if v in stamps else "<id>" if n in masked else v
                                         for n, v in zip(names, row))).encode())
                count += 1
            found[table] = f"{count}:{digest.hexdigest()[:20]}"
    finally:
        con.close()
    return found


def digests(corpora: Path, data: Path, stores: Path, row_ids: bool = True) -> dict[str, Any]:
    """Ingest each corpus into a fresh store with the ``agent_memory`` importable here; its files' digests."""
    from agent_memory.ingest import ingest
    from agent_memory.store import Paths

    transcripts = data / "transcripts"
    sets = {f"shared-{agent}": [str(transcripts / agent)] for agent in ("claude", "codex", "gemini")
            if (transcripts / agent).is_dir()}
    if sets:
        sets["shared-all"] = [str(p) for p in sorted(transcripts.iterdir()) if p.is_dir()]
    sets.update({d.name: [str(d)] for d in sorted(corpora.iterdir()) if d.is_dir()})
    found: dict[str, Any] = {}
    for name, inputs in sets.items():
        project = stores / name
        shutil.rmtree(project, ignore_errors=True)
        (project / ".git").mkdir(parents=True)
        paths = Paths.resolve(cwd=str(project))
        report = ingest(paths, inputs, project="p")
        l1 = paths.store / "L1"
        entry: dict[str, Any] = {"atoms": report.atoms_added, "chunks": report.chunks_added, "errors": report.errors}
        for file in ("atoms.jsonl", "chunks.jsonl", "ingested.json"):
            body = (l1 / file).read_bytes() if (l1 / file).exists() else b""
            if file == "ingested.json":  # file signatures differ between runs: keep offsets, lines, sessions
                body = json.dumps({Path(k).name: [v.get("offset"), v.get("line"), v.get("sessions")]
                                   for k, v in json.loads(body or b"{}").items()}, sort_keys=True).encode()
            entry[file] = hashlib.sha256(body).hexdigest()[:20]
        entry["index"] = _index_digest(paths.index, l1, row_ids)
        found[name] = entry
    return found


def _unpack(rev: str, into: Path) -> None:
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev], check=True,
                             stdout=subprocess.PIPE).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into)  # noqa: S202 - our own repository's tree


def _shared_data() -> Path:
    """``shared/data`` beside the repository (or beside the folder that holds it)."""
    for base in (REPO.parent, REPO.parent.parent):
        if (base / "shared" / "data").is_dir():
            return base / "shared" / "data"
    return REPO.parent / "shared" / "data"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.same_output", description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="main", help="the revision to compare with (default main)")
    parser.add_argument("--data", default=str(_shared_data()), help="shared data folder")
    parser.add_argument("--work", help="keep the corpora and stores here (default: a temporary folder)")
    parser.add_argument("--without-row-ids", action="store_true",
                        help="mask the index rows' ids and schema version (for a change that defines the ids anew)")
    parser.add_argument("--side", help=argparse.SUPPRESS)  # one tree's digests into this file (run by main)
    args = parser.parse_args(argv)
    data = Path(args.data)
    if args.side:
        work = Path(args.work)
        found = digests(work / "corpora", data, work / "stores", not args.without_row_ids)
        Path(args.side).write_text(json.dumps(found, sort_keys=True))
        return 0
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="same-output-"))
    corpora = work / "corpora"
    if not corpora.is_dir():
        corpora.mkdir(parents=True)
        make_corpora(corpora, data)
    other = work / "other"
    shutil.rmtree(other, ignore_errors=True)
    other.mkdir()
    _unpack(args.against, other)
    results = {}
    for side, tree in (("this", REPO), (args.against, other)):
        out = work / f"{side.replace('/', '_')}.json"
        # this file, run with the tree's package first on the path (the other tree may not have it)
        masks = ["--without-row-ids"] if args.without_row_ids else []
        subprocess.run([sys.executable, __file__, "--side", str(out), "--work", str(work), "--data", str(data), *masks],
                       cwd=str(tree), check=True, env={**os.environ, "PYTHONPATH": str(tree)})
        results[side] = json.loads(out.read_text())
    mine, theirs = results["this"], results[args.against]
    differ = sorted(name for name in set(mine) | set(theirs) if mine.get(name) != theirs.get(name))
    for name in sorted(set(mine) | set(theirs)):
        entry = mine.get(name) or theirs[name]
        print(f"{'DIFFERS' if name in differ else 'same   '} {name}: {entry['atoms']} atoms, {entry['chunks']} chunks")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
