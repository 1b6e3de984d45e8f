"""Many agents on one store at once: every atom lands exactly once, and no process sees a lock error.

The reference is always a serial run of the same work on a twin store: concurrent runs must end
with exactly the same L1 (atom and chunk ids, each once) and the same staged proposals.
"""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .support import Env, Proc, Snapshot, claude_transcript, make_env, no_traceback, snapshot

SHARED = "From now on, always run the type checker before pushing."


def session_files(env: Env, count: int) -> list[Path]:
    """``count`` sessions over four days, each with its own claims and one claim they all share."""
    files = []
    for n in range(count):
        day = f"2026-03-{1 + n % 4:02d}"
        turns = [
            (f"{day}T09:{n:02d}:00Z", SHARED),
            (f"{day}T09:{n:02d}:30Z", f"Remember: the service number {n} listens on port {5000 + n}."),
            (f"{day}T10:{n:02d}:00Z", f"Never deploy module{n} on a Friday."),
        ]
        files.append(claude_transcript(env.tmp / "sessions" / env.root.name / f"s{n:02d}.jsonl", f"session-{n:02d}", env.root, turns))
    return files


def copies(env: Env, files: list[Path]) -> list[Path]:
    """The same sessions under other names (a session read from two files): ids must absorb them."""
    made = []
    for path in files:
        copy = env.tmp / "copies" / f"copy-{path.name}"
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(path.read_bytes())
        made.append(copy)
    return made


def serial_reference(tmp: Path, count: int) -> Snapshot:
    """The same sessions ingested one after another, then staged once."""
    from agent_memory.ingest import ingest
    from agent_memory.promote import stage

    twin = make_env(tmp)
    paths = twin.paths()
    for path in session_files(twin, count):
        ingest(paths, [str(path)])
    stage(paths)
    return snapshot(twin.store, twin.user)


def assert_same_memory(env: Env, reference: Snapshot) -> None:
    got = snapshot(env.store, env.user)
    duplicates = sorted(k for k, n in got.atoms.items() if n > 1)
    assert not duplicates, f"atoms written twice: {duplicates}"
    assert got.atoms == reference.atoms, f"missing {sorted(reference.atoms - got.atoms)}, extra {sorted(got.atoms - reference.atoms)}"
    assert got.chunks == reference.chunks
    assert set(got.staged) == set(reference.staged)


def _hook_session_end(env: Env, transcript: Path, session: str) -> Proc:
    payload = env.payload("session-end", session_id=session, transcript_path=str(transcript))
    done = subprocess.run(env.hook_command("session-end"), input=json.dumps(payload).encode(), capture_output=True,
                          cwd=env.tmp, env=env.vars(), timeout=300)
    return Proc(env.hook_command("session-end"), done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.parametrize("count", [16, pytest.param(32, marks=pytest.mark.slow)])
def test_sixteen_session_ends_on_one_store(env: Env, tmp_path_factory: pytest.TempPathFactory, count: int) -> None:
    """Session-end hooks of many sessions, eight at a time: each session's atoms land once, nothing is logged."""
    from .support import wait_for_workers

    env.patient()
    files = session_files(env, count)
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda n: _hook_session_end(env, files[n], f"session-{n:02d}"), range(count)))
    wait_for_workers(str(env.tmp))
    for done in results:
        assert done.code == 0 and done.out == "", done
        no_traceback(done.err)
    assert env.errors() == [], env.errors()
    # session-end stages too: a last pass sees the whole L1, as the serial reference's single pass does
    from agent_memory.promote import stage

    stage(env.paths())
    assert_same_memory(env, serial_reference(tmp_path_factory.mktemp("serial"), count))


def _communicate(process: subprocess.Popen[bytes], timeout: float = 300) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


@pytest.mark.parametrize("rounds", [1, pytest.param(3, marks=pytest.mark.slow)])
def test_ingest_promote_and_search_at_once(env: Env, tmp_path_factory: pytest.TempPathFactory, rounds: int) -> None:
    """Ingest, promote --write, search, inspect and reindex running together: all succeed, L1 as if serial."""
    count = 12
    files = session_files(env, count)
    again = copies(env, files)
    for _round in range(rounds):
        processes: list[tuple[list[str], subprocess.Popen[bytes]]] = []

        def start(*args: str) -> None:
            processes.append((list(args), env.popen_cli(*args)))

        for n in range(4):  # four ingesters, overlapping: each session is given to two of them, or read twice
            start("ingest", *(str(f) for f in files[n * 3: n * 3 + 6]), "--json")
            start("ingest", *(str(f) for f in again[n * 3: n * 3 + 3]), "--json")
        for _ in range(2):
            start("promote", "--write", "--json")
        for query in ("type checker", "port 5003", "deploy Friday"):
            start("search", query, "--json")
        start("inspect", "--tier", "L1", "--json")
        start("reindex", "--json")
        start("promote", "--json")
        for args, process in processes:
            code, out, err = _communicate(process)
            assert code == 0, (args, err)
            no_traceback(out, err)
            json.loads(out)  # one JSON document, whatever ran beside it
            assert "locked" not in err and "busy" not in err, (args, err)
    done = env.cli("promote", "--write", "--json")
    assert done.code == 0, done.err
    assert_same_memory(env, serial_reference(tmp_path_factory.mktemp("serial"), count))
    searched = env.cli("search", "type checker", "--json")
    assert any("type checker" in hit["text"] for hit in json.loads(searched.out)["hits"])


def test_a_reader_committing_a_stale_index_view_never_makes_ingest_write_an_atom_twice(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that read L1 just before an ingest appended to it must not make the next ingest duplicate atoms.

    The interleaving is forced where the index allows it: the reader (a fresh index, e.g. after the user
    deleted index.db) reads L1, then session 1 is ingested, then its copy is being ingested when the
    reader commits.
    """
    import threading

    from agent_memory.index import rows as rows_module
    from agent_memory.index import sync as index_module
    from agent_memory import ingest as ingest_module
    from agent_memory.ingest import ingest
    from agent_memory.promote.tiers import index_sources

    paths = env.paths()
    first, second = session_files(env, 2)
    ingest(paths, [str(first)])
    for suffix in ("", "-wal", "-shm"):
        Path(str(paths.index) + suffix).unlink(missing_ok=True)
    read_done, may_commit = threading.Event(), threading.Event()
    original_read = rows_module.read_rows
    reader_thread: list[threading.Thread] = []

    def slow_read(*args: object, **kwargs: object) -> object:
        found = original_read(*args, **kwargs)  # type: ignore[arg-type]
        if reader_thread and threading.current_thread() is reader_thread[0] and not read_done.is_set():
            read_done.set()
            # an index that holds its write lock while it reads makes the ingest below wait for this reader
            # (no interleaving is possible then): stop waiting for the ingest after a moment and commit
            may_commit.wait(2)
        return found

    monkeypatch.setattr(rows_module, "read_rows", slow_read)  # as the index reads a file in this process

    def reader() -> None:
        with index_module.Index(paths.index, index_sources(paths)) as index:
            index.sync()

    thread = threading.Thread(target=reader)
    reader_thread.append(thread)
    thread.start()
    assert read_done.wait(60)
    ingest(paths, [str(second)])  # session 1 lands while the reader holds its old view
    original_writer = ingest_module._Writer.__init__

    def writer_then_reader_commits(self: object, *args: object) -> None:
        original_writer(self, *args)  # type: ignore[arg-type]
        may_commit.set()  # the one writer holds its view of the index: now the stale reader commits
        thread.join(60)

    monkeypatch.setattr(ingest_module._Writer, "__init__", writer_then_reader_commits)
    ingest(paths, [str(copies(env, [second])[0])])  # the same session read from a second file
    thread.join(60)
    counts = env.atom_ids()
    assert all(n == 1 for n in counts.values()), f"written twice: {[k for k, n in counts.items() if n > 1]}"


def test_projects_ingesting_at_once_all_reach_the_registry(tmp_path: Path) -> None:
    """Eight projects ingesting at the same moment, one user store: every project is registered (the L2→L3 gate counts them)."""
    from .support import make_env

    projects = [make_env(tmp_path, f"project{n}") for n in range(8)]
    user = projects[0].user
    processes = []
    for project in projects:
        files = session_files(project, 1)
        processes.append(project.popen_cli("ingest", str(files[0]), "--json"))
    for process in processes:
        code, _out, err = _communicate(process)
        assert code == 0, err
        no_traceback(err)
    registry = json.loads((user / "projects.json").read_text(encoding="utf-8"))["projects"]
    assert sorted(registry) == sorted(p.root.name for p in projects)
