"""What every test shares: hypothesis judges examples by what they give, never by how long they take.

Its default 200 ms deadline fails an example that a loaded two-core machine slows (the first example of
a test also pays for compiling the patterns it reaches); speed is measured in bench/, not here.

Under CI (``CI`` set, as CI services set it) the examples are drawn from a seed fixed per test, so a run
is the same run again and a red build names a failure anyone can reproduce; elsewhere each run draws new
examples, which is where new failures are found (and then pinned with ``@example``).
"""

import os

from hypothesis import settings

settings.register_profile("agent-memory", deadline=None)
settings.register_profile("agent-memory-ci", deadline=None, derandomize=True)
settings.load_profile("agent-memory-ci" if os.environ.get("CI") else "agent-memory")
