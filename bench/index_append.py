"""The index's part of an ingest on its own: the writer appending new records to L1 and the index taking them.

``python -m bench.index_append CORPUS [--reps N]`` ingests CORPUS once to get its L1 records, then, into a
fresh store and index each time, appends them as the writer does and brings the index up to date, and prints
the CPU seconds (best and median of N). Where this tree's index takes the writer's records
(``Index.take_appended``) it is timed that way, else as ``append_jsonl`` followed by ``sync()``: run it with
another revision's tree first on ``PYTHONPATH`` to compare the two.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _fresh(root: Path, name: str) -> Any:
    from agent_memory.store import Paths

    project = root / name
    shutil.rmtree(project, ignore_errors=True)
    (project / ".git").mkdir(parents=True)
    return Paths.resolve(cwd=str(project))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.index_append", description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="+", help="transcripts (files or folders) whose L1 records are timed")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args(argv)

    import agent_memory.index.sync as sync
    from agent_memory import store
    from agent_memory import text
    from agent_memory.ingest import ingest
    from agent_memory.promote.tiers import open_index

    with tempfile.TemporaryDirectory(prefix="index-append-") as tmp:
        root = Path(tmp)
        source = _fresh(root, "source")
        ingest(source, args.corpus)
        records = {name: [json.loads(line) for line in open(path, "rb")]
                   for name, path in (("atoms", source.atoms), ("chunks", source.chunks)) if path.exists()}
        takes = hasattr(sync.Index, "take_appended")
        seconds = []
        for _rep in range(args.reps):
            paths = _fresh(root, "run")
            paths.atoms.parent.mkdir(parents=True, exist_ok=True)
            getattr(text, "_RUN_WORDS", {}).clear()  # what identifier words remember, as a new process has it
            index = open_index(paths)
            started = time.process_time()
            targets = {"atoms": paths.atoms, "chunks": paths.chunks}
            if takes:
                parts = []
                for name, found in records.items():
                    lines = store.jsonl_bytes(found)
                    before = index.signature_of(name)
                    parts.append(sync.Appended(name, before, store.append_lines(targets[name], lines), found, lines))
                index.take_appended(parts)
            else:
                for name, found in records.items():
                    store.append_jsonl(targets[name], found)
            index.sync()
            seconds.append(time.process_time() - started)
            index.close()
    counts = ", ".join(f"{len(found):,} {name}" for name, found in records.items())
    way = "take_appended" if takes else "append_jsonl + sync"
    print(f"{way}: {counts}; CPU best {min(seconds):.3f} s, median {statistics.median(seconds):.3f} s "
          f"of {args.reps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
