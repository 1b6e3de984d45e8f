"""What every test shares: hypothesis judges examples by what they give, never by how long they take.

Its default 200 ms deadline fails an example that a loaded two-core machine slows (the first example of
a test also pays for compiling the patterns it reaches); speed is measured in bench/, not here.

Under CI (``CI`` set, as CI services set it) the examples are drawn from a seed fixed per test, so a run
is the same run again and a red build names a failure anyone can reproduce; elsewhere each run draws new
examples, which is where new failures are found (and then pinned with ``@example``).
"""

import os
from typing import Callable

import pytest
from hypothesis import settings

settings.register_profile("agent-memory", deadline=None)
settings.register_profile("agent-memory-ci", deadline=None, derandomize=True)
settings.load_profile("agent-memory-ci" if os.environ.get("CI") else "agent-memory")


@pytest.fixture
def refuse_fork(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call it to make ``multiprocessing``'s fork context refuse to start a pool, as a system out of processes or
    memory does (EAGAIN); other start methods stay as they are."""
    import multiprocessing

    class NoFork:
        def Pool(self, _workers: int) -> None:  # noqa: N802 - multiprocessing's name
            raise OSError(11, "Resource temporarily unavailable")

    def refuse() -> None:
        real = multiprocessing.get_context
        monkeypatch.setattr(multiprocessing, "get_context",
                            lambda method=None: NoFork() if method == "fork" else real(method))

    return refuse
