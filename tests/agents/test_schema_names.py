"""Every agent the registry names is an agent the published JSON shapes allow, and no other."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from agent_memory.agents import NAMES
from tests.helpers_store import SCHEMAS, load_schema


def _agent_enums(node: Any) -> Iterator[list[str]]:
    """Every ``"agent": {"enum": [...]}`` in a schema, wherever it stands."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "agent" and isinstance(value, dict) and "enum" in value:
                yield value["enum"]
            else:
                yield from _agent_enums(value)
    elif isinstance(node, list):
        for item in node:
            yield from _agent_enums(item)


@pytest.mark.parametrize("name", sorted(path.name for path in SCHEMAS.glob("*.schema.json")))
def test_a_schema_names_the_agents_of_the_registry(name: str) -> None:
    for enum in _agent_enums(load_schema(name)):
        assert sorted(enum) == sorted(NAMES), name


def test_the_shapes_that_carry_an_agent_name_it() -> None:
    carrying = {name for name in ("atom.schema.json", "report.schema.json", "status.schema.json")
                if list(_agent_enums(load_schema(name)))}
    assert carrying == {"atom.schema.json", "report.schema.json", "status.schema.json"}
