"""``python -m agent_memory.hooks JOB``: the detached session-end worker."""

import sys

from .worker import worker_main

sys.exit(worker_main(sys.argv[1:]))
