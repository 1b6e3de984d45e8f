"""Japanese and Chinese words of a claim, one form per thing, in the words an English wording would use.

Neither language puts spaces between words, so a wording is cut where one would: Japanese where the script
changes (a katakana loanword, a kanji compound, the hiragana between them that inflects or joins and names
nothing), Chinese by the longest word of a small vocabulary of how people speak to a coding agent (a
character no word covers stands alone). Each word then takes its canonical form, shared with English where
the thing is the same: コミット / 提交 / commit are one word, 実行 / 回す / 跑 / 运行 are "run", 日本語 is
"japanese". Tables and two functions; standard library only.
"""

from __future__ import annotations

import re

from .frame import is_weak, lemma

# one thing, one word: what a Japanese or Chinese word says, in the key's English form where one exists
_CANONICAL_SOURCE = {
    "commit": "コミット 提交 提交代码",
    "push": "プッシュ 推送 推",
    "merge": "マージ 合并 合入",
    "deploy": "デプロイ 部署 发布 上线",
    "test": "テスト テストファイル 测试 测试用例 单测 試験",
    "branch": "ブランチ 分支",
    "comment": "コメント 注释 註釋",
    "run": "実行 回 走 かけ 掛け 跑 运行 執行 执行",
    "use": "使用 使 採用 采用 喜欢 更喜欢 偏好 改用 改成 换成 换用 戻 戻す 切り替え 切替 選 選ぶ 選択 选 选择 选用",
    "edit": "変更 修正 編集 修改 改 改动 更改 いじ 触",
    "delete": "削除 消 删除 删 删掉 去掉",
    "check": "確認 检查 確かめ 确认",
    "english": "英語 英文 英语",
    "japanese": "日本語 日文 日语",
    "chinese": "中国語 中文 汉语 漢語 简体中文",
    "before": "前 之前 以前 する前",
    "after": "後 之后 之後 后",
    "file": "ファイル 文件",
    "directory": "ディレクトリ フォルダ 目录 文件夹",
    "code": "コード ソースコード 代码 源码 源代码",
    "database": "データベース 数据库 資料庫",
    "config": "設定 設定ファイル 配置 配置文件",
    "log": "ログ 日志",
    "function": "関数 函数",
    "variable": "変数 变量",
    "type": "型 类型",
    "install": "インストール 安装",
    "package": "パッケージ 包 依赖包",
    "message": "メッセージ 信息 消息",
    "description": "説明 本文 描述 说明",
    "title": "タイトル 标题",
    "review": "レビュー 审查 评审 审核",
    "nest": "ネスト 入れ子 嵌套",
    "with": "付き 付きで",
    "screenshot": "スクリーンショット スクショ 截图",
    "name": "名前 名 名字 命名",
    "prefix": "先頭 前缀 开头 始",
    "time": "時間 時刻 时间 时间戳",
    "hardcode": "ハードコード 硬编码",
    "secret": "密钥 秘密鍵 シークレット",
    "environment variable": "環境変数 环境变量",
    "root": "ルート 根目录 根",
    "lint": "リント",
    "link": "链接 关联 關聯 連結 リンク 紐付け 紐づけ",
    "version": "バージョン 版本",
    "port": "ポート 端口",
    "project": "プロジェクト 项目 項目",
    "camelcase": "驼峰 小驼峰 キャメルケース",
    "snake_case": "下划线 下划线命名 スネークケース",
    "store": "存 存储 保存",
    "pass": "全绿 绿 通过 通過 通 緑 没过",  # CI or the tests "pass" / "are green"
    # things code is made of, as people name them to a coding agent
    "template": "模板 模版 テンプレート",
    "framework": "框架 フレームワーク",
    "service": "服务 サービス",
    "integer": "整数 整型",
    "float": "浮点 浮点数",
    "field": "字段 フィールド",
    "resource": "资源 リソース",
    "plural": "复数 複数形",
    "singular": "单数 単数形",
    "render": "渲染 レンダリング",
    "level": "级别 日志级别 レベル",
    "production": "生产 生产环境 线上 本番 本番環境",
    "staging": "ステージング 预发 预发布",
    "migration": "マイグレーション 迁移",
    "tool": "工具 ツール",
    "style": "样式 风格 スタイル",
    "api": "接口 API",
    "path": "路径 パス",
    "error": "错误 报错 エラー",
    "argument": "参数 引数",
    "data": "数据 データ",
    "dependency": "依赖 依存関係",
    "retry": "重试 リトライ",
    "cache": "缓存 キャッシュ",
    "image": "镜像 イメージ",
    "container": "容器 コンテナ",
    "fixture": "フィクスチャ",
    "default": "默认 デフォルト 初期値",
    "display": "显示 表示",
    "route": "路由",
    "amount": "金额 金額",
    "noun": "名词 名詞",
    "max": "不超过 不要超过 不得超过 不能超过 最多 至多 以内",  # a limit, as "at most 400 lines"
    "element": "元素 要素",
    "try": "試 试 试试 試し",
    "flag": "フラグ",
    "query": "クエリ 查询",
    "column": "カラム",
    "flaky": "不安定",
    "bug": "バグ",
    "reproduce": "再現 复现 重现",
    "base": "ベース",
    "approval": "レビュアー 审核人 评审人",  # as "reviewer" is in English
    "*": "アスタリスク",
}
CANONICAL = {word: canon for canon, words in _CANONICAL_SOURCE.items() for word in words.split()}

# words that say how or how strongly, or where a rule is written down, not what it asks
WEAK = frozenset(
    """書 書く 置 付 付け 入れ 行 行う 出 出す お願い 願 全部 全て すべて 配下 必須 常 絶対 必 毎回 今後 以後 覚 自分 中
    以后 内 中 提 直接 直 没 过 教训 的 了 是 进 来 我 我们 你们 他们 尽量 最好 单个 控制 控制在 いきなり そのまま 规则 規則 规定 規定 这条 這條 ルール 決まり 更 用 大丈夫 構 構わ 可以 没问题 没关系 也行 允许 写 写成 放 放到 放在 放回 都 全部 所有 一律 必须 先 每次 每个 记得 记住 要 请 一遍 里 里面 下 下面 上 就行 吧 时候
    的时候 时 统一 一定 一定要 也 再 等 等待 出现 必要 必须 必需 必須 还是 对应 直接 这 那 个 次 遍 在 把 从 到 给 和 与 或 并 及 将 就""".split()
)

# how Chinese names what a coding agent works with: the longest of these wins where they overlap
_VOCABULARY = frozenset(CANONICAL) | WEAK | frozenset(
    """主分支 远端 远程 公共 根目录 本地 北京时间 驼峰 小驼峰 大驼峰 下划线 类名 常量 常量名 函数名 变量名 全大写 小写
    大写 字母 格式 格式化 集成测试 单元测试 端到端 更新 同步 脚本 静态资源 接口 路径 文档 页面 显示 存 存储 读 写 放
    部署 版本 依赖 构建 编译 错误 异常 处理 返回 参数 字段 全绿 红 绿 通过 审核 拉取 请求 关联 链接 编号 标签 问题
    样式 缩进 空格 制表符 引号 单引号 双引号 分号 箭头函数 声明 类 接口文档 页面上 时区 数据 表 迁移 回滚 生产 环境
    线上 测试环境 开发 本地时间 不用 不要 别 禁止 不能 可以 没问题 允许 出现 每个 一律 之前 之后
    以后 以前 运行 执行 使用 采用 提交 推送 合并 测试 代码 注释 中文 英文 英语 日文 分支 配置 配置文件 目录 文件 文件夹
    改用 改成 换成 换用 环境变量 变量 密钥 硬编码 数据库 时间 时间戳 日志 函数 命名 描述 标题 说明 截图 修改 改动 更改 删除 删掉 去掉
    安装 依赖包 消息 信息 审查 评审 嵌套 前缀 开头 名字 检查 确认 源码 源代码 提交代码 合入 发布 上线 测试用例 单测
    列表 数组 对象 组件 请求 响应 权限 用户 密码 令牌 单位 小数 整数 后端 前端 服务端 客户端 取消 作废 作廢 废除 廢除""".split()
)
_LONGEST = max(len(w) for w in _VOCABULARY)

_KANA = re.compile("[\u3040-\u30ff]")
_PIECES = re.compile("[\u30a0-\u30ffー]+|[\u3005\u4e00-\u9fff]+|[\u3040-\u309f]+|[^\u3040-\u30ff\u3005\u4e00-\u9fff]+")
_HIRAGANA_RUN = re.compile("^[\u3040-\u309f]+$")
_PARTICLES = "をはがにでとのもへや"
_KANA_ENDING = re.compile("(?:てから|ている|てる|ます|ない|て|た|る)$")
# words written in kanji and kana together, which the cut by script would break apart
_MIXED = re.compile("|".join(sorted((w for w in CANONICAL if re.search("[\u3040-\u309f]", w)
                                    and re.search("[\u30a0-\u30ff\u4e00-\u9fff]", w)), key=len, reverse=True)))


def is_japanese(text: str) -> bool:
    """Whether a wording is Japanese: kana say so; hanzi alone are read as Chinese."""
    return _KANA.search(text) is not None


def words(piece: str, japanese: bool) -> list[str]:
    """One CJK piece of a clause (particles already split off) as canonical words; weak ones included, for
    the caller to set aside."""
    if _HIRAGANA_RUN.match(piece):
        if piece.endswith("てから") and len(piece) > 3:
            return [_kana_verb(piece[:-3]), lemma("before")]  # 「かけてから」: do it, then the next thing
        return [_kana_verb(piece)]  # a verb written in kana alone (「まとめる」, 「わける」) is the word itself
    out: list[str] = []
    if _MIXED.search(piece):  # 「入れ子」, 「付き」: one word written in kanji and kana
        for found in _MIXED.findall(piece):
            out.append(_canon(found))
        piece = _MIXED.sub(" ", piece)
    for run in _PIECES.findall(piece):
        if _HIRAGANA_RUN.match(run):
            if run.endswith("てから"):
                # 「pytest が通ってからコミット」, 「prettier かけてから commit」: X, then commit
                if run[:-3] and _kana_verb(run[:-3]) in CANONICAL.values():
                    out.append(_kana_verb(run[:-3]))
                out.append(lemma("before"))
            elif _kana_verb(run) in CANONICAL.values() or run in CANONICAL:  # 「かけて」 is a verb without kanji
                out.append(_kana_verb(run))
            elif run[0] in _PARTICLES and len(run) >= 3:
                out.append(_kana_verb(run[1:]))  # 「テストをまとめる」: a particle, then a verb written in kana
            continue  # okurigana, a joining particle: they inflect or join, they name nothing
        run = run.strip()
        if not run:
            continue
        if japanese or not ("\u4e00" <= run[0] <= "\u9fff"):
            out.extend(_compound(run))
            continue
        out.extend(_canon(w) for w in _segment(run))
    return [part for word in out for part in (map(lemma, _TWO_WORDS[word]) if word in _TWO_WORDS else (word,))]


def _compound(run: str) -> tuple[str, ...]:
    """A Japanese run as one word, or, where the whole is no known word but it ends or opens with one of two
    characters or more, as that word and the rest, cut the same way (「変数名英語」: variable names, in English)."""
    if run in CANONICAL or run in _TWO_WORDS or len(run) < 3:
        return (run,) if run in _TWO_WORDS else (_canon(run),)
    if run[-1] in "前後":  # 「依頼前」, 「マージ後」: a step, and before or after it
        return (*_compound(run[:-1]), _canon(run[-1]))
    for cut in range(1, len(run) - 1):  # the longest known word the run ends with
        if run[cut:] in CANONICAL:
            return (*_compound(run[:cut]), _canon(run[cut:]))
    for cut in range(len(run) - 1, 1, -1):  # else the longest it opens with
        if run[:cut] in CANONICAL:
            return (_canon(run[:cut]), *_compound(run[cut:]))
    return (run,)


def _kana_verb(run: str) -> str:
    """A verb written in kana, without the ending its form adds (「かけて」, 「かける」 → the verb of 「かけ」)."""
    stem = _KANA_ENDING.sub("", run) or run
    return _canon(stem) if stem in CANONICAL else _canon(run)


def _segment(run: str) -> list[str]:
    """A run of hanzi cut by the longest vocabulary word at each place; a character no word covers stands alone."""
    out: list[str] = []
    at, n = 0, len(run)
    while at < n:
        for size in range(min(_LONGEST, n - at), 0, -1):
            word = run[at : at + size]
            if size == 1 or word in _VOCABULARY:
                out.append(word)
                at += size
                break
    return out


# a word that names two things: 「函数名」 is a function's name
_TWO_WORDS = {"函数名": ("function", "name"), "变量名": ("variable", "name"), "类名": ("class", "name"),
              "フィーチャーフラグ": ("feature", "flag"), "功能开关": ("feature", "flag"),
              "関数名": ("function", "name"), "変数名": ("variable", "name"), "ブランチ名": ("branch", "name")}


def _canon(word: str) -> str:
    canon = CANONICAL.get(word)
    if canon is None:
        return word
    if is_weak(canon):
        return canon  # 代码 / コード is "code", a word the key drops as English does
    return lemma(canon) if canon.isascii() and " " not in canon else canon.replace(" ", "_")
