"""Config: documented defaults, the stdlib reader of its YAML subset, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from agent_memory.config import CONFIG_TEMPLATE, DEFAULTS, load_config, parse_simple_yaml
from agent_memory.errors import UsageError

REPO = Path(__file__).resolve().parents[1]


def test_repo_example_store_carries_the_documented_defaults() -> None:
    assert (REPO / ".memory" / "config.yaml").read_text(encoding="utf-8") == CONFIG_TEMPLATE
    assert load_config(REPO / ".memory" / "config.yaml") == DEFAULTS


def test_stdlib_reader_agrees_with_pyyaml_on_the_template() -> None:
    assert parse_simple_yaml(CONFIG_TEMPLATE) == yaml.safe_load(CONFIG_TEMPLATE)


def test_defaults_match_the_schema() -> None:
    schema = json.loads((REPO / "schemas" / "config.schema.json").read_text())
    jsonschema.validate(DEFAULTS, schema)


def test_numbers_change_rules_stay(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("gates:\n  l2:\n    sessions: 4\n")
    config = load_config(path)
    assert config["gates"]["l2"] == {"sessions": 4, "days": 2}
    assert config["gates"]["l3"] == DEFAULTS["gates"]["l3"]


def test_yaml_outside_the_subset_falls_back_to_pyyaml(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("targets:\n  - AGENTS.md\n  - CLAUDE.md\n")
    assert load_config(path)["targets"] == ["AGENTS.md", "CLAUDE.md"]


@pytest.mark.parametrize("body", ["gates: [1, 2", "gates:\n  l2:\n    sessions: -1\n", "- just a list\n", "targets: 7\n"])
def test_bad_config_is_one_clear_error(tmp_path: Path, body: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(body)
    with pytest.raises(UsageError):
        load_config(path)


def test_missing_config_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "nope.yaml") == DEFAULTS


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("gate:\n  l2:\n    sessions: 5\n", "'gate'"),
        ("gates:\n  l2:\n    session: 5\n", "gates.l2.session"),
        ("gates:\n  l4:\n    projects: 3\n", "gates.l4"),
        ("budgets:\n  prompt_atom: 3\n", "budgets.prompt_atom"),
    ],
)
def test_a_misspelt_setting_is_refused_not_ignored(tmp_path: Path, body: str, named: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_config(path)
    assert named in str(caught.value) and "unknown setting" in str(caught.value) and "\n" not in str(caught.value)


def test_every_documented_setting_is_known(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(CONFIG_TEMPLATE, encoding="utf-8")
    assert load_config(path) == DEFAULTS
    path.write_text("recall:\n  semantic_weight: 0.3\n", encoding="utf-8")  # the semantic extra's setting
    assert load_config(path)["recall"]["semantic_weight"] == 0.3


def test_each_setting_is_declared_once_with_its_default() -> None:
    from agent_memory.config import SETTINGS, default, setting

    names = [s.name for s in SETTINGS]
    assert len(names) == len(set(names))
    for item in SETTINGS:
        assert setting(DEFAULTS, item.name) == item.default == default(item.name)
    assert setting({"budgets": {"prompt_atoms": 9}}, "budgets.prompt_atoms") == 9
    assert setting({}, "budgets.prompt_atoms") == 5  # absent: the declared default, typed nowhere else


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("identity:\n  merge_similarity: 1.5\n", "identity.merge_similarity must be a number from 0 to 1"),
        ("gates:\n  l2:\n    days: 1.5\n", "gates.l2.days must be a whole number ≥ 0"),
        ("budgets:\n  prompt_chars: .nan\n", "budgets.prompt_chars must be a number ≥ 0"),
        ("recall:\n  semantic_weight: -1\n", "recall.semantic_weight must be a number ≥ 0"),
    ],
)
def test_a_bad_value_names_its_setting(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        load_config(path)
