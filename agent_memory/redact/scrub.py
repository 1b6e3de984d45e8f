"""Path and user-name scrubbing: text that is committed or shared keeps no home folder or user name."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

# ---------------------------------------------------------------------------
# path scrubbing

_SEP = r"(?:\\\\|\\|/)"
_PATH_START = r"(?<![\w.\-~])(?:(?<=://)|(?<![/\\]))"
_PATH_END = r"(?=$|[\\/\s\"'`)\]},;:<>|]|\.(?![\w\-]))"
_PATH_NEXT = r"(?=[^\s\\/\"'`<>|])"


def _root_regex(root: str) -> re.Pattern[str] | None:
    """Regex for ``root`` as a path prefix in any separator style; group ``sep`` is the separator after it."""
    root = root.rstrip("/\\")
    if not root:
        return None
    windows = bool(re.match(r"^[A-Za-z]:", root)) or "\\" in root
    body = _SEP.join(re.escape(p) for p in re.split(r"[\\/]+", root))
    flags = re.IGNORECASE if windows else 0
    return re.compile(f"{_PATH_START}{body}(?:(?P<sep>{_SEP}){_PATH_NEXT}|{_PATH_END})", flags)


_OTHER_HOME = re.compile(
    _PATH_START
    + r"(?:/home/|/Users/|[A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))(?P<name>[^\\/\s\"'`:*?<>|]+)"
    + _PATH_END,
    re.IGNORECASE,
)


def scrub_paths(text: str, project_root: str = "", home: str = "", user_names: Iterable[str] = ()) -> str:
    """Make text shareable: paths in ``project_root`` become relative, homes become ``~``, user names ``<user>``."""
    root_re = _root_regex(project_root)
    if root_re is not None:
        text = root_re.sub(lambda m: "" if m.group("sep") else ".", text)
    home_re = _root_regex(home)
    if home_re is not None:
        text = home_re.sub(lambda m: "~" + (m.group("sep") or ""), text)
    text = _OTHER_HOME.sub("~", text)
    names = sorted({n.strip() for n in user_names if len(n.strip()) >= 2}, key=len, reverse=True)
    if names:
        alt = "|".join(re.escape(n) for n in names)
        text = re.sub(rf"(?<![\w\-<])(?:{alt})(?![\w\->]|\.\w)", "<user>", text, flags=re.IGNORECASE)
    return text


# OS account names too common to be anyone's: replacing them would mangle ordinary words
_GENERIC_USERS = frozenset({"root", "user", "admin", "runner", "ubuntu", "guest", "nobody"})


def os_user_names() -> list[str]:
    """The OS user name, when it is specific enough to scrub from shared files."""
    import getpass

    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        return []
    return [name] if name and name.lower() not in _GENERIC_USERS else []


def scrubber(project_root: str) -> Callable[[str], str]:
    """``scrub_paths`` bound to this project, the home folder and the OS user name."""
    from pathlib import Path

    from agent_memory import redact  # looked up there, so a caller (or a test) can substitute it

    home, names = str(Path.home()), redact.os_user_names()
    return lambda text: scrub_paths(text, project_root, home, names)
