"""Synthetic Claude Code history: realistic ``.jsonl`` sessions, deterministic from a seed.

What a real history looks like, at any size: sessions spread over weeks in a few projects;
mostly ordinary requests, some turns with durable claims ("always …", "never …", "from now
on …", corrections, preferences, lessons, failures, Japanese 「今後は必ず…」) drawn from a
large catalogue with a long tail, so popular claims recur across sessions and days while
most are said once; assistant messages split across lines by message id; bulky tool_use /
tool_result lines (file contents, test logs); isMeta, command, system, summary and
file-history lines; now and then a fake secret for the redaction filter to catch.
"""

from __future__ import annotations

import bisect
import json
import os
import random
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, TextIO

START = datetime(2026, 1, 5, 8, 0, tzinfo=timezone.utc)
VERSIONS = ("2.0.14", "2.0.22", "2.0.31", "2.0.37", "2.1.4")
MODEL = "claude-sonnet-4-5-20250929"

# Counts the atoms one user turn yields (``len(markers.find_markers(text))``).
AtomCounter = Callable[[str], int]


@dataclass(frozen=True)
class Profile:
    """How a history is shaped: session length, claim density, tool output bulk."""

    name: str
    turns: tuple[int, int]  # user turns per session
    marker_share: float  # share of user turns that carry a claim
    tool_calls: tuple[int, int]  # tool calls per user turn
    tool_bytes: tuple[int, int]  # size range of one tool output (log-uniform)
    reply_chars: tuple[int, int]  # assistant's closing text
    japanese_share: float = 0.12
    secret_share: float = 0.01  # of claim turns
    mixed: bool = False  # claims as a heavy user says them: habits restated in many wordings, a few revoked, one-offs
    habit_share: float = 0.33  # of a mixed profile's claim turns: restating a habit (the rest are one-offs)


# What a working history looks like: mostly tool traffic, a claim every few turns.
REALISTIC = Profile("realistic", turns=(5, 40), marker_share=0.12, tool_calls=(0, 6),
                    tool_bytes=(200, 16_000), reply_chars=(150, 1500))
# Many claims per megabyte, for building large stores quickly (same line shapes).
DENSE = Profile("dense", turns=(10, 40), marker_share=0.8, tool_calls=(0, 1),
                tool_bytes=(150, 1200), reply_chars=(80, 400))
# Dense shapes, claims as a heavy user says them: a third restate a few hundred habits in varied wording,
# about 1% revoke one, the rest are one-off rules naming files and modules.
MIXED = Profile("mixed", turns=(10, 40), marker_share=0.8, tool_calls=(0, 1),
                tool_bytes=(150, 1200), reply_chars=(80, 400), mixed=True)
# The mixed shapes with (nearly) every claim distinct: one-off rules only, now and then a revoked habit.
STRESS = Profile("stress", turns=(10, 40), marker_share=0.8, tool_calls=(0, 1),
                 tool_bytes=(150, 1200), reply_chars=(80, 400), mixed=True, habit_share=0.0)
PROFILES = {p.name: p for p in (REALISTIC, DENSE, MIXED, STRESS)}

# ---------------------------------------------------------------- vocabulary

PROJECTS = ("webshop", "infra", "ledger", "mobile-app", "data-pipeline", "docs-site")
MODULES = ("billing", "checkout", "auth", "search", "payments", "notifications", "inventory", "cart",
           "reporting", "onboarding", "webhooks", "scheduler", "importer", "exporter", "admin", "api",
           "worker", "gateway", "ledger", "profiles", "catalog", "pricing", "shipping", "audit", "invoices",
           "refunds", "sessions", "uploads", "thumbnails", "emails", "sms", "analytics", "experiments", "tenants",
           "permissions", "feeds", "comments", "ratings", "wishlist", "loyalty")
COMMANDS = ("pnpm lint", "pnpm test", "npm run build", "cargo fmt", "cargo clippy", "ruff check", "ruff format",
            "mypy --strict", "pytest -q", "go vet ./...", "make check", "pre-commit run -a", "tsc --noEmit",
            "terraform fmt", "terraform plan", "docker compose build", "alembic upgrade head", "uv sync",
            "bundle exec rspec", "gradle check", "mvn verify", "helm lint", "eslint --fix", "prettier --check")
PAIRS = (("pnpm", "npm"), ("yarn", "npm"), ("uv", "pip"), ("poetry", "pip"), ("pytest", "unittest"),
         ("vitest", "jest"), ("httpx", "requests"), ("ruff", "flake8"), ("zod", "yup"), ("date-fns", "moment"),
         ("pydantic", "marshmallow"), ("structlog", "the logging module"), ("orjson", "json"),
         ("pathlib", "os.path"), ("dataclasses", "namedtuples"), ("f-strings", "str.format"),
         ("Playwright", "Cypress"), ("Tailwind", "CSS modules"), ("ripgrep", "grep"), ("just", "make"),
         ("tabs", "spaces"), ("Podman", "Docker"), ("SQLAlchemy Core", "the ORM"), ("tRPC", "REST"))
PURPOSES = ("HTTP calls", "validation", "logging", "date handling", "config parsing", "test fixtures",
            "background jobs", "CLI parsing", "serialization", "retries", "feature flags", "migrations")
BRANCHES = ("main", "develop", "dev", "staging", "release", "trunk", "production", "next")
SERVICES = ("postgres", "redis", "the API", "the web app", "the worker", "grafana", "minio", "elasticsearch",
            "rabbitmq", "keycloak", "the admin panel", "the metrics exporter")
ENVS = ("staging", "production", "preview", "dev", "qa", "sandbox")
REGIONS = ("eu-west-1", "us-east-1", "ap-northeast-1", "eu-central-1", "us-west-2")
PLATFORMS = ("macOS", "Windows", "Alpine", "arm64", "Ubuntu 22.04", "Node 18", "Python 3.10", "Safari")
JOBS = ("e2e", "integration", "lint", "build", "docker", "release", "smoke", "migration", "nightly")
PRIVATE_FILES = (".env", "credentials.json", "*.pem", "terraform.tfstate", "node_modules", "dist/", ".DS_Store")
EXTS = ("py", "ts", "tsx", "go", "rs", "rb")
CONFIG_EXTS = ("yaml", "toml", "json", "ini")
ERRORS = ("KeyError: 'customer_id'", "TypeError: Cannot read properties of undefined (reading 'map')",
          "connection refused", "sqlalchemy.exc.IntegrityError: duplicate key value",
          "panic: runtime error: index out of range", "ECONNRESET", "AssertionError: expected 200, got 500",
          "ModuleNotFoundError: No module named 'pydantic_settings'", "deadlock detected")

_CHOICES: dict[str, tuple[str, ...]] = {
    "c": COMMANDS, "p": PURPOSES, "s": SERVICES, "e": ENVS, "os": PLATFORMS, "j": JOBS, "f": PRIVATE_FILES,
    "x": EXTS, "cx": CONFIG_EXTS, "err": ERRORS,
}

# (kind, stated, template); {m} {m2} module, {c} command, {a} {b} pair, {p} purpose, {br} {br2} branch,
# {s} service, {e} env, {port} {port2}, {r} {r2} region, {os} platform, {j} job, {f} private file,
# {n} small number, {x} ext, {cx} config ext. A slot written {name=} is the claim's value: a person states
# one value per subject ("postgres in staging listens on port 5433"), so the catalogue keeps one value
# per subject, save a few deliberate contradictions.
EN_CLAIMS: tuple[tuple[str, bool, str], ...] = (
    ("instruction", False, "Always run {c} before you commit."),
    ("instruction", False, "Always run {c} before pushing to {br=}."),
    ("instruction", False, "Never push directly to {br}."),
    ("instruction", False, "Never commit {f} files in the {m} package."),
    ("instruction", True, "From now on, use {a} instead of {b} in the {m} package."),
    ("instruction", True, "From now on, open PRs against {br=}, not {br2=}."),
    ("instruction", False, "Going forward, put new {m} tests under tests/{m}/."),
    ("instruction", True, "Remember that {s} in {e} listens on port {port=}."),
    ("instruction", False, "Whenever you change the {m} schema, regenerate the client with {c=}."),
    ("instruction", False, "In this repo, we use {a} for {p}."),
    ("instruction", False, "Please always add type hints to new functions in {m}."),
    ("instruction", False, "You should never call the {m} service directly from {m2}."),
    ("instruction", False, "Always use {a} for {p}."),
    ("instruction", False, "Never use {a} for {p}."),
    ("instruction", False, "Always keep {m} migrations backwards compatible for {n=} releases."),
    ("instruction", False, "Never bump the {a} version in {m} without asking me first."),
    ("correction", False, "No, the {s} port is {port=}, not {port2=}."),
    ("correction", False, "That's wrong. The {m} config lives in config/{m}.{cx=}."),
    ("correction", False, "The default branch for {m} is {br=}, not {br2=}."),
    ("correction", False, "No, we deploy {m} to {r=}, not {r2=}."),
    ("correction", False, "Actually, the {m} worker uses {a=} for {p}."),
    ("preference", False, "I prefer {a} over {b} for {p}."),
    ("preference", False, "I'd rather use {a} than {b} in {m}."),
    ("preference", False, "I prefer small PRs that only touch the {m} package."),
    ("lesson", False, "TIL: {s} drops idle connections after {n=} minutes."),
    ("lesson", False, "Lesson learned: the {m} tests need {s} running locally."),
    ("lesson", False, "Note to self: {c} needs the {e} credentials exported."),
    ("failure", False, "The {j} job fails every time on {os}."),
    ("failure", False, "The {m} integration test times out every single run on {os}."),
)
JA_CLAIMS: tuple[tuple[str, bool, str], ...] = (
    ("instruction", True, "今後は必ず{c}を実行してからコミットしてください。"),
    ("instruction", True, "今後は{m}では{a=}を使ってください。"),
    ("instruction", False, "{br}ブランチには絶対に直接プッシュしないでください。"),
    ("instruction", True, "覚えておいて：{e}の{s}のポートは{port=}です。"),
    ("instruction", False, "{m}のテストは必ず{c=}で実行してください。"),
    ("preference", False, "{m}では{b}より{a}の方が好きです。"),
    ("failure", False, "{j}ジョブは{os}で毎回失敗する。"),
)

EN_REQUESTS = (
    "Can you fix the failing test in src/{m}/{m2}.{x}? It started after the last merge.",
    "Add pagination to the {m} list endpoint and update the client.",
    "Why is {c} so slow on the CI runner? It takes several minutes now.",
    "Refactor {m} so the {m2} validation lives in one place.",
    "Write a migration that adds a {m2}_id column to the {m} table.",
    "Run the tests and tell me what fails.",
    "Update the README with the new {c} instructions.",
    "Look at this error and tell me what's going on: {err}",
    "The {j} job is red again, can you check the logs?",
    "Please add a retry with backoff around the {s} client in {m}.",
    "Can you explain how the {m} module talks to {m2}?",
    "Rename {m2}Service to {m2}Client everywhere and fix the imports.",
    "ok, commit that",
    "continue",
    "looks good, thanks",
    "Make the {m} page load faster, it feels sluggish.",
    "Where do we configure {s} for {e}?",
    "Add a test for the empty cart case in {m}.",
    "Split this function up, it's doing too much.",
    "Can you bump {a} to the latest minor version and run {c}?",
)
JA_REQUESTS = (
    "{m}のテストが落ちている原因を調べてください。",
    "このエラーを直して: {err}",
    "{m}モジュールの処理を整理してください。",
    "{c}が遅いので原因を調べて。",
    "ありがとう、コミットしてください。",
)

_CODE_LINES = (
    "def {m}_{n}(session, {m2}_id: int) -> dict:",
    "    \"\"\"Load the {m2} record and its {m} entries.\"\"\"",
    "    rows = session.execute(select({M}).where({M}.{m2}_id == {m2}_id)).scalars().all()",
    "    if not rows:",
    "        raise LookupError(f\"no {m} for {{ {m2}_id }}\")",
    "    return {{row.id: row.to_dict() for row in rows}}",
    "",
    "export async function fetch{M}(id: string): Promise<{M}> {{",
    "  const res = await fetch(`/api/{m}/${{id}}`, {{ headers: authHeaders() }});",
    "  if (!res.ok) throw new Error(`{m} ${{id}}: ${{res.status}}`);",
    "  return (await res.json()) as {M};",
    "}}",
    "import {{ {M}Schema }} from '../schemas/{m}';",
    "class {M}Repository:",
    "    def __init__(self, pool: Pool) -> None:",
    "        self.pool = pool",
    "    # keep the {m2} lookups in one round trip",
)
_LOG_LINES = (
    "tests/{m}/test_{m2}.py::test_{m}_{n} PASSED                               [ {n}%]",
    "tests/{m}/test_{m2}.py::test_{m2}_roundtrip PASSED                      [ {n}%]",
    "tests/{m}/test_{m2}.py::test_{m}_empty FAILED                            [ {n}%]",
    "E       AssertionError: assert {n} == {n2}",
    "E        +  where {n} = len([{M}(id={n2}), {M}(id={n})])",
    "src/{m}/{m2}.py:{n}: in load_{m2}",
    "    return self.pool.fetch({m2}_id)",
    "  ✓ {m} › renders the {m2} list ({n} ms)",
    "  ✕ {m} › handles an empty {m2} ({n} ms)",
    "npm WARN deprecated {m}-utils@{n}.{n2}.0: use @{m}/core instead",
    "{n2} passed, 1 failed, {n} warnings in {n}.{n2}s",
    "WARNING: {s} is not reachable on port {n}{n2}, retrying in {n}s",
)
_REPLY_SENTENCES = (
    "I've updated src/{m}/{m2}.{x} so the {m2} lookup happens in one query.",
    "The failing test was asserting on the old response shape; I changed it to match the new {M} schema.",
    "All {n} tests in tests/{m} pass now, and {c} is clean.",
    "The slowdown comes from the N+1 query in the {m} list view; I added a join.",
    "I left the {m2} fallback in place because the importer still relies on it.",
    "There's one warning left about a deprecated {m} helper, which is unrelated to this change.",
    "I couldn't reproduce the timeout locally; it may depend on the {e} network settings.",
    "Next, I'd suggest adding a contract test between {m} and {m2}.",
)


# ---------------------------------------------------------------- records


@dataclass
class History:
    """What was written: where, how much, and how many atoms ingest should find."""

    root: Path
    profile: str
    seed: int
    files: int = 0
    bytes: int = 0
    sessions: int = 0
    user_turns: int = 0
    claim_turns: int = 0
    atoms: int = 0  # what the marker rules find in the person's turns (0 when not counted)
    days: set[str] = field(default_factory=set)

    def as_json(self) -> dict[str, object]:
        return {"root": str(self.root), "profile": self.profile, "seed": self.seed, "files": self.files,
                "bytes": self.bytes, "sessions": self.sessions, "user_turns": self.user_turns,
                "claim_turns": self.claim_turns, "atoms": self.atoms, "days": len(self.days)}


def _uuid(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) & 3]}{h[17:20]}-{h[20:]}"


def _hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _stamp(moment: datetime) -> str:
    m = moment
    return f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}.{m.microsecond // 1000:03d}Z"


def _dump(record: dict[str, object]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


class _Slots(dict):  # type: ignore[type-arg]
    """A template's slot values, drawn only when the template uses them."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def __missing__(self, key: str) -> object:
        r = self.rng
        if key in ("m", "m2", "M"):
            self["m"], self["m2"] = r.sample(MODULES, 2)
            self["M"] = str(self["m"]).capitalize()
        elif key in ("a", "b"):
            self["a"], self["b"] = r.choice(PAIRS)
        elif key in ("br", "br2"):
            self["br"], self["br2"] = r.sample(BRANCHES, 2)
        elif key in ("r", "r2"):
            self["r"], self["r2"] = r.sample(REGIONS, 2)
        elif key in ("port", "port2"):
            self["port"] = port = r.randrange(1024, 65000)
            self["port2"] = port + r.randrange(1, 9)
        elif key in ("n", "n2"):
            self[key] = r.randrange(2, 99)
        else:
            self[key] = r.choice(_CHOICES[key])
        return self[key]


class _Vocabulary:
    """Fills a template's slots from a seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def fill(self, template: str) -> str:
        return template.format_map(_Slots(self.rng))


_VALUE_SLOT = re.compile(r"\{(\w+)=\}")
CONTRADICTION_SHARE = 0.03  # claims that restate a subject with another value


class _Claims:
    """A catalogue of distinct claims, drawn with a long tail (Zipf-like)."""

    def __init__(self, size: int, rng: random.Random, japanese_share: float) -> None:
        seen: set[str] = set()
        subjects: set[str] = set()
        self.texts: list[str] = []
        attempts = 0
        while len(self.texts) < size and attempts < size * 12:
            attempts += 1
            table = JA_CLAIMS if rng.random() < japanese_share else EN_CLAIMS
            _kind, _stated, template = table[len(self.texts) % len(table)] if attempts <= size else rng.choice(table)
            slots = _Slots(rng)
            text = _VALUE_SLOT.sub(r"{\1}", template).format_map(slots)
            subject = _VALUE_SLOT.sub("·", template).format_map(slots)
            if text in seen or (subject in subjects and rng.random() >= CONTRADICTION_SHARE):
                continue
            seen.add(text)
            subjects.add(subject)
            self.texts.append(text)
        rng.shuffle(self.texts)
        weights = [1.0 / (i + 1) ** 0.85 for i in range(len(self.texts))]
        total = 0.0
        self.cumulative: list[float] = []
        for w in weights:
            total += w
            self.cumulative.append(total)
        self.total = total

    def draw(self, rng: random.Random) -> str:
        return self.texts[bisect.bisect_left(self.cumulative, rng.random() * self.total)]


HABITS = 300  # distinct habits of the mixed profile
HABIT_SHARE = 0.33  # of claim turns
REVOKE_SHARE = 0.01  # of claim turns
HABIT_TEMPLATES: tuple[str, ...] = (
    "Always run {c} before you commit.", "Always run {c} before pushing to {br}.", "Never push directly to {br}.",
    "Always open PRs against {br=}.", "Always use {a=} for {p}.", "Never use {b} in the {m} package.",
    "Always add type hints to new functions in {m}.", "Always write tests for new {m} endpoints.",
    "Never call the {m} service directly from {m2}.", "Always keep {m} migrations backwards compatible for {n=} releases.",
    "Always put new {m} tests under tests/{m}/.", "Never log {m} payloads at info level.",
    "Always update the {m} changelog when you change its API.", "Never commit {f} files in the {m} package.",
    "今後は必ず{c}を実行してからコミットしてください。", "{br}ブランチには絶対に直接プッシュしないでください。",
    "{m}のテストは必ず{c=}で実行してください。",
)
ONE_OFF_TEMPLATES: tuple[str, ...] = (
    "Never edit src/{m}/{m2}_{k}.{x} by hand.", "Don't touch migrations/{k4}_{m}.py.",
    "Never change the public API of src/{m}/v{n}/{m2}.{x}.", "Always keep src/{m}/{m2}_{k}.{x} under {n}0 lines.",
    "Put the new {m} helpers in src/{m}/{m2}/utils_{k}.{x}.",
    "When you change src/{m}/{m2}_{k}.{x}, always update docs/{m}/{m2}.md.",
    "Never import from {m}/internal/{m2}_{k}.{x} outside {m}.",
    "Always regenerate src/{m}/generated/{m2}_v{k}.{x} after changing the schema.",
    "Remember that the {m} fixtures for {m2} live in tests/fixtures/{m}/{m2}_{k}.json.",
    "src/{m}/{m2}_{k}.{x}は手で編集しないでください。",
)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


class _Mixed:
    """Claims as a heavy user says them: habits in many wordings, now and then one revoked, many one-offs."""

    def __init__(self, rng: random.Random, habit_share: float = HABIT_SHARE) -> None:
        self.habit_share = habit_share
        seen: set[str] = set()
        subjects: set[str] = set()
        self.habits: list[str] = []
        attempts = 0
        while len(self.habits) < HABITS and attempts < HABITS * 20:
            attempts += 1
            template = HABIT_TEMPLATES[attempts % len(HABIT_TEMPLATES)]
            slots = _Slots(rng)
            text = _VALUE_SLOT.sub(r"{\1}", template).format_map(slots)
            subject = _VALUE_SLOT.sub("·", template).format_map(slots)
            if text in seen or subject in subjects:
                continue  # one value per subject: a habit is not contradicted by another habit
            seen.add(text)
            subjects.add(subject)
            self.habits.append(text)
        weights = [1.0 / (i + 1) ** 0.6 for i in range(len(self.habits))]
        self.cumulative = [sum(weights[: i + 1]) for i in range(len(weights))]
        self.total = self.cumulative[-1]

    def _habit(self, rng: random.Random) -> str:
        return self.habits[bisect.bisect_left(self.cumulative, rng.random() * self.total)]

    def draw(self, rng: random.Random) -> str:
        pick = rng.random()
        if pick < REVOKE_SHARE:
            habit = self._habit(rng)
            if habit.startswith("Always "):
                rest = habit[len("Always "):].rstrip(".")
                return rng.choice((f"Don't {rest} anymore.", f"No need to {rest} anymore.", f"Stop and don't {rest} anymore."))
            return habit
        if pick < REVOKE_SHARE + self.habit_share:
            return self._variant(self._habit(rng), rng)
        slots = _Slots(rng)
        slots["k"], slots["k4"] = rng.randrange(1, 1000), f"{rng.randrange(1, 10000):04d}"
        return rng.choice(ONE_OFF_TEMPLATES).format_map(slots)

    @staticmethod
    def _variant(habit: str, rng: random.Random) -> str:
        if not habit.isascii():
            return rng.choice((habit, "覚えておいて：" + habit, habit.rstrip("。")))
        return rng.choice((
            habit, "From now on, " + _lower_first(habit), "Please " + _lower_first(habit), habit.lower().rstrip("."),
            "And " + _lower_first(habit), "Remember: " + _lower_first(habit), habit.rstrip(".") + "!",
            "IMPORTANT: " + habit,
        ))


class _Blobs:
    """A pool of bulky tool outputs (file contents, test logs) of varied sizes."""

    def __init__(self, rng: random.Random, sizes: tuple[int, int], count: int = 48) -> None:
        vocab = _Vocabulary(rng)
        low, high = sizes
        self.files: list[str] = []
        self.logs: list[str] = []
        for i in range(count):
            target = int(low * (high / low) ** rng.random())
            lines = _CODE_LINES if i % 2 == 0 else _LOG_LINES
            body: list[str] = []
            size = 0
            while size < target:
                line = vocab.fill(rng.choice(lines))
                body.append(line)
                size += len(line) + 1
            (self.files if i % 2 == 0 else self.logs).append("\n".join(body))

    def file(self, rng: random.Random) -> str:
        return rng.choice(self.files)

    def log(self, rng: random.Random) -> str:
        return rng.choice(self.logs)


def _fake_secret(rng: random.Random) -> str:
    alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    kind = rng.randrange(3)
    if kind == 0:
        return "AKIA" + "".join(rng.choice(upper) for _ in range(16))
    if kind == 1:
        return "ghp_" + "".join(rng.choice(alnum) for _ in range(36))
    return "sk_live_" + "".join(rng.choice(alnum) for _ in range(24))


# ---------------------------------------------------------------- one session


class _Session:
    """Writes one session's lines, in Claude Code's own shapes, to an open file."""

    def __init__(self, out: TextIO, rng: random.Random, profile: Profile, blobs: _Blobs, claims: "_Claims | _Mixed",
                 project: str, start: datetime, counter: AtomCounter | None, history: History, session: str) -> None:
        self.out = out
        self.rng = rng
        self.profile = profile
        self.blobs = blobs
        self.claims = claims
        self.vocab = _Vocabulary(rng)
        self.counter = counter
        self.history = history
        self.session = session
        self.cwd = f"/home/dev/src/{project}"
        self.version = rng.choice(VERSIONS)
        self.branch = rng.choice(("main", "develop", f"feat/{rng.choice(MODULES)}-{rng.randrange(100, 999)}"))
        self.clock = start
        self.parent: str | None = None
        self.written = 0

    # -- plumbing
    def _tick(self, low: float = 1.0, high: float = 40.0) -> str:
        self.clock += timedelta(seconds=self.rng.uniform(low, high))
        return _stamp(self.clock)

    def _emit(self, record: dict[str, object]) -> None:
        line = _dump(record)
        self.out.write(line)
        self.written += len(line.encode("utf-8"))

    def _base(self, kind: str, sidechain: bool = False) -> dict[str, object]:
        me = _uuid(self.rng)
        record: dict[str, object] = {
            "parentUuid": self.parent, "isSidechain": sidechain, "userType": "external", "cwd": self.cwd,
            "sessionId": self.session, "version": self.version, "gitBranch": self.branch, "type": kind,
        }
        record["uuid"] = me
        if not sidechain:
            self.parent = me
        return record

    def _user(self, content: object, **extra: object) -> None:
        record = self._base("user")
        record["message"] = {"role": "user", "content": content}
        record.update(extra)
        uid = record.pop("uuid")
        record["uuid"] = uid
        record["timestamp"] = self._tick(5, 240)
        self._emit(record)

    def _assistant(self, message_id: str, block: dict[str, object], sidechain: bool = False) -> None:
        record = self._base("assistant", sidechain)
        record["message"] = {
            "id": message_id, "type": "message", "role": "assistant", "model": MODEL, "content": [block],
            "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": self.rng.randrange(3, 12), "cache_creation_input_tokens": self.rng.randrange(0, 4000),
                      "cache_read_input_tokens": self.rng.randrange(10_000, 90_000), "output_tokens": self.rng.randrange(20, 900),
                      "service_tier": "standard"},
        }
        record["requestId"] = "req_" + _hex(self.rng, 24)
        uid = record.pop("uuid")
        record["uuid"] = uid
        record["timestamp"] = self._tick(1, 20)
        self._emit(record)

    def _message_id(self) -> str:
        return "msg_01" + _hex(self.rng, 22)

    # -- content
    def _request(self) -> str:
        japanese = self.rng.random() < self.profile.japanese_share
        template = self.rng.choice(JA_REQUESTS if japanese else EN_REQUESTS)
        text = self.vocab.fill(template)
        if self.rng.random() < 0.08:
            text += "\n\n```\n" + self.blobs.log(self.rng)[:1500] + "\n```"
        return text

    def _claim_turn(self) -> str:
        claim = self.claims.draw(self.rng)
        if self.rng.random() < self.profile.secret_share:
            claim = claim.rstrip("。.") + f", and use the key {_fake_secret(self.rng)} for the {self.rng.choice(ENVS)} API."
        shape = self.rng.random()
        if shape < 0.45:
            return claim
        request = self._request()
        if shape < 0.75:
            return f"{request}\n\n{claim}"
        return f"{claim} {request}"

    def _tool_call(self, message_id: str) -> None:
        rng = self.rng
        tool_id = "toolu_01" + _hex(rng, 22)
        pick = rng.random()
        module = rng.choice(MODULES)
        if pick < 0.4:
            path = f"{self.cwd}/src/{module}/{rng.choice(MODULES)}.{rng.choice(EXTS)}"
            body = self.blobs.file(rng)
            self._assistant(message_id, {"type": "tool_use", "id": tool_id, "name": "Read", "input": {"file_path": path}})
            numbered = "\n".join(f"{i:>6}\u2192{line}" for i, line in enumerate(body.split("\n"), 1))
            lines = body.count("\n") + 1
            self._user([{"tool_use_id": tool_id, "type": "tool_result", "content": numbered}],
                       toolUseResult={"type": "text", "file": {"filePath": path, "content": body, "numLines": lines,
                                                               "startLine": 1, "totalLines": lines}})
        elif pick < 0.75:
            command = rng.choice(COMMANDS)
            log = self.blobs.log(rng)
            self._assistant(message_id, {"type": "tool_use", "id": tool_id, "name": "Bash",
                                         "input": {"command": command, "description": f"Run {command}"}})
            self._user([{"tool_use_id": tool_id, "type": "tool_result", "content": log, "is_error": rng.random() < 0.2}],
                       toolUseResult={"stdout": log, "stderr": "", "interrupted": False, "isImage": False})
        elif pick < 0.92:
            path = f"{self.cwd}/src/{module}/{rng.choice(MODULES)}.{rng.choice(EXTS)}"
            old = self.blobs.file(rng)[:600]
            new = old.replace("rows", "records")
            self._assistant(message_id, {"type": "tool_use", "id": tool_id, "name": "Edit",
                                         "input": {"file_path": path, "old_string": old, "new_string": new}})
            self._user([{"tool_use_id": tool_id, "type": "tool_result",
                         "content": f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet:\n" + new}],
                       toolUseResult={"filePath": path, "oldString": old, "newString": new, "originalFile": None,
                                      "structuredPatch": [], "userModified": False, "replaceAll": False})
        else:
            pattern = rng.choice(MODULES) + "_id"
            hits = "\n".join(f"src/{rng.choice(MODULES)}/{rng.choice(MODULES)}.py:{rng.randrange(1, 400)}: {pattern}"
                             for _ in range(rng.randrange(3, 30)))
            self._assistant(message_id, {"type": "tool_use", "id": tool_id, "name": "Grep",
                                         "input": {"pattern": pattern, "path": "src", "output_mode": "content"}})
            self._user([{"tool_use_id": tool_id, "type": "tool_result", "content": hits}],
                       toolUseResult={"mode": "content", "numFiles": hits.count("\n") + 1, "filenames": [], "content": hits})

    def _reply(self) -> None:
        rng = self.rng
        message_id = self._message_id()
        opener = rng.choice(("I'll take a look.", "Let me check the relevant files first.", "Sure, starting with the tests.",
                             "確認します。", "Let me look at how this is wired up."))
        self._assistant(message_id, {"type": "text", "text": opener})
        for _ in range(rng.randint(*self.profile.tool_calls)):
            if rng.random() < 0.5:
                message_id = self._message_id()
                self._assistant(message_id, {"type": "text", "text": self.vocab.fill(rng.choice(_REPLY_SENTENCES))})
            self._tool_call(message_id)
        if rng.random() < 0.03:
            self._sidechain()
        message_id = self._message_id()
        target = rng.randint(*self.profile.reply_chars)
        paragraphs: list[str] = []
        size = 0
        while size < target:
            paragraph = " ".join(self.vocab.fill(rng.choice(_REPLY_SENTENCES)) for _ in range(rng.randint(1, 3)))
            paragraphs.append(paragraph)
            size += len(paragraph)
        # a long answer arrives as several text blocks under one message id
        for start in range(0, len(paragraphs), 2):
            self._assistant(message_id, {"type": "text", "text": "\n\n".join(paragraphs[start:start + 2])})

    def _sidechain(self) -> None:
        record = self._base("user", sidechain=True)
        record["message"] = {"role": "user", "content": "Search the codebase for every caller of the " + self.rng.choice(MODULES) + " client."}
        record["timestamp"] = self._tick(1, 3)
        self._emit(record)
        self._assistant(self._message_id(), {"type": "text", "text": "Found 4 callers; none pass a timeout."}, sidechain=True)

    def _system(self) -> None:
        record = self._base("system")
        record.update({"subtype": "informational", "content": "Running PostToolUse hooks…", "isMeta": False,
                       "level": "info", "timestamp": self._tick(0.1, 1)})
        self._emit(record)

    # -- the session
    def write(self, turns: int, summaries: int = 0, stop_at_bytes: int = 0) -> None:
        rng = self.rng
        for _ in range(summaries):
            self._emit({"type": "summary", "summary": self.vocab.fill("Fix {m} {m2} lookup and tests"),
                        "leafUuid": _uuid(rng)})
        if rng.random() < 0.3:
            self._user("Caveat: The messages below were generated by the user while running local commands. "
                       "DO NOT respond to these messages or otherwise consider them in your response unless the user "
                       "explicitly asks you to.", isMeta=True)
        if rng.random() < 0.2:
            self._user("<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>")
            self._user("<local-command-stdout></local-command-stdout>")
        done = 0
        while done < turns or (stop_at_bytes and self.written < stop_at_bytes):
            done += 1
            if rng.random() < 0.1:
                self._emit({"type": "file-history-snapshot", "messageId": self._message_id(),
                            "snapshot": {"messageId": self._message_id(), "trackedFileBackups": {},
                                         "timestamp": _stamp(self.clock)}, "isSnapshotUpdate": False})
            claim = rng.random() < self.profile.marker_share
            text = self._claim_turn() if claim else self._request()
            self.history.user_turns += 1
            self.history.claim_turns += int(claim)
            if self.counter is not None:
                self.history.atoms += self.counter(text)
            self.history.days.add(_stamp(self.clock)[:10])
            if rng.random() < 0.3:
                self._user([{"type": "text", "text": text}])
            else:
                self._user(text)
            self._reply()
            if rng.random() < 0.1:
                self._system()
            if rng.random() < 0.04:
                self._user("[Request interrupted by user for tool use]")
            if stop_at_bytes and self.written >= stop_at_bytes and done >= 1:
                break


# ---------------------------------------------------------------- histories


def marker_counter() -> AtomCounter | None:
    """``len(find_markers(text))`` when the marker rules are importable, else None."""
    try:
        from agent_memory.markers import find_markers
    except ImportError:
        return None
    return lambda text: len(find_markers(text))


def write_history(
    root: Path,
    *,
    atoms: int = 0,
    megabytes: float = 0.0,
    seed: int = 7,
    profile: Profile = REALISTIC,
    projects: int = 4,
    weeks: int = 6,
    counter: AtomCounter | None = None,
) -> History:
    """Write sessions under ``root/<project dir>/<session>.jsonl`` until ``atoms`` or ``megabytes`` is reached.

    Atoms are counted with ``counter`` (the marker rules) as the sessions are written, so a
    store built from the history holds about ``atoms`` atoms.
    """
    if not atoms and not megabytes:
        raise ValueError("give a target: atoms or megabytes")
    rng = random.Random(seed)
    history = History(root=root, profile=profile.name, seed=seed)
    target_bytes = int(megabytes * 1_000_000)
    mean_turns = sum(profile.turns) / 2
    if atoms:
        per_session = max(0.5, mean_turns * profile.marker_share * 1.05)
        estimate = max(4, int(atoms / per_session))
    else:
        per_turn = 1200 + (sum(profile.tool_calls) / 2) * (sum(profile.tool_bytes) / 2) * 1.2
        estimate = max(4, int(target_bytes / (mean_turns * per_turn)))
    claims: _Claims | _Mixed
    if profile.mixed:
        claims = _Mixed(rng, profile.habit_share)
    else:
        claims = _Claims(max(50, (atoms or estimate * int(mean_turns * profile.marker_share) or 100) // 3), rng,
                         profile.japanese_share)
    blobs = _Blobs(rng, profile.tool_bytes)
    names = PROJECTS[: max(1, min(projects, len(PROJECTS)))]
    span = timedelta(weeks=weeks)
    root.mkdir(parents=True, exist_ok=True)
    index = 0
    while (atoms and (history.atoms if counter else history.claim_turns) < atoms) or (
        target_bytes and history.bytes < target_bytes
    ):
        project = names[index % len(names)] if rng.random() < 0.6 else rng.choice(names)
        start = START + span * min(1.0, index / estimate) + timedelta(minutes=rng.randrange(0, 600))
        folder = root / ("-home-dev-src-" + project)
        folder.mkdir(exist_ok=True)
        turns = rng.randint(*profile.turns)
        summaries = rng.choice((0, 0, 0, 1, 2))
        session_id = _uuid(rng)
        with open(folder / f"{session_id}.jsonl", "w", encoding="utf-8") as out:
            session = _Session(out, rng, profile, blobs, claims, project, start, counter, history, session_id)
            session.write(turns, summaries)
        history.files += 1
        history.sessions += 1
        history.bytes += session.written
        index += 1
    if counter is None:
        history.atoms = history.claim_turns
    return history


def write_transcript(
    path: Path,
    *,
    megabytes: float = 2.0,
    seed: int = 11,
    profile: Profile = REALISTIC,
    project: str = "webshop",
    start: datetime | None = None,
    session_id: str = "",
) -> int:
    """Write one session of about ``megabytes`` to ``path``; returns its size in bytes."""
    rng = random.Random(seed)
    history = History(root=path.parent, profile=profile.name, seed=seed)
    claims = _Claims(400, rng, profile.japanese_share)
    blobs = _Blobs(rng, profile.tool_bytes)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        session = _Session(out, rng, profile, blobs, claims, project, start or START + timedelta(weeks=7), None,
                           history, session_id or _uuid(rng))
        session.write(1, 0, stop_at_bytes=int(megabytes * 1_000_000))
    return os.path.getsize(path)


def new_session_id(seed: int) -> str:
    """A session id (UUID4 form) that depends only on ``seed``."""
    return _uuid(random.Random(seed))
