"""The one ingest pipeline: inline or with a pool of readers, the same atoms, lines and state; nothing added twice."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.backfill import backfill
from agent_memory.errors import UsageError
from agent_memory.ingest import ingest
from agent_memory.pool import peak_rss_kb
from agent_memory.store import Paths

from transcripts.shared import shared_data

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "agent_memory" / "samples"


def _synth() -> ModuleType:
    """The benchmark's history generator (``bench/synth.py``), loaded by path."""
    name = "bench_synth_for_tests"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / "synth.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "user"))
    monkeypatch.delenv("AGENT_MEMORY_DIR", raising=False)
    synth = _synth()
    root = tmp_path / "history"
    synth.write_history(root, atoms=40, seed=3, profile=synth.DENSE, weeks=2)
    return root


def _store(tmp_path: Path, name: str) -> Paths:
    project = tmp_path / name
    (project / ".git").mkdir(parents=True)
    return Paths.resolve(cwd=str(project))


def _snapshot(paths: Paths) -> dict[str, object]:
    def text(path: Path) -> str:
        return path.read_text(encoding="utf-8") if path.exists() else ""

    return {
        "atoms": text(paths.atoms),
        "chunks": text(paths.chunks),
        "ingested": json.loads(text(paths.ingested) or "{}"),
    }


def _report(report: object) -> dict[str, object]:
    fields = ("atoms_added", "quarantined", "chunks_added", "files", "skipped_lines", "errors")
    found = {f: getattr(report, f) for f in fields}
    found["sessions"] = sorted(getattr(report, "sessions"))
    return found


def _inputs(history: Path, tmp_path: Path) -> list[str]:
    first = sorted(history.rglob("*.jsonl"))[0]
    # a folder, the bundled samples, one file twice over, and a file that is not there
    return [str(history), str(SAMPLES), str(first), str(tmp_path / "missing.jsonl")]


@pytest.mark.parametrize("workers", [0, 1, 2])
def test_backfill_writes_what_serial_ingest_writes(history: Path, tmp_path: Path, workers: int) -> None:
    inputs = _inputs(history, tmp_path)
    serial, parallel = _store(tmp_path, "serial"), _store(tmp_path, "parallel")
    expected = ingest(serial, inputs)
    got = backfill(parallel, inputs, workers=workers, flush_records=7)
    assert expected.atoms_added > 40
    assert expected.errors  # the missing file is reported, not fatal
    assert _report(got) == _report(expected)
    assert _snapshot(parallel) == _snapshot(serial)  # same atoms and chunks, line for line; same resume points


def test_backfill_twice_adds_nothing(history: Path, tmp_path: Path) -> None:
    paths = _store(tmp_path, "store")
    first = backfill(paths, [str(history)], workers=2)
    before = _snapshot(paths)
    again = backfill(paths, [str(history)], workers=2)
    assert first.atoms_added > 0
    assert again.atoms_added == 0 and again.chunks_added == 0
    assert again.sessions == first.sessions
    assert _snapshot(paths) == before


def test_backfill_after_serial_ingest_adds_nothing(history: Path, tmp_path: Path) -> None:
    paths = _store(tmp_path, "store")
    ingest(paths, [str(history)])
    before = _snapshot(paths)
    (paths.ingested).unlink()  # forget how far each file was read: everything is read again
    again = backfill(paths, [str(history)], workers=2)
    assert again.atoms_added == 0
    assert _snapshot(paths)["atoms"] == before["atoms"]


def test_backfill_reads_only_what_a_transcript_grew_by(history: Path, tmp_path: Path) -> None:
    synth = _synth()
    serial, parallel = _store(tmp_path, "serial"), _store(tmp_path, "parallel")
    ingest(serial, [str(history)])
    backfill(parallel, [str(history)], workers=2)
    grown = sorted(history.rglob("*.jsonl"))[-1]
    extra = tmp_path / "extra.jsonl"
    synth.write_transcript(extra, megabytes=0.05, seed=5, profile=synth.DENSE)
    with open(grown, "a", encoding="utf-8") as handle:
        handle.write(extra.read_text(encoding="utf-8"))
    expected = ingest(serial, [str(history)])
    got = backfill(parallel, [str(history)], workers=2)
    assert expected.atoms_added > 0
    assert _report(got) == _report(expected)
    assert got.bytes_read < grown.stat().st_size  # only the new tail was read
    assert _snapshot(parallel)["atoms"] == _snapshot(serial)["atoms"]


def test_backfill_reports_memory_of_writer_and_workers(history: Path, tmp_path: Path) -> None:
    report = backfill(_store(tmp_path, "store"), [str(history)], workers=2)
    assert report.workers == 2
    assert 0 < report.writer_peak_kb <= peak_rss_kb()
    assert report.worker_peak_kb and all(kb > 0 for kb in report.worker_peak_kb.values())
    assert os.getpid() not in report.worker_peak_kb


def test_ingest_in_this_process_reports_no_workers(history: Path, tmp_path: Path) -> None:
    # reading inline, the writer's own peak is the only one (looked up once, not per file)
    report = ingest(_store(tmp_path, "store"), [str(history)])
    assert report.workers == 0 and report.worker_peak_kb == {}
    assert 0 < report.writer_peak_kb <= peak_rss_kb()


def test_negative_workers_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        backfill(_store(tmp_path, "store"), [str(SAMPLES)], workers=-1)


SHARED = shared_data() / "transcripts"


def test_workers_keep_the_claim_cache_current_like_inline_ingest(history: Path, tmp_path: Path) -> None:
    from agent_memory.promote import stage

    inputs = [str(p) for p in sorted(history.rglob("*.jsonl"))]
    first, rest = inputs[:1], inputs[1:]
    inline, pooled = _store(tmp_path, "inline"), _store(tmp_path, "pooled")
    for paths in (inline, pooled):
        ingest(paths, first)
        stage(paths)
    ingest(inline, rest)
    backfill(pooled, rest, workers=2)
    # both folded the new atoms into the claim tables: the same L1, the same rows
    assert inline.atoms.read_bytes() == pooled.atoms.read_bytes()
    assert _claim_rows(inline) == _claim_rows(pooled)


def _claim_rows(paths: Paths) -> list[Any]:
    import sqlite3

    from agent_memory.claims.tables import db_path

    con = sqlite3.connect(db_path(paths))
    try:
        return [list(con.execute(f"SELECT * FROM {t} ORDER BY 1, 2")) for t in ("meta", "keys", "atoms", "texts", "pairs")]
    finally:
        con.close()

@pytest.mark.skipif(not SHARED.is_dir(), reason="needs ../shared/data/transcripts")
@pytest.mark.parametrize("workers", [0, 2])
def test_shared_transcripts_inline_and_pooled_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "user"))
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-01T00:00:00Z")
    inputs = [str(SHARED), str(SAMPLES)]
    serial, other = _store(tmp_path / "a", "shop"), _store(tmp_path / "b", "shop")  # one name: a project's fallback name
    expected = ingest(serial, inputs)
    got = ingest(other, inputs, workers=workers)
    assert expected.files > 20 and expected.chunks_added > 0
    assert _report(got) == _report(expected)
    assert _snapshot(other) == _snapshot(serial)
    again = ingest(other, inputs, workers=workers)
    assert again.atoms_added == 0 and again.chunks_added == 0 and _snapshot(other) == _snapshot(serial)


def test_a_failed_registry_is_logged_not_fatal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "user"
    user.write_text("a file where the user store's folder should be")
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(user))
    paths = _store(tmp_path, "store")
    report = ingest(paths, [str(SAMPLES)])
    assert report.atoms_added > 0
    log = (paths.logs / "errors.log").read_text(encoding="utf-8")
    assert "project registry" in log


# ---------------------------------------------------------------- the index takes the writer's records


def _index_tables(paths: Paths) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the store's index, row for row (FTS5's own tables too); of ``sources`` what is not the file's
    path or signature, and a date that is the L1 file's modification time masked."""
    import sqlite3
    from datetime import datetime, timezone

    stamps = {datetime.fromtimestamp(f.stat().st_mtime, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
              for f in (paths.atoms, paths.chunks) if f.exists()}
    con = sqlite3.connect(paths.index)
    try:
        found = {}
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").fetchall():
            rows = con.execute(f'SELECT * FROM "{table}"').fetchall()
            if table == "sources":
                rows = [(name, offset, head) for name, _path, _sig, offset, head in rows]
            found[table] = [tuple("<mtime>" if v in stamps else v for v in row) for row in rows]
        return found
    finally:
        con.close()


def _documents(paths: Paths) -> list[tuple[Any, ...]]:
    """What the index holds, whatever order rows arrived in: each row with its place spelled out, and each claim key."""
    import sqlite3

    con = sqlite3.connect(paths.index)
    try:
        docs = con.execute("SELECT d.id, source, kind, ref, date, text, at, p.session, p.transcript, line, stamp, "
                           "claim, d.session, extra, cjk, span FROM docs d LEFT JOIN places p ON p.rowid = d.place"
                           ).fetchall()
        keys = con.execute("SELECT key, text, terms, last, redacted, extra FROM keys").fetchall()
        return sorted(docs) + sorted(keys)
    finally:
        con.close()


def _read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the writer's index read L1 back after each append, as it did before it took the records."""
    from agent_memory.index.sync import Index

    monkeypatch.setattr(Index, "take_appended", lambda self, parts: self.sync())


_SAID = [
    "From now on always use pnpm, never npm.", "Always run pytest -q before pushing.", "we ship on friday",
    "Never push to main; open PRs against dev.", "Remember: getUserName lives in src/cart/v3/handlers.py",
    "今後は必ず pnpm を使ってください。", "python3.11 and v2 of the API", "I prefer tabs over spaces",
    "Don't ever commit .env files", "No, that's wrong: use uv not pip", "请记住 使用 pnpm", "ok",
    "the key is sk-live-4f9aQ2bX8mT1cZ7wE3rY6uI0pL5kJ2hG", "x-request-id and 1.26.4 and fooBar_baz",
]


@st.composite
def _histories(draw: st.DrawFn) -> list[tuple[str, list[tuple[str, str]], int]]:
    """Sessions (id, stamped turns, how many turns are there at the first ingest)."""
    sessions = []
    for n in range(draw(st.integers(1, 4))):
        said = draw(st.lists(st.lists(st.sampled_from(_SAID), min_size=1, max_size=3).map(" ".join), min_size=1,
                             max_size=6))
        turns = [(f"2026-03-{1 + n:02d}T10:{i:02d}:00Z", text) for i, text in enumerate(said)]
        sessions.append((f"s{n}-0000", turns, draw(st.integers(0, len(turns)))))
    return sessions


def _write_sessions(root: Path, sessions: list[tuple[str, list[tuple[str, str]], int]], whole: bool) -> list[str]:
    from agent_formats import claude_transcript

    files = []
    for session, turns, first in sessions:
        files.append(str(claude_transcript(root / f"{session}.jsonl", session, "/home/alice/src/shop",
                                           turns if whole else turns[:first])))
    return files


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sessions=_histories(), flush=st.sampled_from([None, 1, 3]))
def test_the_index_built_from_the_writers_records_is_the_one_read_back_from_l1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sessions: list[tuple[str, list[tuple[str, str]], int]],
    flush: int | None,
) -> None:
    import tempfile

    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "user"))
    with tempfile.TemporaryDirectory(dir=tmp_path) as tmp:
        base = Path(tmp)
        taken, read = _store(base, "taken"), _store(base, "read")
        for whole in (False, True):  # some turns first, then the transcripts grown
            files = _write_sessions(base / "history", sessions, whole)
            ingest(taken, files, flush_records=flush)
            with monkeypatch.context() as patch:
                _read_back(patch)
                ingest(read, files, flush_records=flush)
        assert _snapshot(taken) == _snapshot(read)
        assert _index_tables(taken) == _index_tables(read)
        built = _documents(taken)
        taken.index.unlink()
        from agent_memory.promote.tiers import open_index

        open_index(taken).close()  # rebuilt from L1
        assert _documents(taken) == built


@pytest.mark.skipif(not SHARED.is_dir(), reason="needs ../shared/data/transcripts")
def test_shared_transcripts_index_the_same_taken_from_the_writer_or_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "user"))
    inputs = [str(SHARED), str(SAMPLES)]
    taken = _store(tmp_path / "a", "shop")
    ingest(taken, inputs)
    with monkeypatch.context() as patch:
        _read_back(patch)
        read = _store(tmp_path / "b", "shop")
        ingest(read, inputs)
    assert _snapshot(taken) == _snapshot(read)
    assert _index_tables(taken) == _index_tables(read)
    assert _index_tables(taken)["docs"]


# ---------------------------------------------------------------- a chunk's question and its quote


def _chunk_as_redacted_apart(question: str, answer: str) -> tuple[str, str]:
    """A chunk's text and quote made the plain way: the body and the question each neutralised and redacted."""
    from agent_memory import redact
    from agent_memory.atoms import CHUNK_LIMIT, QUOTE_LIMIT, redacted_prefix

    answer = answer.strip()  # (as the replies are joined)
    body = f"{question}\n{answer}" if answer else question
    return (redacted_prefix(redact.neutralise(body), CHUNK_LIMIT).text,
            redacted_prefix(redact.neutralise(question), QUOTE_LIMIT).text)


def _chunk(question: str, answer: str) -> tuple[str, str]:
    from agent_memory.atoms import chunks_from_turns
    from agent_memory.model import Turn

    turns = [Turn("claude", "s1", "/p", "2026-01-05T08:00:00Z", "user", question, "t.jsonl", 1)]
    if answer:
        turns.append(Turn("claude", "s1", "/p", "2026-01-05T08:00:01Z", "assistant", answer, "t.jsonl", 2))
    (chunk,) = chunks_from_turns(turns, "p")
    return chunk["text"], chunk["quote"]


# secrets as people paste them, ending the question or inside it; and what an answer may open with
_SECRETS = ["sk-ant-api03-z0zjHHXo5uibD2havvfqiZYJe9ENlwI1trcQC4pyRC2N2w6nbpUitUU_iR4kkSszVyUpINaxvCtun3_Mub0O3w",
            "AKIAZ3MHQ7RTXW5K2P4D", "ghp_R8sT2vWq9XyZ3aB4cD5eF6gH7iJ8kL9mN0oP", "password: Tr0ub4dor&3xq!",
            "postgres://app:hunter2x9Q@db.internal:5432/shop", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7x"
            "Q2mZ9r\n-----END RSA PRIVATE KEY-----", "export API_TOKEN=9f8e7d6c5b4a39281706f5e4d3c2b1a0",
            "xoxb-2048-4096-Zq8Wm3Rt6Yu9Io1Pa4Sd", "AIzaSyD3f7Gx9Kq2Lm5Np8Rs1Tv4Wy7Zb0Cd3Ef", "mysql -uapp -pW0ezlJlzB0lj shop"]
_OPENINGS = ["", "Sure, rotating it now.", "example", "fake key, not real", "abcdEFGH1234ijkl5678mnop",
             "==", "-----END RSA PRIVATE KEY-----", "@host.com:5432/db", "dummy placeholder", "\u200bhidden", "x" * 5000]


@settings(max_examples=300, deadline=None)
@given(before=st.sampled_from(["", "Use this:", "The key is", "Why does this fail?\n"]),
       secret=st.sampled_from(_SECRETS + ["", "no secret at all"]),
       after=st.sampled_from(["", " thanks", "\nand the rest\r", "\r"]),
       answer=st.sampled_from(_OPENINGS))
def test_a_chunks_quote_is_its_question_redacted_alone(before: str, secret: str, after: str, answer: str) -> None:
    """The quote is taken from the body's redaction when that found nothing; it is what redacting the question
    alone gives, whatever the answer opens with (one that could join the question's last line too)."""
    question = f"{before} {secret}{after}".strip(" ") or "?"
    assert _chunk(question, answer) == _chunk_as_redacted_apart(question, answer)


@pytest.mark.skipif(not (shared_data() / "secrets" / "positives.txt").is_file(), reason="needs ../shared/data/secrets")
def test_every_secret_of_the_corpus_leaves_the_quote_as_the_question_redacted_alone() -> None:
    for line in (shared_data() / "secrets" / "positives.txt").read_text(encoding="utf-8").splitlines():
        question = line.split("\t")[0]
        for answer in ("", "Done.", "example", "abcdEFGH1234ijkl5678mnop", question[-12:]):
            assert _chunk(question, answer) == _chunk_as_redacted_apart(question, answer), (question, answer)


def test_a_folder_is_looked_up_once_per_ingest_not_once_per_file(history: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import agent_memory.atoms as turning
    import agent_memory.ingest as pipeline

    files = sorted(history.rglob("*.jsonl"))
    looked: list[str] = []
    made: list[str] = []
    project_of, scrubber = pipeline.project_of, turning._session_scrubber
    monkeypatch.setattr(pipeline, "project_of", lambda cwd, *a: looked.append(cwd) or project_of(cwd, *a))
    monkeypatch.setattr(turning, "_session_scrubber", lambda cwd: made.append(cwd) or scrubber(cwd))
    report = ingest(_store(tmp_path, "store"), [str(history)])
    assert len(files) > len(set(looked)) and report.atoms_added
    assert sorted(looked) == sorted(set(looked)) and made and sorted(made) == sorted(set(made))


@pytest.mark.parametrize("budget", [None, 5])
def test_words_said_again_give_what_they_gave_the_first_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, budget: int | None
) -> None:
    """A turn whose text held no atom is not marked again in the same ingest; one that held atoms always is: a rule
    said in three sessions is three atoms, the same with the memory of barren turns starting over at every turn."""
    from agent_formats import claude_transcript

    import agent_memory.ingest as ingest_module

    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "user"))
    said = ["ok", "Always run pytest -q before pushing.", "we ship on friday", "ok", "Always run pytest -q before pushing."]
    files = [str(claude_transcript(tmp_path / "history" / f"s{n}.jsonl", f"s{n}-0000", "/home/alice/src/shop",
                                   [(f"2026-03-0{n + 1}T10:{i:02d}:00Z", text) for i, text in enumerate(said)]))
             for n in range(3)]
    one_by_one = _store(tmp_path, "one-by-one")
    for path in files:  # a fresh memory for each file
        ingest(one_by_one, [path])
    if budget is not None:
        monkeypatch.setattr(ingest_module, "BARREN_CHARS", budget)
    together = _store(tmp_path, "together")
    report = ingest(together, files)
    atoms = [json.loads(line) for line in together.atoms.read_text(encoding="utf-8").splitlines()]
    assert sorted({atom["session"] for atom in atoms}) == ["s0-0000", "s1-0000", "s2-0000"]
    assert report.atoms_added == len(atoms) and len(atoms) % 3 == 0  # the same atoms in each session
    assert _snapshot(together)["atoms"] == _snapshot(one_by_one)["atoms"]
    assert _snapshot(together)["chunks"] == _snapshot(one_by_one)["chunks"]
