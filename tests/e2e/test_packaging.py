"""What ``pip install .`` (not editable) really installs: every subpackage, and the same review entries as a checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_a_non_editable_install_writes_the_same_review_entries_as_a_checkout(tmp_path: Path) -> None:
    target = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "-q", "--target", str(target), str(ROOT)],
                          capture_output=True, text=True, timeout=600, cwd=str(tmp_path))
    if done.returncode != 0:
        pytest.skip(f"pip could not build the package here: {(done.stderr.strip().splitlines() or [''])[-1]}")
    installed = target / "agent_memory"
    packages = {p.parent.relative_to(ROOT) for p in (ROOT / "agent_memory").rglob("__init__.py") if "__pycache__" not in p.parts}
    assert [str(p) for p in sorted(packages) if not (target / p / "__init__.py").is_file()] == []
    script = ("import json, sys; sys.path.insert(0, sys.argv[1]); from agent_memory import install; "
              "print(json.dumps({a: install.command_text(a) for a in ('claude', 'codex', 'gemini')}))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def entries(where: str) -> dict[str, str]:
        out = subprocess.run([sys.executable, "-c", script, where], capture_output=True, text=True, timeout=120, env=env,
                             cwd=str(tmp_path))
        assert out.returncode == 0, out.stderr
        return dict(json.loads(out.stdout))

    built, checkout = entries(str(target)), entries(str(ROOT))
    assert str(installed) != str(ROOT / "agent_memory")
    assert built == checkout
    assert built["claude"].count("\n") > 30 and "verify" in built["claude"]
