"""Path and user-name scrubbing: text that is committed or shared keeps no home folder or user name."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

# ---------------------------------------------------------------------------
# path scrubbing

_SEP = r"(?:\\\\|\\|/)"
_PATH_START = r"(?<![\w.\-~])(?:(?<=://)|(?<![/\\]))"
_PATH_END = r"(?=$|[\\/\s\"'`)\]},;:<>|]|\.(?![\w\-]))"
_PATH_NEXT = r"(?=[^\s\\/\"'`<>|])"


@lru_cache(maxsize=256)
def _root_regex(root: str) -> re.Pattern[str] | None:
    """Regex for ``root`` as a path prefix in any separator style; group ``sep`` is the separator after it."""
    root = root.rstrip("/\\")
    if not root:
        return None
    windows = bool(re.match(r"^[A-Za-z]:", root)) or "\\" in root
    body = _SEP.join(re.escape(p) for p in re.split(r"[\\/]+", root))
    flags = re.IGNORECASE if windows else 0
    return re.compile(f"{_PATH_START}{body}(?:(?P<sep>{_SEP}){_PATH_NEXT}|{_PATH_END})", flags)


# A home folder in every spelling a transcript from any machine may hold; ``name`` is whose it is.
_HOME_PREFIX = (
    r"(?:(?:/var|/export)?/home/"  # Linux, Fedora Silverblue, Solaris
    r"|/Users/"  # macOS
    r"|/mnt/[A-Za-z]/Users/"  # a Windows home seen from WSL
    r"|[A-Za-z]:{s}(?:Users|Documents and Settings){s}"  # Windows
    r"|(?:\\\\|\\|//)[\w.\-]+{s}(?:homes?|users|profiles?)\$?{s}"  # a home share: \\server\home$\name
    r")"
).format(s=_SEP)
_OTHER_HOME = re.compile(
    _PATH_START + _HOME_PREFIX + r"(?P<name>[^\\/\s\"'`:*?<>|]+)" + _PATH_END,
    re.IGNORECASE,
)
# ``~name/…``: the home of the account ``name``
_TILDE_USER = re.compile(r"(?<![\w.\-~/\\])~(?P<name>[A-Za-z_][\w.\-]{0,31})(?=[\\/]|$|[\s\"'`),;:<>|])")


def home_names(text: str) -> list[str]:
    """User names that the home folders in ``text`` give away (``/home/alice/x`` gives ``alice``)."""
    names = {m.group("name") for m in _OTHER_HOME.finditer(text)}
    names.update(m.group("name") for m in _TILDE_USER.finditer(text))
    return sorted(n for n in names if n.lower() not in _GENERIC_USERS)


def home_of(cwd: str) -> tuple[str, str]:
    """The home folder a working directory lies in and its user name, from the path alone (``("", "")`` if none)."""
    m = re.match(_HOME_PREFIX + r"(?P<name>[^\\/\s\"'`:*?<>|]+)", cwd, re.IGNORECASE)
    if not m:
        return "", ""
    return m.group(0), m.group("name")


def _under(root: str, home: str) -> str:
    """``root`` written from ``~`` when it lies in ``home`` (``/home/a/work/shop`` → ``~/work/shop``), else ``""``."""
    root, home = root.rstrip("/\\"), home.rstrip("/\\")
    if not root or not home or len(root) <= len(home) or not root.startswith(home) or root[len(home)] not in "/\\":
        return ""
    return "~" + root[len(home):]


def scrub_paths(text: str, project_root: str = "", home: str = "", user_names: Iterable[str] = ()) -> str:
    """Make text shareable: paths in ``project_root`` become relative, homes become ``~``, user names ``<user>``.

    Every home folder goes, not only ``home``: a transcript written on another machine
    names someone else's (``/home/alice``, ``/Users/bob``, ``/mnt/c/Users/frank``,
    ``C:\\Users\\dan``, ``\\\\server\\home$\\erin``, ``~hank``), and the user names those give
    away are scrubbed wherever else the text repeats them.
    """
    return path_scrubber(project_root, home)(text, user_names)


def path_scrubber(project_root: str = "", home: str = "") -> Callable[[str, Iterable[str]], str]:
    """``scrub_paths`` for one project and home, its patterns compiled once: ``scrub(text, user_names)``."""
    roots = [r for r in (_root_regex(project_root), _root_regex(_under(project_root, home))) if r is not None]
    home_re = _root_regex(home)

    def scrub(text: str, user_names: Iterable[str] = ()) -> str:
        names = [*user_names, *home_names(text)]
        for root_re in roots:
            text = root_re.sub(_relative, text)
        if home_re is not None:
            text = home_re.sub(_tilde, text)
        text = _OTHER_HOME.sub("~", text)
        text = _TILDE_USER.sub("~", text)
        return _scrub_names(text, names)

    return scrub


def _relative(m: re.Match[str]) -> str:
    return "" if m.group("sep") else "."


def _tilde(m: re.Match[str]) -> str:
    return "~" + (m.group("sep") or "")


def _scrub_names(text: str, names: Iterable[str]) -> str:
    unique = sorted({n.strip() for n in names if len(n.strip()) >= 2}, key=len, reverse=True)
    if unique:
        alt = "|".join(re.escape(n) for n in unique)
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
    scrub = path_scrubber(project_root, home)
    return lambda text: scrub(text, names)


def session_scrubber(cwd: str, project_root: str = "") -> Callable[[str], str]:
    """Scrub text typed in a session that ran in ``cwd``, on this machine or another one.

    Paths under the session's project (``project_root``, else ``cwd``) become relative to
    it, its home and this machine's become ``~``, and both user names become ``<user>``.
    """
    from pathlib import Path

    from agent_memory import redact

    root = project_root or cwd
    foreign_home, foreign_name = home_of(cwd)
    local_home = str(Path.home())
    names = [*redact.os_user_names(), *([foreign_name] if foreign_name.lower() not in _GENERIC_USERS else [])]

    in_session = path_scrubber(root, foreign_home or local_home)
    at_home = path_scrubber("", local_home) if foreign_home and local_home != foreign_home else None

    def scrub(text: str) -> str:
        text = in_session(text)
        if at_home is not None:
            text = at_home(text)
        return _scrub_names(text, names)  # last: a name inside a home must not hide the home

    return scrub


# ---------------------------------------------------------------------------
# control and format characters

# Unicode's format characters (category Cf: zero-width spaces and joiners, bidi embeddings,
# overrides and isolates, the byte-order mark, tag characters); written out so importing
# this costs no walk over the character database.
_FORMAT = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
INVISIBLE = re.compile(f"[{_FORMAT}]")
_CONTROL = re.compile(f"\r\n?|[\x00-\x08\x0b-\x1f\x7f-\x9f{_FORMAT}]")


def neutralise(text: str) -> str:
    """Text without control or format characters (ESC, BEL, U+202E, zero-width spaces…); tab and newline stay.

    A carriage return becomes a newline (it could otherwise hide what precedes it on a
    terminal); everything else in Unicode's Cc and Cf categories is dropped, so an escape
    sequence or a bidi override reaches no file and no agent's context.
    """
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():
        return text  # every character ``_CONTROL`` takes is unprintable, tab and newline aside
    return _CONTROL.sub(lambda m: "\n" if m.group(0)[0] == "\r" else "", text)
