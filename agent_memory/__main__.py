"""``python -m agent_memory`` runs the command line (a hook without loading the command line)."""

import sys

from .hooks import hook_args

_hook = hook_args(sys.argv[1:])
if _hook is not None:
    from .hooks import cmd_hook

    sys.exit(cmd_hook(_hook))

from .cli import main  # noqa: E402

sys.exit(main())
