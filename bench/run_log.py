"""What the hooks' run log costs: one append (and, at session-start, the health line) against a bare start.

``python -m bench.run_log``: in-process medians of ``hooklog.record`` and ``hooklog.warning`` on a run log
already full (the worst case: a rotation every few hundred runs, the tail read), next to the median of a
bare ``python -I -S -c pass`` timed in the same run.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from agent_memory import hooklog

from .measure import Command, interleaved, interleaved_calls

REPS = 2001


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / ".memory"
        (store / "L1").mkdir(parents=True)
        (store / "L1" / "ingested.json").write_text("{}", encoding="utf-8")
        for _ in range(1500):  # a full log and a rotated one
            hooklog.record(str(store), "user-prompt-submit", "claude", 0.05, 0)
        calls = interleaved_calls({
            "record": lambda: hooklog.record(str(store), "user-prompt-submit", "claude", 0.05, 0),
            "warning": lambda: hooklog.warning(str(store), str(store / "L1" / "ingested.json"), 3),
        }, REPS, warmup=50)
        bare = interleaved({"bare": Command([sys.executable, "-I", "-S", "-c", "pass"])}, 21)["bare"].median
    print("| what | median | share of a bare start |")
    print("|---|---|---|")
    print(f"| bare `python -I -S -c pass` | {bare * 1000:.1f} ms | 1.00× |")
    for name, label in (("record", "run-log append (every hook)"), ("warning", "health line (session-start)")):
        median = calls[name].median
        print(f"| {label} | {median * 1e6:.0f} µs | {median / bare:.3f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
