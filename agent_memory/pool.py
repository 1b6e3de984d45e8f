"""What a long ingest or reindex adds around the pipeline, touching none of it: the reader pool (worker processes
forked from a small clean server), how many workers a piece of work is worth forking, a child process that does one
piece of work beside this one, the progress bar and each process's peak memory.
"""

from __future__ import annotations

import os
from typing import Any, Callable


def peak_rss_kb() -> int:
    """This process's peak resident set size in kB (``VmHWM``; ``getrusage`` where there is no /proc)."""
    try:
        with open("/proc/self/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
        import sys

        peak = int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        return peak // 1024 if sys.platform == "darwin" else peak
    except (ImportError, OSError, ValueError):
        return 0


class ProgressBar:
    """A rich progress bar on stderr (bytes read, speed, ETA) once a run has taken ``DELAY`` seconds, or nothing.

    A short ingest (a session or two) is over before a bar would help, so it never draws one; a long
    one shows it from then on, also through a single long step (indexing a store read whole) that
    makes no call here, as a timer starts it. ``steps`` (a command of a few long steps whose progress
    within a step is not known, such as ``reindex``): the step it is in and the time taken, with a spinner.
    """

    DELAY = 2.0  # seconds before the bar appears

    def __init__(self, enabled: bool, total: int = 1, files: int = 0, delay: float = DELAY,
                 description: str = "backfill", steps: bool = False) -> None:
        import threading

        self.bar: Any = None
        self.lock = threading.Lock()
        self.total, self.files, self.steps = max(total, 1), files, steps
        self.done: dict[str, Any] = {"completed": 0, "files": 0, "atoms": 0, "description": description}
        self.timer: Any = None
        if enabled:
            self.timer = threading.Timer(delay, self._start)
            self.timer.daemon = True
            self.timer.start()

    def _start(self) -> None:
        try:
            from rich.console import Console
            from rich.progress import (BarColumn, DownloadColumn, Progress, SpinnerColumn, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn, TransferSpeedColumn)
        except ImportError:
            return
        with self.lock:
            if self.timer is None:
                return  # stopped meanwhile
            columns = (SpinnerColumn(), TextColumn("[bold]{task.description}"), TimeElapsedColumn()) if self.steps else (
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                DownloadColumn(),
                TransferSpeedColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.fields[files]}/{task.fields[total_files]} files · {task.fields[atoms]} new atoms"),
            )
            bar = Progress(*columns, console=Console(stderr=True), transient=False)
            self.task = bar.add_task(self.done["description"], total=self.total, total_files=self.files,
                                     completed=self.done["completed"], files=self.done["files"], atoms=self.done["atoms"])
            bar.start()
            self.bar = bar

    def advance(self, size: int, files: int, atoms: int) -> None:
        with self.lock:
            self.done["completed"] += size
            self.done.update(files=files, atoms=atoms)
            if self.bar is not None:
                self.bar.update(self.task, completed=self.done["completed"], files=files, atoms=atoms)

    def phase(self, description: str) -> None:
        with self.lock:
            self.done["description"] = description
            if self.bar is not None:
                self.bar.update(self.task, description=description)

    def stop(self) -> None:
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if self.bar is not None:
                self.bar.stop()


def fork_workers(items: int, enough: int) -> int:
    """Worker processes to do ``items`` things with: the cores, where there are ``enough`` to pay for starting them,
    the system forks (not macOS, whose libraries may not survive a fork) and no process of a ``beside`` pair works
    beside this one; else 1."""
    if items < enough or _partner_working():
        return 1  # (before importing multiprocessing, which a little work does not need)
    return min(os.cpu_count() or 1, 8) if _forks() else 1


def _forks() -> bool:
    """Whether this system forks processes that keep working (not macOS, whose libraries may not survive a fork)."""
    import multiprocessing
    import sys

    return sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods()


FAILED = object()  # what ``beside``'s waiter gives when the child did not finish its work
# While the two processes of a ``beside`` pair both work, they share the cores and neither forks workers (two
# CPU-bound processes keep two cores busy; workers beside them would only add the cost of sending rows back); once one
# is done, the other's next step has the cores again. Each watches a pipe the other holds open until it is done: the
# parent the child's result pipe, the child one the parent closes when it starts to wait.
_partner: int | None = None


def _partner_working() -> bool:
    global _partner
    if _partner is None:
        return False
    import select

    try:
        done, _w, _x = select.select([_partner], [], [], 0)
    except (OSError, ValueError):
        done = [_partner]
    if done:
        _partner = None  # (the pipe itself is its owner's to close)
    return not done


def beside(work: Callable[[], Any]) -> Callable[[], Any] | None:
    """Start ``work`` in a forked child process, to run beside what this one does next; returns the call that waits
    for the child and gives what ``work`` returned (pickled back), or ``FAILED`` when the child did not finish it
    (an error, a signal): the caller then does the work itself and meets its error, if any, as it would have.
    None where nothing can be forked (no fork, macOS) or there is one core: the caller does the work itself.

    While both work, neither forks workers of its own (``fork_workers``). The child writes nothing but its result:
    it leaves by ``os._exit``, flushing no buffer it copied and running no exit handler of this process."""
    import pickle

    global _partner
    if (os.cpu_count() or 1) < 2 or not _forks():
        return None
    read, write = os.pipe()
    busy_read, busy_write = os.pipe()  # held open by this process until it waits for the child
    try:
        child = os.fork()
    except OSError:
        for fd in (read, write, busy_read, busy_write):
            os.close(fd)
        return None
    if child == 0:
        status = 1
        try:
            os.close(read)
            os.close(busy_write)
            _partner = busy_read
            with os.fdopen(write, "wb") as out:
                out.write(pickle.dumps(work()))
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    os.close(busy_read)
    _partner = read

    def wait() -> Any:
        global _partner
        os.close(busy_write)  # this process is done: the child's next step may fork workers
        with os.fdopen(read, "rb") as handle:  # read before reaping: a child never waits on a full pipe
            data = handle.read()
        _partner = None
        _pid, status = os.waitpid(child, 0)
        if status != 0 or not data:
            return FAILED
        try:
            return pickle.loads(data)
        except Exception:  # a result that does not unpickle is work not done
            return FAILED

    return wait


def main_importable() -> bool:
    """Whether worker processes can import this program's main module, as multiprocessing makes them."""
    import sys

    main = sys.modules.get("__main__")
    if main is None or getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)


def reader_pool(workers: int) -> Any:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context: Any
    if "forkserver" in multiprocessing.get_all_start_methods():
        # workers fork from a small clean process that has imported the pipeline once,
        # never from a copy of this one (which may hold the index open) nor its main script
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["agent_memory.ingest"])
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)
