"""What every test shares: hypothesis judges examples by what they give, never by how long they take.

Its default 200 ms deadline fails an example that a loaded two-core machine slows (the first example of
a test also pays for compiling the patterns it reaches); speed is measured in bench/, not here.
"""

from hypothesis import settings

settings.register_profile("agent-memory", deadline=None)
settings.load_profile("agent-memory")
