"""A person's files under adopt and rollback: concurrent edits, symlinks, modes, encodings, code examples, temp files."""

from __future__ import annotations

import codecs
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from helpers_store import NOW, PROMOTABLE, ROOT, Store, make_store, seen

from agent_memory.promote import stage
from agent_memory.review import backups
from agent_memory.review.adopt import adopt
from agent_memory.review.backups import rollback
from agent_memory.review.block import BEGIN, END, BlockDamaged, UnsupportedEncoding
from agent_memory.review.targets import UnsafeTarget
from agent_memory.errors import StoreError
from agent_memory.store import FileChanged, StoreLock, atomic_write

PYTEST = "Run pytest before pushing"
PNPM = "Use pnpm, not npm"


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def staged_store(tmp_path: Path, *texts: str) -> tuple[Store, dict[str, str]]:
    store = make_store(tmp_path)
    for text in texts:
        store.add(seen(text, *PROMOTABLE))
    result, _counts = stage(store.paths)
    return store, {p.text: p.id for p in result.proposals}


def files_of(store: Store) -> dict[str, bytes]:
    """Everything a person could lose: the project's files and the committed store files."""
    keep = [p for p in store.project.rglob("*") if p.is_file() and ".git" not in p.parts and "L1" not in p.parts
            and "backups" not in p.parts and p.name not in ("lock", "index.db") and not p.name.startswith("index.db")]
    return {str(p.relative_to(store.project)): p.read_bytes() for p in keep}


# ---------------------------------------------------------------- edits made while adopt runs


TYPED = "".join(f"line {n} typed while adopt ran\n" for n in range(40))


def test_an_edit_made_while_adopt_writes_its_backup_is_kept_and_adopt_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    claude.write_text("# Mine\n", encoding="utf-8")
    write = backups.atomic_write

    def person_types_meanwhile(path: Path, data: Any, **kw: Any) -> None:
        if "backups" in path.parts and path.name.endswith("CLAUDE.md"):  # adopt has read CLAUDE.md and backs it up
            with open(claude, "a", encoding="utf-8") as handle:
                handle.write(TYPED)
        write(path, data, **kw)

    monkeypatch.setattr(backups, "atomic_write", person_types_meanwhile)
    before = files_of(store)
    with pytest.raises(FileChanged, match=r"^CLAUDE\.md changed while adopt was running, so nothing was changed"):
        adopt(store.paths, [ids[PYTEST]])
    assert claude.read_text(encoding="utf-8") == "# Mine\n" + TYPED
    assert files_of(store) == dict(before, **{"CLAUDE.md": ("# Mine\n" + TYPED).encode()})
    assert store.backups() == [], "an adopt that changed nothing left a backup rollback would act on"
    monkeypatch.setattr(backups, "atomic_write", write)
    assert rollback(store.paths) is None
    assert [a["id"] for a in adopt(store.paths, [ids[PYTEST]]).adopted] == [ids[PYTEST]], "a second try works"
    assert claude.read_text(encoding="utf-8").startswith("# Mine\n" + TYPED)


def test_when_a_later_file_changed_the_files_already_written_are_put_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    store.paths.config.write_text("targets: [AGENTS.md, CLAUDE.md]\n", encoding="utf-8")
    (store.project / "AGENTS.md").write_text("# Agents\n", encoding="utf-8")
    claude = store.project / "CLAUDE.md"
    claude.write_text("# Claude\n", encoding="utf-8")
    write = backups.atomic_write

    def claude_edited_once_agents_is_written(path: Path, data: Any, **kw: Any) -> None:
        write(path, data, **kw)
        if path.name == "AGENTS.md" and "backups" not in path.parts and not claude.read_text().endswith(TYPED):
            with open(claude, "a", encoding="utf-8") as handle:
                handle.write(TYPED)

    monkeypatch.setattr(backups, "atomic_write", claude_edited_once_agents_is_written)
    before = files_of(store)
    with pytest.raises(FileChanged, match=r"^CLAUDE\.md changed"):
        adopt(store.paths, [ids[PYTEST]])
    assert files_of(store) == dict(before, **{"CLAUDE.md": ("# Claude\n" + TYPED).encode()})


def test_a_changed_file_is_reported_by_the_cli_in_one_line(tmp_path: Path) -> None:
    """The refusal as a person sees it: exit 1 and one line naming the file (the edit lands while adopt waits)."""
    store, ids = staged_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    claude.write_text("# Mine\n", encoding="utf-8")
    script = (
        "import sys\n"
        "from agent_memory.review import backups\n"
        "write = backups.atomic_write\n"
        "def edit(path, data, **kw):\n"
        "    if 'backups' in path.parts and path.name.endswith('CLAUDE.md'):\n"
        f"        open({str(claude)!r}, 'a').write('typed meanwhile\\n')\n"
        "    write(path, data, **kw)\n"
        "backups.atomic_write = edit\n"
        "from agent_memory.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, "adopt", ids[PYTEST]], cwd=store.project, env=store.env(),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == ["agent-memory: CLAUDE.md changed while adopt was running, so nothing was changed: run adopt again"]
    assert claude.read_text(encoding="utf-8") == "# Mine\ntyped meanwhile\n"


def test_rollback_refuses_to_write_over_an_edit_made_while_it_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    claude.write_text("# Mine\n", encoding="utf-8")
    adopt(store.paths, [ids[PYTEST]])
    adopted = claude.read_bytes()
    check = backups.atomic_write

    def edit_first(path: Path, data: Any, **kw: Any) -> None:
        if path == claude:
            with open(claude, "a", encoding="utf-8") as handle:
                handle.write("typed meanwhile\n")
        check(path, data, **kw)

    monkeypatch.setattr(backups, "atomic_write", edit_first)
    with pytest.raises(FileChanged, match="CLAUDE.md changed while rollback was running"):
        rollback(store.paths)
    assert claude.read_bytes() == adopted + b"typed meanwhile\n"


@pytest.mark.parametrize("written", [True, False], ids=["written", "cut short before writing"])
def test_rollback_leaves_no_file_where_the_command_made_one(tmp_path: Path, written: bool) -> None:
    # a decision log and a claims file the command created: rolled back, they are gone again, whether the command
    # wrote them or was killed before it did (an empty file where there was none is not "as before")
    store = make_store(tmp_path)
    line = '{"claim_id": "a1b2c3d4e5f6", "action": "merge"}\n'
    claim = b'{"id": "a1b2c3d4e5f6", "text": "Use pnpm, not npm"}\n'
    changes = [backups.Change(store.paths.decisions, "decisions", "project", None, line.encode(), appended=[line]),
               backups.Change(store.paths.l2, "claims", "project", None, claim, ids=["a1b2c3d4e5f6"])]
    with backups.locked(store.paths, user=False):
        assert backups.commit(store.paths, "merge", "test", changes)
    if not written:
        store.paths.decisions.unlink()
        store.paths.l2.unlink()
    rollback(store.paths)
    assert not store.paths.decisions.exists()
    assert not store.paths.l2.exists()


# ---------------------------------------------------------------- symlinks out of the project


@pytest.mark.parametrize("dangling", [False, True], ids=["to a file", "dangling"])
def test_adopt_never_writes_through_an_instruction_file_linked_out_of_the_project(tmp_path: Path, dangling: bool) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    outside = store.home / (".config/autostart/run.desktop" if dangling else ".gitconfig")
    if not dangling:
        outside.write_text("[user]\n\tname = me\n", encoding="utf-8")
    (store.project / "CLAUDE.md").symlink_to(outside)
    before = files_of(store)
    done = store.run("adopt", ids[PYTEST])
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["agent-memory: CLAUDE.md is a symlink out of the project, so nothing is written through it"]
    assert outside.exists() is not dangling and (dangling or outside.read_text() == "[user]\n\tname = me\n")
    assert not outside.parent.exists() if dangling else True
    assert files_of(store) == before and store.backups() == []
    with pytest.raises(UnsafeTarget):
        adopt(store.paths, [ids[PYTEST]])


def test_a_link_inside_the_project_is_still_written_through(tmp_path: Path) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    (store.project / "docs").mkdir()
    (store.project / "docs" / "AGENTS.md").write_text("# Shared\n", encoding="utf-8")
    (store.project / "CLAUDE.md").symlink_to("docs/AGENTS.md")
    assert adopt(store.paths, [ids[PYTEST]]).adopted
    assert (store.project / "CLAUDE.md").is_symlink()
    assert f"- {PYTEST}" in (store.project / "docs" / "AGENTS.md").read_text(encoding="utf-8")


def _no_dir_env(store: Store) -> dict[str, str]:
    env = store.env()
    del env["AGENT_MEMORY_DIR"]  # the project's own .memory
    return env


def test_no_store_is_built_through_a_memory_symlink_out_of_the_project(tmp_path: Path) -> None:
    """A repository that ships ``.memory -> ~/.ssh``: ingest and the session-end hook write nothing there."""
    store = make_store(tmp_path)
    ssh = store.home / ".ssh"
    ssh.mkdir()
    (ssh / "id_ed25519").write_text("KEY\n", encoding="utf-8")
    shutil.rmtree(store.paths.store)
    (store.project / ".memory").symlink_to(ssh)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"user","message":{"role":"user","content":"always run make lint"},"sessionId":"s1",'
                          f'"cwd":"{store.project}","timestamp":"2026-03-01T10:00:00Z"}}\n', encoding="utf-8")
    env = _no_dir_env(store)
    for args in (["ingest", str(transcript)], ["promote", "--write"], ["reindex"]):
        done = subprocess.run([sys.executable, "-m", "agent_memory", *args], cwd=store.project, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.splitlines()[-1].startswith("agent-memory: ") and "symlink out of the project" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    payload = f'{{"session_id":"s1","transcript_path":"{transcript}","cwd":"{store.project}","hook_event_name":"SessionEnd"}}'
    hook = subprocess.run([sys.executable, "-I", "-S", str(ROOT / "agent_memory" / "run_hook.py"), "session-end", "--agent", "claude"],
                          input=payload, cwd=store.project, env=env, capture_output=True, text=True, timeout=60)
    assert hook.returncode == 0 and hook.stdout == ""
    assert sorted(p.name for p in ssh.iterdir()) == ["id_ed25519"], "something was written into ~/.ssh"


def test_a_store_folder_linked_out_of_the_store_is_not_written_through(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.add(seen(PYTEST, *PROMOTABLE))
    elsewhere = store.home / "elsewhere"
    elsewhere.mkdir()
    store.paths.staged.symlink_to(elsewhere)
    with pytest.raises(StoreError, match="symlink out of the store"):
        stage(store.paths)
    assert list(elsewhere.iterdir()) == []


# ---------------------------------------------------------------- file modes


@pytest.mark.parametrize("mode", [0o644, 0o664, 0o640, 0o755])
def test_adopt_and_rollback_keep_each_files_mode(tmp_path: Path, mode: int) -> None:
    store, ids = staged_store(tmp_path, PYTEST, PNPM)
    store.paths.config.write_text("targets: [CLAUDE.md, AGENTS.md]\n", encoding="utf-8")
    for name in ("CLAUDE.md", "AGENTS.md"):
        (store.project / name).write_text(f"# {name}\n", encoding="utf-8")
        os.chmod(store.project / name, mode)
    umask = os.umask(0o022)
    try:
        adopt(store.paths, [ids[PYTEST]])
        modes = {n: stat.S_IMODE((store.project / n).stat().st_mode) for n in ("CLAUDE.md", "AGENTS.md")}
        assert modes == {"CLAUDE.md": mode, "AGENTS.md": mode}
        assert stat.S_IMODE(store.paths.l2.stat().st_mode) == 0o644, "a new L2.jsonl is a normal file under the umask"
        os.chmod(store.paths.l2, 0o664)
        adopt(store.paths, [ids[PNPM]])
        assert stat.S_IMODE(store.paths.l2.stat().st_mode) == 0o664
        rollback(store.paths)
        rollback(store.paths)
        assert stat.S_IMODE((store.project / "CLAUDE.md").stat().st_mode) == mode
        assert stat.S_IMODE((store.project / "AGENTS.md").stat().st_mode) == mode
    finally:
        os.umask(umask)


def test_a_new_instruction_file_follows_the_umask(tmp_path: Path) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    umask = os.umask(0o027)
    try:
        adopt(store.paths, [ids[PYTEST]])
    finally:
        os.umask(umask)
    assert stat.S_IMODE((store.project / "CLAUDE.md").stat().st_mode) == 0o640


# ---------------------------------------------------------------- encodings


ENCODED = {
    "utf-16-le with bom": (codecs.BOM_UTF16_LE, "utf-16-le"),
    "utf-16-be with bom": (codecs.BOM_UTF16_BE, "utf-16-be"),
    "utf-8 with bom": (codecs.BOM_UTF8, "utf-8"),
}


@pytest.mark.parametrize(("bom", "codec"), ENCODED.values(), ids=list(ENCODED))
def test_an_instruction_file_keeps_its_own_encoding(tmp_path: Path, bom: bytes, codec: str) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    original = bom + "# Projekt — Café\r\n\r\nTabs, bitte.\r\n".encode(codec)
    claude.write_bytes(original)
    adopt(store.paths, [ids[PYTEST]])
    after = claude.read_bytes()
    assert after.startswith(original)
    text = after[len(bom):].decode(codec)  # still one encoding throughout
    assert f"- {PYTEST}\r\n" in text and text.rstrip().endswith(END)
    rollback(store.paths)
    assert claude.read_bytes() == original


@pytest.mark.parametrize(
    ("data", "word"),
    [
        ("# Notes\n".encode("utf-16-le"), "NUL bytes"),
        (codecs.BOM_UTF32_LE + "# Notes\n".encode("utf-32-le"), "UTF-32"),
        (codecs.BOM_UTF16_LE + b"\x00\xd8", "UTF-16-LE"),  # a lone high surrogate: not UTF-16 after all
    ],
    ids=["utf-16 without bom", "utf-32", "broken utf-16"],
)
def test_an_instruction_file_that_cannot_be_re_encoded_is_refused_in_one_line(tmp_path: Path, data: bytes, word: str) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    claude.write_bytes(data)
    before = files_of(store)
    done = store.run("adopt", ids[PYTEST])
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1 and word in done.stderr, done.stderr
    assert files_of(store) == before
    with pytest.raises(UnsupportedEncoding):
        adopt(store.paths, [ids[PYTEST]])


# ---------------------------------------------------------------- markers inside a person's code examples


EXAMPLES = {
    "backticks": "```markdown\n<!-- agent-memory:begin -->\n<!-- agent-memory:end -->\n```\n",
    "tildes, longer fence": "~~~~\n<!-- agent-memory:begin -->\n```\n<!-- agent-memory:end -->\n~~~~\n",
    "indented fence": "  ```\n<!-- agent-memory:begin hash=0123456789abcdef; x -->\n- old\n<!-- agent-memory:end -->\n  ```\n",
}


@pytest.mark.parametrize("example", EXAMPLES.values(), ids=list(EXAMPLES))
def test_markers_in_a_fenced_code_example_are_left_alone(tmp_path: Path, example: str) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    original = "# How the tool marks its block\n\n" + example + "\nMore text.\n"
    claude.write_text(original, encoding="utf-8")
    adopt(store.paths, [ids[PYTEST]])
    after = claude.read_text(encoding="utf-8")
    assert after.startswith(original), "the example was changed"
    assert after[len(original):].lstrip().startswith(BEGIN) and f"- {PYTEST}" in after[len(original):]
    rollback(store.paths)
    assert claude.read_text(encoding="utf-8") == original


def test_a_placeholder_outside_code_is_still_filled_in_place(tmp_path: Path) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    claude.write_text("# Top\n\n```\nexample\n```\n\n<!-- agent-memory:begin -->\n<!-- agent-memory:end -->\n\n# Bottom\n", encoding="utf-8")
    adopt(store.paths, [ids[PYTEST]])
    text = claude.read_text(encoding="utf-8")
    assert text.index(f"- {PYTEST}") < text.index("# Bottom") and text.count(BEGIN) == 1


def test_a_file_ending_inside_an_open_fence_is_refused(tmp_path: Path) -> None:
    store, ids = staged_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    claude.write_text("# Notes\n\n```sh\nmake lint\n", encoding="utf-8")
    with pytest.raises(BlockDamaged, match="unclosed code fence"):
        adopt(store.paths, [ids[PYTEST]])
    assert claude.read_text(encoding="utf-8") == "# Notes\n\n```sh\nmake lint\n"


# ---------------------------------------------------------------- temp files left by a killed writer


def _leftover(folder: Path, name: str, age: float) -> Path:
    """A temp file exactly as the writer names its own (``.NAME.RAND.tmp``), last written ``age`` seconds ago."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=str(folder))
    os.write(fd, b"half a proposal")
    os.close(fd)
    moment = time.time() - age
    os.utime(tmp, (moment, moment))
    return Path(tmp)


def test_the_next_promote_write_removes_temp_files_a_killed_one_left(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.add(seen(PYTEST, *PROMOTABLE))
    staged = store.paths.staged
    killed = _leftover(staged, "0123456789abcdef.md", age=60)
    recent = _leftover(staged, "fedcba9876543210.md", age=-60)  # newer than the lock: not provably dead
    mine = staged / ".notes.tmp"  # not the writer's pattern: a person's file
    mine.write_text("keep\n", encoding="utf-8")
    done = store.run("promote", "--write")
    assert done.returncode == 0, done.stderr
    assert not killed.exists()
    assert recent.exists() and mine.exists()
    assert any(p.suffix == ".md" for p in staged.iterdir())


def test_temp_files_are_only_cleared_under_the_store_lock(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    killed = _leftover(store.paths.staged, "0123456789abcdef.md", age=60)
    atomic_write(store.paths.staged / "x.md", "x")
    assert killed.exists(), "a writer without the lock cannot tell a dead temp file from a live one"
    with StoreLock(store.paths.store):
        atomic_write(store.paths.staged / "y.md", "y")
    assert not killed.exists()
