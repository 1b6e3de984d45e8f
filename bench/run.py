"""``python -m bench`` (or ``python bench/run.py``): build a synthetic history, measure, write BENCHMARKS.md.

Every timing is a median over repeated runs taken together with its baseline in the same
run, and reported as a ratio. Everything runs in a sandbox: a temporary work folder, its own
``HOME`` and ``AGENT_MEMORY_HOME``, and a fixed ``AGENT_MEMORY_NOW``, so nothing of the user's
is read or written.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Sequence

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import (contradictions, latency, promote_speed, quality, rebuild, session_end, stores, synth, team,  # noqa: E402
                   throughput)
from bench.measure import machine  # noqa: E402
from bench.profiling import ROOT  # noqa: E402
from bench.report import Section, render  # noqa: E402

SECTIONS = ("hooks", "ingest", "backfill", "session-end", "promote", "rebuild", "quality", "contradictions", "team")
NEEDS_STORES = ("hooks", "session-end", "promote", "rebuild")
NOW = "2026-02-24T00:00:00Z"  # a week after the synthetic history ends
SWITCHES = ("AGENT_MEMORY_DIR", "AGENT_MEMORY_SESSIONSTART", "AGENT_MEMORY_USERPROMPTSUBMIT", "AGENT_MEMORY_SESSIONEND",
            "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_DIR")


def _sizes(text: str) -> list[int]:
    try:
        sizes = sorted({int(float(part)) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are comma-separated atom counts, not {text!r}") from None
    if not sizes or sizes[0] < 1:
        raise argparse.ArgumentTypeError("give at least one positive size")
    return sizes


def _only(text: str) -> list[str]:
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [c for c in chosen if c not in SECTIONS]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(SECTIONS)}")
    return chosen


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=_sizes, help="L1 atom counts of the stores (default 1000,10000,100000; quick 60,200)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes and few runs: a smoke test in seconds")
    parser.add_argument("--out", default=str(ROOT / "BENCHMARKS.md"), help="where to write the report")
    parser.add_argument("--only", type=_only, default=list(SECTIONS), help=f"comma-separated: {','.join(SECTIONS)}")
    parser.add_argument("--reps", type=int, help="timed runs per hook figure; others use up to 7 (default 11; quick 2)")
    parser.add_argument("--ingest-mb", type=float, help="size of the ingest-throughput history (default 40; quick 1)")
    parser.add_argument("--backfill-mb", type=float, help="size of the backfill history (default 200; quick 1.5)")
    parser.add_argument("--backfill-reps", type=int, help="timed runs per backfill mode (default 2; quick 1)")
    parser.add_argument("--session-mb", type=float, help="size of the SessionEnd transcript (default 2; quick 0.3)")
    parser.add_argument("--team-rows", type=int, help="exported rows for the team gate (default 1,000,000; quick 2,000)")
    parser.add_argument("--team-spark", action="store_true", help="also time the team gate on Spark local mode")
    parser.add_argument("--workers", type=int, default=2, help="backfill workers to compare with one (default 2)")
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"), help="shared real-world data folder")
    parser.add_argument("--workdir", help="keep the generated histories and stores here and reuse them next time")
    parser.add_argument("--history", choices=sorted(synth.PROFILES), default=synth.DENSE.name,
                        help="the synthetic history the stores are built from (default dense; mixed is a heavy "
                             "user's claim mix, stress nearly every claim distinct)")
    parser.add_argument("--no-profile", action="store_true",
                        help="skip profiling the figures that miss a goal (quick mode never profiles)")
    return parser


def _log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _sandbox(work: Path) -> dict[str, str | None]:
    """Point every location the tool uses into ``work``; returns what to restore."""
    saved = {k: os.environ.get(k) for k in ("HOME", "AGENT_MEMORY_HOME", "AGENT_MEMORY_NOW", "PYTHONDONTWRITEBYTECODE",
                                            "PYTHONPYCACHEPREFIX", *SWITCHES)}
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    # processes start as after `pip install`: with cached bytecode (kept in the work folder, not the source tree)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    os.environ["HOME"] = str(home)
    os.environ["AGENT_MEMORY_HOME"] = str(home / ".agent-memory")
    os.environ["AGENT_MEMORY_NOW"] = NOW
    for key in SWITCHES:
        os.environ.pop(key, None)
    return saved


def _restore(saved: dict[str, str | None]) -> None:
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def _guarded(key: str, title: str, step: Callable[[], Section]) -> Section:
    """One benchmark; when it breaks, the report says where instead of losing the other figures."""
    try:
        return step()
    except Exception as exc:  # the report must survive one broken stage
        import traceback

        where = traceback.format_exception(type(exc), exc, exc.__traceback__)
        section = Section(key, title)
        section.say(f"**not measured**: the benchmark failed with `{type(exc).__name__}: {exc}`.", "", "```",
                    *"".join(where[-3:]).rstrip().splitlines(), "```", "")
        section.goal(title, "failed", "runs", False)
        _log(f"{title} failed: {type(exc).__name__}: {exc}")
        return section


def _data_section(built: list[stores.Store], args: argparse.Namespace) -> Section:
    section = Section("data", "Synthetic history and stores")
    section.say(
        "`bench/synth.py` writes Claude Code `.jsonl` sessions, deterministically from a seed: sessions over six weeks "
        "in four projects; user turns that are mostly ordinary requests, some carrying a claim (always / never / from "
        "now on / remember, corrections, preferences, lessons, failures, 12% Japanese such as 「今後は必ず…」, 1% with a "
        "fake secret) drawn with a long tail from a catalogue of distinct claims, so popular claims recur across "
        "sessions and days; assistant text split across lines by message id; bulky tool_use / tool_result lines "
        "(file reads, test logs, edits, greps, each carried twice as Claude Code does); isMeta, slash-command, "
        "system, summary, file-history and sidechain lines.",
        "",
        f"Four profiles share those shapes: *realistic* ({synth.REALISTIC.marker_share:.0%} of user turns carry a claim, "
        f"0–6 tool calls per turn of 0.2–16 KB; used for throughput and backfill) and *dense* "
        f"({synth.DENSE.marker_share:.0%} claims, little tool output; used to reach 100k atoms in minutes); *mixed* and "
        f"*stress* have the dense shapes with a heavy user's claims (a third restate a few hundred habits in varied "
        f"wording, about 1% revoke one, the rest are one-off rules) or nearly every claim distinct. The stores "
        f"below were built by ingesting {args.history} histories through `agent_memory.backfill` (same result as `ingest`), then "
        f"`promote --write` and `adopt` of the {stores.ADOPTED} best-supported proposals into `AGENTS.md`, a file "
        f"Claude Code does not load itself, so session-start has L2 claims to inject.",
        "",
    )
    if built:
        rows = [(f"{s.target:,}", f"{s.atoms:,}", f"{s.chunks:,}", f"{s.history_bytes / 1e6:.0f} MB", f"{s.sessions:,}",
                 f"{s.generate_seconds:.1f} s", f"{s.ingest_seconds:.1f} s ({s.ingest_workers} workers)",
                 f"{s.history_bytes / 1e6 / max(s.ingest_seconds, 1e-9):.2f} MB/s", f"{s.staged:,}", str(s.adopted))
                for s in built]
        section.table(("target", "L1 atoms", "chunks", "history", "sessions", "generate", "ingest", "ingest rate",
                       "proposals", "adopted"), rows)
    return section


def main(argv: Sequence[str] | None = None, prog: str = "python bench/run.py") -> int:
    """Run the chosen benchmarks and write the report; returns the exit code."""
    args = build_parser(prog).parse_args(argv)
    quick = args.quick
    sizes = args.sizes or ([60, 200] if quick else [1000, 10000, 100000])
    reps = args.reps or (2 if quick else 11)
    few = max(2, min(reps, 7))  # runs for the slower figures
    ingest_mb = args.ingest_mb or (1.0 if quick else 40.0)
    backfill_mb = args.backfill_mb or (1.5 if quick else 200.0)
    backfill_reps = args.backfill_reps or (1 if quick else 2)
    session_mb = args.session_mb or (0.3 if quick else 2.0)
    data = Path(args.data) if args.data and Path(args.data).is_dir() else None
    profile = not (args.no_profile or quick)
    command = " ".join([prog, *(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))])

    work = Path(args.workdir).resolve() if args.workdir else Path(tempfile.mkdtemp(prefix="agent-memory-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    saved = _sandbox(work)
    started = time.perf_counter()
    about = machine(ROOT)
    sections: list[Section] = []
    built: list[stores.Store] = []
    progress = sys.stderr.isatty()
    try:
        if any(s in args.only for s in NEEDS_STORES):
            for size in sizes:
                _log(f"building a store of ~{size:,} atoms")
                # tiny quick-mode stores are read in-process: starting workers would cost more than reading
                built.append(stores.build(work, size, dict(os.environ), workers=0 if quick else args.workers,
                                          progress=progress, reuse=bool(args.workdir),
                                          profile=synth.PROFILES[args.history]))
        # quick mode times the subprocess figures at the largest size only
        timed = built[-1:] if quick else built
        steps: list[tuple[str, str, Callable[[], Section]]] = [
            ("promote", "4. Promote (dry run)", lambda: promote_speed.run(built, max(3, few), profile)),
            ("hooks", "1. Hook latency", lambda: latency.run(timed, reps, profile)),
            ("session-end", "3. SessionEnd", lambda: session_end.run(timed, few, session_mb, profile)),
            ("rebuild", "4b. Rebuild (index and claim tables from L1)", lambda: rebuild.run(timed, few)),
            ("ingest", "2. Ingest throughput",
             lambda: throughput.run_ingest(work, ingest_mb, few, None if quick else data, profile, built)),
            ("backfill", "2b. Backfill (parallel ingest of a large history)",
             lambda: throughput.run_backfill(work, backfill_mb, backfill_reps, args.workers, progress)),
            ("quality", "5. Quality", lambda: quality.run(data, quick)),
            ("contradictions", "6. Contradictions", lambda: contradictions.run(quick)),
            ("team", "7. Team gate",
             lambda: team.run(args.team_rows or (2_000 if quick else 1_000_000), 5 if quick else 40, args.team_spark)),
        ]
        for key, title, step in steps:
            if key in args.only:
                _log(title)
                sections.append(_guarded(key, title, step))
    finally:
        _restore(saved)
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    elapsed = time.perf_counter() - started
    order = {key: i for i, key in enumerate(SECTIONS[:4] + ("promote", "rebuild", "quality", "contradictions", "team"))}
    sections.sort(key=lambda s: order.get(s.key, 99))
    machine_section = Section("machine", "Machine and command")
    machine_section.table(("", ""), list(about.items()))
    machine_section.say("```sh", command, "```", "",
                        f"Whole run: {elapsed / 60:.1f} min. Sizes: {', '.join(f'{s:,}' for s in sizes)} atoms; "
                        f"{reps} timed runs per hook figure.", "")
    intro = [
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with `{command}`"
        + (" (**quick mode: tiny sizes, a smoke test, not figures to quote**)" if quick else "") + ".",
        "",
        "Every timing is a median over repeated runs, taken in the same run as its baseline and reported as a ratio "
        "to it, so a slower machine moves both sides. Regenerate with the command above.",
    ]
    body = render("Benchmarks", intro, [machine_section, *sections, _data_section(built, args)])
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(body, encoding="utf-8")
    _log(f"wrote {out} in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
