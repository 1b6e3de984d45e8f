"""Old home of adopt, reject, verify, resolve and rollback, now in ``agent_memory.review``; kept for old imports."""

from .review.adopt import AdoptReport, adopt, cmd_adopt, cmd_rollback
from .review.backups import ROLLBACK_COMMANDS, Change, commit, rollback
from .review.block import BEGIN, END, INERT_LIMIT, LEAD, BlockDamaged, BlockEdited, block_lines, body_digest, inert, remove_block, render_block, rewrite_file
from .review.decisions import cmd_reject, cmd_resolve, cmd_verify, reject, resolve, verify
from .review.targets import USER_FILES, Target, by_file, project_target, user_target

__all__ = [
    "AdoptReport", "adopt", "cmd_adopt", "cmd_rollback", "ROLLBACK_COMMANDS", "Change", "commit", "rollback",
    "BEGIN", "END", "INERT_LIMIT", "LEAD", "BlockDamaged", "BlockEdited", "block_lines", "body_digest", "inert",
    "remove_block", "render_block", "rewrite_file", "cmd_reject", "cmd_resolve", "cmd_verify", "reject", "resolve",
    "verify", "USER_FILES", "Target", "by_file", "project_target", "user_target",
]
