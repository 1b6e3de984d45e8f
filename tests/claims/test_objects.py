"""Rules naming different files, paths, versions or numbered things are different rules, never a conflict."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from agent_memory.claims import claim_key, relate

_SEGMENT = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
_PATH = st.builds(lambda parts, name, ext: "/".join([*parts, f"{name}.{ext}"]),
                  st.lists(_SEGMENT, min_size=0, max_size=3), _SEGMENT, st.sampled_from(["py", "ts", "go", "md", "yaml"]))
_VERSION = st.builds(lambda *n: ".".join(map(str, n)), st.integers(0, 30), st.integers(0, 30), st.integers(0, 9))
_NUMBERED = st.builds(lambda n: f"{n:04d}", st.integers(1, 9999))
_ANY = ("Never edit {} by hand.", "Don't touch {}.", "Always regenerate {} after a schema change.",
        "Keep {} formatted with black.", "The billing config lives in {}.", "{}は手で編集しないでください。",
        "不要手动修改{}。")
_NAMED_BY_NUMBER = ("Never squash migration {}.", "Keep migration {} reversible.", "マイグレーション{}は編集しないで。")
_PINNED = ("Pin node to {} in .nvmrc.", "Use Python {} for the billing worker.")


@example(("Keep {} formatted with black.", ("a000.yaml", "b000.yaml")))
@given(st.one_of(
    st.tuples(st.sampled_from(_ANY), st.tuples(_PATH, _PATH)),
    st.tuples(st.sampled_from(_NAMED_BY_NUMBER), st.tuples(_NUMBERED, _NUMBERED)),
    st.tuples(st.sampled_from(_PINNED), st.tuples(_VERSION, _VERSION)),
))
def test_two_objects_in_one_frame_never_contradict(case: tuple[str, tuple[str, str]]) -> None:
    template, objects = case
    first, second = (claim_key(template.format(o)) for o in objects)
    assert relate(first, second).kind != "contradiction", (template, objects)


def test_a_path_is_one_token_of_the_key() -> None:
    assert "src/cart/v3/handlers.py" in claim_key("Never edit src/cart/v3/handlers.py by hand.").tokens
    assert "us-east-1" in claim_key("No, we deploy billing to eu-west-1, not us-east-1.").tokens
