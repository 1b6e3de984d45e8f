"""The detached worker: ingest transcripts and stage proposals after the agent has moved on."""

from __future__ import annotations

import os
import sys

from .. import fastjson
from .cache import RECORDED_FILE, HookCache
from .where import log, log_anywhere

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

    from .where import AnyPaths


def run_worker(where: "AnyPaths", files: list[str], stage: str, wait: float) -> None:
    """Start the detached worker and wait for it at most ``wait`` seconds; it carries on alone after."""
    store = str(where.store)
    if os.path.exists(store) and not os.path.isdir(store):
        log(where, "hook worker", f"the store {store} is not a folder")
        return
    if os.path.basename(store) == ".memory" and os.path.islink(store):
        # the worker gets the store by its real path: a .memory leading out of the project is refused here
        from pathlib import Path

        from ..errors import StoreError
        from ..store import refuse_foreign_store

        try:
            refuse_foreign_store(Path(store))
        except StoreError as exc:
            log(where, "hook worker", str(exc))
            return
    job = {"store": store, "cwd": str(where.project_root), "files": files, "stage": stage}
    try:
        import subprocess

        process = subprocess.Popen(
            [sys.executable, worker_script(), "worker", fastjson.dumps(job)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # never the agent's pipe: it would wait for the worker to close it
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # out of the agent's process group: it survives the agent's exit
            close_fds=True,
            cwd=os.sep,  # not the project: a folder named agent_memory there must not shadow the package
        )
    except Exception as exc:
        log(where, "hook worker start", exc)
        run_job(job)  # no worker: do the work here, as far as the agent lets it run
        return
    try:
        process.wait(timeout=max(wait, 0.0))
    except subprocess.TimeoutExpired:
        pass  # the rest is the worker's


def worker_script() -> str:
    """``run_hook.py`` beside this module: it finds the package wherever it was installed."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run_hook.py")


def run_job(job: "dict[str, Any]") -> None:
    """The worker's work: ingest the files, then stage proposals (``always``, or ``new`` only after new atoms)."""
    from ..store import Paths

    paths = Paths.resolve(str(job["store"]), cwd=str(job.get("cwd") or os.sep))
    try:
        from ..ingest import ingest
        from ..projects import repository, sort_transcripts

        files = [str(f) for f in job.get("files", [])]
        here = repository(str(paths.project_root))
        if here:
            # a session of another repository here is filed there, not here (ingest --all-projects does that); one
            # the agent handed this project's hook that names no repository of this machine stays this project's
            left_out = {f for group in sort_transcripts(files, here).elsewhere.values() for f in group}
            files = [f for f in files if f not in left_out]
        report = ingest(paths, files, agent="auto")
        for error in report.errors:
            log(paths, "hook worker ingest", error)
        # what the next session-start compares the transcript folders with, ready before it asks
        folders = sorted({os.path.dirname(os.path.abspath(f)) for f in files})
        if folders:
            from .session_end import recorded_sigs

            recorded_sigs(paths, folders, HookCache(str(paths.l1_dir), RECORDED_FILE))
        stage = job.get("stage")
        if stage == "always" or (stage == "new" and report.atoms_added):
            from ..promote import stage as stage_proposals

            stage_proposals(paths)
    except BaseException as exc:
        log(paths, "hook worker", exc)


def worker_main(argv: list[str]) -> int:
    """``run_hook.py worker JOB`` (or ``python -m agent_memory.hooks JOB``): the detached worker; always exits 0."""
    import time

    from .. import hooklog
    from . import where as run

    started = time.monotonic()
    run.RUN.update(store="", errors=0)
    try:
        job = fastjson.loads(argv[0]) if argv else None
        if isinstance(job, dict) and isinstance(job.get("store"), str) and isinstance(job.get("files"), list):
            run.RUN["store"] = str(job["store"])
            run_job(job)
    except BaseException as exc:
        log_anywhere(None, "hook worker", exc)
    hooklog.record(run.RUN["store"], "worker", "", time.monotonic() - started, run.RUN["errors"])
    return 0

