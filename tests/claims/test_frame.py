"""Claim identity by frame: one rule in other words is one claim, another rule stays apart, a reversal clashes.

Each row is a pair of wordings as a person types them, and how they stand: ``same`` (one claim), ``distinct``
(two claims) or ``contradiction``. The rows are shapes (verb classes, clause order, an alternative said as a
second clause, a reason clause, a purpose, slot words), not the labelled groups the identity is measured on.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.claims import claim_key, frame, relate

PAIRS = [
    # a limit said any way: "at most N", "N max", "≤ N", "never … longer than N"; "at least" is another rule
    ("same", "PR descriptions are at most 300 words.", "Never write a PR description longer than 300 words."),
    ("same", "Keep test names to 60 chars max.", "test names ≤ 60 characters"),
    ("same", "the first line of a commit message is at most 72 chars", "commit subjects ≤ 72 characters"),
    ("distinct", "PR descriptions are at most 300 words.", "PR descriptions are at least 300 words."),
    # a prohibition and the choice that rules out what it forbids, the subject said by both, a library by
    # its file name; not when the choice alone says where it holds
    ("same", "Never import lodash.", "Use native array methods instead of lodash."),
    ("same", "Never push to main.", "Always push to develop, not main."),
    ("same", "Never use moment.", "Use dayjs instead of moment.js."),
    ("distinct", "Don't use requests.", "Use httpx instead of requests in the tests."),
    # a choice's value said as where it holds by one wording ("rendered in X") and as taken by the other
    ("same", "Log timestamps use America/Chicago, not UTC.",
     "every log timestamp is rendered in `America/Chicago`, never UTC."),
    ("same", "Never edit the tf lock file by hand.", "never hand-edit the terraform lock file"),
    # the thing a choice rejects, taken again as where the rule holds ("in Objective-C"); pixels are px
    ("contradiction", "No, new iOS code is Swift, not Objective-C.", "Write the new iOS code in Objective-C from now on."),
    ("same", "Never size icons in pixels.", "Never size icons in px."),
    # an operator in a code span is a name ("`?` instead of .unwrap()" takes `?`, it does not take unwrap), and
    # ".unwrap()" and "unwrap" name one method
    ("same", "remember: `?` instead of .unwrap() in the parser, always", "Never use .unwrap() in the parser."),
    ("contradiction", "Never call `.unwrap()` in the parser.", "unwrap is fine in the parser now."),
    # a guarded step done "without" another prohibits that other before it
    ("contradiction", "Always squash commits before merging.", "Merge without squashing from now on."),
    ("contradiction", "Never deploy without a review.", "Deploy without a review from now on."),
    ("same", "Never commit without running pytest.", "Always run pytest before committing."),
    # 「main 分支」 and "main" are one branch when a permission lifts the prohibition
    ("contradiction", "不要直接推送到 main 分支。", "以后允许直接推送到 main。"),
    # Chinese and Japanese words of code's things take the English word: 本番 / 线上 / 生产环境 are production
    ("same", "本番に直接デプロイしないでください。", "Never deploy directly to production."),
    ("same", "线上不要开 debug 日志。", "不要在生产环境开 debug 日志。"),
    ("same", "接口路径用复数名词。", "API paths use plural nouns."),
    ("same", "マイグレーションは必ずステージングで試してください。", "Always try migrations on staging first."),
    ("distinct", "金额字段一律用整数。", "时间字段一律用整数。"),
    ("distinct", "线上不要开 debug 日志。", "测试环境不要开 debug 日志。"),
    # a limit in Chinese (不超过 / 以内 / 最多), a step and 前 / 後 after it, 選ぶ / 选 as "use", filler (尽量, 控制在)
    ("same", "每个 PR 的改动不超过 300 行。", "PR 的改动最多 300 行。"),
    ("same", "PR 的改动控制在 300 行以内。", "PR 的改动最多 300 行。"),
    ("contradiction", "PR 的改动最多 300 行。", "PR 的改动最多 500 行。"),
    ("same", "マージ前に必ず CI を確認してください。", "マージする前に必ず CI を確認してください。"),
    ("same", "ベースイメージに alpine を選ばないでください。", "alpine のベースイメージは使わないでください。"),
    ("same", "以后接口尽量用 REST 风格。", "以后接口用 REST 风格。"),
    # Go's err, a feature flag written in katakana, an asterisk in a query
    ("same", "Never ignore an err in the handlers.", "Never ignore an error in the handlers."),
    ("same", "フィーチャーフラグはデフォルトで off にしてください。", "feature flag はデフォルトで off にしてください。"),
    ("same", "クエリでアスタリスクを使わないでください。", "クエリで * を使わないでください。"),
    # words of a rule's form, or a verb that only says it is done, said by one wording alone
    ("same", "Always write Angular commit messages.", "commit messages follow the Angular format"),
    ("same", "Always run mypy before pushing.", "Always run `mypy check` before every push."),
    ("distinct", "Always run mypy before pushing.", "Always run mypy on the scripts folder before pushing."),
    ("distinct", "Never bump the version of the api client.", "Never bump the version of the web client."),
    # a prerequisite said as "never X before Y", "don't X until Y", "don't X without Y", "wait for Y"
    ("same", "Never deploy before the smoke tests are green.", "Always wait for the smoke tests to pass before deploying."),
    ("same", "Don't push until lint passes.", "lint must pass before you push"),
    ("same", "Don't commit without running mypy.", "Always run mypy before committing."),
    ("contradiction", "Never deploy before the smoke tests are green.",
     "You can deploy before the smoke tests are green now."),
    # the action a prerequisite guards is the clause's verb: in "squash commits before merging" commits are a thing
    ("contradiction", "Always squash commits before merging.", "Stop squashing commits before merging."),
    # the branch a rule goes to, with or without the word "branch"; a Japanese permission's ending; 「不需要」
    ("contradiction", "Never push directly to the main branch.", "Pushing directly to main is fine now."),
    ("same", "Never push to the master branch.", "never push to master"),
    ("contradiction", "mainに直接pushしないでください。", "mainに直接pushしてもいいです。"),
    ("contradiction", "每次提交前都要跑测试。", "以后提交前不需要跑测试。"),
    ("contradiction", "必ずdevブランチにPRを出す", "必ずmainブランチにPRを出す"),
    ("contradiction", "mainに直接pushしないでください。", "mainへの直接pushは解禁します。"),
    ("contradiction", "any は禁止です。", "any を使っても構いません。"),
    ("contradiction", "以后都用 pnpm，不要用 npm。", "不用 pnpm 了，换回 npm。"),
    # a setting switched off is the setting negated
    ("same", "Keep `noImplicitAny: true` in tsconfig.", "never turn off noImplicitAny in the tsconfig"),
    ("contradiction", "Keep `noImplicitAny: true` in tsconfig.", "Turn noImplicitAny off in tsconfig."),
    # examples show a rule, they are not more of it; a consequence ("or …") is not a rule of its own
    ("same", "Use semantic version tags.", "Use semantic version tags (v1.2.3, v2.0.0)."),
    ("same", "Run `uv sync` right after pulling.", "Run `uv sync` after pulling or the lockfile drifts and builds break."),
    # one thing named by another common word
    ("same", "Read API keys from environment variables.", "read api keys from env vars"),
    ("same", "Never bump the zod version.", "Don't upgrade zod."),
    ("same", "Pin base images to a hash.", "pin base images by sha"),
    ("contradiction", "Always add type hints to public functions.", "Type hints are optional now."),
    # Chinese: what comes before 不要 is the topic, not what the rule rejects; camel case, snake case, 函数名
    ("same", "变量名用驼峰命名。", "变量名不要用下划线，用驼峰。"),
    ("same", "以后变量一律用 camelCase 命名。", "变量名用小驼峰命名。"),
    # Japanese: a reason inside the clause (〜ので) is not part of the rule
    ("same", "グローバル変数は使わないで。", "グローバル変数はテストしにくいので使わないで。"),
    # a rule lifted in other words: skip it, forget about it, don't bother, no longer necessary
    ("contradiction", "Always run `make lint` before committing.", "Skip make lint before commits from now on."),
    ("contradiction", "Always run `make lint` before committing.", "Forget about make lint before committing, CI does it."),
    ("contradiction", "Always run `make lint` before committing.", "Don't bother running make lint before you commit."),
    ("contradiction", "Always run `make lint` before committing.", "make lint before commits is no longer necessary"),
    ("same", "Always run `make lint` before committing.", "Don't skip make lint before committing."),
    # "no X" is a rule even with one word; only "no" / "nope" alone says the last turn was wrong
    ("same", "no semicolons", "Never use semicolons."),
    ("contradiction", "no semicolons", "Always use semicolons."),
    # the rejected thing said first: "it's not X, it's Y", "not X but Y", 「不是 X，是 Y」
    ("same", "It's not yarn, it's pnpm.", "Use pnpm, not yarn."),
    ("same", "不是 yarn，是 pnpm。", "用 pnpm，不要用 yarn。"),
    ("contradiction", "Not yarn but pnpm.", "Use yarn, not pnpm."),
    # a Japanese run that is no word as a whole is cut at the known word it ends or opens with
    ("same", "変数名英語で統一", "変数名は英語で統一して"),
    ("contradiction", "変数名英語で統一", "変数名は日本語で統一して"),
    # an operator standing alone names one thing: "==" and "!=" are two rules, "==" / "===" a choice
    ("same", "不要用 ==，用 ===。", "Use === instead of ==."),
    ("distinct", "Never use == in tests.", "Never use != in tests."),
    # a flag or a bang-word is one name: two flags are two things, never a value swapped
    ("distinct", "Always run pytest with -x.", "Always run pytest with -q."),
    ("same", "Don't use `!important` in CSS.", "no !important in CSS ever"),
    ("distinct", "Never use `!important` in stylesheets.", "Never use inline styles in stylesheets."),
    ("same", "remember !important is banned in our stylesheets", "Never use `!important` in stylesheets."),
    ("same", "Never use !! in Kotlin code.", "Never use `!!` in Kotlin."),
    # a file is named by its whole name: a name without its extension would read as a value two files swap
    ("distinct", "Keep tsconfig.json formatted with prettier.", "Keep jsconfig.json formatted with prettier."),
    ("distinct", "Never edit settings.json by hand.", "Never edit the settings by hand."),
    # production is where a deploy goes; two reviewers approving are two approvals
    ("same", "Never deploy on Fridays.", "Don't ship to production on a Friday."),
    ("distinct", "Never deploy on Fridays.", "Never deploy to staging on Fridays."),
    ("same", "Every PR needs two approvals before merging.", "Two reviewers must approve before a PR is merged."),
    # a rule said as a list of the things it names
    ("same", "isort, profile black, always", "Always run isort with profile black."),
    # the language a thing is written in, swapped
    ("same", "PR の説明は英語で書いてください。", "PR の説明を日本語で書かないで、英語でお願いします。"),
    # word order, inflection and a conditional clause first
    ("same", "Always run black before committing.", "Before you commit, run black."),
    ("same", "Always run black before committing.", "pls always run black before commiting"),
    # verb classes
    ("same", "Use poetry instead of pip.", "prefer poetry over pip"),
    ("same", "Use poetry instead of pip.", "Don't use pip, use poetry."),
    ("same", "Use poetry instead of pip.", "we're a poetry shop, don't use pip"),
    ("same", "Never modify vendor/lib by hand.", "don't manually edit vendor/lib"),
    # a prohibition and the choice that replaces it
    ("same", "Don't use pip.", "Use poetry instead of pip."),
    ("same", "Never push directly to release.", "Pushing directly to release is not allowed, always go through a PR."),
    # a reason clause is not the rule
    ("same", "Never push directly to release.", "don't push straight to release, the CI depends on it"),
    # a slot word said or left out, and what a rule is for said or left out
    ("same", "Always open merge requests against trunk.", "merge requests go into trunk"),
    ("same", "Use poetry instead of pip.", "Use poetry instead of pip for installing packages."),
    # another moment, another tool, another scope, another object
    ("distinct", "Always run black before committing.", "Always run black before pushing."),
    ("distinct", "Always run black before committing.", "Always run isort before committing."),
    ("distinct", "Use poetry instead of pip.", "Use poetry instead of pip in the docker images."),
    ("distinct", "Never push directly to release.", "Never push directly to staging."),
    ("distinct", "Never edit vendor/lib by hand.", "Never edit vendor/api by hand."),
    ("distinct", "Use docker-compose for local runs.", "Use docker compose for local runs."),
    # a narrower permission is not a reversal
    ("distinct", "Never push directly to release.", "It's fine to push docs-only changes straight to release."),
    # reversals in other words
    ("contradiction", "Always run black before committing.", "Stop running black before commits, the editor does it now."),
    ("contradiction", "Never push directly to release.", "From now on you can push straight to release."),
    ("contradiction", "Never commit the .env file.", "It's fine to commit .env from now on."),
    ("contradiction", "Use poetry instead of pip.", "Use pip, not poetry."),
    ("contradiction", "Never use print for debug output, use the logging module.", "print() is fine for debug output."),
    ("contradiction", "Always open merge requests against trunk.", "Always open merge requests against main."),
    ("contradiction", "Write code comments in English.", "Write code comments in German."),
    ("contradiction", "今後は npm ではなく pnpm を使ってください。", "今後は pnpm ではなく npm を使ってください。"),
    # one choice of a thing over another, however each wording says it
    ("same", "Prefer attrs classes over namedtuples.", "define an attrs class instead of returning a namedtuple"),
    ("same", "use tomllib, not toml", "prefer `tomllib.loads` over the toml package"),
    ("same", "Use structlog for application logs.", "use structlog, not the stdlib logging"),
    ("distinct", "Prefer attrs classes over namedtuples.", "Prefer attrs classes over namedtuples in the scripts."),
    ("distinct", "Pin container images to a digest, not a tag.", "Pin npm packages to an exact version, not a tag."),
    # scope said in the clause that rejects stays with the rule; short names are the long ones
    ("same", "We use tabs in Makefiles.", "don't use spaces in makefiles, tabs"),
    ("same", "prefer tabs over spaces in JS files", "We use tabs in JavaScript."),
    # a role said in one wording and not in the other; one plain word more where three already name the rule
    ("same", "Always update NEWS.md in every PR.", "every PR needs a NEWS entry"),
    ("same", "Always delete the worktree after the branch is merged.", "delete the feature worktree once the branch is merged"),
    ("distinct", "Always open PRs against trunk.", "Always open hotfix PRs against trunk."),
    ("distinct", "use python 3.12", "use python 3.12 and uv"),
    ("distinct", "Always merge release branches from main into develop.", "Always merge release branches from develop into main."),
    # "never X without Y" and a count in words
    ("same", "every handler needs a docstring", "Don't write handlers without a docstring."),
    ("same", "Every release needs three sign-offs.", "every release needs 3 sign-offs"),
    ("contradiction", "Every release needs three sign-offs.", "every release needs 2 sign-offs"),
    # "it" is the thing the clause before named
    ("same", "Never edit `gen/proto` by hand.", "gen/proto is generated, never touch it manually"),
    # Japanese and Chinese cut into words, one word for one thing across languages
    ("same", "プッシュする前に必ず mypy を実行してください。", "プッシュ前には mypy を回して"),
    ("same", "Always run mypy before pushing.", "プッシュ前に必ず mypy をかけてください。"),
    ("same", "以后推送前先跑 mypy。", "推送代码前必须先运行 mypy。"),
    ("same", "提交前先跑 mypy。", "mypy 没跑过不要提交。"),
    ("distinct", "以后推送前先跑 mypy。", "以后提交前先跑 mypy。"),
    ("distinct", "提交信息用英文写。", "日志信息用英文写。"),
    ("contradiction", "推送前先跑 mypy。", "推送前不用再跑 mypy 了。"),
    ("contradiction", "main に直接プッシュしないでください。", "main に直接プッシュしても構いません。"),
    ("distinct", "main に直接プッシュしないでください。", "ドキュメントだけの変更なら main に直接プッシュしても大丈夫です。"),
    # the topic before は is not what 「ではなく」 rejects; 「X は使わないで」 is the alternative; 「〜ので」 is a reason
    ("same", "設定ファイルは config/ に置いて", "設定ファイルは root ではなく config/ に置いて"),
    ("same", "今後は yarn ではなく bun を使ってください。", "依存のインストールは bun でお願いします。yarn は使わないで。"),
    ("contradiction", "プッシュ前に必ず mypy を実行してください。", "プッシュ前の mypy はもう不要です。CI で回るので。"),
    # "the base branch for X is Y" is "X target Y"; "pass F to T" is "T with F"
    ("same", "Always open merge requests against trunk.", "the base branch for every merge request is trunk"),
    ("contradiction", "Always open merge requests against trunk.", "the base branch for every merge request is main"),
    ("same", "Always run cargo test with `--workspace`.", "remember to pass --workspace to cargo test"),
    # a rule's label is not the rule; listening on a port is running on it
    ("same", "Never merge on Saturdays.", "remember our rule: Saturday merges are off limits"),
    ("same", "the staging API runs on 9090", "Remember the local staging API listens on 9090."),
    ("same", "the staging API runs on port 9090", "the staging API is on 9090"),
    ("contradiction", "the staging API runs on port 9090", "the staging API runs on port 9191"),
    # a reversal that takes the value a choice rejected, keeping what it speaks of
    ("contradiction", "No, fixtures go in `tests/fixtures/`, not next to the tests.", "keep fixtures next to the tests from now on"),
    # a bare "never X" after a statement is what the statement rejects, not a rule of one word
    ("contradiction", "Spacing tokens stay in px, never em.", "Use em for spacing tokens, not px."),
    ("distinct", "Border widths stay in px, never em.", "Use em for spacing tokens, not px."),
    ("same", "Spacing tokens stay in px, never em.", "spacing tokens stay in px"),
    # a permission's "stop doing Y" names what the old rule made people do, not an alternative; ".m" is "m"
    ("contradiction", "expect() is fine in the worker too, stop rewriting every call to `?`.",
     "Never call `.expect()` in the worker, propagate with `?`."),
    ("distinct", "expect() is fine in the tests, stop rewriting every call to `?`.",
     "Never call `.expect()` in the worker, propagate with `?`."),
    # "no exceptions" says how firmly a rule holds, it rejects nothing
    ("same", "remember: a LICENSE header in every source file, no exceptions", "Always put a LICENSE header in every source file."),
]


def _standing(a: str, b: str) -> str:
    ka, kb = claim_key(a), claim_key(b)
    rel = relate(ka, kb)
    assert rel.kind == relate(kb, ka).kind, "a relation reads the same both ways"
    return rel.kind


@pytest.mark.parametrize("expected, a, b", PAIRS, ids=[f"{e}-{n}" for n, (e, _a, _b) in enumerate(PAIRS)])
def test_two_wordings_stand_as_a_person_reads_them(expected: str, a: str, b: str) -> None:
    assert _standing(a, b) == expected, (claim_key(a).text, claim_key(b).text)


def test_the_key_does_not_depend_on_word_order_or_reason_clauses() -> None:
    assert claim_key("Before you commit, run black.") == claim_key("Run black before you commit, the hook is slow.")
    assert claim_key("Use poetry, not pip.") == claim_key("Don't use pip, use poetry.")


def test_a_wording_of_only_weak_words_keeps_them() -> None:
    assert claim_key("any は禁止です。").tokens


def test_where_a_thing_goes_or_comes_from_is_part_of_the_claim() -> None:
    a = claim_key("You should never call the billing service directly from checkout.")
    b = claim_key("You should never call the checkout service directly from billing.")
    assert a != b and relate(a, b).kind == "distinct"
    assert relate(claim_key("Always open PRs against main."), claim_key("PRs should go into develop.")).kind == "contradiction"
    assert claim_key("remember to run black before every commit") == claim_key("Always run black before committing.")


def test_where_a_rule_holds_ends_where_its_act_begins() -> None:
    # "in Kotlin always declare …": Kotlin is where it holds, "declare" the act; "for every branch" stays a purpose
    scope = [t for t in claim_key("In Kotlin always declare with val, not var.").tokens if t.startswith("@")]
    assert scope == ["@kotlin"]
    assert _standing("In Kotlin always declare with val, not var.", "Prefer `val` over `var` in Kotlin.") == "same"
    assert _standing("In Kotlin always declare with val, not var.", "In Scala always declare with val, not var.") == "distinct"
    assert "+featur" in claim_key("Use a git worktree for every feature branch.").tokens


def test_how_far_a_rule_reaches_is_no_permission() -> None:
    # "wherever you can", "if possible": the rule asks as far as it goes; "you can" alone allows
    for text in ("Use dataclasses wherever you can.", "We should be using dataclasses where possible.",
                 "Use dataclasses if you can."):
        assert claim_key(text) == claim_key("Always use dataclasses."), text
    assert claim_key("You can use dataclasses.") != claim_key("Always use dataclasses.")


# every phrase's needles are in every text it matches in: a clause without them is rightly passed over
_FOLDS = [(pattern, frame.needles(pattern)) for pattern, _replacement in frame._PHRASES]


@pytest.mark.parametrize("pattern, needles", [fold for fold in _FOLDS if fold[1] is not None],
                         ids=lambda value: getattr(value, "pattern", "")[:40])
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_phrase_matches_only_where_its_needles_are(pattern: re.Pattern[str], needles: tuple[str, ...],
                                                     data: st.DataObject) -> None:
    text = data.draw(st.from_regex(pattern).filter(lambda t: pattern.search(t) is not None))
    assert any(needle in text for needle in needles)


def test_needles_are_read_off_what_a_match_starts_with() -> None:
    assert frame.needles(re.compile(r"\b(?:pull|merge) requests?\b")) == ("merge", "pull")
    assert frame.needles(re.compile(r"\b(?:go|goes|going) back\b")) == ("go",)  # "go" stands for the rest
    assert frame.needles(re.compile(r"^(?:just )?(?:drop|ditch)\b")) == ("ditch", "drop", "just ")
    assert frame.needles(re.compile(r"\S+ off\b")) is None  # a class: nothing to look for
    assert frame.needles(re.compile(r"(?:x)?")) is None  # may match nothing at all
    assert frame.needles(re.compile(r"off", re.IGNORECASE)) is None
    assert frame.needles(re.compile(r"(?i:off) limits")) is None
    assert len([n for _p, n in _FOLDS if n is not None]) >= len(_FOLDS) - 2  # nearly every phrase is passed over


def test_folding_with_needles_is_folding_every_phrase() -> None:
    def every(clause: str) -> str:
        for pattern, replacement in frame._PHRASES:
            if pattern.search(clause):
                clause = pattern.sub(replacement, clause)
        return clause

    clauses = ["open pull requests against develop", "we'd rather switch the api responses to camelcase",
               "don't bother with the changelog.md, no exceptions", "just drop freezegun", "turn strict off",
               "i'd rather wait for ci until merging", "keep the old branches around from now on", "prs go to main"]
    assert [frame.fold_phrases(c) for c in clauses] == [every(c) for c in clauses]


def test_a_japanese_permission_is_a_permission_however_politely_said() -> None:
    for said in ("any を使ってもいいです。", "any を使っても構いません。", "any を使ってもかまいません。", "any は解禁します。"):
        assert frame.PERMITTED in claim_key(said).tokens, said


@pytest.mark.parametrize("said, called_off, rule", [
    ("提交前跑测试这条规则取消了。", "提交前跑测试", "每次提交前都要跑测试。"),
    ("main に直接 push しないというルールはなしにします。", "main に直接 push しない", "main に直接 push しないでください。"),
    ("the rule about squashing commits before merging is lifted", "squashing commits before merging",
     "Always squash commits before merging."),
    ("the rule that we never push to main is no longer in effect", "we never push to main", "Never push to main."),
    ("The rule about rebasing before every merge is cancelled.", "rebasing before every merge",
     "Always rebase before every merge."),
])
def test_a_rule_named_and_called_off_contests_the_rule(said: str, called_off: str, rule: str) -> None:
    from agent_memory.claims.key import atom_key

    key = atom_key({"text": said, "reverses": called_off})
    assert relate(key, claim_key(rule)).kind == "contradiction", (key.text, claim_key(rule).text)
