"""Marker rules: one table per rule id, plus stated, splitting and property tests."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.markers import RULES, MarkerRule, find_markers, is_stated, split_sentences
from agent_memory.model import KINDS

INS, C, P, L, F = "instruction", "correction", "preference", "lesson", "failure"

# rule id -> rows of (user turn, kind the rule must yield or None).
# A None row must produce no marker at all: it is a near miss for that rule.
RULE_CASES: dict[str, list[tuple[str, str | None]]] = {
    # ------------------------------------------------- shapes real sessions use without a marker word
    "en.instruction.ensure_every": [
        ("ensure all milestones are completed", None),
        ("make sure all review comments are addressed", None),
        ("Ensure that every migration has a down step.", INS),
        ("make sure each module starts with a short docstring", INS),
        ("Please make sure all shell scripts use set -euo pipefail.", INS),
        ("make sure all tests are passing", None),
        ("Draft the page and make sure each heading is in sentence case.", None),
        ("Fix the bug and make sure all tests are passing.", None),
        ("make sure every row is in the table", None),
        ("Ensure every button has a hover state.", None),
        ("make sure every file you touched has a header", None),
        ("make sure each of these is saved", None),
    ],
    "en.instruction.keep_every": [
        ("Keep every module under 400 lines.", INS),
        ("keep each PR focused and small", INS),
        ("- Keep all public functions typed and documented", INS),
        ("keep all the changes you made", None),
        ("keep all of them", None),
        ("Keep all pages responsive.", None),
    ],
    "en.instruction.important_to": [
        ("It is vital to never log access tokens.", INS),
        ("It's really important to keep diffs small and easy to review.", INS),
        ("it is crucial to pin all dependencies", INS),
        ("But it's essential that we run migrations before deploying.", INS),
        ("it's important to fix this before the demo", None),
        ("It's important to keep the header short.", None),
        ("it's important to understand all options first", None),
    ],
    "en.instruction.remind_you": [
        ("Just a reminder that we deploy with the Makefile.", INS),
        ("I remind you that all commits here are signed.", INS),
        ("About the docs, I remind you the rule that we write docs in British English.", INS),
        ("remind me to call the vendor tomorrow", None),
        ("Just a reminder that the demo is today.", None),
        ("I remind you that it is still broken.", None),
        ("I remind you that I asked for a bar chart.", None),
        ("Just a reminder, the standup is at 10.", None),
    ],
    "en.instruction.periodically": [
        ("@TODO.md Periodically run `python ./cleanup.py status` to see results of lints and tests.", INS),
        ("Periodically run the whole suite and act on what fails.", INS),
        ("regularly rebase feature branches on main", INS),
        ("Every so often, prune stale branches.", INS),
        ("Periodically, I check the logs.", None),
        ("regularly check on it", None),
    ],
    "en.instruction.in_every_you_make": [
        ("In every file you create, add the license header at the top.", INS),
        ("For each component you write, add a story.", INS),
        ("in each migration we add, include a rollback", INS),
        ("In every file you touched, add a header.", None),
        ("In every file you create, fix this bug.", None),
    ],
    "en.correction.deprecated_for": [
        ("brews is being phased out in favor of homebrew_casks, check the docs for more info", C),
        ("the v1 endpoint is deprecated in favor of v2", C),
        ("FYI, moment.js has been superseded by date-fns", C),
        ("the old config loader is deprecated, use load_settings", C),
        ("is moment deprecated in favor of luxon?", None),
        ("it is deprecated in favor of the new one", None),
        ("I think brews might be deprecated in favor of casks", None),
        ("the function was replaced by a new one in the refactor you just did", None),
    ],
    "en.correction.deliberate_choice": [
        ("I think it's fine, can you revert that? We explicitly choosed Haiku as a default for Claude", C),
        ("We deliberately keep the config in yaml", C),
        ("the retry limit is 3 on purpose", C),
        ("the cache is disabled on purpose", C),
        ("did we deliberately choose Haiku?", None),
        ("I deliberately broke the test to see if CI catches it", None),
        ("you deliberately skipped the tests", None),
        ("it was on purpose", None),
    ],
    "ja.correction.environment": [
        ("ちょっと待って uvは入っててcatの扱い方が間違ってるだけだよ　この環境はWindowsなことに留意してやり直して", C),
        ("手元のシェルはfishです", C),
        ("うちのOSはUbuntu 22.04なので apt で入れて", C),
        ("この環境はWindowsですか？", None),
        ("環境構築をお願いします", None),
    ],
    "ja.instruction.stop_doing": [
        ("formatPriceLabelなんて関数を呼ぶのやめて", None),
        ("これpythonのインタプリタモードが起動しているから一度そこから抜け出してやり直した方がいいよ　あと最終段にcatつけるのやめて、無意味だから", INS),
        ("コマンドの最後にlessを付けるのやめてください", INS),
        ("出力をファイルに書くのはもうやめよう", INS),
        ("それやめて", None),
        ("やっぱりやめて", None),
    ],
    "ja.instruction.as_far_as_possible": [
        ("関数は極力アロー関数で書く", INS),
        ("次のステップがあれば実行し続けてください。質問を極力控えて自走してください。", INS),
        ("確認は極力控えてください", INS),
        ("実装中の質問はできるだけ控えてください", INS),
        ("できるだけ控えめな色にしてほしい", None),
        ("なるべく早く直して", None),
        ("このファイルでは極力コメントを減らして", None),
    ],
    "en.instruction.as_a_rule": [
        ("as a rule, we keep business logic out of the handlers", INS),
        ("Add a cli command. note that as a rule, we want to organize all business logic in per-domain modules", INS),
        ("generally we avoid global state", INS),
        ("In general, use the repository layer for every query", INS),
        ("generally it works fine", None),
        ("as a rule it is fast", None),
        ("generally, do you avoid global state?", None),
    ],
    "en.instruction.convention_is": [
        ("our convention is kebab-case file names", INS),
        ("Our policy is to squash-merge every PR", INS),
        ("the team's naming convention is snake_case for modules", INS),
        ("what's our convention here?", None),
        ("our convention is unclear", None),
        ("our policy is documented in the wiki", None),
    ],
    "en.preference.taste": [
        ("I don't like long functions", P),
        ("I hate when you rewrite whole files", P),
        ("I like all types to have their own file", P),
        ("I don't like this", None),
        ("I don't like the new header", None),
        ("I like this", None),
    ],
    "en.instruction.all_go_through": [
        ("all config goes through env vars", INS),
        ("every migration lives in db/migrations", INS),
        ("each secret is kept in the vault", INS),
        ("all tests go green now", None),
        ("every file goes through it", None),
    ],
    "en.instruction.keep_forgetting": [
        ("you keep forgetting to run the formatter", INS),
        ("You always forget to update the changelog before committing", INS),
        ("you keep forgetting to add type hints to new functions", INS),
        ("you keep forgetting it", None),
        ("do you keep forgetting to run it?", None),
    ],
    "en.instruction.we_dont_want": [
        ("we don't want debug prints in code", INS),
        ("we don't want emojis in commit messages", INS),
        ("I REALLY DON'T NEED TODO MARKERS IN THE CODEBASE", INS),
        ("I don't want errors in my code", None),
        ("we don't need more files in the repo", None),
        ("I don't need console logs in the code right now", None),
        ("I don't want comments in this file", None),
        ("we dont want to upload the file, it is already in the bucket", None),
        ("we don't want any new dependencies without discussion", INS),
        ("we don't want to use ORMs", INS),
        ("we dont want any feature flags left in after a release", INS),
        ("we don't want to change the header", None),
        ("we don't want that", None),
        ("I don't want `toMatchSnapshot` anywhere in the tests.", INS),
        ("we don't want print statements anywhere in the library", INS),
        ("I don't want it anywhere near the parser", None),
    ],
    "zh.instruction.keep_small": [
        ("保持 diff 小。", INS),
        ("保持函数简短", INS),
        ("保持 PR 小而聚焦", INS),
        ("保持这个函数简洁", None),
        ("保持联系", None),
    ],
    "zh.instruction.yuanze": [
        ("我的原则是能用现成的库就不自己写。", INS),
        ("原则是少引入依赖，能用标准库就用标准库。", INS),
        ("原则：先写测试再写实现。", INS),
        ("按这个原则重新review一下。", None),
        ("原则上可以直接合并。", None),
        ("原则问题，这一点不能让步。", None),
        ("这个项目的设计原则是什么？", None),
        ("这些的原则是要跟着新框架走", None),
        ("原则是1，按需加载；2，少用依赖", None),
        ("根据原则，这些应该改为：", None),
    ],
    "zh.instruction.as_far_as_possible": [
        ("尽量避免使用全局变量", INS),
        ("尽量少用第三方库", INS),
        ("写代码时盡量不用魔法数字", INS),
        ("尽量快点", None),
        ("尽量避免这个问题", None),
        # a kind kept small or short
        ("函数尽量短。", INS),
        ("commit message 尽量简洁", INS),
        ("这个函数尽量短。", None),
        ("图片尽量小一点", None),
    ],
    "zh.instruction.we_use": [
        ("我们用 pnpm，不用 npm", INS),
        ("这个项目用 Vue 3", INS),
        ("后端用 Django 来写", INS),
        ("我们用 React 写一个页面吧", None),
        ("我们用 pytest 跑一下测试", None),
        ("这个项目用 Vue 3 吗？", None),
    ],
    "zh.correction.setup": [
        ('我用的是华为云服务器，', C),
        ('我们用的是本地数据库', C),
        ("我用的是fish", C),
        ("我这边是Windows环境", C),
        ("我的系统是macOS，注意命令", C),
        ("我是新手", None),
        ("我用的是这个版本吗？", None),
    ],
    "zh.instruction.tongyi": [
        # the new name carried through a rename, an item of a plan for one file, an option laid out for a choice
        ("删掉旧表，把 orders_v2 改名为 orders，并在代码里统一用 orders", None),
        ("3. api/client.py - 去掉写死的地址，统一使用 Settings", None),
        ("- 方案 B：缺了，应该统一使用中间件", None),
        ("我们项目统一用tab缩进", INS),
        ("接口返回统一采用驼峰命名", INS),
        ("错误码統一使用大写", INS),
        ("帮我统一用1.23", None),
        ("统一一下格式", None),
    ],
    "zh.preference.dislike": [
        ("我不喜欢太长的函数", P),
        ("我讨厌嵌套的三元表达式", P),
        ("我真的不喜欢过度封装", P),
        ("我不喜欢这个颜色", None),
        ("我不喜欢那样", None),
    ],
    "zh.instruction.stop_habit": [
        ("不用老是汇报进度", INS),
        ("不用一直确认", INS),
        ("不用总是问我", INS),
        ("不用一直这样", None),
        ("不用老是看它", None),
    ],
    "zh.instruction.keep_forgetting": [
        ("你总是忘记跑测试", INS),
        ("你又忘了更新changelog", INS),
        ("你每次都忘记加类型标注", INS),
        ("你忘了这个", None),
        ("你又忘了这个文件", None),
    ],
    "en.instruction.into_rule_file": [
        ("Looks good. Can you update the task-decomposition cursor rule to make sure that every task gets a number?", INS),
        ("write me a cursor rule that prevents the agent from ever running two commands on one line", INS),
        ("can you update the cursor rule to make sure we always run lint before committing?", INS),
        ("can you update the rule?", None),
        ("write a rule that parses the log lines", None),
        ("update the cursor rule to say that this is done", None),
    ],
    "en.preference.as_much_as_possible": [
        ("I want to avoid using mocks/stubs as much as possible.", P),
        ("I'd like our local testing to replicate production as closely as possible", P),
        ("we try to reuse existing components wherever possible", P),
        ("can we reduce this as much as possible?", None),
        ("I want to reduce the bundle as much as possible for this release", None),
    ],
    "en.instruction.one_per": [
        ("One change per commit.", INS),
        ("One module per commit --never combine unrelated changes", INS),
        ("keep it to one component per file", INS),
        ("one per line", None),
        ("one more per page", None),
    ],
    "en.instruction.wait_for_approval": [
        ("Wait for explicit confirmation before editing any file", INS),
        ("wait for my ok before deploying", INS),
        ("Please wait for approval from the user before pushing to the remote.", INS),
        ("wait for my approval before merging this", None),
        ("wait for approval before doing that", None),
    ],
    "en.instruction.where_possible": [
        ("add the two gaps as well, use table driven tests where possible", INS),
        ("Reuse existing components wherever possible.", INS),
        ("Use pure functions whenever possible, and keep side effects at the edges.", INS),
        ("please use async/await where possible", INS),
        ("fix these where possible", None),
        ("use the new API where possible", None),
        ("can you use caching where possible?", None),
        ("use it where possible", None),
        ("For now, use mocks where possible", None),
    ],
    "en.instruction.not_x_just_y": [
        ("I don't want setup.py, just pyproject.toml!", INS),
        ("we don't want requirements.txt, only pyproject.toml", INS),
        ("I don't want `npm`, just `pnpm`.", INS),
        ("I don't want a summary, just the code", None),
        ("I don't want comments, just code", None),
        ("I don't want that, just the diff", None),
    ],
    "en.instruction.keep_record_current": [
        ("Keep this spec updated as decisions are made.", INS),
        ("Keep the changelog up to date as you go", INS),
        ("Please keep the docs updated after every change.", INS),
        ("keep the README up to date.", INS),
        ("keep me updated", None),
        ("keep the PR updated with main", None),
        ("keep the branch up to date", None),
        ("keep the docs updated for now", None),
        ("keep the list updated", None),
    ],
    "en.preference.comfortable_with": [
        ("For tech stack preferences, I'm most comfortable in JavaScript and TypeScript.", P),
        ("I'm much more comfortable with Go than Rust", P),
        ("honestly I'm more comfortable writing SQL by hand", P),
        ("I'm comfortable with whatever you recommend.", None),
        ("I'm more comfortable with this approach", None),
    ],
    "en.instruction.ill_handle": [
        ("I'm already running the dev server, and i'll manage that, so no need to do that yourself!", INS),
        ("I'm running the database locally and I'll handle it, you don't need to start it", INS),
        ("ok, and I will handle the releases, no need for you to tag anything", INS),
        ("I'll restart the server now", None),
        ("I'll fix it myself", None),
    ],
    "zh.instruction.every_time": [
        # 记得 before the moment that recurs
        ("记得每次修改都重启服务和代理", INS),
        ("记得每次都把这个文件备份一下", None),
        ('你每次上线之前自己检查一遍日志', INS),
        ('每次改完配置以后先跑一下测试', INS),
        ('这次上线之前你检查一下日志', None),
        ("每次改完都要跑一下lint", INS),
        ("每次提交前记得更新changelog", INS),
        ("每次改完代码记得格式化", INS),
        ("每次都要等很久吗？", None),
        ("每次这个文件都要改", None),
        ("每次运行都很慢", None),
    ],
    "zh.instruction.not_each_time": [
        ("不用每次都问我，直接改", INS),
        ("不必每次都重新安装依赖", INS),
        ("无需逐一确认，批量处理就行", INS),
        ("不用每次都问吗？", None),
        ("这个不用每次都跑", None),
    ],
    "ja.instruction.no_need_each_time": [
        ("いちいち確認しなくていいよ", INS),
        ("毎回まとめを書かなくていい", INS),
        ("いちいちテストの実行許可を求めないで", INS),
        ("いちいち確認しなくていいの？", None),
        ("この件はいちいち確認しなくていい", None),
    ],
    "ja.correction.works_without": [
        ("いや別にシンボリックリンクなくても読み込まれるよ", C),
        (".envなくても動きます", C),
        ("Dockerがなくてもビルドできるよ", C),
        ("なくても動く？", None),
        ("これなくても動くかも", None),
        ("それがなくても動くよ", None),
    ],
    "en.instruction.into_instruction_file": [
        ("in AGENTS.md, note that you shall always use `pixi run` to run python scripts", INS),
        ("in CLAUDE.md, note that this file is broken", None),
        ("can you update CLAUDE.md that we should always run `mise run fmt` together with `mise run lint`", INS),
        ("Please add a note to AGENTS.md that integration tests need the docker daemon running.", INS),
        ("Could you update CLAUDE.md that PR titles follow conventional commits", INS),
        ("Could you put into GEMINI.md that every public function gets a docstring.", INS),
        ("can you update CLAUDE.md?", None),
        ("can you update CLAUDE.md that it is done", None),
        ("can you update CLAUDE.md that the header is done?", None),
        ("What should we write in CLAUDE.md that covers the new flow?", None),
    ],
    "en.correction.id_kind": [
        ("Order ids are ULIDs.", C),
        ("user IDs are UUIDs.", C),
        ("btw all ids should be uuid v7", C),
        ("Are the ids UUIDs?", None),
        ("these ids are strings, convert them", None),
        ("I think the ids are integers", None),
    ],
    "en.correction.setup_fact": [
        ("I use the fish shell", C),
        ("fyi we rely on PostHog for all tracking", C),
        ("btw I'm on an Arch machine", C),
        ("I develop on a Windows laptop with WSL2", C),
        ("I use it a lot", None),
        ("we rely on the same one", None),
        ("I use Cursor sometimes, maybe VS Code", None),
        ("Do we rely on Sentry for all errors?", None),
        ('I use fish.', C),
        ("I'm using zsh with oh-my-zsh.", C),
        ('We rely on Sentry for error tracking.', C),
        ('I use vim to edit this file', None),
        ('we rely on it for now', None),
        ("I use uv to manage python packages", C),
        ("I use nvm to manage node versions", C),
        ("nvm, I use pyenv to manage python versions", None),
        ("I always use pnpm for dependencies", C),
        ("I manage my dotfiles with chezmoi", C),
        ("I use this script to manage the packages", None),
        ("I use it for dependencies", None),
        ("I used uv to manage the packages", None),
        ("Do I use uv for python packages?", None),
        ("I use uv for python packages for now", None),
    ],
    "ja.instruction.shiyou": [
        ("TypeScriptを使用(JavaScriptは使わない)", INS),
        ("ESModules形式(import/export)を使用", INS),
        ("Vitestを使用する", INS),
        ("このライブラリを使用", None),
        ("main ブランチを使用", None),
    ],
    "ja.instruction.never_committed": [
        ("`.env` ファイルはコミットしない", INS),
        ("node_modules は git にコミットしない", INS),
        ("秘密鍵はプッシュしない", INS),
        ("今回は変更をコミットしない", None),
        ("このファイルはコミットしない", None),
    ],
    "ja.instruction.written_in": [
        ("コメントは日本語", INS),
        ("変数名・関数名は英語(camelCase)", INS),
        ("技術的な議論も日本語で行う", INS),
        ("コードレビューでは日本語でコメントを記載する", INS),
        ("このコメントは日本語", None),
        ("コメントは日本語？", None),
        ("このファイルは日本語で書く", None),
        ("pr名英語に", INS),
        ("コミットメッセージは日本語で", INS),
        ("PRタイトルは英語でお願いします", INS),
        ("ドキュメントも英語で書いてください。", INS),
        ("このPRは英語で", None),
        ("それ英語に", None),
        ("README を英語にしたのはなぜ？", None),
        ("今回のコメントは英語で", None),
        ('PR description は English で書いてね', INS),
        ('この PR は English で書いて', None),
    ],
    "zh.instruction.before_first": [
        ("改之前先读", INS),
        ("改代码前先读", INS),
        ("动之前先读", INS),
        ("改这个之前先看看", None),
        ("帮我改之前先备份一下", None),
        ("改之前先读吗？", None),
    ],
    # ------------------------------------------------------------------ en correction
    "en.correction.wrong": [
        ("wrong dir, the seed data lives in fixtures so the loader finds it", C),
        ("wrong dir, put it in the other one", None),
        ("That is totally wrong. The balance should be around 4.6MM.", None),
        ("No, that's wrong — the API base path is /v2.", C),
        ("That's not right. The cron job runs at 02:00 UTC.", C),
        ("You got it backwards: the primary is in us-east-1 and the replica in eu-west-1.", C),
        ("That's incorrect, the staging cluster is in eu-west-1.", C),
        ("that's wrong", None),
        ("That's wrong, please fix it.", None),
        ("Is that wrong?", None),
        ('thats still wrong. the following is the only right way', None),
        ("That's wrong, the function should return None.", None),
        ("that's not right. The total should include tax", None),
        ("That's incorrect. We use Postgres, not MySQL.", C),
        # a tool or a layer of the setup is a fact that stands
        ("Wrong, the lint tool here is ruff, not flake8.", C),
        ("That's not how it works. Sessions are checked by the auth middleware.", C),
        ("That's wrong, the migration should be on the left card.", None),
    ],
    "en.correction.no": [
        ("no. the divider needs to line up across all the cards.", None),
        ("no, we dropped the export command on purpose", C),
        ("No, the second approach handles it better.", None),
        ("No, the regex approach is no good.", None),
        ("No, in rows 12 and 13 you will see the totals.", None),
        ("No. All we want is a tiny CLI that does ONE job.", None),
        ("Nope, I just need a script that renames the files.", None),
        ("No, I meant, why don't we cache the token after login.", None),
        ("No, the default branch is main.", C),
        ("nope, the config lives in ~/.config/app/settings.toml", C),
        ("No — we deploy with Helm, the Terraform module is only for the VPC.", C),
        ("No, don't do that.", None),
        ("No, leave it as is.", None),
        ("No, it's not deployed yet.", None),
        ("Nope, the CI badge is still red.", None),
        ("No, not that one, the other one.", None),
        ("'no-undef': 'off',", None),
        ("No, the order ids are ULIDs.", C),
        # a change to the work at hand, said after a no
        ("No, it should read from the config file.", None),
        ("no, this should return an empty list", None),
        ('no, tables are not there', None),
        # a reply about the work at hand: a thing pointed at, the task's trouble, what is needed now, how it looks
        ("No, it's the second one.", None),
        ("no, that function is called from two places", None),
        ("No, those are two different bugs.", None),
        ("no. the issue is that the modal closes before the save completes", None),
        ("No, we need to handle the empty case too.", None),
        ("No, we don't need that.", None),
        ("no, the page is blank now", None),
        ("no, the new version is worse", None),
        # ... unless it names the project or sets a fact against another
        ("No, this repo uses pnpm.", C),
        ("No, it's Postgres, not MySQL.", C),
        ("No, they're UUIDs, not integers.", C),
        ("No, we use Vitest in this project.", C),
    ],
    "en.correction.actually": [
        ("Actually the new layout is what they asked for.", None),
        ("Actually, the default branch is trunk.", C),
        ("actually it should be snake_case for the JSON keys", C),
        ("Actually the worker runs on Python 3.12.", C),
        ("Actually, can you also add a loading spinner?", None),
        ("Actually this is fine, ship it.", None),
        ("Actually never mind.", None),
        ("Actually the API is served from /v2.", C),
        # the bug at hand, described
        ("Actually the bug is in the parser.", None),
        ("actually the real problem is the cache key", None),
    ],
    "en.correction.x_not_y": [
        ("The 0.41 vs 0.27 spread comes from sampling, not a bug.", None),
        ("the p95 is 120ms vs 80ms because of the cold cache, not the ORM", None),
        ("the badge goes on the left card, not the right one", None),
        ("when I open the modal it's still the old form instead of the new one", None),
        ("remove the lookup table, we don't need it, it is spread across three modules, not in one place", None),
        ("ok, and note that we use uv instead of pip", C),
        ("The docstring is misleading: the timeout is read from the env, not from the config file.", None),
        ('Actually the bug is in the serializer, not in the view.', None),
        ('The real issue is the stale cache, not the network.', None),
        # one named thing and what it should become: a change asked for now
        ("it should error if the name is missing, not silently continue", None),
        ("the status should be IN-REVIEW, not DONE", None),
        ("the default must be false, not true", None),
        ("The port is 8080, not 8000.", C),
        ("order ids are ULIDs, not integers", C),
        ("It's Postgres 15, not 14.", C),
        ("PRs target develop, not main.", C),
        ("I'm on fish, not bash, so give me fish syntax.", C),
        ("we run Postgres 16, not 15", C),
        ("The default is 10, not 20, right?", None),
        ("It's fast, not just correct, I guess.", None),
        ('That path is on my main machine, not in the container.', None),
        ('Zonal painting is black fill, not using the fill params', None),
        ("They're uuids, not integers.", C),
        ('But for inventory purposes it is the same product, not two.', None),
        ('The key is for this to feel natural, not forced.', None),
    ],
    # ------------------------------------------------------------------ en failure
    "en.failure.always_fails": [
        ("same error again, the worker always crashes on start", None),
        ("`pnpm build` always crashes with an OOM when sourcemaps are on.", F),
        ("test_upload consistently fails when the tmp dir is on another filesystem.", F),
        ("It never fails locally but always fails in CI.", F),
        ("It doesn't always fail, only on Mondays.", None),
        ("Write a test that always fails so we can check the CI gate.", None),
        ("For now, always return an empty list from that endpoint.", None),
    ],
    "en.failure.every_time": [
        ("It still fails every time.", None),
        ("I keep getting this error every time I deploy.", None),
        ("The e2e suite fails every time on the macOS runner.", F),
        ("Every time I run the migrations locally, alembic hangs on the lock.", F),
        ("Hot reload breaks whenever I edit a file under shared/.", F),
        ("The test is flaky, it sometimes fails on CI.", None),
        ("Make the CLI fail fast whenever the config file is missing.", None),
        ("Every time I look at this file I find another bug, lol.", None),
    ],
    "en.failure.reproducible": [
        ("It's 100% reproducible: open the settings page twice.", F),
        ("The race reproduces consistently with two workers.", F),
        ("I can reproduce it every single time on a clean checkout.", F),
        ("Can you reproduce it?", None),
        ("Add a reproducible build flag to the Dockerfile.", None),
    ],
    # ------------------------------------------------------------------ en lesson
    "en.lesson.lesson_learned": [
        ("Lesson learned: never run terraform apply without a saved plan.", L),
        ("The lesson here is that mocks hid the timezone bug.", L),
        ("Never deploy on a Friday afternoon, lesson learned.", L),
        ("The lesson component needs a new prop.", None),
        ("Lesson learned.", None),
    ],
    "en.lesson.til": [
        ("TIL git worktree shares the object store with the main clone.", L),
        ("Today I learned that pytest's -k matches substrings of test names.", L),
        ("TIL:\nuv caches wheels globally across projects.", L),
        ("What I learned today: the webhook retries up to five times, so handlers have to be idempotent.", L),
        ("wait til the build finishes, then deploy", None),
        ("What I learned today is not much.", None),
        ("TIL", None),
    ],
    "en.lesson.gotcha": [
        ("Gotcha: Next.js caches fetch() calls by default in server components.", L),
        ("One gotcha with uv: it ignores requirements.txt unless you pass -r.", L),
        ("Pitfall: the S3 client retries PUTs silently on 500s.", L),
        ("Gotcha, thanks!", None),
        ("what's the gotcha with async fixtures in pytest", None),
    ],
    "en.lesson.note_to_self": [
        ("Note to self: the Stripe webhook secret differs between test and live mode.", L),
        ("For future reference, the prod DB password rotates on the first of each month.", L),
        ("note to self -- bump the chart version together with the image tag", L),
        ("Note to self: buy milk", None),
        ("Add a memo field to the invoice form.", None),
    ],
    # ------------------------------------------------------------------ en preference
    "en.preference.prefer": [
        ("Prefer pure functions.", P),
        ("Prefer the second option.", None),
        ("Prefer yes.", None),
        ("I'd prefer a toggle here.", None),
        ('I prefer the third layout you proposed.', None),
        ("I'd prefer option B over option A.", None),
        ("I prefer pytest fixtures over setUp/tearDown.", P),
        ("Prefer pathlib over os.path for new code.", P),
        ("My preference is tabs for Go and spaces everywhere else.", P),
        ("Whichever you prefer is fine.", None),
        ("I prefer not to.", None),
        ("I prefer tabs.", P),
        ("Prefer composition over inheritance.", P),
        ("Do you prefer Jest or Vitest?", None),
    ],
    "en.preference.rather": [
        ("I'd rather have a bar chart here.", None),
        ("I'd rather we keep helpers in utils/ here.", P),
        ("That looks good but I'd rather have the rows grouped by day:", None),
        ("This is fine but we'd rather see a table here.", None),
        ("I'd rather have one small PR per fix than a giant one.", P),
        ("I would rather keep the config in TOML than in YAML.", P),
        ("We'd rather pay for CI minutes than maintain self-hosted runners.", P),
        ("I'd rather not.", None),
        ("Rather than patching it, rewrite the parser?", None),
        ("I'd much rather have the product fail loudly than fall back to mock mode.", None),
        ("I'd rather have small PRs than one big one.", P),
        # a path's "::" introduces no pasted error
        ("I'd rather you write to std::io::stdout than use println! in the library.", P),
        # a pick among what is on the table now
        ("I'd rather keep the current layout.", None),
        ("I'd rather go with option 2.", None),
        ("I'd rather you revert that than patch it.", None),
    ],
    "en.preference.like_better": [
        ("I like f-strings better than .format().", P),
        ("honestly I like plain SQL more than the ORM for reports", P),
        ("I'm a big fan of early returns.", P),
        ("I like the new layout better.", None),
        ("Is this better than the old one?", None),
    ],
    # ------------------------------------------------------------------ en instruction
    "en.instruction.always": [
        ("Always use the deploy key for pushes. It failed like this:\n\n› git push\n  └ denied", INS),
        ("When you lose the connection to the server always re-check the state of the app.", INS),
        ("when you are done always tell me", None),
        ("for the report command let's ALWAYS sort by size, biggest first", None),
        ("Always sort imports alphabetically.", INS),
        ("I'd like you to always ask before deleting files.", INS),
        ('I need you to always run it again.', None),
        ('I want you to always show the banner on the home page.', None),
        ('Can you look at the flaky test, and we always run the suite with --runInBand.', INS),
        ('Always use the new logger in the new module.', None),
        ('If the build fails we would retry; always run lint before pushing.', None),
        ("Always run `pnpm lint` before you commit anything.", INS),
        ("Make sure to always bump the version when you cut a release.", INS),
        ("Commit messages should always be in English.", INS),
        ("We always squash-merge PRs here.", INS),
        ("Should we always use pnpm for this?", None),
        ("Add an always-on display toggle to the settings screen.", None),
        ("As always, thanks for the help!", None),
        ("Maybe we should always pin exact versions.", None),
        ("URL paths should always be kebab-case.", INS),
        ("Claude should always ask before installing a package.", INS),
        # a pointing word ties it to the task; a part of the product is a feature asked for
        ("Always keep the original behaviour when you refactor this function.", None),
        ("Let's always use the domain module for this.", None),
        ("The menu should always show the Back option.", None),
        ("the app should always start in dark mode", None),
        ('The main branch should always be deployable.', INS),
        ('the center swatch should always be the topmost', None),
        ('Always pin it to an exact version when you add a dependency.', INS),
        ('yes, always show explicit guest', None),
        ('Always show me the plan before you edit files.', INS),
        # "the same" the sentence defines: a relation, not a thing of the task
        ("Always bump the version and update the changelog in the same commit.", INS),
        ("Always regenerate the client in the same commit as the schema edit.", INS),
        ("Always reuse the same branch.", None),
        # a language named first, an attribute or a decorator after "always"
        ("In Go always wrap errors with context.", INS),
        ("always @Override on overriding methods", INS),
        ("In Chrome the menu always flickers", None),
        ("in this file always use tabs", None),
        ('Always use this key for the payment sandbox: pk_test_example', INS),
    ],
    "en.instruction.not_allowed": [
        ("Force pushes are forbidden.", INS),
        ("Emojis are never allowed in commit messages.", INS),
        ("Direct pushes to main are not allowed", INS),
        ("git show on any large file – BANNED", INS),
        ("secrets in the repo are strictly prohibited", INS),
        ("That is not allowed.", None),
        ("it is not allowed to do that", None),
        ("Why is this not allowed?", None),
        ("Sorry, pushing is not allowed right now", None),
        ("remember !default is banned in SCSS partials", INS),
        ("Why is !important not allowed?", None),
    ],
    "en.instruction.never": [
        ("The error rate climbed after the deploy, and never stabilized.", None),
        ("We never shipped on Fridays.", None),
        ("never embed API keys in the image", INS),
        ("Never exceed 80 columns in Python files.", INS),
        ("never force-push to other people's branches", INS),
        ("Fix the parser, update the docs, and never store blobs in the db.", INS),
        ('Never commit generated files again.', INS),
        ('I want you to never touch the production database.', INS),
        ('could you rerun the job; also never skip the smoke tests before a release.', INS),
        ('Never let the visitors see the admin link on the pricing page.', None),
        ('You should never force users to log in twice.', None),
        ('Never push to main, another developer is doing a release.', None),
        ('Why is the page blank; he said we never cache the HTML.', None),
        ("CRITICAL: NEVER commit without being asked.", INS),
        ("Never force-push to a shared branch.", INS),
        ("Please don't ever commit the .env file.", INS),
        ("Under no circumstances should you run migrations against prod.", INS),
        ("Never mind, I found it.", None),
        ("The worker is stuck in a never-ending loop.", None),
        ("I never said that.", None),
        (".env must never be committed.", INS),
        ("Tests should never hit the network.", INS),
        ("Never return null from a public API.", INS),
        ("The call hangs, never returns.", None),
        # a complaint about what was done, and what the product must not do
        ("You should never have done that.", None),
        ("you shouldn't have deleted the fixtures", None),
        ("The TUI should never hide the progress bar.", None),
        ("Never rename a table and change its columns in the same deploy.", INS),
        ("Never remove an env var in the same release that still reads it.", INS),
        ("Never push the fix to the same branch.", None),
    ],
    "en.instruction.from_now_on": [
        ("From now on, open PRs against develop.", INS),
        ("ok that works. from now on respond in Japanese please", INS),
        ("From now on:\n- use pnpm\n- 2-space indent", INS),
        ("I'll always run the linter before committing from now on.", None),
        ("What changes from now on?", None),
    ],
    "en.instruction.going_forward": [
        ("OK, going forward.", None),
        ("in the future we need to develop new importers for the bank feeds", None),
        ("Summarize what you found and make a plan going forward.", None),
        ("Going forward, use conventional commit messages.", INS),
        ("In the future, ask me before deleting any files.", INS),
        ("Next time, check the CI logs before guessing.", INS),
        ("Going forward with the migration — run step 2 next.", None),
        ("Reject dates in the future in the booking form.", None),
        ("In the future we might split this service.", None),
        ("Going forward, let's focus on the login page.", None),
        ("Moving forward, we'll start with the parser and then the CLI.", None),
        ("Going forward, let's keep PRs under 300 lines.", INS),
    ],
    "en.instruction.next_time_lesson": [
        ("Run the linter yourself next time.", INS),
        ("Ask me first next time.", INS),
        ("check the schema before writing a migration next time", INS),
        ("Add the export button next time.", None),
        ("Let's do the charts first next time.", None),
        ("fix it properly next time?", None),
        ("Save the cleanup for next time.", None),
    ],
    "en.instruction.whenever": [
        ("Whenever you change the GraphQL schema, regenerate the types.", INS),
        ("Run `make test` every time you touch anything under src/core.", INS),
        ("Each time you add an endpoint, update the OpenAPI spec.", INS),
        ("Fix it whenever you get a chance.", None),
        ("Every time you push, CI runs twice — can you figure out why?", None),
        ("Every time I push, run the linter first.", INS),
        ("Whenever I click on like, save, cite or share, the login pop-up should appear", None),
        ("Every time the user taps the card, open the detail view.", None),
    ],
    "en.instruction.in_this_project": [
        ("In this repo, tests live under tests/unit.", INS),
        ("Don't use `any` in this codebase.", INS),
        ("Here we use tabs for indentation.", INS),
        ("Create a new component in this repo.", None),
        ("In this PR, always use the new logger.", None),
    ],
    "en.instruction.remember": [
        ("Go ahead! Remember, keep it lean and focused!", None),
        ("Remember, make it fast.", None),
        ("Keep in mind, let's keep the doc simple, succinct, and to the point.", None),
        ("Remember that the staging database is wiped every Sunday night.", INS),
        ("Keep in mind that the CI runners only have 4GB of RAM.", INS),
        ("Please keep in mind: staging deploys need a manual approval.", INS),
        ("Remember when we fixed this last week?", None),
        ("Don't forget to push.", None),
        ('Keep in mind that the intended functionality is the ability to roll back a change.', None),
        ('Keep in mind that there will be products without default amounts.', None),
    ],
    # ------------------------------------------------------------------ ja
    "ja.correction.chigau": [
        ('違います。合計は3000円です。', None),
        ("違います。そのボタンじゃなくて、下のボタンです。", None),
        ("違います。ポートは5432です。", C),
        ("いや、違う。デフォルトブランチはdevelopです。", C),
        ("ちがうよ、本番はeu-west-1だよ。", C),
        ("違うブランチにpushしてください。", None),
        ("違う方法を試してみて。", None),
        ("違う、そっちじゃない。", None),
    ],
    "ja.correction.soujanakute": [
        ("そうじゃなくて、一覧を日付順に並べてほしいです。", None),
        ("そうじゃなくて、設定ファイルはconfig/settings.tomlにあります。", C),
        ("そうではなくて、認証はミドルウェアで行っています。", C),
        ("そういう意味じゃなくて、テストはCIでしか動かないんです。", C),
        ("そうじゃなくて", None),
        ("そうじゃなくて、もう一回やり直して。", None),
    ],
    "ja.correction.tadashiku": [
        ("正しくはsrc/lib配下です。", C),
        ("いや、正しくはNode 20です。", C),
        ("正しいのはv2のエンドポイントです。", C),
        ("正しく動くか確認して。", None),
        ("正しいですか？", None),
    ],
    "ja.correction.dewanaku": [
        # what the person asked for made clear, not a fact of the project
        ("私が言っているスワイプとは画面全体ではなく、下のバーのことです", None),
        ("デフォルトブランチはmasterではなくmainです", C),
        ('見出しは太字ではなく通常の太さです。', None),
        ("これは左ではなく右に置くのが正しいです。", None),
        ("いや、そのファイルはJSONではなくYAMLです。", C),
        ("デフォルトブランチはmasterではなくmainです。", C),
        ("このエラーの原因はDBではなくキャッシュです。", C),
        ("うちはJestじゃなくてVitestを使っています。", C),
        ("npmではなくyarnでインストールして。", None),
        ("mainではなくdevelopにPRを作ってください。", None),
    ],
    "ja.failure.maikai": [
        ("CIのmacOSジョブが毎回失敗する。", F),
        ("何度やってもDockerのビルドがタイムアウトする。", F),
        ("ログイン画面でいつも固まります。", F),
        ("このテストってたまに落ちるよね。", None),
        ("なぜ毎回失敗するのか調べてもらえますか", None),
    ],
    "ja.failure.kanarazu": [
        ("このテストはタイムゾーンがUTC以外だと必ず落ちます。", F),
        ("M1のMacだとsharpのインストールで必ずエラーになる。", F),
        ("並列実行すると確実にデッドロックで止まる。", F),
        ("必ず失敗するテストを書いてください。", None),
        ("テストが失敗したら必ず教えてください？", None),
    ],
    "ja.lesson.kyoukun": [
        ("教訓: マイグレーションの前には必ずバックアップを取る。", L),
        ("今日の学び：git bisect runで二分探索を自動化できる。", L),
        ("環境変数を変えたらサーバーを再起動しないと反映されない、という教訓。", L),
        ("教訓になりました、ありがとう。", None),
        ("教訓：", None),
    ],
    "ja.lesson.memo": [
        ("メモ: Stripeのテストモードとライブモードでwebhookシークレットが違う。", L),
        ("備忘録：brew upgradeするとpostgresのデータディレクトリが変わる。", L),
        ("自分用メモ: ステージングのDBは毎晩リセットされる", L),
        ("メモ帳アプリを作って。", None),
        ("メモ：明日やる", None),
    ],
    "ja.lesson.hamari": [
        ("ハマりポイント：Dockerのボリュームはrootユーザーで作成される。", L),
        ("落とし穴は、Next.jsのfetchがデフォルトでキャッシュされること。", L),
        ("ハマりどころとして、pytestのfixtureはモジュールをまたいで共有されない。", L),
        ("ハマりポイントを教えてください。", None),
        ("落とし穴がありそうですか？", None),
    ],
    "ja.preference.hou_ga": [
        ('日本語の方がいいです', None),
        ('こっちの書き方の方が好きです', None),
        ('ログは英語の方がいいです', P),
        ('継承より合成の方がいいです。', P),
        ('スナップショットテストより明示的なアサーションの方がいいと思います。', P),
        ('さっきのより今の方がいいです', None),
        ('前の案よりこっちの方がいいです', None),
        ('Aより Bの方がいいです', None),
        ("Bの方がいいです。", None),
        ("案2の方が好みです。", None),
        ("後者の方が読みやすいです。", None),
        ("npmよりpnpmの方が好きです。", P),
        ("私はタブよりスペースの方が好みです。", P),
        ("PRは小さい方が助かります。", P),
        ("こっちの方がいいですね。", None),
        ("どっちの方がいいですか？", None),
        ("このままの方がいいです。", None),
    ],
    "ja.preference.suki": [
        ('このデザインが好きです', None),
        ("Aの方が好きです。", None),
        ("私はReactが好きです。", P),
        ("私はVimよりVS Code派です。", P),
        ("私はダークテーマが大好きです。", P),
        ("好きなように実装してください。", None),
        ("好きなライブラリを使ってください。", None),
    ],
    "ja.instruction.kanarazu": [
        ("コード変更後は必ず `npm run typecheck` を実行", INS),
        ("さっきのコマンドを必ず実行", None),
        # how the screen must come out, even with 必ず; kept from now on, it stands
        ("必ずカードの枠をはみ出すような崩れは起こさないこと", None),
        ("今後、ボタンの文言は必ず敬語にしてください", INS),
        ('必ず日付を入れたいので、日付も追加できるように修正してください', None),
        ("この関数は必ずリストを返すようにしてください。", None),
        ("それぞれのモジュールに必ずテストを付けてください。", INS),
        ("このリポジトリでは必ずpnpmを使ってください。", INS),
        ("ユーザーは必ずメール認証を済ませてから使える仕様です。", None),
        ("ボタンは必ず二回押せないようにしてください。", None),
        ("PRを出す前に必ず`pnpm lint`を通してください。", INS),
        ("コミットメッセージは必ず英語で書くこと。", INS),
        ("依存関係を追加するときは必ず理由をPRに書いてください。", INS),
        ("必要なパッケージをインストールしてください。", None),
        ("必ずテストを書く必要がありますか？", None),
        ("とりあえず必ず動くようにしておいて。", None),
    ],
    "ja.instruction.tsuneni": [
        ("常に一定のスピードでスライドするようにすべき", None),
        ("常に型ヒントを付けて", INS),
        ("そのAPIは常に空配列を返すようにして。", None),
        ("フッターは常に下に固定されるようにして。", None),
        ("常に型ヒントを付けてください。", INS),
        ("常にブランチを切ってから作業すること。", INS),
        ("常に最新版を使ってください。", INS),
        ("常時表示のトグルを追加して。", None),
        ("常にキャッシュを使う方がいいような気がします。", None),
        ("正常にストリームの終端に達したら、再生し直すせいで無限ループしています", None),
        ("非常に遅いので確認してください", None),
    ],
    "ja.instruction.zettai": [
        ("アクセスログには Authorization ヘッダーを絶対に出力しないでください。", INS),  # HTTP's header, no screen
        ("絶対に動くようにしてください。", None),
        ("これは絶対に消さないで。", None),
        ("絶対にmainブランチへ直接pushしないでください。", INS),
        (".envファイルは絶対にコミットしないで。", INS),
        ("本番環境では絶対にデバッグログを出さないこと。", INS),
        ("絶対パスで指定してください。", None),
        ("絶対に動かない。", None),
        ("今回だけは絶対にmainにpushしないで。", None),
    ],
    "ja.instruction.itsumo": [
        ("いつも日本語で返答してください。", INS),
        ("PRのタイトルにはいつもチケット番号を入れるようにしてください。", INS),
        ("いつもレビューコメントは箇条書きでお願いします。", INS),
        ("いつも通りPRを作ってマージして。", None),
        ("いつもありがとうございます！", None),
        ("いつも使っているコマンドを教えてください。", None),
    ],
    "ja.instruction.maikai": [
        ("その一覧は毎回読み込み直すようにしてください。", None),
        ("その都度毎回テストを流すこと。", INS),
        ("毎回コミット前にテストを実行してください。", INS),
        ("毎回作業が終わったら変更点を要約すること。", INS),
        ("毎回ブランチ名にチケット番号を入れるようにしてください。", INS),
        ("毎回同じ質問をしてすみません。", None),
        ("毎回ありがとうございます。", None),
    ],
    "ja.instruction.kongo": [
        # 今後 in what a piece of work is for
        ("今後も参照できるように設計メモを作成してほしいです", None),
        ("今後のためにメモを残しておいてください", None),
        ('はい、今後はモックを使わないでください', INS),
        ("これからはこの画面を作っていきます。", None),
        ("今後はpnpmを使ってください。", INS),
        ("以後はyarnではなくpnpmを使います。", INS),
        ("以降は英語で返答してください。", INS),
        ("以降は省略します。", None),
        ("これからはテストを先に書いてから実装してね。", INS),
        ("次回からはマイグレーションを実行する前にバックアップを取ってください。", INS),
        ("今後の予定を教えてください。", None),
        ("これからテストを実行します。", None),
        ("今後ともよろしくお願いします。", None),
    ],
    "ja.instruction.kono_project": [
        ("このリポジトリではPRはdevelopブランチに向けます。", INS),
        ("このプロジェクトでは状態管理にZustandを使っています。", INS),
        ("うちのチームではコミットメッセージを英語で書きます。", INS),
        ("このプロジェクトで新しいコンポーネントを作ってください。", None),
        ("このリポジトリではどのテストランナーを使っていますか？", None),
    ],
    "ja.instruction.oboete": [
        ("mainブランチは保護されていることを覚えておいて。", INS),
        ("覚えておいてください：ステージング環境は毎晩リセットされます。", INS),
        ("APIキーは1Passwordにあると覚えといて。", INS),
        ("覚えておいて", None),
        ("これ覚えてる？", None),
    ],
    "ja.instruction.hissu": [
        # what every PR, commit or release must carry is a way of working
        ("bug fix の PR には regression test 必須で", INS),
        ("リリース前にはチェンジログの更新が必須です。", INS),
        ("PR にはレビューが必須です", INS),
        # a field, an argument, or this PR: the product's spec, the code's, the task's
        ("このフィールドは必須です", None),
        ("引数 name は必須です", None),
        ("この PR には テストが必須です", None),
    ],
    "ja.instruction.kinshi": [
        ("本番DBへの直接接続は禁止です。", INS),
        ("console.logの使用は禁止。", INS),
        ("mainへのforce pushは厳禁です。", INS),
        ("禁止ワードのリストを追加して。", None),
        ("禁止されている操作を一覧にしてください。", None),
        # what to do instead after a comma; a pointing word ties it to the thing at hand
        ("本番 DB への直接接続は禁止、踏み台を経由してください。", INS),
        ("生成ファイルをそのまま手で直すのは禁止です。", INS),
        ("この操作は禁止、やめて", None),
        ("それは禁止です。", None),
    ],
    # ------------------------------------------------------------------ zh
    "zh.correction.budui": [
        ('不对，应该是点击之后再加载', None),
        ('不对，总额是三千', None),
        ("不对，端口是5432。", C),
        ("错了，测试框架应该是pytest。", C),
        ("不对。默认分支是main。", C),
        ("不对 帮我查一下golang文档", None),
        ("不对吗？", None),
    ],
    "zh.correction.bushi_ershi": [
        ('不是深色，而是浅色的背景', None),
        ('不是B，是C', None),
        ('不是上面那个，是下面的', None),
        ('不是 width，是 height', None),
        ('默认分支不是 master，是 main', C),
        ('不是样式的问题，是数据没加载', None),
        ('报错的原因不是缓存，是权限', None),
        ('我不是让你重写，是让你检查一下', None),
        ('根本不是网络的问题，是磁盘满了', None),
        ("不是Jest，而是Vitest。", C),
        ("不是npm而是pnpm。", C),
        ("端口是5432，不是5433。", C),
        ("是不是要用pnpm？", None),
        ("这不是我想要的。", None),
        ('这是平台的提醒信息，不是售后阶段。', None),
        ('我要的不是这种死框架，而是真正好用的东西。', None),
        ('我的数据库是 SQLite，不是 MySQL。', C),
    ],
    "zh.failure.meici": [
        ("CI上的macOS任务每次都失败。", F),
        ("这个测试总是报错。", F),
        ("构建一直超时，必现。", F),
        ("为什么每次都失败？", None),
        ("这个测试偶尔会失败。", None),
    ],
    "zh.lesson.jiaoxun": [
        ("踩坑：Docker卷默认是root权限。", L),
        ("教训：迁移之前一定要先备份数据库。", L),
        ("今天学到：git worktree 共享对象存储。", L),
        ("总结一下今天的教训吧？", None),
        ("帮我写一个备忘录应用。", None),
    ],
    "zh.preference.xihuan": [
        ("我更喜欢用 pnpm，最好别用 npm。", P),
        ("我更喜欢用函数式组件。", P),
        ("我们比较偏好小的PR。", P),
        ("我宁愿多写几个测试也不要用mock。", P),
        ("你喜欢哪个？", None),
        ("这个喜欢按钮要放在右上角。", None),
    ],
    "zh.instruction.yihou": [
        # 之后 opening the sentence: a moment that recurs or a standing word; not the next step of the work
        ("之后分析报错的时候从启动完成那行往后看", INS),
        ("之后都用 pnpm 装依赖", INS),
        ("之后把结果发给我", None),
        ("之后再说", None),
        ("之后就用这个方案吧", None),
        ('有没有办法从现在开始都用 pnpm', None),
        ('以后这个页面要加上搜索', None),
        ('这个脚本用 nohup 跑吧（以后都这样）', INS),
        ('数据不全，以后抓取数据，先问我要不要全量', None),
        ("以后都用pnpm。", INS),
        ("以後請一律使用繁體中文回覆。", INS),
        ("从现在开始，提交信息用英文写。", INS),
        ("以后回答简短一点。", INS),
        ("以后再说吧。", None),
        ("以后会有更多用户吗？", None),
        ("这次先跳过测试吧。", None),
        ('以后用在不同客户身上就像是量身定制的话术。', None),
        ('以后都不主动输出手机的图片，我说了才输出。', INS),
        ('以后遇到转录较久的视频，界面实时显示剩余时间', None),
    ],
    "zh.instruction.yongyuan": [
        ("在那之前，我总是在重复消耗额度。", None),
        ("你总是要先跑测试", INS),
        ("永远不要直接推送到main分支。", INS),
        ("千万不要提交.env文件。", INS),
        ("务必先跑测试再提交。", INS),
        ("永遠用繁體中文回覆。", INS),
        ("也许我们应该总是用pnpm。", None),
        ("请把toolchain也改成1.23。", None),
        ('平台规则提醒：请务必在平台内与买家沟通和交易', None),
        ('我的逻辑就是，绝对不能把高等级的误判成低等级。', None),
    ],
    # ------------------------------------------ en standing rules without always / never
    "en.instruction.rule_label": [
        ("Rule: ask before installing packages.", INS),
        ("MANDATORY: All edits must be tested before any commit.", INS),
        ("RULE 1 - NO FILE DELETION", INS),
        ("Hard rule: no direct SQL in controllers.", INS),
        ("git show <commit>:<any-file> - BANNED", INS),
        ("Critical: fix the login bug first", None),
        ("The rule is confusing, rewrite it.", None),
        ("Rule: the server restarts at noon.", None),
    ],
    "en.instruction.practice_for": [
        ("Include function name in log messages", INS),
        ("Store docs in backend/app/api/docs/<domain>/<action>.md", INS),
        ("Document public functions in docstrings.", INS),
        ("Add tests for the parser.", None),
        ("Add a settings page.", None),
        ("Add anything to AGENTS.md and build mode just ignores it.", None),
    ],
    "en.instruction.periodically_after": [
        ("Run pnpm dedupe periodically to keep the lockfile small.", INS),
        ("rebase feature branches on main regularly", INS),
        ("Prune stale branches periodically.", INS),
        ("Check the logs regularly today.", None),
        ("It crashes regularly.", None),
    ],
    "en.instruction.follow_standard": [
        ("Follow the Conventional Commits specification.", INS),
        ("stick to the Google style guide", INS),
        ("Follow PEP 8 naming.", INS),
        ("Follow the plan in the README.", None),
        ("follow the steps above", None),
    ],
    "en.instruction.reversal_not_needed": [
        ("Don't bother adding request IDs to log lines, the tracing middleware correlates them now.", INS),
        ("You can run terraform apply directly now, no need to show me the plan first.", INS),
        ("don't bother writing changelog entries, the release tool generates them now", INS),
        ("Don't bother fixing it, I'll do it now.", None),
        ("You can push now, no need to wait for CI first.", None),
        ("Don't bother running the tests, it works now.", None),
    ],
    "en.instruction.dont": [
        ("Don't edit the generated API client by hand.", INS),
        ("do not update schema.json manually, run the codegen", INS),
        ("don't edit the generated types manually, regenerate them with make", INS),
        ("don't fix it by hand this time, I'll do it", None),
        ("don't do that manually", None),
        ("don't change anything without my sign-off.", INS),
        ("Do NOT implement anything without my go-ahead", INS),
        ("dont create new .md files", INS),
        ("dont create new helpers.py .", None),
        ("don't create a new config.ts, use the existing one", None),
        ("don't refactor anything yet", None),
        ("DO NOT force push.", INS),
        ("don't speculate", INS),
        ("do not commit", None),
        ("don't force push this branch yet", None),
        ("yes and do not wrap long lines in the markdown as that ruins the rendering on GitHub", INS),
        ("yes do not do that", None),
        ("do not introduce other env variables", None),
        ("Don't add other dependencies.", None),
        ("Do not change anything that would break current saved settings.", None),
        ("Do not make changes for me, just explain.", None),
        ("dont allow requests to the paid API unless a flag is passed", None),
        ("make sqlite the default, dont store blobs in the db, bump the version", None),
        ("Don't hit the network in unit tests.", INS),
        ("Don't change the assertion in tests/test_api.py.", None),
        ("Rewrite the module as we agreed. Don't mess things up", None),
        ("please don't screw stuff up this time", None),
        ('Do not create or delete any branches without asking me.', INS),
        ('Look through the logs and list the slow endpoints; do not write or edit any files.', None),
        ("Can you fix the typo; and don't touch the header yet.", None),
        ("Don't add docstrings that only repeat the function name.", INS),
        ("Do NOT edit anything under vendor/, it's synced from upstream.", INS),
        ("Please don't use default exports in new modules.", INS),
        ("Fix the date parser, and don't add new dependencies without asking me.", INS),
        ("don't install packages globally", INS),
        ("Don't ask me for permission to run tests.", INS),
        ("Do not ask the user to run commands you can run yourself.", INS),
        ("Don't ask me about it.", None),
        ("don't touch the header yet, I'm still designing it", None),
        ("Don't commit anything for now, another branch is being rebased.", None),
        ("Don't worry about the tests.", None),
        ("Don't change it.", None),
        ("I don't use semicolons.", None),
        ("Don't you think the tests are slow?", None),
        ("don't rename the variables in this function", None),
        ("Don't disable strict in tsconfig.json.", INS),
        ("don't check `.env` into git", INS),
        ("Don't add it to git.", None),
        ("Don't commit the lockfile changes in this PR.", None),
        ('Do not modify any of the @signup-form.tsx code', None),
        ("nevermind, i undid your changes. so don't do anything related to this now.", None),
        ("Please do not do any work, let's discuss the options.", None),
        ('Do not take any actions beyond analysing and reporting back.', None),
        ("Don't make any changes to our light mode theme.", None),
        ("Don't make any changes to the schema without a migration.", INS),
        # every place at once, and a file extension after "new" that ends no hold
        ("don't call print anywhere, the logger is set up for that", INS),
        ("Don't call os.system anywhere in the backend.", INS),
        ("Don't create new .js files in src, TypeScript only.", INS),
        ("don't change anything anywhere else", None),
        ("Don't put it anywhere.", None),
        # a flag names a step that recurs; leaving things of a kind behind is a practice
        ("Don't pass --no-verify to git commit.", INS),
        ("don't leave debug prints in committed code", INS),
        ("don't run it with --watch", None),
        ("Don't leave the page open.", None),
        # "our <things>" is the project's kind of things
        ("don't run our containers as root", INS),
        ("Don't break our build.", None),
        ("Don't add new files.", None),
        ("Implement the TODO list step by step, test on every step, don't break things", None),
    ],
    "en.instruction.no_practice": [
        ("No mocks.", INS),
        ("No emojis or em-dashes.", INS),
        ("No monkeypatching", INS),
        ("No unauthorized code modifications", INS),
        ("No terminal execution without explicit user permission", INS),
        ("No commits without my approval.", INS),
        ("No changes.", None),
        ("No commits.", None),
        ("No mocks in this test, it needs the real db.", None),
        ("No more placeholders, write the real thing.", None),
    ],
    "en.instruction.absolutely_no": [
        ("Absolutely no actions that the user did not request.", INS),
        ("ABSOLUTELY NO REFERENCES TO AI IN COMMIT MESSAGES", INS),
        ("under no circumstances stop", INS),
        ("Absolutely no idea why this fails.", None),
        ("Absolutely no change after the fix.", None),
        ("Under no circumstances delete this file today.", None),
    ],
    "en.instruction.no_x": [
        ("No emojis in commit messages.", INS),
        ("No print statements in production code.", INS),
        ("no force pushes, ever", INS),
        ("No mocks inside integration tests.", INS),
        ("No errors in the logs now.", None),
        ("No, there's still an error on line 40", None),
        ("No idea why the tests fail.", None),
        ("No changes in the diff.", None),
        ('No `except: pass` anywhere, catch specific exceptions.', INS),
        ('no console.log statements anywhere', INS),
        ('No console output anywhere near the parser', None),
        ('no need to go anywhere', None),
    ],
    "en.instruction.reversal_anymore": [
        ("Don't add any more endpoints, this is enough.", None),
        ("Please don't rebase shared branches any more.", INS),
        ("I don't need the old fixtures anymore, delete them.", None),
        ("don't run the linter before every commit anymore, CI does it now", INS),
        ("You don't need to ask before running tests anymore.", INS),
        ("Please don't squash merge PRs anymore.", INS),
        ("We don't deploy on Fridays anymore.", INS),
        ("Don't do that anymore.", None),
        ("I don't know anymore.", None),
        ("It doesn't crash anymore.", None),
        ("Don't bother adding type hints to new functions anymore.", INS),
        ("don't bother doing that anymore", None),
        ("Don't bother checking it anymore.", None),
    ],
    "en.instruction.reversal_stop": [
        ("Stop adding new crates, write the helpers by hand, we want a small build.", INS),
        ("stop the server, rebuild it, run the tests again", None),
        ("Stop messing with the file modes of ~/.ssh/config, just leave them", None),
        ("stop fucking around with the retry logic", None),
        ('Stop summarizing after each file, just keep going.', None),
        ("Stop mocking the database in the integration tests, use the docker one.", INS),
        ("Please stop adding type: ignore comments.", INS),
        ("stop apologizing and just fix things", INS),
        ("Stop doing that.", None),
        ("stop working on the login page and look at the crash", None),
        ("Stop the dev server.", None),
        ("It stopped working after the upgrade.", None),
        ("Stop changing it.", None),
    ],
    "en.instruction.reversal_no_more": [
        ("No more force pushes.", INS),
        ("no more inline styles, please", INS),
        ("No more print debugging going forward.", INS),
        ("No more errors!", None),
        ("No more than three files per PR.", None),
        ("no more questions?", None),
        ('no more os.path.join please, pathlib', INS),
        ('No more placeholder implementations, write the real thing', None),
    ],
    "en.instruction.reversal_no_longer": [
        ("Redis is no longer needed for the unit tests.", INS),
        ("btw we no longer support Python 3.8.", INS),
        ("The legacy API is no longer used anywhere.", INS),
        ("The bug is no longer reproducible.", None),
        ("It's no longer crashing.", None),
        ("The page no longer loads.", None),
    ],
    "en.instruction.after_every_change": [
        ("after every fix rerun the linter", INS),
        ("the suite is slow so after every fix rerun only the linter", INS),
        ("After each fix, run the failing test again.", INS),
        ("after every click update the counter", None),
        ("after each step run the tests", None),
        ("the server restarts after every change", None),
        ("after every fix rerun the linter this time", None),
        ("after every edit do you run the tests?", None),
    ],
    "en.instruction.no_coauthor": [
        ("don't add claude as co-author", INS),
        ("please do not include the Generated with Claude Code footer in commits", INS),
        ("do not list Claude as a co-author on any commit", INS),
        ("never put yourself as a co-author, ok?", None),
        ("strip the co-author trailer off", None),
        ("don't add a co-author to this commit", None),
        ("who is the co-author of this file?", None),
        ("the co-author line is wrong", None),
    ],
    "en.instruction.conditional": [
        ("when you write test commands, use python3 instead of python", INS),
        ("After any correction from the user: update tasks/lessons.md with the pattern", INS),
        ("when you add routes, document them in the README", INS),
        ("when you fix the tests, run them again", None),
        ("when you finish these tasks, summarize", None),
        ("Before coding, let's sketch the plan in PLAN.md.", None),
        ("Before starting any task, present the plan and wait for my approval.", INS),
        ("When a migration fails, try its down step first.", INS),
        ("Before the demo, present the plan to the team.", None),
        ("After the refactor, let us update the changelog.", None),
        # a step on a period
        ("prune stale branches weekly", INS),
        ("Update dependencies once a month, on Mondays.", INS),
        ("Send me a weekly report.", None),
        ("check the logs every day this week", None),
        ("run it every day", None),
        # an event that recurs
        ("When a bug appears, write a reproducing test first.", INS),
        ("When CI fails, check the logs before rerunning.", INS),
        ("When there's a bug, start by writing a test that reproduces it.", INS),
        ("Ask me for help after 2 failed attempts.", INS),
        ("back up files before editing", INS),
        ("Must confirm with the user before any action.", INS),
        ("Must be the cache again, check it before restarting.", None),
        ("When there's a minute, look at the logs.", None),
        ("When a user clicks the button, show the modal.", None),
        ("Before you start any task, show me a short plan and wait for my ok.", INS),
        ("When you add a new endpoint, document it in docs/api.md.", INS),
        ("When you finish this, push it.", None),
        ("Before committing, run the formatter.", INS),
        ("Ask me before deleting any files.", INS),
        ("Only ever touch the generated client through the wrapper in src/api.", INS),
        ("Only use the public API when writing tests.", INS),
        ("When you're done, push the branch.", None),
        ("Before you go, fix the header.", None),
        ("Test it before merging.", None),
        ("Only fix the header.", None),
        ("When I'm back we can look at the logs.", None),
        ("Before you merge, ping me.", None),
        ("make sure you run the linter before every push", INS),
        ("Should I run the tests before committing?", None),
        ("Before writing any code, explain your plan.", INS),
        # the work in hand named: the changes, the task, each step of the plan
        ("After making the changes, run the tests and commit.", None),
        ("After completing the task, create a PR.", None),
        ("After you finish each step, commit your changes.", None),
        ('add a method to whitelist folders, and when any sync runs, the whitelist will be ignored', None),
        ('Before you start any task, read the plan in this folder.', None),
        ('Add null checks before calling remove() on graphics objects', None),
        ('Before opening a PR, run the full test suite.', INS),
        ('When adding dietary restrictions from the bookings table to the planner, read the enter sign as a separator.', None),
        ('before selecting payment method, no need for quick buttons', None),
        ('Ask any additional questions before implementing anything', INS),
        ('When you run tests, can you avoid serving an HTML report and just use the terminal logs please.', INS),
        ('When you are done, can you push it', None),
    ],
    "en.instruction.caps": [
        ("it crashed on the second run. EXPLAIN WHY", None),
        ("TELL ME WHAT CHANGED", None),
        ("1. FETCH THE PRICE LIST from @prices.json and cache it.", None),
        ("EXPLAIN THE TRADEOFFS BEFORE YOU PICK A LIBRARY.", INS),
        ("RUN THE LINTER FIRST.", INS),
        ("USE PNPM.", INS),
        ("ASK ME FIRST!!", INS),
        ("FIX IT", None),
        ("CHECK THIS AGAIN", None),
        ("VERIFY THE CACHE HIT RATE", None),
        ("RUN ALL THE BENCHMARKS", None),
        ("PLEASE SHOW THE FULL TRACE", None),
        ("CHECK THE LOGS BEFORE YOU GUESS A CAUSE.", INS),
        ("TEST EVERY ENDPOINT YOU ADD", INS),
        ("STICK TO THE STANDARD LIBRARY.", INS),
        ("The CI job uses AWS S3 for caching.", None),
    ],
    "en.instruction.must": [
        ("Names should not be abbreviated.", INS),
        ("Comments should only call out non-obvious rationale.", INS),
        ("Comments should not mention this bug.", None),
        ('This is really important: every migration should pass a dry run first.', INS),
        ('I also want to stress that all code should pass the linter.', INS),
        ('All the tests should pass now.', None),
        ('All cards must have a drop shadow.', None),
        ('All the images must have alt text.', None),
        ('The unit tests should pass after your change.', None),
        ('the build is red again, can you see what broke; you have to use the typed client for every request to the billing API.', INS),
        ('You must use the task service instead of editing the json file directly.', INS),
        ("All tests must pass before any commit.", INS),
        ("Handlers have to be idempotent.", INS),
        ("you have to use the repository pattern for data access here", INS),
        ("You should be using pnpm for everything.", INS),
        ("Every migration needs a down step.", INS),
        ("Commits should follow conventional commits.", INS),
        ("Results should show up in a minute.", None),
        ("Commit messages must be in English.", INS),
        ("We need to fix the login bug.", None),
        ("We need to use a queue here because the requests time out.", None),
        ("It must be the cache.", None),
        ("Users should be able to export their data.", None),
        ("You have to use it like this.", None),
        ("All of them must be fixed today.", None),
        ("you should use a different approach here", None),
        ("We should be using the transactable module.", INS),
        ("All the tests need to pass before we can merge.", None),
        ("All changes must be committed before you finish.", None),
        ('we want to keep the upload step first, then the symbols', None),
        ('you need to use a verifying double', INS),
        ("you're supposed to work in the session workspace", INS),
        ('You need to use instance_double for these specs.', None),
        ('All menus should have a back option.', None),
        ('All buttons need a tooltip.', None),
        ('All commits must be signed.', INS),
        ('I also want to mention that all commits must be signed.', INS),
        ('Note that all handlers must be idempotent.', INS),
        ('I want to mention that all of them must be fixed today.', None),
        # a code element named in backticks is a kind of code, not a part of the product
        ("Every `<form>` needs a CSRF token.", INS),
        ("Every `useEffect` needs a cleanup function.", INS),
        ("Every button needs a tooltip.", None),
    ],
    "en.instruction.we_use": [
        ('This repo uses Turborepo for the build graph.', INS),
        ('FYI our codebase relies on zod for every schema.', INS),
        ('This project uses a lot of memory when it indexes.', None),
        ("The team uses trunk-based development.", INS),
        ("We only deploy on Fridays.", INS),
        ("The project uses the wrong version of node.", None),
        ("The repo uses way too many dependencies.", None),
        ('Does this project use pnpm?', None),
        ("We use uv for dependency management.", INS),
        ("we deploy with Helm charts", INS),
        ("We write changelog entries by hand.", INS),
        ("We don't do squash merges here.", INS),
        ("We don't do that.", None),
        ("We use a lot of memory on startup.", None),
        ("we use it in two places", None),
        ("We use the staging key to test this.", None),
        ("We keep secrets in Vault, not in env files.", INS),
        ("We keep hitting rate limits on the staging API.", None),
        ("we keep getting a 404 from the preview deploy", None),
    ],
    "en.correction.called": [
        ("the main branch here is called trunk", C),
        ("Our staging cluster is named blue.", C),
        ("The design system package is called ui-kit.", C),
        ("The function is called twice.", None),
        ("The hook is called on every render.", None),
        ("What is the branch called?", None),
    ],
    "en.correction.moved": [
        ("We moved off Jest, the test runner is Vitest now.", C),
        ("we switched to pnpm last month", C),
        ("I migrated from zsh to fish.", C),
        ("I switched to the other branch.", None),
        ("We moved the file to src/utils.", None),
        ("I moved it to the new folder.", None),
        ('I switched to agent finally.', None),
        ('I moved from npm to pnpm last month.', C),
    ],
    "en.preference.i_want": [
        ("I want everything in TypeScript.", P),
        ("I want this to be type safe end to end, no any.", P),
        ("I like small, focused commits.", P),
        ("I hate magic numbers.", P),
        ("I want you to fix the login bug.", None),
        ("I like the new layout.", None),
        ("I want to see the logs.", None),
        ("I like it.", None),
        ('for local tests, I want them to be simple and run quickly', P),
        ('For these tests, I want them to be simple.', None),
    ],
    "en.preference.keep_short": [
        ("Keep answers short. I read them on my phone.", P),
        ("Please keep commit messages under 72 characters.", P),
        ("Be concise.", P),
        ("Keep it short for this one.", None),
        ("Keep the answers from the survey in a table.", None),
    ],
    "en.instruction.keep_in_mind_after": [
        ("I run the API in WSL and open it from Chrome on Windows, keep that in mind for localhost URLs.", INS),
        ("The CI runners have 4 GB of RAM, so keep that in mind.", INS),
        ("our users are mostly on Safari — keep this in mind when styling", INS),
        ("ok, keep that in mind", None),
        ("Keep that in mind?", None),
        ('Secrets come from 1Password via op run, remember that.', INS),
        ('it was broken yesterday, remember that?', None),
        ('it was broken, remember that', None),
    ],
    "en.instruction.note_in_file": [
        ("Add the export button and put a note in CLAUDE.md that UI strings always go through the i18n helper.", INS),
        ("Write a rule into AGENTS.md saying that migrations are never edited after merge.", INS),
        ("Add to CLAUDE.md: dates are stored as UTC strings.", INS),
        ("Update CLAUDE.md.", None),
        ("What is in AGENTS.md?", None),
    ],
    "en.instruction.told_you": [
        ("I told you not to use mocks in the integration tests.", INS),
        ("I already told you to never run migrations on prod.", INS),
        ("I said never push to main directly.", INS),
        ("I told you to fix the header.", None),
        ("I said don't touch that file.", None),
        ("I told you it was the cache.", None),
    ],
    "en.instruction.use_for": [
        ("Use httpx for HTTP calls.", INS),
        ("use freezegun for date-dependent tests, they flake otherwise", INS),
        ("Use Redis for caching sessions.", INS),
        ("Use the new API for this.", None),
        ("Use grep for now.", None),
        ("use this for the demo", None),
        ("Use Moshi for classes parsed from JSON.", INS),
        ("use zod for forms on the signup page", None),
    ],
    "en.lesson.turns_out": [
        ("turns out editing merged alembic migrations breaks everyone's DB, don't do it", L),
        ("Turns out running prettier twice breaks the diff.", L),
        ("ok so it turns out that deleting the lockfile wipes the pinned versions", L),
        ("turns out the bug was in the parser", None),
        ("Turns out this change breaks the build.", None),
    ],
    "en.instruction.every_new": [
        ("Add docstrings to all new functions, please.", INS),
        ("Write tests for every new endpoint.", INS),
        ("type-annotate all new functions, please", INS),
        ("do not create any new unit tests.", None),
        ("fix all new warnings in this file", None),
        ("Rename all new files you created to snake_case.", None),
    ],
    "en.instruction.remember_to": [
        ("Remember to remove the feature branch once it's merged.", INS),
        ("Remember to push it when you're done.", None),
        ("Remember to run the tests before committing.", INS),
        ("please don't forget to bump the version when you cut a release", INS),
        ("Remember to update the changelog for every user-facing change.", INS),
        ("Remember to push it.", None),
        ("remember to commit when you're done", None),
        ("Remember to update the changelog.", None),
        ('Remember to pass -n auto to pytest.', INS),
        ('Remember to run `pre-commit autoupdate` once a month.', INS),
        ('Remember to wrap time-sensitive tests in `@freeze_time`.', INS),
        ('Remember to update the tests.', None),
        ('Remember to pass the token to the client.', None),
    ],
    "en.instruction.use_instead": [
        ("use yarn, not npm", INS),
        ("Use pathlib instead of os.path.", INS),
        ("please use bun instead of npm for this project", INS),
        ("Use the other function instead of this one.", None),
        ("use it instead of the old one", None),
        ("Write the migration in SQL, not in the ORM.", None),
        ("Should we use Redis instead of Memcached?", None),
        # the one exception that needs the other
        ("Use const unless you need to reassign.", INS),
        ("Prefer composition unless we really need inheritance.", INS),
        ("use the default unless you need it", None),
        ("use it unless you have to", None),
        # a choice for one place of the work at hand
        ("use a map instead of a for loop", None),
        ("Use the existing helper instead of writing a new one.", None),
        ("Use flexbox instead of grid for the header.", None),
        # one command against another, in code spans, without a comma
        ("Use `uv pip ...` not `pip ...`", INS),
        ("run `pnpm test` not `npm test`.", INS),
        ("Use `main` not `develop` for this PR", None),
        ("use `uv` not `pip`?", None),
        ("Use the second one not the first", None),
        ("use a Set instead of an array there", None),
        ("use sqlite instead of postgres for the tests", INS),
        ("use a dataclass instead of passing dicts around", INS),
    ],
    "en.instruction.everywhere": [
        ("you must use named exports by default across our repo", INS),
        ("you should use type hints throughout our codebase", INS),
        ("we need to use the new client everywhere in this file", None),
        ('I think the date parser is wrong, but please use ISO dates everywhere.', INS),
        ("Use type hints everywhere.", INS),
        ("Please use named exports throughout the codebase.", INS),
        ("avoid default exports in every module", INS),
        ("Rename foo to bar everywhere.", None),
        ("Use the new logo everywhere on this page.", None),
    ],
    "en.instruction.avoid": [
        ("Avoid global state.", INS),
        ("Try to avoid regex for parsing HTML.", INS),
        ("avoid one-letter variable names", INS),
        ("Avoid that.", None),
        ("Avoid the cache for this request.", None),
        ("How do I avoid the race?", None),
    ],
    "en.instruction.reply_language": [
        ("reply in the same language as the user", INS),
        ("You should respond to the user in user's language.", INS),
        ("write it in the same language as the README", None),
        ("Comments in English only", INS),
        ("all code comments written in English", INS),
        ("comments in English are missing", None),
        ("Please respond in English.", INS),
        ("Answer in Chinese.", INS),
        ("Write commit messages in English.", INS),
        ("Write the README in English.", None),
        ("Can you answer in English?", None),
        ('please keep all comments in english, even in the jp modules', INS),
        ('keep it in english', None),
    ],
    # ------------------------------------------------- en permissions, reversals and terse rules
    "en.instruction.reversal_no_need": [
        ("No need to run mypy before pushing anymore.", INS),
        ("ok, no need for the staging deploy step any longer", INS),
        ("Lint runs in CI now, no need to lint locally anymore.", INS),
        ("No need to apologize.", None),
        ("no need to run it anymore", None),
    ],
    "en.instruction.reversal_permission": [
        ("Hardcoded English strings are fine, we're dropping i18n for the MVP.", INS),
        ("Running as root in the container is fine, drop the USER lines.", INS),
        ("The layout is fine, we're done here.", None),
        ("This is fine, drop the rest.", None),
        ("It's OK to use print statements in scripts now.", INS),
        ("Force pushes to feature branches are fine now.", INS),
        ("Committing lockfile changes is allowed again.", INS),
        ("The build is OK now.", None),
        ("It's fine now, thanks.", None),
        ("It's ok to merge it now.", None),
    ],
    "en.instruction.permission": [
        ("It's fine to skip reviews for typo fixes.", INS),
        ("Small refactors can go straight into feature PRs.", INS),
        ("Assertions are fine in test helpers.", INS),
        ("It's fine to leave it as it is.", None),
        ("It's ok to delete the branch.", None),
        ("The tests can run now.", None),
        # an act or a construct allowed for a kind of things
        ("Rewriting history is fine on personal branches.", INS),
        ("`as any` is OK in test files.", INS),
        ("using the old client is ok too.", None),
        ("Testing this is fine for now", None),
    ],
    "en.instruction.reversal_back": [
        ("ok let's go back to screen 2", None),
        ("switch back to variant B", None),
        ("Go back to yarn, the workspaces broke with npm.", INS),
        ("Switch back to unittest please.", INS),
        ("Use moment.js again, date-fns is missing the locale we need.", INS),
        ("Go back to the previous commit.", None),
        ("Switch back to the main branch.", None),
        ("Run the tests again.", None),
        ("Switch back to tabs for Makefiles, the linter wants them.", INS),
        ("go back to the old branch for these experiments", None),
        ("Go back to requests instead of httpx.", INS),
        ("go back to step 2 instead of step 3", None),
        ("switch back to the old layout rather than this one", None),
    ],
    "en.instruction.reversal_drop": [
        ("Drop mypy and rely on pyright instead.", INS),
        ("Let's ditch Lerna for good, Nx does it all.", INS),
        ("Drop the black check, ruff format handles it now.", INS),
        ("Drop the users table and re-run the migration.", None),
        ("Drop it.", None),
    ],
    "en.instruction.for_good": [
        ("Let's turn the telemetry off for good.", INS),
        ("Remove the legacy API client permanently.", INS),
        ("Switch the default branch to trunk once and for all.", INS),
        ("Fix it for good.", None),
        ("He left the team for good.", None),
    ],
    "en.instruction.changed_mind": [
        ("I've changed my mind on tabs, use spaces everywhere.", INS),
        ("Changed my mind about ORMs: write plain SQL for the reports.", INS),
        ("I changed my mind on semicolons, keep one at the end of every statement.", INS),
        ("I changed my mind on the color, make it blue.", None),
        ("I've changed my mind about this, let's keep it.", None),
    ],
    "en.instruction.dont_use_instead": [
        ("don't hardcode the colours, use this palette", None),
        ("Don't write the loop by hand, use that helper I showed you.", None),
        ("Don't use moment, use the Temporal polyfill.", INS),
        ("don't use moment, dayjs please", INS),
        ("don't catch bare Exception; catch the specific error", INS),
        ("Don't delete that file, I still need it.", None),
        ("don't commit anything, another agent is working on something else", None),
    ],
    "en.instruction.no_please": [
        ("no console.log calls please", INS),
        ("no inline styles please", INS),
        ("no default exports please, named ones only", INS),
        ("no changes please", None),
        ("No worries please.", None),
        # one name only code has
        ("no HashMap please, BTreeMap keeps the output stable", INS),
        ("no eval() pls", INS),
        ("no `var` please", INS),
        ("no rush please", None),
        ("No Hurry please.", None),
        ("no commits without a ticket number please", INS),
        ("no, without the flag please", None),
    ],
    "en.instruction.trailing_always": [
        ("prettier, print-width 100, always", INS),
        ("Keep secrets out of the repo, always.", INS),
        ("run the type checker every time pls", INS),
        ("Create a PR that targets develop, always.", INS),
        ("Thanks, as always.", None),
        ("It happens every time.", None),
        ("Same as always.", None),
        ('pytest -n auto every time pls, the suite is slow otherwise', INS),
        ('the build was green every time, the suite is slow otherwise', None),
        ('Just let user delete each and ask every time', None),
    ],
    "en.instruction.always_fact": [
        ("Feature branches are always named feat/<ticket>.", INS),
        ("PR titles are always prefixed with the ticket id.", INS),
        ("The worker always needs REDIS_URL set.", INS),
        ("It always needs a restart.", None),
        ("This page always uses too much memory.", None),
        ('Note that the dev server always needs `HOST=0.0.0.0` inside the container.', INS),
        ('Note that it always needs a restart.', None),
    ],
    "en.instruction.stays": [
        ("Strict null checks stay on.", INS),
        ("The admin API must stay private.", INS),
        ("Lockfiles must stay in the repo.", INS),
        ("It stays on.", None),
        ("The modal stays open when I click outside.", None),
        ('Guests will stay on the cottage for a longer time.', None),
    ],
    "en.instruction.shop": [
        ("we're a yarn shop", INS),
        ("FYI we are a Go house, no Python services.", INS),
        ("This is a Postgres shop.", INS),
        ("We're a small team.", None),
        ("I went to the shop.", None),
    ],
    "en.instruction.remember_fact": [
        ("Remember the API runs on port 8080.", INS),
        ("remember our commit rules: subject lines under 50 chars", INS),
        ("Remember we squash every PR when merging.", INS),
        ("Remember when we used Jenkins?", None),
        ("Remember this is only a demo.", None),
    ],
    "en.instruction.reversal_rule": [
        ("The rule about rebasing before every merge is lifted.", INS),
        ("drop the rule that we never deploy on Fridays", INS),
        ("the rule to pin every dependency has been retired", INS),
        ("the rule is gone", None),
        ("Drop the rule that it must pass.", None),
        ("What is the rule about tabs?", None),
    ],
    "ja.instruction.reversal_rule": [
        ("コミット前に lint を回すというルールは廃止します。", INS),
        ("main に直接 push しないというルールはなしにします。", INS),
        ("PR には必ずスクショを付けるという決まりは撤廃します。", INS),
        ("このルールは廃止します。", None),
        ("ルールを読んでください。", None),
    ],
    "en.instruction.remember_after": [
        ("don't stub a network call in a contract test, remember", INS),
        ("don't pile a sleep onto a slow test, remember", INS),
        ("remember alt text on every chart, no exceptions", INS),
        ("fix the login bug, remember", None),
        ("push it when you're done, remember", None),
        ("Please update the README, don't forget it", None),
    ],
    "en.instruction.for_every": [
        ("The reviewer for every PR is the code owner.", INS),
        ("base image for all services is alpine please", INS),
        ("Target branch for each release is main.", INS),
        ("The status of every job is failing.", None),
        ("The output of all tests is the same.", None),
    ],
    "en.correction.chose_as": [
        ("all installed, and we picked pnpm as the package manager", C),
        ("We went with Postgres as our database.", C),
        ("FYI I picked Vitest as the test runner for this repo.", C),
        ("I chose red as the accent colour.", None),
        ("Which one did you pick as the database?", None),
        ("I picked option 2 as the approach.", None),
    ],
    "en.correction.setup": [
        ("we're on node 20", C),
        ("I'm on Windows.", C),
        ("Our CI runs on GitHub Actions.", C),
        ("The dev server runs on port 5173.", C),
        ("Our main language is Go.", C),
        ("My editor is open.", None),
        ("The branch is broken.", None),
        ("I'm on it.", None),
        ("I'm on the main branch.", None),
        ("I'm on my phone right now.", None),
        ("Our test is on line 40, it fails.", None),
        ("The API runs on port 8080 locally.", C),
        # what the project is built with or runs on, its whole or a layer as the subject
        ("This project is written in TypeScript.", C),
        ("The backend is written in Go.", C),
        ("All our services are deployed on Kubernetes.", C),
        ("Our backend is Django.", C),
        ("Our stack is Next.js, Prisma and Postgres.", C),
        ("Our backend is slow today.", None),
        ("The backend is written in a weird way.", None),
        ("The site is built with love.", None),
    ],
    "ja.instruction.naide": [
        ("mainブランチに直接pushしないでください。", INS),
        ("勝手にコミットしないで。", INS),
        ("確認なしにファイルを削除しないこと。", INS),
        ("このファイルは直接編集しないでください？", None),
        ("それを勝手に消さないで。", None),
    ],
    "ja.instruction.scope": [
        ("本番環境では、デフォルト値を使用しないでください", INS),
        ("環境ごとに異なるSECRET_KEYを使用してください", INS),
        ("POT ファイルは開発環境でのみ更新してください", INS),
        ("本番環境にこの修正をデプロイしてください", None),
        ("ステージングで今すぐ確認してください", None),
        ("このファイルは開発環境でのみ更新してください", None),
    ],
    "zh.preference.youxian": [
        ("优先使用 uv 管理依赖", P),
        ("优先参考官方文档。", P),
        ("首选用 pnpm 安装依赖。", P),
        ("优先修复登录的bug", None),
        ("这次优先用缓存吧", None),
    ],
    "zh.instruction.yuyan": [
        # an answer in a language asked after a question: this reply only
        ("已经改好了么，中文回答", None),
        # the language alone before the act, said as the whole sentence
        ("中文回答", INS),
        ("英文交流。", INS),
        ("中文回答这个问题", None),
        ("中文回答吗", None),
        ("中文输出到 docs 目录", None),
        ("里面的聊天发的是汉语，结果用英语回", None),
        ("面向用户的输出、代码注释和交付文档统一使用简体中文。", INS),
        ("这个页面上的按钮和标题文字使用中文", None),
        ('以上三份文档全部用中文输出', None),
        ('标签以英文逗号分隔', None),
        ("请用中文回答。", INS),
        ("代码注释用英文写。", INS),
        ("回答请用简体中文。", INS),
        ("帮我用英文写一封邮件。", None),
        ("用中文解释一下这个错误。", None),
        ("能用英文回答吗？", None),
        ("用中文写一份部署文档。", None),
        ("请用中文列出所有的修改点。", None),
        ("变量命名用英文。", INS),
    ],
    "zh.instruction.suoyou": [
        ("所有的日志都写到 stderr。", INS),
        ("所有脚本都放在 scripts 目录。", INS),
        ("全部配置都放在 config 目录。", INS),
        ("所有这些文件都要删掉。", None),
        ("所有测试都通过了吗？", None),
        ('反正我不急躁，我就是要把所有障碍都要排除。', None),
    ],
    "en.instruction.style": [
        ("Please keep PRs small.", INS),
        ("Write small functions.", INS),
        ("Use single quotes for strings in JS.", INS),
        ("2-space indentation please.", INS),
        ("Make the tests pass.", None),
        ("Keep the functions small in this file.", None),
        ("Write a small function that parses dates.", None),
        ("Use double quotes here.", None),
        # a length limit on a class of things, not on one text of the task
        ("Keep function bodies under 40 lines.", INS),
        ("keep branch names to 30 chars max", INS),
        ("Keep the abstract under 150 words.", None),
        ("Keep it to 20 lines.", None),
        ("Limit each answer to three sentences.", None),
    ],
    "en.instruction.location": [
        ("PRs go against develop.", INS),
        ("Migrations live in db/migrations.", INS),
        ("All fixtures belong under tests/fixtures.", INS),
        ("Tests go red when I run them.", None),
        ("My commits go to the wrong branch.", None),
        ("Where do migrations live?", None),
        ("Rust integration tests live in tests/.", INS),
        ("My local test fixtures go in the wrong folder", None),
    ],
    "en.preference.x_not_y": [
        ("compare against main, not the current branch", None),
        ("merge into develop, not main", None),
        ("Tabs, not spaces.", P),
        ("Postgres, not MySQL.", P),
        ("snake_case, not camelCase", P),
        ("Later, not now.", None),
        # a pasted Python error, wrapped by the terminal: the line naming NoneType is the log's
        ("IP-Adapter load failed: expected str, bytes or \nos.PathLike object, not NoneType. Will try the other.", None),
        ("Close, not exact.", None),
        ("Yes, not bad.", None),
    ],
    # ------------------------------------------ ja standing requests, conventions, reversals
    "ja.instruction.toki": [
        # a moment before の / まで names a thing or a span; 際 in 実際 is "actually"
        ("初回表示時のテーマは、保存された値を自動で読むようにしてください", None),
        ("処理を（実際に書き込む直前まで）作ってあるので、残りを書いてください", None),
        ("コミットする前にlintを実行してください", INS),
        ('データが空の時はメッセージを出さないでください', None),
        ('回答する際は結論から書いてください', INS),
        ('受信時にメンションがなくても返信するようにしてください。', None),
        ('エンターを押した際に検索が走るようにして', None),
        ('調べる際はこちらを参照すること', None),
        ("保存するときは入力値をチェックするようにしてください。", None),
        ("ログインした時はダッシュボードを表示してください", None),
        ("はい、他にも間違っているとこがありそうなので随時修正してください。", None),
        ("ダウンロードと同時に再生してください", None),
        ("テストを書くときはモックを使わないでください。", INS),
        ("コミットする前にlintを実行してください。", INS),
        ("新しいAPIを追加する場合はドキュメントも更新すること。", INS),
        ("このファイルを直すときは注意してください。", None),
        ("時間があるときに見てください。", None),
        ("ビルドが終わった後にデプロイしてください。", None),
        ('コミット前には pytest を回して', INS),
        ('prettier かけてから commit して', INS),
        ('クロスエコシステム比較を今シナリオ立てて実際に動かしてみて', None),
        ('名前良くないな、シナリオテストにしておいて', None),
        ('これを直してからコミットして', None),
    ],
    "ja.instruction.reply_style": [
        ("返答は日本語でお願いします。", INS),
        ("日本語で応答してください。", INS),
        ("コミットメッセージは英語で書いてください。", INS),
        ("この部分の説明を日本語でお願いします。", None),
        ("変数名は英語にしてください。", INS),
        ("PRのタイトルは英語で書くこと。", INS),
        ("今回は英語でお願いします。", None),
        ("返答は日本語ですか？", None),
    ],
    "ja.instruction.convention": [
        ("PR は Presentation 層と Application 層で分けて出しています。", INS),
        ("コミットは機能ごとに分けています。", INS),
        ("コミットは小さく分けてください。", INS),
        ("変数名はキャメルケースで統一してください。", INS),
        ("ブランチ名は feature/ 形式で統一しています。", INS),
        ("テストはまだ分けて書いていません？", None),
        ("PRは出しました。", None),
        ("このPRは機能ごとに分けています。", None),
    ],
    "ja.instruction.shitagatte": [
        ("t-wadaのTDDに従ってテストしながら進める。", INS),
        ("コミットメッセージは Conventional Commits に従ってください。", INS),
        ("Conventional Commitsに従って書いてください。", INS),
        ("チームの規約に沿って実装してください。", INS),
        ("この手順に従って設定して。", None),
        ("上記のルールに従って進めますか？", None),
    ],
    "ja.instruction.reversal_mou": [
        # a part of the screen no longer needed is a change to the product
        ("ヘッダーのプレースホルダーはもう写真が入ったので不要です", None),
        ("worktreeはもう使いません", INS),
        ("worktree はもう使いません。", INS),
        ("もうモックは使わないでください。", INS),
        ("changelogはもう手で書かなくていいです。", INS),
        ("もう少し短くしてください。", None),
        ("もう動作しない。", None),
        ("もう終わりましたか？", None),
        ("もう一度実行してください。", None),
        ("コミット前の prettier はもう要りません、エディタが保存時にかけるので。", INS),
        ("保存するときのバリデーションはもう要りません。", None),
    ],
    "ja.instruction.kihon": [
        ("基本的にTypeScriptで書いています。", INS),
        ("原則としてmainには直接pushしません。", INS),
        ("普段はVSCodeを使っています。", INS),
        ("基本的に問題ないです。", None),
        ("基本的にはこの方法でいいです。", None),
    ],
    "ja.instruction.youni": [
        ("日本語で返すようにしてください。", INS),
        ("関数にはdocstringを書くようにしてください。", INS),
        ("型はanyを使わないようにしてください。", INS),
        ("大きな変更の前は相談するようにしてね。", INS),
        ("このボタンが表示されるようにしてください。", None),
        ("ログインできるようにしてください。", None),
        ("それを使わないようにしてください。", None),
        ("tasksはコミットするようにしたいな", INS),
        ("tasksはコミットするようにしたいかな", None),  # (「かな」 ends a question or a doubt)
        ("テストは毎回走らせるようにしたいです。", INS),
        ("このボタンを押せるようにしたい", None),
        ("今回はコミットするようにしたい", None),
        ("それを使わないようにしたいかな", None),
    ],
    "ja.instruction.only_when": [
        ("PR の説明を書き直すのは push した時だけにして", INS),
        ("CHANGELOG を更新するのはリリース前のみにしてください。", INS),
        ("スクリーンショットを撮るのはマージ前だけでいい", INS),
        ("ログを出すのはエラーの時だけにして", None),
        ("このPRの説明を直すのはマージした時だけにして", None),
        ("通知を送るのはログインした時だけにして", None),
        ("PRを出すのはテストが通った時だけですか？", None),
    ],
    "ja.instruction.touitsu_wish": [
        ("日付の書式は ISO 8601 で統一したい", INS),
        ("このリポジトリ全体を通して、エラー処理は Result 型で統一したいです", INS),
        ("文言はすべて敬体で統一したいです。", INS),
        ("このファイルのインデントはスペースで統一したい", None),
        ("ボタンの色は青で統一したい", None),
        ("fooBarは snake_case で統一したい", None),
        ("変数名は英語で統一したいですか？", None),
    ],
    "ja.instruction.naikoto": [
        (".envファイルはコミットしないこと。", INS),
        ("本番DBには接続しないこと。", INS),
        ("生成されたコードは手で編集しないこと。", INS),
        ("このファイルは変更しないこと。", None),
        ("問題ないことを確認しました。", None),
        ("使えないことがある。", None),
    ],
    "ja.correction.setup": [
        ("パッケージマネージャーはpnpmです。", C),
        ("テストフレームワークはvitestを使っています。", C),
        ("私はMacを使っています。", C),
        ("私は田中です。", None),
        ("私はPythonが苦手です。", None),
        ("言語は何ですか？", None),
    ],
    # ------------------------------------------ zh standing prohibitions, requirements, reversals
    "ja.instruction.topic_use": [
        ("見出しの下線には assets/line.svg を使って", None),
        ("色は青でお願いします。", None),
        ("背景は白でお願いします", None),
        ("Python は 3.12 を使ってください。", INS),
        ("Python は 3.12 を使ってください、3.10 ではありません。", INS),
        ("テストは pytest でお願いします。", INS),
        ("このファイルは pandas を使ってください。", None),
        ("今回は古いバージョンを使ってください。", None),
    ],
    "ja.instruction.surukoto": [
        ("回答は日本語で行うこと。", INS),
        ("PR にはスクリーンショットを付けること。", INS),
        ("コメントは英語で統一すること", INS),
        ("大事なのはテストを書くことです。", None),
        ("使うことがあります。", None),
        ("このファイルを編集することはできますか", None),
    ],
    "ja.instruction.sakete": [
        ("main ブランチへの直接プッシュは避け、PR 経由でマージしてください", INS),
        ("グローバル変数の使用は避けてください。", INS),
        ("any 型は避けて。", INS),
        ("ネストした三項演算子は避けること。", INS),
        ("この問題を避けるにはどうすればいいですか", None),
        ("今回はその修正を避けてください。", None),
    ],
    "zh.instruction.buyao": [
        # a tool dropped, named in Latin letters, is a rule; stopping the work going on is not
        ("不要用 yarn 了，改用 pnpm", INS),
        ("你这个不对，不要用sshpass了，用新写的ssh脚本", INS),
        ("别看了", None),
        # may not, of acting on one's own
        ("并且除去用户同意，不可以擅自重装", INS),
        ("这个文件不能擅自删除", None),
        # a thing of the product that must not move or change; the agent not changing a thing is a rule
        ("拖动时其余的节点不得随意移动", None),
        ("窗口位置不要自动偏移", None),
        ("不得随意修改公共接口", INS),
        # "don't change any …" holds the work at hand
        ("不要改任何入口层的修正", None),
        # a kind named by an example in Latin letters is no pointing word
        ("不要用 sleep 这种命令去等待，要轮询状态", INS),
        ("不要这种写法", None),
        # what goes into the one file being written now; a secret kept out of a file stays a rule
        ("示例里的公司名不要写进 README.md", None),
        ("不要把密钥写进 config.py", INS),
        # a check offered for the code at hand, and how often a job of the product runs
        ("可以在 Exporter 中添加校验逻辑，当数据太少时打印提示，不要写入库", None),
        ("同步脚本每天凌晨执行，不要每个小时跑", None),
        ("不要在代码里硬编码密钥", INS),
        ("组件样式统一用 CSS Modules，不要写内联样式。", INS),
        ("这个页面的样式改一下，不要用蓝色。", None),
        ('不要改变现有的接口设计', None),
        ('继续完成剩下的部分，不要太频繁地请求接口', None),
        ('先分析原因，不要改代码', None),
        ('只调整缩进，不要改任何内容', None),
        ('提示信息不要做成弹窗，直接显示在表单下面', None),
        ('最好不要动数据库的配置', None),
        ('建议不要用全局变量', None),
        ('不要修改notes.md文件。', None),
        ('不要提交 .env 文件', INS),
        ('要求打开页面不要有任何延迟', None),
        ('若 8080 端口不通，再试 8081（不要用 80 端口）', None),
        ('在本项目中新增一个接口，不要访问外部网络', None),
        ('数据能随时导出，不要用任何付费服务，这类要怎么做', None),
        # a clause ended on 「；」 is prose, not a line of code ending on ";"
        ("禁止使用轮询方式同步数据，统一使用 WebSocket；", INS),
        ("不要写'坑'/'注意'这类段落。", INS),
        ("不要搞砸了。", None),
        ("请你不要骗我", None),
        ("不要改动代码", None),
        ("不要写后面的导出模块", None),
        ("不要用 moment，用 dayjs。", INS),
        ('这个就是配置文件，你自己看，不要动生产数据库！', INS),
        ('你别乱删啊！', None),
        ('标题别改啊，我喜欢原来的', None),
        ('先别写代码。', None),
        ('你先写计划，不要直接动代码', None),
        ('能不能换个配色，别弄得太暗了', None),
        ("业务模块不得直接启动调度器。", INS),
        ("我不得不重写这个函数。", None),
        ("不要重复确认，直接改就行。", INS),
        ("不要在代码里写死配置。", INS),
        ("別用 var 宣告變數。", INS),
        ("这次先不要提交。", None),
        ("数据库迁移文件不要手动修改。", INS),
        ("这个文件不要改。", None),
        ("先不要合并。", None),
        ("帮我修一下登录，不要动其他文件。", None),
        ("不要这个。", None),
        ('同步主分支的时候不要用 merge。', INS),
        ('不要擅自提交代码。', INS),
        ('不要添加其他组件，不要重复添加。', None),
        ('重构爬虫，不要出现低级错误。', None),
        ('不要引入新的第三方依赖。', INS),
        ('不要在代码里打印调试日志。', INS),
        ('主要区别如下：不要混用两种写法', None),
        ('分別是怎樣的', None),
        ('7d 消息统计不准确：', None),
    ],
    "zh.instruction.bixu": [
        # 么 ends a question; the work just started is what 一定要 bounds
        ("变长一定要输入参数么", None),
        ("开始开发组件，一定要非常详细哦", None),
        # 是…的、 lists what the things at hand are; a check asked for now
        ("这些脚本都是临时的、必须手动跑的", None),
        ("所有脚本都必须能手动跑", INS),
        ("你要确认每个页面都要有标题", None),
        ("你要检查所有接口都要有鉴权", None),
        ("每个模块都要有单元测试", INS),
        # the agent asked to think out how: no rule made yet
        ("读一下规范文档，思考如何加入限制，让助手每次都要先跑测试", None),
        ("研究一下怎么让每次提交都要跑 lint", None),
        ("提交前都要跑 lint", INS),
        # after 「全部执行」 or 「现修复…」 the rest bounds the run at hand
        ("全部执行，注意每个用例都要打印耗时", None),
        ("现修复登录模块，再重新跑测试，必须严格按照文档来", None),
        ("所有接口都要有类型注解", INS),
        ('把结果都要写进/home/dev/app/docs/result.md', None),
        ('你首先要把配置理顺，都要走配置文件', None),
        ('把每个接口都测一下，每个都要给出修改建议', None),
        ('每个测试都要把结果输出到 /home/dev/app/docs/report.md', None),
        ('A) 列表滚动必须流畅', None),
        ('你说每个模块都要有单元测试', None),
        ('必须支持繁体中文', None),
        ('必须先注册才能下单', None),
        ("我想开发一个记账小程序，数据必须加密，界面要简洁。", None),
        ("我们准备搭建一套监控系统，告警都要发到群里。", None),
        ("用户必须先绑定手机号才能下单。", None),
        ("所有页面都要有面包屑导航。", None),
        ('又失败了，你看一下，所以我必须重新部署', None),
        ('结果不对，我一定要给老板一个交代', None),
        ('又报错了，你看一下，提交前必须跑lint', INS),
        ('你改吧，一定要保留旧接口', None),
        ('可以，必须用真实数据', None),
        ("提交前必须跑测试。", INS),
        ("所有接口都要有类型注解。", INS),
        ("新功能一定要写单元测试。", INS),
        ("你必须先修复这个bug。", None),
        ("你必须告诉我原因。", None),
        ("今天必须完成。", None),
        ("这个函数必须改吗？", None),
        ('因為如果一定要重 build 我又不想寫在原本的 code 裡面', None),
        # every one of a kind, "at least"
        ("每个接口至少要有一个集成测试。", INS),
        ("每条迁移至少得有回滚脚本。", INS),
        ("这个页面每个按钮至少要有提示。", None),
        ("至少要跑一次测试。", None),
        ('我的需求是，第一次抓取必须全量抓取客户信息。', None),
        ('不能用的（必须先解决登录）：', None),
        ('1、对于配音拼音和声调一致，只是文字显示与原文本不一致的，判定不是差异、不做标红；对于标点符号与原文本不一致的，只要断句不错，不判定为差异，所有的提示都要写在报告里并且必须在同一个表格中，表格的每一行对应原文本的一句话，差异的地方用红色标出来，其余保持原样', None),
    ],
    "zh.instruction.zhiqian": [
        # 前 inside 当前 "current" is no "before"; a step asked for while the work at hand goes on is that work's
        ("后台运行把当前需要检查的代码发给审查工具", None),
        ("模块A，继续完成剩下的部分，每一步之前先告诉我思路", None),
        ("部署之前要先备份数据库。", INS),
        ("使用大量工具之前需要先经过我同意。", INS),
        ("发布前要更新 CHANGELOG。", INS),
        ("修改数据库结构之前请先告诉我。", INS),
        ("之前的版本要保留吗？", None),
        ("上线前要修好这个bug。", None),
        ("我之前要你做的改好了吗？", None),
    ],
    "zh.instruction.fengge": [
        # one piece of each format, produced now; where such files go stays a rule
        ("把接口说明生成markdown和html格式文档各一份", None),
        ("生成的文档统一放在 docs 目录下", INS),
        # 用户 "user" and 用例 "test case" are no 用 "use"
        ("登录后直接进入测试用户的主页。", None),
        ("测试用例统一放在 tests 目录下。", INS),
        ('日志已经放在 logs 目录下了', None),
        ("关于代码风格：缩进用两个空格。", INS),
        ("测试统一放在 tests 目录下。", INS),
        ("变量名统一用 snake_case。", INS),
        ("日志用 grep 查一下。", None),
        ("测试用例失败了。", None),
        ("配置文件用的是旧版本吗？", None),
    ],
    "zh.instruction.women_yong": [
        ("我们用 pnpm 管理依赖。", INS),
        ("我們使用 Poetry 管理套件。", INS),
        ("我们用 React 做前端。", INS),
        ("我们用 Python 写一个脚本吧。", None),
        ("我们用这个库试试。", None),
        ("我是用uv管理python包", INS),
        ("我一直用 pnpm 管理依赖。", INS),
        ("我用这个脚本部署一下", None),
        ("我用 uv 管理了一下依赖", None),
        ("我用uv打包试试", None),
        ("你用 uv 管理依赖吗？", None),
    ],
    "zh.preference.jianduan": [
        ("回复请简短。", P),
        ("请简洁地回答。", P),
        ("回答尽量简短。", P),
        ("回答太详细了。", None),
        ("这个回答请简短一点。", None),
    ],
    "zh.instruction.shi": [
        ('列表为空时要显示提示文字', None),
        ('调用外部命令时要先告诉我', INS),
        ('用户登出时要清空缓存', None),
        ("写代码时请加上类型注解。", INS),
        ("提交代码的时候要写清楚提交信息。", INS),
        ("新增接口时记得更新文档。", INS),
        ("有时候测试会失败。", None),
        ("你有空的时候看一下。", None),
        ("运行时报错了。", None),
    ],
    "zh.instruction.changed_remember": [
        ("接口改了记得更新文档。", INS),
        ("依赖升级了要记得跑一遍 e2e", INS),
        ("schema 变了记得重新生成 client。", INS),
        ("页面改了记得告诉我", None),
        ("你改了记得提交", None),
        ("这个文件改了记得提交", None),
    ],
    "zh.instruction.reversal_buzai": [
        # not once more: a step of the work at hand
        ("前端不要再构建一遍了，直接部署", None),
        ("不要再用 moment 了，改用 dayjs", INS),
        ('移除了以下不再需要的配置项：', None),
        ('删除不再使用的类型定义', None),
        ("以后不再用 Docker Compose 了，改用 Podman。", INS),
        ("别再加 console.log 了。", INS),
        ("以后都用pnpm，不要再用npm了。", INS),
        ("我们不再支持 Python 3.8。", INS),
        ("不再报错了。", None),
        ("这个函数不再需要了。", None),
        ("他不再用 Vim 了。", None),
        ("页面再调亮一点，数据库结构别再改了！", None),
        ("接口不要再动了", None),
        # a manner before the verb; "this repo" in the reason names the whole
        ("不用再手动跑 lint 了，pre-commit 会处理。", INS),
        ("别再用 moment 了，这个仓库统一用 dayjs。", INS),
        ("别再改这个文件了，这个项目不需要。", None),
        # a step no longer asked for: split further, bumped by hand
        ("合并请求大一些也行，不用再拆了。", INS),
        ("不用手动更新 CHANGELOG 了，发布脚本会生成。", INS),
        ("不用手动改，我自己来。", None),
        ("这次不用手动升版本号，我来。", None),
    ],
    "ja.instruction.naide_practice": [
        ('OK、モックは使わないでください', None),
        ("yarn は使わないで。", INS),
        ("デバッグ用の print をコミットに残さないでください。", INS),
        ("Python で型ヒントを省略しないでください。", INS),
        ("そのファイルは使わないで。", None),
        ("まだコミットしないでください。", None),
        # a condition that recurs, and a reason or the way instead after a comma
        ("例外を握りつぶさないでください。", INS),
        ("テストなしで main にマージしないで。", INS),
        ("lodash は使わないで、標準の配列メソッドで書いてください。", INS),
        ("テストなしで。", None),
        ("そのブランチは使わないで、main から切ってください。", None),
        ("やっぱりなしで、普通に進めて", None),
        # an English verb with する names a practice too
        ("本番にいきなり deploy しないでください、先にステージングで確認して。", INS),
        ("まだ push しないでください。", None),
        ("それを delete しないで", None),
    ],
    "ja.instruction.janakute": [
        ("load_configじゃなくてread_settingsを使って", None),
        # a quoted wording of the text at hand, edited
        ("「いたします」じゃなくて「します」にして", None),
        ("npm じゃなくて pnpm を使って", INS),
        ("npm じゃなくて pnpm を使って", INS),
        ("設定は JSON ではなく YAML で書いてください。", INS),
        ("モックは tests/ じゃなくて tests/mocks/ に置いて", INS),
        ("そっちじゃなくてこっちを使って", None),
        ("このファイルじゃなくて README にして", None),
    ],
    "ja.instruction.oite": [
        ("フィクスチャは tests/fixtures に置いてください。", INS),
        ("違います、スクリプトは scripts/ ディレクトリに置いて", INS),
        ("型定義は src/types 配下に置くこと。", INS),
        ("このファイルは src に置いて", None),
        ("それは docs に置いてください。", None),
    ],
    "ja.instruction.reversal_yamete": [
        # a name from the code (camelCase / snake_case) dropped is a change to the code at hand; a tool, or what stays out of a commit, is not
        ("parseUserInputを使うのはやめて、validateInputにして", None),
        ("node_modules をコミットするのはやめて", INS),
        ("moment.jsを使うのはやめてください", INS),
        ("Jest はやめて、Vitest に移ってください。", INS),
        ("コミットメッセージに絵文字を付けるのはやめてください。", INS),
        ("pnpm はやめて", INS),
        ("それはやめて", None),
        ("これはやめてください。", None),
        ("コミット前のlintは今後やめてください。", INS),
    ],
    "ja.instruction.reversal_modoshite": [
        ("yarn に戻してください。", INS),
        ("テストランナーは、unittest に戻して", INS),
        ("フォーマッタは black に戻して", INS),
        ("main に戻して", None),
        ("元に戻してください。", None),
    ],
    "ja.instruction.kyoka": [
        ("既存の管理画面は Options API のままで構いません。", INS),  # the admin area's code, no look
        ('はい、上書きしても大丈夫です', None),
        ("テストでは any を使っても大丈夫です。", INS),
        ("コメントは英語で構いません。", INS),
        ("ログは残して大丈夫です。", INS),
        ("これを消しても大丈夫ですか？", None),
        ("今回はテストを飛ばしてもいいです。", None),
        ("生成コードの lint 警告は無視して構いません。", INS),
        ("これは無視して構いませんか？", None),
        ("mainへの直接pushは解禁します。", INS),
        ("型エラーの出る古いテストは skip しちゃっていいです。", INS),
        ("これ消しちゃっていいです", None),
        ("今回は force push しちゃっていいですか？", None),
    ],
    "zh.instruction.reversal_rule": [
        ("提交前跑测试这条规则取消了。", INS),
        ("PR 必须两人审核的规定取消了。", INS),
        ("合并前必须 rebase 的规则已经废除了。", INS),
        ("这条规则取消了。", None),
        ("订单取消了。", None),
        ("那个规定不用了。", None),
    ],
    "zh.instruction.reversal_back": [
        ("不用 pnpm 了，换回 npm。", INS),
        ("以后还是换回 yarn。", INS),
        ("测试框架切回 pytest。", INS),
        ("换回 main", None),
        ("改回 v1.2", None),
        ("还是改回去吧", None),
        ("这个函数换回 lodash 了吗？", None),
    ],
    "zh.instruction.jiuxing": [
        # 或者 offers another way for the work at hand
        ("或者先在本地搜一下进程名，拿到id再杀掉也可以的", None),
        ("直接用 npm 装也可以", INS),
        # what a user of the thing built may do is a feature
        ("插件自动读取最近的提交，用户也可以手动选文件就行", None),
        ('你也可以换个思路', None),
        ('也可以参考以下配置', None),
        ('spec没问题', None),
        ('本地用 npm 没问题', INS),
        ("密码直接从环境变量读就行。", INS),
        ("lint 警告也可以 merge。", INS),
        ("CHANGELOG 统一写英文就行。", INS),
        ("这样就行。", None),
        ("帮我改一下就行。", None),
    ],
    "zh.correction.built_on": [
        ("我们的项目部署在阿里云上。", C),
        ("这个网站是基于Next.js的。", C),
        ("整个后端跑在k8s集群里。", C),
        ("这个项目是基于什么框架的？", None),
        ("如果项目部署在阿里云上会更便宜", None),
    ],
    "zh.instruction.gaicheng": [
        # the unit of a figure names no tool or format: a value of the product set
        ("改成默认上限200k字符吧", None),
        ("数据库里的时间改成存UTC吧", INS),
        ('标题改成加粗吧', None),
        ('改成灰色吧', None),
        ('改成只在夜间模式下显示吧', None),
        ('包管理改用 pnpm 吧', INS),
        ('截图还是放回 docs 目录吧', INS),
        ('效果不好，把配置改回去吧', None),
        ("日志格式改成 JSON 吧。", INS),
        ("测试框架改用 vitest 吧，jest 太慢了。", INS),
        ("依赖换回 pip 吧。", INS),
        ("把这个按钮改成蓝色吧。", None),
        ("这个函数改成 async 吧。", None),
        ("数据库里的时间改成存北京时间吧，报表那边要求的。", INS),
        ("接口返回的时间格式改成年月日吧。", INS),
        ("左边的卡片改成两列吧。", None),
    ],
    "zh.instruction.jizhu": [
        # 会记住 / 能记住 say what something will do, nobody is asked to keep anything
        ("助手会记住用户上次选的主题", None),
        ("客服机器人能记住这个请求，之后再处理", None),
        ("你要记住：依赖用 uv 管理。", INS),
        ('请记住，这些只是基于您的情况的一般建议。', None),
        ("记住：我们的测试框架是pytest。", INS),
        ("請記住，部署只在週二進行。", INS),
        ("记住默认分支是develop。", INS),
        ("记住", None),
        ("你还记住吗？", None),
    ],
}

_ROWS = [
    pytest.param(rule_id, text, expected, id=f"{rule_id}-{n}")
    for rule_id, rows in RULE_CASES.items()
    for n, (text, expected) in enumerate(rows)
]


@pytest.mark.parametrize(("rule_id", "text", "expected"), _ROWS)
def test_rule_table(rule_id: str, text: str, expected: str | None) -> None:
    found = find_markers(text)
    if expected is None:
        assert found == [], f"expected no marker, got {found}"
    else:
        assert any(m.rule_id == rule_id and m.kind == expected for m in found), (
            f"expected {rule_id} → {expected}, got {found}"
        )


def test_every_rule_has_a_table_with_enough_rows() -> None:
    ids = {r.rule_id for r in RULES}
    assert ids == set(RULE_CASES), ids ^ set(RULE_CASES)
    for rule_id, rows in RULE_CASES.items():
        positives = [t for t, e in rows if e is not None]
        negatives = [t for t, e in rows if e is None]
        assert len(positives) >= 3 and len(negatives) >= 2, rule_id


def test_rule_ids_are_stable_shaped_and_unique() -> None:
    ids = [r.rule_id for r in RULES]
    assert len(ids) == len(set(ids))
    for rule in RULES:
        assert isinstance(rule, MarkerRule)
        assert rule.kind in KINDS
        assert re.fullmatch(rf"(en|ja|zh)\.({'|'.join(KINDS)})\.[a-z_]+", rule.rule_id)
        assert rule.rule_id.startswith(rule.lang + "." + rule.kind + ".")
        assert rule.cue == rule.cue.lower() and rule.cue.strip("|") == rule.cue


def test_rules_are_tried_in_kind_priority() -> None:
    order = ("correction", "failure", "lesson", "preference", "instruction")
    ranks = [order.index(r.kind) for r in RULES]
    assert ranks == sorted(ranks)


def test_one_sentence_one_marker_by_priority() -> None:
    # a lesson that also says 必ず / always is reported once, as the lesson
    found = find_markers("教訓: マイグレーションの前には必ずバックアップを取る。")
    assert [m.kind for m in found] == ["lesson"]
    found = find_markers("Remember: the nightly job always fails when the VPN is down.")
    assert [m.kind for m in found] == ["failure"] and found[0].stated


def test_several_claims_in_one_turn() -> None:
    found = find_markers(
        "Thanks! Always rebase before pushing. Also, never commit to main.\n"
        "TIL: uv caches wheels across projects."
    )
    assert [(m.rule_id, m.text) for m in found] == [
        ("en.instruction.always", "Always rebase before pushing."),
        ("en.instruction.never", "Also, never commit to main."),
        ("en.lesson.til", "uv caches wheels across projects."),
    ]


def test_marker_text_is_trimmed_to_the_claim() -> None:
    (m,) = find_markers("ok.   Lesson learned:\n   pin the   Node version in .nvmrc")
    assert m.text == "pin the Node version in .nvmrc"
    (m,) = find_markers("That's wrong.\nThe port is 5432.")
    assert m.text == "That's wrong. The port is 5432."
    (m,) = find_markers("- [ ] Always run `make lint` before pushing")
    assert m.text == "Always run `make lint` before pushing"


def test_quoted_code_and_pasted_text_never_fire() -> None:
    assert find_markers('The README says "never run this script as root".') == []
    assert find_markers("> Always use the staging DB\n> Never use prod") == []
    assert find_markers("```\n# always run migrations first\n```") == []
    assert find_markers("Check that `always_on` is false.") == []
    assert find_markers("<system-reminder>Whenever you read a file, you should check it.</system-reminder>") == []
    long = "Always " + "use the shared retry helper and keep the timeout small " * 8 + "."
    assert find_markers(long) == []


@pytest.mark.parametrize(
    "document",
    [
        "## Summary\n- Always run the linter before pushing.",
        "**Root cause:** the client never retries.\nNever call the API twice.",
        "- **Files**: always keep them under src/",
        "| rule | why |\n| Never push to main | CI |",
        "\u2705 Always run the tests before committing",
    ],
)
def test_a_pasted_markdown_document_is_left_out_and_the_lead_in_kept(document: str) -> None:
    # people type prose: headings, bold labels, tables and status emoji come from an agent's summary or a spec
    assert find_markers(document) == []
    found = find_markers("Never push to main.\n\n" + document)
    assert [m.text for m in found] == ["Never push to main."]
    # a shouted word in bold is the person's own emphasis
    assert find_markers("**NEVER** run migrations against the shared dev database.") != []


def test_header_makes_following_bullets_durable() -> None:
    found = find_markers("今後は以下のルールでお願いします:\n- pnpmを使う\n- インデントは2スペース\n\nよろしく")
    assert [(m.rule_id, m.text, m.stated) for m in found] == [
        ("ja.instruction.kongo", "pnpmを使う", True),
        ("ja.instruction.kongo", "インデントは2スペース", True),
    ]


def test_a_list_asked_into_a_rule_file_gives_its_items_as_rules() -> None:
    text = ("Could you write up an addition to our cursor rules for release prep? Here is what I care about.\n"
            "1. Mention breaking changes at the top of the notes\n"
            "2. Regenerate the changelog from merged PR titles\n"
            "3. Schedule: Monday only\n"
            "4. Release Captain")
    found = find_markers(text)
    assert [(m.rule_id, m.text) for m in found] == [
        ("en.instruction.into_rule_file", "Mention breaking changes at the top of the notes"),
        ("en.instruction.into_rule_file", "Regenerate the changelog from merged PR titles"),
    ]


@pytest.mark.parametrize("text", [
    # a list that is not asked into a rule file, a rule file that is only mentioned or wondered about
    "Here is my plan for the release:\n1. Mention breaking changes at the top of the notes\n2. Regenerate the changelog",
    "Your draft in @release.mdc reads well. The steps I see:\n1. Mention breaking changes at the top of the notes",
    "Would it make sense to put in the cursor rule that the agent acts as:\n1. Release Captain\n2. Changelog Keeper",
])
def test_a_list_not_asked_into_a_rule_file_is_no_rule(text: str) -> None:
    assert find_markers(text) == []


@pytest.mark.parametrize("text", [
    # a command's prompt expanded into the turn: labelled sections of rules written for a model
    "Audit the dependency tree.\n\nScope rules:\n- Never upgrade a major version.\n- Do not touch lockfiles.\n\n"
    "Reporting:\n- Always list each package with its licence.",
    "Draft a handbook page for new contributors.\n\nWriting Style\n\n- Keep sentences short and direct.\n\n"
    "Review Process, Approvals and Merging\n\n- Never merge without two approvals.",
])
def test_a_prompt_written_as_labelled_sections_is_left_out(text: str) -> None:
    assert find_markers(text) == []


@pytest.mark.parametrize("text", [
    # an agent's reply pasted back: what it looked at and saw, then what it will do; its fixes are its proposal
    "Looking at the stack trace you sent, I can see the cache key drops the tenant. Let me fix the lookup:\n"
    "1. Use `tenant_key` instead of `user_key` in the cache helper",
    "the upload still fails: Looking at the handler and your client code, I can spot the problem. Let's fix this:\n"
    "1. Don't set the content type by hand in the client fetch call",
    "Looking at ROADMAP.md, the first open item is the CSV exporter. Let me check it.\n"
    "Use `DictWriter` for exported files",
])
def test_an_agent_s_reply_pasted_back_is_no_rule(text: str) -> None:
    assert find_markers(text) == []


@pytest.mark.parametrize(("text", "claim"), [
    # the person's own look at the output, then their rule: no reply of the agent's goes on after it
    ("Looking at the diff, I can see you bumped the lockfile again. Never touch the lockfile.",
     "Never touch the lockfile."),
    ("Never touch the lockfile. Looking at the logs, the job timed out.", "Never touch the lockfile."),
    ("Always answer in English.", "Always answer in English."),
    ("We always deploy on Fridays, not on Mondays.", "We always deploy on Fridays, not on Mondays."),
])
def test_a_person_s_own_look_and_english_rules_still_fire(text: str, claim: str) -> None:
    assert [m.text for m in find_markers(text)] == [claim]


@pytest.mark.parametrize("text", [
    # another language in Latin letters: an English word inside it is borrowed, not an English rule
    "Je pense que le cache est en cause : on a mis strict: always dans la config, mais les tests ne passent pas avec ça.",
    "Always seçeneği için ayarları kontrol et, sonra bunu konuşalım.",
    "Never ändern wir das Lockfile, bitte nicht und auch nicht mit npm.",
])
def test_a_sentence_in_another_latin_language_is_no_english_rule(text: str) -> None:
    assert find_markers(text) == []


def test_a_durable_header_is_no_prompt_section() -> None:
    text = "From now on:\n- never merge without two approvals\n\nAnd for docs:\n- keep sentences short"
    assert [m.text for m in find_markers(text)][:1] == ["never merge without two approvals"]


# Task requests, feedback on the current output, reports, questions and material to work on:
# no rule may fire on them.
TASK_TURNS = [
    # holds on this turn's work, examples, a product's persona, plans, pasted prompts and proposals
    "don't write any code.",
    "DO NOT WRITE ANY CODE OR RUN ANY COMMANDS. Please look at these errors.",
    "Reorg only. do not create any new unit tests.",
    "Chef Chopski doesn't need to always ask about variety.",
    "For example, one thing we learned was that we should always buy fresh lemons.",
    "I'd like for chef Chopski to learn those things about me over time.",
    "in the future, i'd like to add authentication and let the agent read the user's pantry",
    "We do not need to group the musicians.",
    "Add this to the instructions:\n\nYou are Prep Chef GPT — a proactive assistant.\n- Never assume they want meat.",
    "You are working on Phase 2 of the project.\n\nROLE: Specialist\n- Keep costs minimal (use free tiers)",
    "Let's try this approach:\n\nRun in-process for tests and always set runName when calling graph.invoke.",
    # a rule file pasted whole, front matter and all, and material announced with "here is …:"
    "---\ndescription: git rules\nglobs: *\n---\n- Never push to main.\n- Always run the tests before committing.",
    "Here is the plan:\n1. Always run the tests before committing.\n2. Never push to main.",
    # a tool's prompt to a model, sent as a user turn
    "Return either one or more <observation> blocks, or an empty response.\nNever reply with prose such as "
    "'Skipping', or any explanation outside XML.",
    "现在每次都要独立对话手动做，没有沉淀成可复用的模式。",
    # how the software behaves is a feature request, not a way of working
    "it should always show the summary after a merge",
    "the menu should always have a back option",
    "users should never see the raw error",
    "the command must always print json when --json is passed",
    # checklists and templates pasted from a prompt or PR file, blocks a client injected
    "## Checklist\n- [ ] Always run lint\n- [ ] Never commit secrets",
    "Please review the changes:\n- [x] Tests always pass\n- [ ] Docs never out of date",
    "Review {{file}} and always follow {{style_guide}}.",
    "Implement the feature described in $ARGUMENTS. Always write tests first.",
    "Fill in [PROJECT NAME] and never leave the summary empty.",
    "fix the memory leak\n<reminder>\nALWAYS call tools in parallel whenever you can.\n</reminder>",
    "don't commit anything, another agent is working on something else",
    "Don't push anything on this branch, the other session is rebasing it.",
    "ok, I tested it and this happened:\n\n❯ gemini --list-sessions\n  1. Always run the linter first. (5 hours ago)",
    # a Codex screen pasted back: its prompt line (›) and its tool lines (• Ran …, └ output) are not typed here
    "the push failed, look:\n\n› always use the deploy key for pushes\n\n• Ran git push\n  └ permission denied",
    "see what it printed\n  └ Never run migrations on the replica (warning from the linter)",
    "### Important (Should Fix)\n\n- Modified file detection (always counts as overlap)\n\nSuggested fix: add unit tests.",
    "+       // Always written as \"steps_count\" in new metadata.\n\ncan you reword that comment?",
    "still reads for the quick reader as if we start a new branch always",
    "no, then it's good",
    "hmm this is wrong then, we would want the same data as in the other checkpoint",
    "Summarize the following rules from our wiki:\n1. Every PR needs two approvals.\n2. Don't merge on Fridays.",
    "The user story: As a user, I should be able to reset my password. Passwords must be at least 12 characters.",
    "次の仕様で実装してください。ユーザーは必ずメールアドレスでログインする。",
    "请按以下需求实现：所有接口都要有鉴权，不要返回密码字段。",
    "my teammate said we should always use tabs, what do you think?",
    "this is the error: Error: never call this before init",
    "got this: WARN always pass a key to list items",
    "I ran the build and got this:\nERROR: Don't use require() in ES modules\n  at src/index.js:3:1\nhow do I fix it?",
    "can you add a loading spinner to the dashboard",
    "Now run the tests again.",
    "Let's use the new API for the export feature.",
    "Use the staging database for this test.",
    "Don't delete that file, I still need it.",
    "don't refactor anything yet, just get it working",
    "Stop. Revert the last change.",
    "Please avoid the deprecated endpoint in this PR.",
    "I want the modal to close when I click outside.",
    "The tests must pass before we merge this PR.",
    "All the images need alt text on this page.",
    "When I run npm test it fails with ENOENT.",
    "After you fix this, update the README.",
    "I'm on the login page and it shows a blank screen.",
    "Remember to push it when you're done.",
    "I switched to the feature branch.",
    "Avoid that approach, it's too slow.",
    "keep it simple for now",
    "PLEASE FIX THE BUILD",
    "WHY IS IT FAILING",
    "まだコミットしないでください。",
    "今回はドキュメントを更新しなくていいです。",
    "このエラーを直してから、PRを出してください。",
    "もう一度試してください。",
    "不要管这个警告。",
    "先不要推送。",
    "这个文件不要改。",
    "以后再优化性能。",
    "エラーメッセージを日本語に翻訳してください。",
    "余計なことしないで。",
    "提交之前先运行一下测试看看。",
    "所有测试都失败了。",
    "我们不再讨论这个了。",
    "don't commit anything, another agent is working on something else",
    "after updating, summarize what you changed",
    "stop stopping! Continue",
    # a concern or a request of the moment, not a rule lifted
    "don't worry about it anymore",
    "Don't worry about that any more, I fixed it.",
    "no more questions, just do it",
    "No more changes please, just commit what you have.",
    "No more placeholders, write the real thing.",
    "fix the failing test",
    # notes handed over to be sorted are material, not the person's rules
    "Here is a pile of feedback from our users. Can you group and prioritize the feedback?\nPrefer dark mode to light\n"
    "Never show ads during checkout",
    "Why don't we keep the session in redis.",
    # the spec of a thing to build: its behaviour in a relative clause or after the request's colon
    "Create a helper that always strips trailing slashes from URLs.",
    "Build me a CLI that never prints colours when piped.",
    "Implement caching: always keep the last 100 responses.",
    # what the product shows, or does on a click or a load
    "常に最新のデータを表示するようにしてください",
    "ボタンを押したときに保存するようにしてください",
    "エラーメッセージを日本語にしてください",
    "每次点击按钮的时候都要刷新列表",
    "このボタンは常に有効にしてください",
    "页面加载时要显示loading",
]


@pytest.mark.parametrize("text", TASK_TURNS)
def test_task_requests_are_not_rules(text: str) -> None:
    assert find_markers(text) == []


# A rule in a clause of its own after a one-off request is heard, and only the rule is kept.
APART_CASES = [
    ("Skip the tests this time, but always run lint before pushing.", "always run lint before pushing."),
    ("The build is currently broken, fix it and from now on run the tests first.", "from now on run the tests first."),
    ("Fix the date test for now, but never commit generated files.", "never commit generated files."),
    ("今回はテストを飛ばしていいですが、今後は必ずlintを通してください。", "今後は必ずlintを通してください。"),
    ("这次先跳过测试，但是以后都要先跑测试再提交。", "以后都要先跑测试再提交。"),
    ("For now, always return an empty list from that endpoint.", None),
    ("Always return an empty list, at least for now.", None),
    ("Always use the mock server for now, but check with me later.", None),
    ("とりあえず、必ずlintを通してください。", None),
    ("这次先不要提交，但是以后再说。", None),
]


LEAD_CASES = [
    ("Implement the export. Remember we only deploy on Fridays.", "we only deploy on Fridays."),
    ("Can you look at the login bug? FYI the API runs on port 8080 locally.", "FYI the API runs on port 8080 locally."),
    ("Let's add dark mode. For the record, our design system uses 8px spacing everywhere.",
     "our design system uses 8px spacing everywhere."),
    ("Rename the component, and keep in mind that all components live in src/ui.", "all components live in src/ui."),
    ("build the settings page; note that we don't use Redux", "we don't use Redux"),
    ("FYI I pushed the fix.", None),
    ("btw the build is broken again", None),
]


@pytest.mark.parametrize(("text", "claim"), LEAD_CASES)
def test_a_rule_after_a_reminder_s_opening_words(text: str, claim: str | None) -> None:
    found = find_markers(text)
    assert [m.text for m in found] == ([claim] if claim else [])


JA_KEPT_DISPLAY_CASES = [
    # what the product shows is a feature asked for, unless the person asks for it to be remembered
    ("覚えておいて：UI 上の日時は全部日本時間で表示すること。", "ja.instruction.oboete"),
    ("常に最新のデータを表示するように", None),
    ("ヘッダーは常に表示されるように", None),
]


@pytest.mark.parametrize(("text", "rule"), JA_KEPT_DISPLAY_CASES)
def test_a_display_rule_asked_to_be_remembered(text: str, rule: str | None) -> None:
    assert [m.rule_id for m in find_markers(text)] == ([rule] if rule else [])


@pytest.mark.parametrize(("text", "claim"), APART_CASES)
def test_a_rule_apart_from_a_one_off_request(text: str, claim: str | None) -> None:
    found = find_markers(text)
    if claim is None:
        assert found == []
    else:
        assert [m.text for m in found] == [claim]


def test_empty_and_non_string_input() -> None:
    assert find_markers("") == []
    assert find_markers("   \n\t") == []
    assert find_markers(None) == []  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- stated

STATED_CASES = [
    ("Remember that the staging DB resets nightly.", True),
    ("remember: always use pnpm", True),
    ("Keep in mind that CI has 4GB of RAM.", True),
    ("From now on, open PRs against develop.", True),
    ("Going forward, squash-merge everything.", True),
    ("Don't forget that prod is read-only on weekends.", True),
    ("For future reference, the VPN is required for staging.", True),
    ("今後はpnpmを使ってください。", True),
    ("これからはテストを先に書いて。", True),
    ("mainは保護ブランチだと覚えておいて。", True),
    ("记住：测试用pytest。", True),
    ("以后都用pnpm。", True),
    ("Always run the linter.", False),
    ("I don't remember the port.", False),
    ("Do you remember the port?", False),
    ("Going forward with option B.", False),
    ("必ずlintを通してください。", False),
    ("The port is 8080, not 8000.", False),
]


@pytest.mark.parametrize(("sentence", "stated"), STATED_CASES)
def test_is_stated(sentence: str, stated: bool) -> None:
    assert is_stated(sentence) is stated


def test_markers_carry_stated() -> None:
    (m,) = find_markers("From now on, open PRs against develop.")
    assert m.stated
    (m,) = find_markers("Always open PRs against develop.")
    assert not m.stated
    # a bare "remember that" next to a claim asks to keep that claim
    (m,) = find_markers("Always open PRs against develop. Remember that.")
    assert m.stated
    (m,) = find_markers("これは覚えておいてください。\nPRは必ずdevelopに向けてください。")
    assert m.stated and m.rule_id == "ja.instruction.kanarazu"
    (m,) = find_markers("I forgot. Always open PRs against develop.")
    assert not m.stated


# ------------------------------------------------------------------------- splitting

SPLIT_CASES = [
    ("Use pnpm, e.g. for installs. Always pin versions.", ["Use pnpm, e.g. for installs.", "Always pin versions."]),
    ("Edit main.py and utils.py. Then run it.", ["Edit main.py and utils.py.", "Then run it."]),
    ("Upgrade to v1.2.3 now. Thanks!", ["Upgrade to v1.2.3 now.", "Thanks!"]),
    ("See https://example.com/docs?x=1. Never skip CI.", ["See https://example.com/docs?x=1.", "Never skip CI."]),
    ("Is it done? Great! Ship it.", ["Is it done?", "Great!", "Ship it."]),
    ("- first item\n- second item\n1. numbered\n2) another", ["first item", "second item", "numbered", "another"]),
    ("テストを実行して。必ずlintも通して！終わった？", ["テストを実行して。", "必ずlintも通して！", "終わった？"]),
    ("・必ずテストを書く\n・mainに直接pushしない", ["必ずテストを書く", "mainに直接pushしない"]),
    ("Use i.e. the default. Done.", ["Use i.e. the default.", "Done."]),
    ("The file is config.yaml.", ["The file is config.yaml."]),
    ("mixed English. そして日本語。OK?", ["mixed English.", "そして日本語。", "OK?"]),
    ("Run `pytest -k foo.bar`. Then stop.", ["Run `pytest -k foo.bar`.", "Then stop."]),
    ("line one\n\n\nline   two", ["line one", "line two"]),
    ("「必ず」と書いた。次へ", ["「必ず」と書いた。", "次へ"]),
]


@pytest.mark.parametrize(("text", "sentences"), SPLIT_CASES)
def test_split_sentences(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


# ------------------------------------------------------------------------ properties

_FRAGMENTS = st.sampled_from(
    [
        "Always", "never", "from now on", "No,", "that's wrong", "TIL", "lesson learned:", "I prefer",
        "fails every time", "必ず", "今後は", "違います", "ではなく", "方が好き", "教訓:", "毎回失敗する",
        "以后都", "不对，", "`code`", '"quoted"', "```", "\n", "> ", "- ", ". ", "。", "?", "e.g.",
        "main.py", "https://x.io/a.b", "\u3000", "\u2028", "ｆｕｌｌ", "ﾃｽﾄ", " use pnpm", "です",
    ]
)
_TEXT = st.one_of(
    st.text(max_size=400),
    st.lists(st.one_of(_FRAGMENTS, st.text(max_size=12)), max_size=40).map("".join),
)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_find_markers_never_raises_and_is_deterministic(text: str) -> None:
    first = find_markers(text)
    assert first == find_markers(text)
    normalised = " ".join(text.split())
    for marker in first:
        assert marker.kind in KINDS
        assert marker.text and marker.text in normalised


@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_split_and_stated_never_raise(text: str) -> None:
    for sentence in split_sentences(text):
        assert sentence == " ".join(sentence.split())
    assert isinstance(is_stated(text), bool)
