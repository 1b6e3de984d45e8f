"""Japanese marker rules, and the Japanese vetoes and claim check the engine applies."""

from __future__ import annotations

import re

from .rule import EVERYTHING, TRAIL_RE, Guard, MarkerRule, Reverser, lazy, tool_named
from .rule import I as _I

__all__ = ["CONNECTOR", "HEADERS", "RULES", "STATED", "STATED_CUES", "has_claim", "one_off", "vetoes"]

_TRAIL_RE = TRAIL_RE

# ---------------------------------------------------------------------------- vetoes

# question marks, question endings, question words; 「教えて」 asks for information
_JA_QUESTION_RE = lazy(
    r"[?？]|(?:ですか|ますか|でしょうか|"
    r"ませんか|かな|かね|っけ|(?<!と)(?<!なん)か)$"
    r"|どっち(?!でも)|どちら(?!でも)|なぜ|"
    r"なんで(?!も)|何で(?!も)|どうして(?!も)|"
    r"どうすれば|どうやって(?!も)|"
    r"どう(?:思|です|する|しよう|かな)|"
    r"どれ(?!でも|も)"
    r"|教えて(?:ください|ほしい|欲しい|もらえる)?$"
)
_JA_HEDGE_RE = lazy(
    r"かもしれ|かも(?:ね|です|$)|たぶん|多分|"
    r"おそらく|恐らく|気がする|気がします|"
    r"ような気|ようです|みたい(?:です|だ|$)|"
    r"らしい|でしょう|だろう|かなぁ|"
    r"できれば|可能であれば|かも$"
)
# "I think": vetoes all but preferences (see _vetoed)
_JA_THINK_RE = lazy(r"と思(?:う|い|っ)|と感じ")
ONE_OFF_RE = lazy(
    r"今回|とりあえず|一旦|いったん|"
    r"今だけ|今日(?!の学び|学んだ)|暫定|"
    r"一時的|仮で|ひとまず|今は|"
    r"この(?:PR|タスク|ブランチ|コミット)(?:では|だけ)|"
    r"まだ|しばらく"
)
_JA_NEGATED_RE = lazy(
    r"やっぱり?(?:いい|やめ|なし|大丈夫)|"
    r"気にしないで|忘れて(?:ください|$|。)|"
    r"取り消し|なしで(?![^。]*ないで)|必ずしも|"
    r"いつも(?:ありがとう|お世話|助か)|"
    r"とは限らない|わけではない"
    # 「今後ともよろしくお願いします」 is a greeting
    r"|よろしく"
)
_JA_REPORTED_RE = lazy(
    r"(?:と|って)言(?:って(?:い|た|ま)|われ)|"
    r"と書いて|によると|とのこと|"
    r"だそう(?:です|だ)|と聞いた|って聞いた"
)
_JA_HYPOTHETICAL_RE = lazy(
    r"仮に|としたら|とすれば|もし.*(?:たら|なら).*(?:のに|けど)"
)
# past tense: a report of what happened, not a rule
_JA_PAST_RE = lazy(
    r"(?:た|だ|でした|ました|だった)(?:よ|ね|けど|が|のに)?(?<!ことにしました)(?<!ことになりました)$"
)
_JA_ASSISTANT_RE = lazy(
    # 気をつけます: the speaker's own promise, not a rule for the agent
    r"気をつけ(?:ます|る)|(?:いたします|致します|させて(?:いただ|頂)きます)(?:ね)?$"
    r"|^(?:承知|かしこまり)"
)

# copula / polite declaratives; requests (ください, して, お願いします) are not claims
_JA_CLAIM_RE = lazy(
    r"ではなく|じゃなく|でなく|"
    r"(?:です|だ|である|ます|ません|はず|"
    r"べき|正しい|が正解|ですよ|だよ|"
    r"ですね|んです|のです|ている|てる|"
    r"でした|だった)(?:よ|ね)?$"
)
_JA_REQUEST_END_RE = lazy(
    r"(?:お願いします|ください|下さい|"
    r"ませんか|ましょう|てくれ|して|(?:て|で)(?:ほしい|欲しい)(?:です|んです)?)(?:ね|よ)?$"
)
# 是 应该 應該 而是 才是 才对 才對 用的是 要用
# ----------------------------------------------------------------------------- rules

RULES: list[MarkerRule] = []


def _cjk(rule_id: str, kind: str, cue: str, pattern: str, claim: str = "none",
         guard: Guard | None = None, description: str = "", reverses: Reverser | None = None) -> None:
    RULES.append(MarkerRule(rule_id, kind, "ja", cue, pattern, claim, guard, description, reverses))


# failure verbs in the present (a state that holds), never たら/と (a condition)
_JA_FAIL = (
    r"(?:失敗(?:する|します|して(?:い)?(?:る|ます))"
    r"|落ち(?:る|ます|て(?:い)?(?:る|ます))"
    r"|[コこ]け(?:る|ます|て(?:い)?(?:る|ます))"
    r"|エラー(?:に(?:なる|なります|なって(?:い)?(?:る|ます))"
    r"|が(?:出る|出ます|出て(?:い)?(?:る|ます)|発生する|"
    r"発生します|起きる|起きます|返る|返ってくる))"
    r"|クラッシュ(?:する|します|して(?:い)?(?:る|ます))"
    r"|タイムアウト(?:する|します|して(?:い)?(?:る|ます)|になる|になります)"
    r"|固ま(?:る|ります)|止ま(?:る|ります)"
    r"|ハング(?:する|します)|異常終了(?:する|します)"
    r"|死(?:ぬ|にます)|(?:赤|レッド)に(?:なる|なります)"
    r"|再現(?:する|します|して(?:い)?(?:る|ます)))"
    # what may follow: end, sentence particles, because/but — never a noun (relative clause)
    r"(?=$|[。！!、,\s]|よ|ね|ん|の(?:で|だ|です|$)|"
    r"けど|が|から|みたい|っぽい|。)"
)
# "sometimes fails" is not a reproducible failure
_JA_FAIL_NOT_RE = lazy(
    r"ことがある|ことがあります|時々|"
    r"たまに|ときどき|まれに|稀に|"
    r"ランダムに|不定期|フレーキー|flaky",
    _I,
)


def _ja_fail_ok(sentence: str, m: re.Match[str]) -> bool:
    return not _JA_FAIL_NOT_RE.search(sentence)


# endings that make a sentence with a durable cue a rule rather than a description
_JA_DIRECTIVE_END_RE = lazy(
    r"(?:ください|下さい|て|で|こと|ように|"
    r"べき(?:です|だ)?|ましょう|しよう|"
    r"お願い(?:します)?|ほしい(?:です)?|欲しい(?:です)?|"
    r"禁止(?:です)?|厳禁(?:です)?|NG(?:です)?|ダメ(?:です)?|"
    r"だめ(?:です)?|いけない|いけません|ならない|"
    r"なりません|ない|ません|ます|です|だ|ことにしました|ことになりました|"
    # a written rule ending on the act's noun (「コード変更後は必ず npm run typecheck を実行」)
    r"を(?:実行|確認|使用|利用|記載|追加|更新|徹底|遵守)|"
    r"[うくぐすつぬふぶむる])(?:よ|ね|な|ぞ|よね)?$"
)
# strict set for いつも / 毎回, which also open relative clauses ("いつも使ってるコマンドを教えて")
_JA_STRICT_END_RE = lazy(
    r"(?:ください|下さい|こと|ように(?:して)?|"
    r"べき(?:です|だ)?|お願い(?:します)?|"
    r"しないで|禁止(?:です)?|ましょう|"
    r"てほしい(?:です)?|て欲しい(?:です)?|てね)(?:よ|ね)?$"
)


# 「必ず失敗するテスト」: 必ず inside a relative clause describes the thing to build
_JA_RELATIVE_RE = lazy(
    r"必ず(?:失敗|落ち|通|成功|動|エラーに|パス)"
    r"[\u3040-\u309f]{0,4}?(?:する|る|く|す|なる)(?=[\u30a0-\u30ff\u4e00-\u9fff])"
)


# こと / 禁止 / ダメ / NG / いけない / ならない: endings that forbid
_JA_PROHIBIT_END_RE = lazy(
    r"(?:こと|禁止|厳禁|ダメ|だめ|NG|いけない|"
    r"いけません|ならない|なりません)(?:です)?(?:よ|ね)?$"
)


def _ja_directive(sentence: str, m: re.Match[str] | None = None) -> bool:
    return bool(_JA_DIRECTIVE_END_RE.search(_TRAIL_RE.sub("", sentence)))


def _ja_strict(sentence: str, m: re.Match[str] | None = None) -> bool:
    return bool(_JA_STRICT_END_RE.search(_TRAIL_RE.sub("", sentence)))


# 「このテストは必ず通るようにして」「その関数は常に配列を返すように」: 必ず / 常に / 絶対 / いつも / 毎回 said of one thing
# the person points at is how that thing of the work at hand is to come out, not a way of working; the project as a
# whole (このリポジトリ, この環境) is no thing of the task, nor is その都度 "each time" (これ / それ only as a pronoun: not
# これから "from now on", それぞれ "each", あれば "if there is")
_JA_POINTED_RE = lazy(
    r"(?:この|その|あの)(?!(?:プロジェクト|リポジトリ|レポジトリ|リポ|コードベース|チーム|モノレポ|環境|都度|ような|ように|まま)"
    r")|(?:これ|それ|あれ)(?=[はをがもの])|上記|さっき|先ほど|今の"
)
# 「必ず動くようにして」「絶対にテストが通るように」: the outcome the task is to reach, wished for emphatically
_JA_OUTCOME_RE = lazy(
    r"(?:必ず|絶対(?:に)?)[^。、]{0,12}?(?:動く|動作する|通る|成功する|パスする|直る|解決する|間に合う|完成させ|終わらせ)"
)


def _ja_not_pointed(sentence: str, m: re.Match[str] | None = None) -> bool:
    """A standing adverb's sentence points at nothing of the work at hand and wishes for no outcome of it."""
    return not _JA_POINTED_RE.search(sentence) and not _JA_OUTCOME_RE.search(sentence)


# fillers a correction may open with: 「いや、」「それは」
_JA_SENT_START = (
    r"^[\s、,]*(?:(?:いやいや|いや|いいえ|いえ|ううん|うーん|あー|あ|えっと|え|ちょっと|"
    r"それは|そこは|それ|そこ|これは|これ)[、,\s!！]*)*"
)

# correction — 違います / 違う / 間違い(です) / 間違っています at the start of the sentence
_cjk(
    "ja.correction.chigau", "correction",
    "違|ちが|間違",
    _JA_SENT_START
    + r"(?:違(?:います|う|くて|って)|ちがいます|ちがう|"
    r"間違(?:い(?:です|だ)?|って(?:い)?(?:る|ます)))"
    r"(?:よ|ね|んです|んだ|んですけど|けど)?"
    r"(?=[、。!！,\s]|$)"
    r"|(?:は|が)(?:間違(?:って(?:い)?(?:る|ます)|いです|いだ)|"
    r"違(?:います|う))(?:よ|ね)?[。!！\s]*$",
    claim="after_or_next",
    description="「違います、ポートは5432です」",
)
# そうじゃなくて / そうではなくて / そうじゃない / そういう意味じゃなくて
_cjk(
    "ja.correction.soujanakute", "correction",
    "そうじゃ|そうでは|そういう",
    r"(?:そう|そういう(?:こと|意味))(?:じゃ|では)"
    r"(?:なくて|なく|ない(?:です)?|ありません)(?:よ|ね)?[、,。\s!！]*",
    claim="after_or_next",
    description="「そうじゃなくて、Xです」",
)
# 正しくは / 正しいのは / 正解は
_cjk(
    "ja.correction.tadashiku", "correction",
    "正し|正解",
    r"(?:正しくは|正しいのは|正解は)[、,\s]*",
    claim="after",
    description="「正しくはXです」",
)
# 〜ではなく〜です : a contrastive claim with a copula ending (requests are excluded)
_cjk(
    "ja.correction.dewanaku", "correction",
    "ではなく|じゃなく|でなく",
    r"[^、。]{1,40}(?:ではなく(?:て)?|じゃなく(?:て)?|でなく)[、,\s]*"
    r"[^。]{1,60}(?<!ほしい)(?<!欲しい)(?:です|だ|である|が正しい(?:です)?|"
    r"が正解(?:です)?|のはず(?:です)?|はずです|"
    r"ています|てます|ている|てる)(?:よ|ね)?[。!！\s]*$",
    guard=lambda s, m: not _JA_CORRECTED_HERE_RE.search(s) and stable_fact(s),
    description="「デフォルトブランチはmasterではなくmainです」",
)

# failure — 毎回 / いつも / 常に / 何度やっても / 100% … 失敗する
_cjk(
    "ja.failure.maikai", "failure",
    "毎回|いつも|常に|何度|何回|どうやっても|100|ずっと",
    r"(?:毎回|いつも|常に|何[度回](?:やって|実行して|試して|流して)も|"
    r"どうやっても|100[%％]|ずっと)[^。！？]{0,40}?" + _JA_FAIL,
    guard=_ja_fail_ok,
    description="「CIのmacOSジョブが毎回失敗する」",
)
# 必ず / 確実に / 絶対に … 落ちる
_cjk(
    "ja.failure.kanarazu", "failure",
    "必ず|確実に|絶対",
    r"(?:必ず(?!しも)|確実に|絶対に?)[^。！？]{0,40}?" + _JA_FAIL,
    guard=_ja_fail_ok,
    description="「このテストは必ず落ちる」",
)

# lesson — 教訓 / 学び / 気づき / 今日学んだこと
_cjk(
    "ja.lesson.kyoukun", "lesson",
    "教訓|学び|学んだ|気づき|反省点",
    r"^[\s、]*(?:今日の|今回の)?(?:教訓|学び|気づき|"
    r"学んだこと|反省点)\s*(?:[:：、]|は)\s*"
    r"|教訓として[、,\s]*"
    r"|(?:という|っていう)教訓"
    r"|(?:と|って|ことを)学んだ|(?:と|ことを)学びました",
    claim="after_or_next",
    description="「教訓: ...」「...という教訓」",
)
# メモ: / 備忘録: / 自分用メモ:
_cjk(
    "ja.lesson.memo", "lesson",
    "メモ|備忘|忘備|覚え書き",
    r"^[\s、]*(?:自分用)?(?:メモ|備忘録|備忘|忘備録|"
    r"覚え書き)\s*[:：]\s*",
    claim="after_or_next",
    description="「メモ: ...」",
)
# ハマりポイント / ハマりどころ / 落とし穴 / 罠
_cjk(
    "ja.lesson.hamari", "lesson",
    "ハマり|はまり|落とし穴|罠",
    r"(?:ハマり|はまり)(?:ポイント|どころ)\s*(?:[:：]|は|として)\s*"
    r"|(?:落とし穴|罠)\s*(?:[:：]|は|として)\s*",
    claim="after_or_next",
    description="「ハマりポイント: ...」",
)

# one of the options the agent laid out, picked by its label: 「Aの方が好き」「案2の方がいい」「後者の方がいいです」 (a choice
# for the work at hand, not a taste)
_JA_OPTION_RE = lazy(
    r"(?:^|[^A-Za-z0-9])[A-Za-z0-9]\s*(?:案|番|つ目)?の(?:方|ほう)|(?:案|パターン|オプション|選択肢)\s*[A-Za-z0-9一二三四]"
    r"|前者|後者|[1-9１-９一二三四](?:番目?|つ目)の"
)

# a taste said of one thing pointed at (「こっちの書き方の方が好き」「このデザインが好き」) is feedback on the output
_JA_PICKED_HERE_RE = lazy(r"(?:この|その|あの|こっち|そっち|あっち|こちら|そちら|あちら|今の|前の)")

# preference — 〜の方が好き/いい, 〜より〜がいい (not こっち/前の: a choice among options shown)
_cjk(
    "ja.preference.hou_ga", "preference",
    "方が|ほうが|より",
    r"(?<!こっち)(?<!そっち)(?<!あっち)(?<!こちら)(?<!そちら)"
    r"(?<!あちら)(?<!前)(?<!元)(?<!最初)(?<!この)(?<!その)(?<!後)"
    r"(?<!まま)(?<!今)(?<!上)(?<!下)(?<!右)(?<!左)(?<!者)"
    r"の(?:方|ほう)が(?:好き|好み|いい|良い|よい|"
    r"嬉しい|うれしい|助かる|読みやすい|"
    r"分かりやすい|わかりやすい|使いやすい|"
    r"しっくり)"
    # an adjective before 方が, with verbs of taste (not いい: 「早い方がいい」 is urgency)
    r"|(?<!な)い(?:方|ほう)が(?:好き|好み|助かります|助かる|"
    r"読みやすい|分かりやすい|わかりやすい)"
    # a verb before 方が: only with 好き/好み, since 「〜した方がいい」 is advice, not taste
    r"|[うくぐすつぬぶむる](?:方|ほう)が(?:好き|好み)"
    r"|より(?:も)?[^。、]{1,30}?(?:の方|のほう)?(?:が|を)"
    r"(?:好き|好み|好む|いい|良い|よい|優先)",
    guard=lambda s, m: not _JA_OPTION_RE.search(s) and not _JA_PICKED_HERE_RE.search(s)
    # 「英語の方がいいです」 answers which one for the work at hand; a kind of thing as the topic makes it a taste that
    # stays (「コミットは小さい方がいい」), and so does one kind set against another (「継承より合成の方がいい」)
    and (not re.search(r"(?:いい|良い|よい)$", m.group(0)) or re.match(r"^[^。、]{1,20}?(?<!に)は", s) is not None
         or "より" in s[: m.start() + 2]),
    description="「npmよりpnpmの方が好き」",
)
# 〜が好きです / 〜派です / 〜を好む
_cjk(
    "ja.preference.suki", "preference",
    "好き|好み|好む|派",
    r"(?:が|は|も)(?:大)?(?:好き|好み)(?:です|だ|なんです|なんだ)?(?:よ|ね)?[。!！\s]*$"
    r"|を好む|派(?:です|だ|なんです|なんだ)(?:よ|ね)?[。!！\s]*$",
    guard=lambda s, m: not _JA_OPTION_RE.search(s) and not _JA_PICKED_HERE_RE.search(s),
    description="「型ヒントは明示的に書く方が好きです」「タブ派です」",
)

# instruction
_cjk(
    "ja.instruction.kanarazu", "instruction", "必ず",
    r"必ず(?!しも)", guard=lambda s, m: _ja_directive(s) and not _JA_RELATIVE_RE.search(s) and _ja_not_pointed(s),
    description="「PRを出す前に必ずlintを通してください」",
)
_cjk(
    "ja.instruction.tsuneni", "instruction", "常に",
    r"(?<![正非異日通平無恒])常に", guard=lambda s, m: _ja_directive(s) and _ja_not_pointed(s),  # not 正常に / 非常に
    description="「常に型ヒントを付けて」",
)
_cjk(
    "ja.instruction.zettai", "instruction", "絶対",
    r"絶対(?:に)?(?!パス|値|参照|URL|位置|座標|的|指定|"
    r"インポート|import|時間|温度|無理|だめ)",
    guard=lambda s, m: (_ja_strict(s) or bool(_JA_PROHIBIT_END_RE.search(_TRAIL_RE.sub("", s)))) and _ja_not_pointed(s),
    description="「絶対にmainへ直接pushしないで」(not 絶対パス)",
)
_cjk(
    "ja.instruction.itsumo", "instruction", "いつも",
    r"いつも(?!通り|どおり|の|ありがとう|お世話|助か)",
    guard=lambda s, m: _ja_strict(s) and _ja_not_pointed(s),
    description="「いつも日本語で返答してください」",
)
_cjk(
    "ja.instruction.maikai", "instruction", "毎回",
    r"毎回", guard=lambda s, m: _ja_strict(s) and _ja_not_pointed(s),
    description="「毎回テストを実行してからコミットしてください」",
)
# 今後 / これからは / 次回から / 次から / 今度から
_cjk(
    "ja.instruction.kongo", "instruction",
    "今後|これから|次回|次から|今度から|以後|以降",
    r"今後(?:は|も|とも|ずっと|[、,\s])|以後(?:は|も)|^[\s、]*以降(?:は|も)|これから(?:は|も|ずっと)|"
    r"次回(?:から|以降)|次から(?!次)|今度から",
    # 「以降は省略します」 says "the rest": 以降 opens a rule only with a request ending
    # 「これからはこの機能を実装していきます」 is the plan for one thing of the work at hand
    # 「今後も参照できるようにドキュメントを作って」「今後のためにメモを残して」: 今後 in what a piece of work is for
    guard=lambda s, m: _ja_directive(s) and (not m.group(0).lstrip(" 、").startswith("以降") or _ja_strict(s))
    and not _JA_POINTED_RE.search(s) and not re.search(r"今後[^。、]{0,20}?(?:ため|ように(?!して|する|お願い))", s),
    description="「今後はpnpmを使ってください」",
)
# このプロジェクトでは / このリポジトリでは / うちのチームでは
_cjk(
    "ja.instruction.kono_project", "instruction",
    "プロジェクト|リポ|レポジトリ|コードベース|チーム|モノレポ",
    r"(?:この|本|うちの|当)(?:プロジェクト|リポジトリ|レポジトリ|"
    r"リポ|コードベース|チーム|モノレポ)"
    r"(?:では|だと|においては|の(?:ルール|方針|規約)(?:は|として|で|[:：]))",
    guard=_ja_directive,
    description="「このリポジトリではPRはdevelopに向けます」",
)
# the person asks for it to be remembered: 「覚えておいて」「覚えといて」「記憶してください」
_REMEMBER = r"覚え(?:て(?:おいて|ください|ね)|といて)|記憶して(?:おいて|ください)"
_JA_OBOETE_STRIP_RE = lazy(r"(?:これ|このこと|以下)?(?:を)?(?:" + _REMEMBER + r")(?:ください|ほしい|欲しい|ね)?[:：]?")


def _oboete_has_content(sentence: str, m: re.Match[str]) -> bool:
    """「覚えておいて」 alone keeps nothing: there must be something to remember."""
    return len(_JA_OBOETE_STRIP_RE.sub("", _TRAIL_RE.sub("", sentence))) >= 6


_cjk(
    "ja.instruction.oboete", "instruction", "覚え|記憶",
    _REMEMBER,
    guard=_oboete_has_content,
    description="「mainは保護ブランチだと覚えておいて」",
)
# 〜は禁止です
_cjk(
    "ja.instruction.kinshi", "instruction", "禁止|厳禁",
    r"(?:は|を|の)(?:禁止|厳禁)(?:です|だ|とする|とします|にします|でお願いします)?(?:よ|ね)?"
    # what to do instead may follow: 「〜は禁止、原因を直して」
    r"(?:[。!！\s]*$|[、,][^。]{2,40}[。!！\s]*$)",
    # 「この操作は禁止」 is about the thing at hand; 「そのまま」 ("as it is") points at nothing
    guard=lambda s, m: not _JA_HERE_RE.search(s.replace("そのまま", "")),
    description="「mainへの直接pushは禁止です」",
)

# standing requests without 必ず / 今後: a condition that recurs, the way responses are wanted, how work
# is done here; never with a pointing word (この, それ, 上記) that ties them to the task at hand
_JA_HERE_RE = lazy(r"この|その|あの|これ|それ|あれ|ここ|こちら|そちら|あちら|こっち|そっち|あっち|上記|下記|以下|さっき|先ほど|今の|今日|明日")
_JA_REQUEST_TAIL = (
    r"(?:てください|て下さい|ないでください|ないで下さい|ないで|ること|ないこと|てね|ようにしてください|"
    r"ようにして|ようにお願いします|でお願いします|をお願いします|お願いします)(?:ね|よ)?[。!！\s]*$"
)


def _ja_standing(sentence: str, m: re.Match[str]) -> bool:
    return not _JA_HERE_RE.search(sentence)


# a name from the code itself, camelCase or snake_case (「getFontDisplayName」「get_session_fonts」), not a tool's
# (pnpm, moment.js): what is changed or dropped is the code at hand, unless it is kept out of a commit or a push
# (「node_modules をコミットするのはやめて」)
_JA_CODE_SYMBOL_RE = lazy(r"(?<![A-Za-z0-9_.\-/])(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![A-Za-z0-9_.\-/])")


def _ja_code_at_hand(sentence: str) -> bool:
    return _JA_CODE_SYMBOL_RE.search(sentence) is not None and not re.search(r"コミット|commit|push|プッシュ", sentence, _I)


# 〜には〜が必須: what every PR, commit, merge or release must carry (「バグ修正の PR には回帰テスト必須で」); a field or
# an argument that is required is the product's or the code's spec, not a way of working
_cjk(
    "ja.instruction.hissu", "instruction", "必須",
    r"(?:PR|プルリク(?:エスト)?|コミット|マージ|リリース|デプロイ|レビュー|プッシュ|push|commit|merge|release|deploy)"
    r"[^。、]{0,8}?(?:には|では|の(?:前|時|とき)(?:に|には)?|前に(?:は)?|時(?:に|には)?)[\s、]*[^。]{1,40}?\s*(?:が|は|を)?\s*必須"
    r"(?:です|だ|で(?:す|お願いします)?|にします|とします|にしてください)?(?:よ|ね)?[。!！\s]*$",
    guard=_ja_standing,
    description="「bug fix の PR には regression test 必須で」「リリース前にはチェンジログの更新が必須です」",
)


# the moment a rule recurs on must be one of the agent's work (writing, committing, adding, deploying, answering …):
# 「エラーの場合はトーストを出して」「データが空の時は…」 say how the product behaves
_JA_WORK_MOMENT_RE = lazy(
    r"書|実装|コミット|commit|プッシュ|push|PR|プルリク|マージ|merge|デプロイ|deploy|リリース|release|修正|変更|追加|作成|作る|"
    r"レビュー|テスト|test|ビルド|build|インストール|install|導入|リファクタ|調査|調べ|質問|回答|返答|説明|作業|編集|削除|更新|"
    r"依存|パッケージ|ライブラリ|マイグレーション|スキーマ|ブランチ|タスク|開発|起動|実行|lint|フォーマット|prettier|API|コード",
    _I,
)
# where the condition of a recurring request ends
_JA_MOMENT_END_RE = lazy(r"(?:とき|時|際|場合|前|あと|後|たびに|度に|てから)")

_cjk(
    "ja.instruction.toki", "instruction",
    "とき|時|際|場合|前に|後は|あとは|たびに|度に|てから",
    # (a moment before の or まで names a thing or a span, no condition: 「起動時のsessionIDは…」「記録する直前まで用意した」;
    # 際 inside 実際 "actually", 国際, 交際, 間際 is no moment)
    r"^[^。]{2,40}?(?<![たっ随臨同当一即定常瞬実交国間])(?:とき|時|際|場合|前|あと|後|たびに|度に)(?!の|まで)(?:は|に|には|も)?[、,\s]*[^。]{2,60}?"
    + _JA_REQUEST_TAIL +
    # a recurring moment makes a plain te-form request a rule too: 「コミット前には pytest を回して」
    r"|^[^。]{2,40}?(?<![たっ随臨同当一即定常瞬実交国間])(?:とき|時|前に|前には|たびに|度に)(?!の|まで)(?:は|に|には|も)?[、,\s]*[^。]{2,60}?"
    r"(?<=[\u3040-\u309f])て(?:ね|よ)?[。!！\s]*$"
    # a step before a commit, a push or a merge: 「prettier かけてから commit して」
    r"|^[^。]{2,40}?てから\s*(?:commit|コミット|push|プッシュ|PR|プルリク|merge|マージ|deploy|デプロイ)\s*(?:を)?\s*"
    r"(?:して|する|しよう|すること|してください|してね|出して|出すこと)(?:ね|よ)?[。!！\s]*$",
    guard=lambda s, m: _ja_standing(s, m) and not re.search(
        r"時間が|暇な|余裕|お手すき|手が空|できる(?:とき|時)|都合|(?:た|だ)(?:とき|時|後|あと|ら)", s)
    and _JA_WORK_MOMENT_RE.search(s[: _JA_MOMENT_END_RE.search(s).end()] if _JA_MOMENT_END_RE.search(s) else s) is not None,
    description="「テストを書くときはモックを使わないでください」「コミットする前にlintを実行してください」"
    "「prettier かけてから commit して」",
)
_cjk(
    "ja.instruction.reply_style", "instruction",
    "返答|回答|応答|返事|返信|説明|出力|コメント|コミットメッセージ|会話|やり取り|日本語|英語|中国語|質問|名|メッセージ|タイトル|文言",
    r"^[\s、]*(?:(?:[^\s。、はをがの]{1,8}の)?(?:返答|回答|応答|返事|返信|説明|出力|コメント|コミットメッセージ|会話|やり取り|"
    r"質問|変数名|関数名|クラス名|ファイル名|ブランチ名|命名|識別子|エラーメッセージ|ログメッセージ|ログ|タイトル|UI文言|文言)"
    r"(?:は|を|も|には|では)?[^。]{0,20}?"
    r"(?:日本語|英語|中国語|簡潔|短く|手短|敬語|丁寧語|箇条書き)"
    r"|(?:日本語|英語|中国語)で(?:応答|返答|回答|返事|返信|会話|説明|やり取り))[^。]{0,16}?"
    r"(?:でお願いします|でお願い|にしてください|にして(?:おいて)?|のままにして(?:おいて)?|のままで|"
    r"で(?:して|書いて|返して|答えて)(?:ください)?|で書くこと|にすること|"
    r"して(?:ください|下さい|ほしい|欲しい)|お願いします)(?:ね|よ)?[。!！\s]*$",
    # 「エラーメッセージを日本語に翻訳して」 is a task on the text at hand
    guard=lambda s, m: _ja_standing(s, m) and not re.search(r"翻訳|訳して|訳す|変換|変えて|直して|書き換え", s),
    description="「返答は日本語でお願いします」「日本語で応答してください」",
)
_cjk(
    "ja.instruction.convention", "instruction",
    "ごとに|単位で|ずつ|分けて|別々に|基本的に|原則|で統一|に統一|形式で|の形で|規約で|ルールで",
    r"^[\s、]*(?:PR|プルリク(?:エスト)?|コミット|ブランチ|テスト|リリース|デプロイ|レビュー|ドキュメント|"
    r"変数名|関数名|ファイル名|命名|マージ|issue|イシュー|タグ|バージョン|インデント|ログ)(?:名)?\s*(?:は|を|も)[^。]{1,50}?"
    r"(?:ごとに|単位で|ずつ|分けて|別々に|基本的に|原則|で統一|に統一|形式で|の形で|規約で|ルールで)[^。]{0,30}?"
    r"(?:ています|ている|てます|てる|します|する|しています|ことにしています|ことになっています|です|"
    r"てください|ください|ること|でお願いします|にしてください|(?<=[っいきしちにびみりげ])て)(?:よ|ね)?[。!！\s]*$",
    guard=lambda s, m: _ja_standing(s, m) and not re.search(r"落ち|失敗|エラー|壊れ|止ま", s),
    description="「PR は Presentation 層と Application 層で分けて出しています」",
)
_cjk(
    "ja.instruction.shitagatte", "instruction",
    "に従|に沿|に則|に準拠",
    r"(?:TDD|BDD|DDD|規約|ガイドライン|スタイルガイド|ルール|規則|方針|流儀|作法|原則|Conventional\s*Commits|[A-Z][\w.-]*\s+Commits|"
    r"セマンティックバージョニング)\s*(?:に従って|に沿って|に則って|に準拠して)[^。]{0,30}?"
    r"(?:進める|進めます|進めて(?:ください)?|書く|書きます|書いて(?:ください)?|開発する|開発します|"
    r"実装する|実装します|実装して(?:ください)?|作る|作ります|行う|行います|ください)(?:よ|ね)?[。!！\s]*$",
    guard=_ja_standing,
    description="「t-wadaのTDDに従ってテストしながら進める」",
)

# prohibitions that say "ever" in Japanese: 直接 / 勝手に / 二度と / 無断で …しないでください
_cjk(
    "ja.instruction.naide", "instruction",
    "直接|勝手に|二度と|むやみに|安易に|無断で|確認なしに|許可なく|許可なしに|断りなく|確認せずに|余計な|不要な|無駄な|過剰な",
    r"(?:直接|勝手に|二度と|むやみに|安易に|無断で|確認なしに|許可なく|許可なしに|断りなく|確認せずに|"
    r"(?:余計な|不要な|無駄な|過剰な)(?!こと|の|もの))[^。]{0,30}?"
    r"(?:ないでください|ないで下さい|ないで|ないこと|ないように(?:して(?:ください)?)?|のは禁止(?:です)?)(?:ね|よ)?[。!！\s]*$",
    guard=_ja_standing,
    description="「mainブランチに直接pushしないでください」「勝手にコミットしないで」",
)

_cjk(
    "ja.instruction.kihon", "instruction",
    "基本的に|原則|普段|いつもは",
    r"^[\s、]*(?:基本的に(?:は)?|原則(?:として)?|普段は|普段から|いつもは)[、,\s]*[^。]{2,40}?"
    r"(?:ています|ている|てます|します|しません|です|てください|ないでください|こと|ましょう)(?:よ|ね)?[。!！\s]*$",
    guard=lambda s, m: _ja_standing(s, m) and not re.search(r"問題|大丈夫|OK|いい|良い|同じ|合って|動いて|できて", s),
    description="「基本的にTypeScriptで書いています」",
)

# 「〜ようにしてください」 asks for a habit: "make a point of writing docstrings"
_cjk(
    "ja.instruction.youni", "instruction",
    "ように",
    r"(?:書く|書かない|使う|使わない|付ける|付けない|入れる|入れない|確認する|実行する|守る|従う|避ける|残す|残さない|分ける|"
    r"揃える|統一する|しない|まとめる|含める|含めない|コミットする|コミットしない|テストする|走らせる|回す|聞く|相談する|"
    r"書き込まない|消さない|変えない|触らない|追加しない|返す|答える|回答する|返答する|話す)"
    # (「〜ようにしたい」: the person's wish for the practice, 「テストは毎回走らせるようにしたいです」)
    r"ように(?:して(?:ください|下さい|ね)?|お願いします|しましょう|すること|したい(?:です)?)(?:ね|よ|な)?[。!！\s]*$",
    guard=_ja_standing,
    description="「関数にはdocstringを書くようにしてください」「anyを使わないようにして」「毎回走らせるようにしたい」",
)
# 〜ないこと: the written-rule ending of a prohibition (「.envファイルはコミットしないこと」)
_cjk(
    "ja.instruction.naikoto", "instruction",
    "ないこと",
    r"^[^。]{2,40}?ないこと(?:。|！|!)?\s*$",
    guard=lambda s, m: _ja_standing(s, m) and not re.search(r"(?:という|って|わけでは|ことは|とは限ら)", s),
    description="「.envファイルはコミットしないこと」",
)
# 〜すること: the written-rule ending of a rule (「回答は日本語で行うこと」), and 〜は避けて: "avoid X"
_cjk(
    "ja.instruction.surukoto", "instruction",
    "こと",
    r"^[^。]{2,40}?(?:する|行う|書く|使う|付ける|入れる|守る|従う|揃える|残す|含める|分ける|確認する)こと(?:。|！|!)?\s*$",
    guard=lambda s, m: _ja_standing(s, m) and not re.search(r"(?:という|って|わけ|ことは|とは限ら|ことが|ことに|ことを)", s),
    description="「回答は日本語で行うこと」「コミット前に lint を確認すること」",
)
_cjk(
    "ja.instruction.sakete", "instruction",
    "避け",
    r"^[^。]{2,40}?(?:は|を)避け(?:て(?:ください|下さい|ね)?|ること|るように(?:して(?:ください)?)?"
    # 「main への直接プッシュは避け、PR 経由でマージしてください」: what to do instead follows
    r"|[、,]\s*[^。]{2,40}?(?:してください|して下さい|すること))(?:よ|ね)?[。!！\s]*$",
    guard=_ja_standing,
    description="「グローバル変数の使用は避けてください」「any 型は避けて」「直接プッシュは避け、PR 経由でマージしてください」",
)
# a request that holds for a place or per kind: 「本番環境では、デフォルト値を使用しないでください」「環境ごとに異なる
# SECRET_KEYを使用してください」「POT ファイルは開発環境でのみ更新してください」
_cjk(
    "ja.instruction.scope", "instruction",
    "本番|開発環境|ステージング|テスト環境|ごとに|毎に|のみ",
    r"(?:(?:本番|本番環境|開発環境|ステージング(?:環境)?|テスト環境)(?:では|で)(?:は)?|"
    r"(?:環境|ファイル|ブランチ|コミット|リリース|サービス|モジュール|機能|画面)(?:ごと|毎)に|(?:環境|ブランチ|ローカル)でのみ)"
    r"[、,\s]*[^。]{1,40}?(?:してください|して下さい|しないでください|しないで下さい|ないでください|ないで下さい|すること|しないこと)"
    r"[。!！\s]*$",
    guard=lambda s, m: _ja_standing(s, m) and not re.search(r"今すぐ|すぐに|今日|まず|先に", s),
    description="「本番環境では、デフォルト値を使用しないでください」「環境ごとに異なるSECRET_KEYを使用してください」",
)
# the stack and the person's setup: 「パッケージマネージャーはpnpmです」「私はMacを使っています」
_cjk(
    "ja.correction.setup", "correction",
    "は",
    r"^[\s、]*(?:(?:パッケージマネージャー|パッケージマネージャ|テストフレームワーク|テストランナー|フレームワーク|言語|DB|"
    r"データベース|エディタ|エディター|シェル|OS|CI|ORM|リンター|フォーマッター|ランタイム|ビルドツール|"
    r"デフォルトブランチ|メインブランチ)|(?:私|僕|俺|自分|うち|弊社|我々|私たち)(?:の環境)?)は\s*"
    r"[A-Za-z][A-Za-z0-9 ._+#-]{0,30}?\s*(?:です|だ|を使っています|を使ってます|を使用しています|で(?:す|開発しています))(?:よ|ね)?[。!！\s]*$",
    guard=_ja_standing,
    description="「パッケージマネージャーはpnpmです」「私はMacを使っています」",
)

# a prohibition on a practice, said plainly: 「pip は使わないで」「三項演算子をネストしないでください」
# (verbs of how work is done, never 消さ/触ら/変え, which hold back the task at hand)
_cjk(
    "ja.instruction.naide_practice", "instruction",
    "ないで",
    r"(?:^|[、,]\s*)(?:[^。、]{1,30}?(?:は|を|に|で|も)\s*[^。、]{0,20}?(?:使わ|付け|残さ|入れ|書か|混ぜ|含め|頼ら|依存し|"
    r"ネストし|コミットし|プッシュし|マージし|追加し|ハードコードし|省略し|スキップし|飛ばさ|無効にし|無視し|"
    r"置か|走らせずにコミットし|捨て|握りつぶさ|誤魔化さ|ごまかさ|選ば|(?<![\w-])[A-Za-z][a-z-]+\s*し)"
    # under a condition that recurs, any act: 「レビューなしでマージしないで」
    r"|[^。、]{1,30}?なしで\s*[^。、]{1,30}?)ないで(?:ください|下さい|ね)?"
    # a reason or the way to do it instead may follow: 「〜は使わないで、〜を明示してください」
    r"(?:[。!！\s]*$|[、,][^。]{2,60}[。!！\s]*$)",
    guard=_ja_standing,
    description="「pip は使わないで」「console.log をコミットに残さないでください」",
)
# 「pip じゃなくて uv を使って」: the chosen tool set against the one it replaces
_cjk(
    "ja.instruction.janakute", "instruction",
    "じゃなく|ではなく|でなく",
    r"[^。、]{1,30}?(?:じゃなく|ではなく|でなく)(?:て)?[、,\s]*[^。]{1,30}?"
    r"(?:を使って|を使う|で書いて|に置いて|に置く|に入れて|にして|でお願いします)(?:ください|下さい|ね)?[。!！\s]*$",
    # 「『させていただきます』じゃなくて「します」にして」: a wording of the text at hand, quoted, edited
    guard=lambda s, m: _ja_standing(s, m) and not re.search(r"こっち|そっち|あっち|こちら|そちら", s) and not _ja_code_at_hand(s)
    and not re.search(r"[「『\"“][^」』\"”]{1,20}[」』\"”]\s*に(?:して|する)", s),
    description="「pip じゃなくて uv を使って」「テストは src/ ではなく tests/ に置いて」",
)
# 「テストは tests/ ディレクトリに置いてください」: where a class of files lives (a topic with は)
_cjk(
    "ja.instruction.oite", "instruction",
    "置いて|置く|配置",
    r"(?:^|[、,]\s*)[^。、]{1,20}?は\s*[^。、]{1,30}?(?:に|の下に|配下に)(?:置いて|置く|配置して|配置する)"
    r"(?:ください|下さい|ね|こと)?[。!！\s]*$",
    guard=_ja_standing,
    description="「テストは tests/ ディレクトリに置いてください」",
)


def _ja_yamete_reversed(sentence: str, m: re.Match[str]) -> str:
    what = m.group("what").strip()
    return f"{what}を使う" if re.fullmatch(r"[\w./@+-]+", what) else what


# 「uv はやめて、pip に戻してください」「ブランチ名に名前を付けるのはやめてください」
_cjk(
    "ja.instruction.reversal_yamete", "instruction",
    "やめて|止めて",
    r"(?:^|[、,]\s*)(?P<what>[^。、]{1,30}?)\s*(?:のは|は|を)\s*(?:今後は?|これからは|もう)?\s*(?:やめて|止めて)(?:ください|下さい|ね)?"
    r"(?=[、,。!！\s]|$)",
    guard=lambda s, m: _ja_standing(s, m) and not re.search(r"^(?:それ|これ|あれ|そこ|もう)", m.group("what"))
    and not _ja_code_at_hand(s),
    reverses=_ja_yamete_reversed,
    description="「uv はやめて」— reverses 「uv を使う」",
)
# 「コミット前に lint を回すというルールは廃止します」: a rule named and called off
_cjk(
    "ja.instruction.reversal_rule", "instruction",
    "ルール|決まり|きまり|規則",
    r"^[\s、,]*(?P<rev>[^、。？?！!]{3,40}?)\s*(?:という|って|の)\s*(?:ルール|決まり|きまり|規則)\s*(?:は|も)?\s*"
    r"(?:廃止|撤廃|なし|無し|やめ|止め|なくし|取りやめ)(?:します|しました|ます|ました|です|にします|にしました|とします|で)?[。！!\s]*$",
    guard=lambda s, m: not re.match(r"(?:この|その|あの|さっき|上の)", m.group("rev")),
    reverses=lambda s, m: m.group("rev"),
    description="「コミット前に lint を回すというルールは廃止します」— reverses 「コミット前に lint を回す」",
)
# 「pip に戻してください」: back to a tool (not 元に戻して, which reverts the work)
_cjk(
    "ja.instruction.reversal_modoshite", "instruction",
    "戻して|戻す",
    r"(?:^|[、,]\s*|は\s*)(?P<what>[A-Za-z][\w./@+-]*(?:\s+[A-Za-z][\w./@+-]*)?)\s*に戻(?:して|す)(?:ください|下さい|ね)?[。!！\s]*$",
    guard=lambda s, m: _ja_standing(s, m) and tool_named(m.group("what")),
    reverses=lambda s, m: f"{m.group('what')}を使わない",
    description="「pip に戻してください」— lifts 「pip を使わない」",
)
# permissions: 「main に直接プッシュしても大丈夫です」「console.log は残しても構いません」「PR のタイトルは日本語で構いません」
_cjk(
    "ja.instruction.kyoka", "instruction",
    "大丈夫|構いません|構わない|かまいません|かまわない|もいい|も良い|もok|ok に|okに|オーケー|可に|解禁|ちゃって|じゃって",
    r"(?:(?:て|で)も(?:大丈夫|構いません|構わない|かまいません|かまわない|いい|良い|OK)|で(?:構いません|かまいません)"
    # said in speech: 「retry で通しちゃっていいです」「そのまま進んじゃって大丈夫」
    r"|(?:ちゃ|じゃ)って(?:も)?(?:いい|良い|OK|大丈夫)"
    r"|(?<=[っいきしちにびみりげ])て(?:大丈夫|構いません|かまいません|構わない)|(?:は|も)\s*(?:OK|オーケー|可)\s*に(?:します|しました)"
    # 「main への直接 push は解禁します」: a ban lifted
    r"|(?:は|を)\s*解禁(?:します|しました|とします|に(?:します|しました))?)(?:です)?(?:よ|ね)?"
    r"(?:[。!！\s]*$|[、,])",
    guard=lambda s, m: m.start() >= 3 and _ja_standing(s, m) and not re.search(r"(?:ですか|ますか|でしょうか)$", s),
    description="「main に直接プッシュしても大丈夫です」「PR のタイトルは日本語で構いません」「直接 push は解禁します」",
)


_JA_NEGATIVE_TO_POSITIVE: tuple[tuple[str, str], ...] = (
    ("使わないでください", "使ってください"), ("使わないで", "使って"), ("使用しません", "使用します"),
    ("っていません", "っています"), ("ていません", "ています"), ("っていない", "っている"), ("ていない", "ている"), ("使用しない", "使用する"), ("使いません", "使います"), ("使わない", "使う"),
    ("しないでください", "してください"), ("しないで", "して"), ("しません", "します"), ("しない", "する"),
    ("書きません", "書きます"), ("書かない", "書く"), ("入れません", "入れます"), ("入れない", "入れる"),
    ("いりません", "いります"), ("いらない", "いる"), ("要りません", "要ります"), ("要らない", "要る"),
    ("不要です", "必要です"), ("不要", "必要"), ("必要ありません", "必要です"), ("必要ない", "必要"),
)


def _ja_reversed(sentence: str, m: re.Match[str]) -> str:
    """「worktreeはもう使いません」 revokes 「worktreeは使います」."""
    body = TRAIL_RE.sub("", sentence[: m.start("neg")] + m.group("neg")).replace("もう", "", 1)
    body = re.sub(r"^[\s、]*(?:今後は|今後|これからは|以後は)[\s、]*", "", body)
    body = re.sub(r"(?:よ|ね)$", "", body)
    for negative, positive in _JA_NEGATIVE_TO_POSITIVE:
        if body.endswith(negative):
            return " ".join((body[: -len(negative)] + positive).split())
    stem = re.sub(r"(?:は|を)?やめ(?:ます|る|て(?:ください)?)$", "", body)
    if stem == body:  # 「書かなくていい」 revokes 「書く」
        stem = re.sub(r"なく(?:ていい(?:です)?|て大丈夫(?:です)?)$", "", body)
        if stem != body and stem:
            stem = _dictionary_form(stem)
    return " ".join(stem.split())


_A_TO_U = dict(zip("かがさたなばまらわ", "くぐすつぬぶむるう"))


def _dictionary_form(stem: str) -> str:
    """書か -> 書く, 入れ -> 入れる, し -> する: the plain verb before 「なくていい」."""
    if stem.endswith("し"):
        return stem[:-1] + "する"
    if stem.endswith("こ"):
        return stem[:-1] + "くる"
    if stem[-1] in _A_TO_U:
        return stem[:-1] + _A_TO_U[stem[-1]]
    return stem + "る"


_cjk(
    "ja.instruction.reversal_mou", "instruction", "もう",
    r"もう(?!少し|すこし|ちょっと|一度|一回|いい(?:よ|です)?$|大丈夫|すぐ|終わ|でき|一つ|ひとつ|一個|一件|一点|一方|ひと)"
    r"[^。]{0,30}?(?P<neg>使わないでください|使わないで|使用しません|っていません|ていません|っていない|ていない|使用しない|使いません|使わない|しないでください|しないで|しません|しない|"
    r"書きません|書かない|入れません|入れない|いりません|いらない|要りません|要らない|不要です|不要|必要ありません|"
    r"必要ない|なくていい(?:です)?|なくて大丈夫(?:です)?|やめ(?:ます|る|て(?:ください)?))(?:よ|ね)?"
    r"(?:[。!！\s]*$|[、,](?=[^。]*(?:ので|から|ため)[。!！\s]*$))",
    guard=lambda s, m: _ja_standing(s, m) and not re.search(
        r"(?:動作|起動|反応|表示|機能|発生|再現|成功|完了|接続|ビルド|エラー|クラッシュ)(?:し|でき|が)", s),
    reverses=_ja_reversed,
    description="「worktreeはもう使いません」「もうモックを使わないで」",
)


_JA_WRITTEN_KINDS = (
    r"PR|pr|Pr|プルリク(?:エスト)?|コミット(?:メッセージ)?|ブランチ(?:名)?|ドキュメント|コメント|README|readme|返答|回答|返事|説明|"
    r"ログ|変数名|関数名|クラス名|ファイル名|issue|Issue|イシュー"
)
# a named tool or format taken, said as a rule file's note ends on the act's noun: 「TypeScriptを使用(JavaScriptは使わない)」,
# 「ESModules形式(import/export)を使用」 (「このライブラリを使用」 points at the task)
_cjk(
    "ja.instruction.shiyou", "instruction",
    "を使用",
    r"^[\s、]*(?P<claim>[A-Za-z][\w.+#-]*(?:\s*[A-Za-z][\w.+#-]*)?\s*(?:[^\s。、をはがの]{1,4})?(?:[(（][^()（）]{1,30}[)）])?"
    r"\s*を使用(?:する)?\s*(?:[(（][^()（）]{1,30}[)）])?)[。！!]?$",
    guard=lambda s, m: _ja_not_pointed(s) and tool_named(m.group("claim").split("を")[0].strip()),
    description="「TypeScriptを使用(JavaScriptは使わない)」「ESModules形式(import/export)を使用」",
)
# what never goes into the history, said plainly: 「`.env` ファイルはコミットしない」
_cjk(
    "ja.instruction.never_committed", "instruction",
    "コミットしない|プッシュしない|pushしない|commitしない",
    r"^[\s、]*(?P<claim>[^。、？?]{1,30}?は\s*(?:git\s*に\s*)?(?:コミット|プッシュ|push|commit)しない)[。！!]?$",
    guard=lambda s, m: _ja_not_pointed(s) and not re.search(r"今回|まだ|とりあえず|一旦|いったん", s),
    description="「`.env` ファイルはコミットしない」",
)
# 「pr名英語に」「コミットメッセージは日本語で」: the language a kind of artifact is written in, said tersely
_cjk(
    "ja.instruction.written_in", "instruction",
    "英語|日本語|中国語|英文|和文|english|japanese",
    r"^[\s、,]*(?P<claim>(?:" + _JA_WRITTEN_KINDS + r")(?:[・/、](?:" + _JA_WRITTEN_KINDS + r"))*"
    r"(?:\s*(?:description|title|message|messages|本文|タイトル|説明))?[^\s。、？?！!]{0,5}?\s*(?:は|も)?\s*"
    r"(?:英語|日本語|中国語|英文|和文|English|english|Japanese|japanese)\s*(?:(?:で|に)"
    r"(?:して|書いて|統一して|お願い(?:します)?|してください|書いてください)?"
    # or the language alone, as a rule file lists it: 「コメントは日本語」「変数名・関数名は英語(camelCase)」
    r"|(?=\s*(?:[(（][^()（）]{1,30}[)）])?\s*[。！!]?$))(?:ね|よ)?(?:\s*[(（][^()（）]{1,30}[)）])?)"
    r"[。！!]?$"
    # the work done in a language, said in a rule file's plain form: 「技術的な議論も日本語で行う」「レビューでは日本語でコメントを記載する」
    r"|^[^。？?]{0,20}?(?:は|も|では)\s*(?:英語|日本語|中国語)で(?:[^。？?、]{1,8}を)?"
    r"(?:行う|書く|記載する|記述する|返す|答える|回答する|返答する|コメントする|やり取りする)[。！!]?$",
    guard=lambda s, m: not re.search(r"この|その|これ|それ|今回|さっき", s),
    description="「pr名英語に」「コミットメッセージは英語で」",
)
# 「Python は 3.12 を使ってください」「テストは pytest でお願いします」: what a kind of work uses (a topic with は)
_cjk(
    "ja.instruction.topic_use", "instruction",
    "使って|使う|使用して|お願いします",
    r"^[^。、]{1,20}?は\s*[^。、はを]{1,30}?(?:を使って|を使う|を使用して|でお願いします)(?:ください|下さい|ね)?"
    r"(?:[、,]\s*[^。]{1,30}?ではありません)?[。!！\s]*$",
    guard=_ja_standing,
    description="「Python は 3.12 を使ってください」「パッケージのインストールは uv でお願いします」",
)

# いちいち … しなくていい: a standing arrangement that stops a habit, said without 今後 (「いちいち確認しなくていいよ」)
_cjk(
    "ja.instruction.no_need_each_time", "instruction",
    "いちいち|毎回",
    r"(?P<claim>(?:いちいち|毎回)[^。？?]{0,20}?(?:しなくて(?:いい|良い|大丈夫|OK)|なくて(?:いい|良い|大丈夫)|ないで|"
    r"不要|いらない|要らない|必要(?:は)?ない))",
    guard=_ja_standing,
    description="「いちいち確認しなくていいよ」「毎回まとめを書かなくていい」",
)
# … なくても … (動く|読み込まれる)よ: a fact the person states to stop a needless step (「シンボリックリンクなくても読み込まれるよ」)
_cjk(
    "ja.correction.works_without", "correction",
    "なくても|無くても",
    r"(?P<claim>[^。？?]{2,30}?(?:なくても|無くても)[^。？?]{0,15}?(?:読み込まれ(?:る|ます)|動(?:く|きます)|"
    r"使え(?:る|ます)|通(?:る|ります)|ビルドでき(?:る|ます)|認識され(?:る|ます)|問題(?:ない|ありません)))"
    r"(?:よ|です(?:よ)?|から|し)?[\s。!！]*$",
    guard=_ja_standing,
    description="「別にシンボリックリンクなくても読み込まれるよ」「.envなくても動きます」",
)
# the person's machine, stated so the agent stops assuming another (「この環境はWindowsなことに留意して」)
_cjk(
    "ja.correction.environment", "correction",
    "環境|osは|osが|マシン|シェル|pcは|pcが",
    r"(?P<claim>(?:この|うちの|私の|僕の|俺の|自分の|手元の|ローカルの?)?(?:実行)?(?:環境|OS|マシン|シェル|PC)(?:は|が)"
    r"(?:[A-Za-z][\w.+-]*(?:\s[A-Za-z0-9][\w.+-]*)?|ウィンドウズ|マック|リナックス)"
    r"(?:です|だ|なので|だから|なこと|だよ|なんだ|なんです|を使って(?:い)?(?:る|ます)))",
    description="「この環境はWindowsなことに留意して」「手元のシェルはfishです」",
)
# 〜のはやめて: a habit the person wants stopped, a standing rule like a reversal (「最終段にcatつけるのやめて」)
_cjk(
    "ja.instruction.stop_doing", "instruction",
    "やめて|止めて|やめよう|やめましょう",
    r"(?P<claim>[^。、\s]{2,30}?(?:する|つける|付ける|使う|入れる|書く|作る|足す|追加する|出す|走らせる|[うくぐすつぬぶむる])"
    r"(?:の|こと)(?:は|を)?(?:もう)?(?:やめて|止めて|やめてください|止めてください|やめよう|やめましょう))",
    guard=lambda s, m: not _JA_HERE_RE.search(m.group(0)) and not _ja_code_at_hand(s),
    description="「最終段にcatつけるのやめて」「毎回READMEを書き直すのはやめてください」",
)
# 極力 / できるだけ … 控えて: a manner asked for as a habit, not for one step (「質問を極力控えて自走してください」)
_cjk(
    "ja.instruction.as_far_as_possible", "instruction",
    "極力|できるだけ|出来るだけ|なるべく|可能な限り",
    r"(?P<claim>[^。]{0,20}?(?:極力|できるだけ|出来るだけ|なるべく|可能な限り)[^。]{0,20}?"
    r"(?:控えて|避けて|しないで|使わないで|減らして|抑えて|少なくして|省いて|聞かないで|求めないで)[^。]{0,20}?"
    # a way of writing kept where it can be, in a rule file's plain form: 「関数は極力アロー関数で書く」
    r"|^[^。、]{1,15}?は\s*(?:極力|できるだけ|出来るだけ|なるべく|可能な限り)[^。、]{1,20}?で(?:書く|実装する|作る|統一する))(?:[。！!]|$)",
    guard=lambda s, m: _ja_directive(s) and not _JA_HERE_RE.search(m.group(0)),
    description="「質問を極力控えて自走してください」「外部ライブラリはできるだけ使わないで」「関数は極力アロー関数で書く」",
)

# 「PR の説明を更新するのは push した時だけにして」: a step of the work kept to a moment that recurs in it (a commit, a push,
# a merge, a release); 「ログを出すのはエラーの時だけにして」 says how the product behaves
_JA_HISTORY_MOMENT_RE = lazy(r"コミット|commit|プッシュ|push|マージ|merge|リリース|release|デプロイ|deploy|PR|プルリク", _I)
_cjk(
    "ja.instruction.only_when", "instruction",
    "のみ|だけ",
    r"^[\s、]*(?P<claim>[^。、]{2,30}?[うくぐすつぬぶむる]の(?:は|を)\s*(?P<moment>[^。、]{1,20}?(?:時|とき|際|前|後|あと))(?:の|に)?"
    r"(?:のみ|だけ)(?:に(?:して(?:ください|下さい|ね)?|すること|します)|で(?:いい|良い|お願いします)))(?:よ|ね)?[。!！\s]*$",
    guard=lambda s, m: _ja_standing(s, m) and _JA_HISTORY_MOMENT_RE.search(m.group("moment")) is not None,
    description="「PR の説明を更新するのは push した時だけにして」「CHANGELOG を書くのはリリース前のみにしてください」",
)
# 「日本語の文言は全部敬語で統一したい」: one way kept for a whole kind of thing, wished for (the project as a whole, 「この
# プロジェクト全体を通して」, points at nothing of the task)
_JA_WHOLE_PROJECT_RE = lazy(r"この(?:プロジェクト|リポジトリ|リポ|サイト|アプリ|コードベース)全体(?:を通して|を通じて|で)?")
_cjk(
    "ja.instruction.touitsu_wish", "instruction",
    "統一したい",
    r"(?P<claim>[^。、]{1,20}?(?:は|を)\s*[^。、はを]{1,20}?で統一したい)(?:です|んです)?(?:ね|よ)?[。!！\s]*$",
    guard=lambda s, m: not _JA_HERE_RE.search(_JA_WHOLE_PROJECT_RE.sub("", s)) and not _ja_code_at_hand(s),
    description="「このプロジェクト全体を通して、UI の文言は敬語で統一したいです」「日付の書式は ISO 8601 で統一したい」",
)

# Signs that a sentence states no rule at all, in the order they are tried, each with whether it reads the core
# (the sentence without its trailing punctuation) rather than the whole sentence.
_JA_REFUSALS: tuple[tuple[re.Pattern[str], bool], ...] = (
    (_JA_QUESTION_RE, True), (_JA_NEGATED_RE, False), (_JA_REPORTED_RE, False), (_JA_HYPOTHETICAL_RE, False),
    (_JA_HEDGE_RE, True), (_JA_ASSISTANT_RE, True),
)


def vetoes(sentence: str, core: str) -> frozenset[str]:
    """Kinds a Japanese sentence may not yield: questions, hedges, reports, one-offs, past tense."""
    if any(pattern.search(core if on_core else sentence) for pattern, on_core in _JA_REFUSALS):
        return EVERYTHING
    vetoed: set[str] = set()
    if _JA_THINK_RE.search(sentence):
        # 「〜の方がいいと思います」 is the ordinary way to state a preference
        vetoed |= EVERYTHING - {"preference"}
    if _JA_PAST_RE.search(core):
        vetoed |= {"instruction", "preference"}
    asked = _JA_REASON_TAIL_RE.sub("", sentence)  # (a reason given for it is not what is asked)
    if (_JA_PRODUCT_SUBJECT_RE.search(asked) or _JA_PRODUCT_ACT_RE.search(asked)) \
            and not _JA_KEEP_LEAD_RE.match(sentence):
        # how the product behaves: a feature asked for, unless the person asks for it to be remembered
        # (「覚えておいて：UI 上の日時は全部日本時間で表示すること」 is a standing rule of the project)
        vetoed |= {"instruction", "preference"}
    if _JA_CLARIFIED_RE.search(sentence):
        # 「私が言っているのは…ではなく…ということです」: what the person asked for made clear, not a fact or a rule
        vetoed |= {"instruction", "correction", "preference"}
    if _JA_SCREEN_RE.search(sentence) and not _JA_KEPT_RE.search(sentence):
        # the product's screen, its layout and motion: a feature asked for even with 必ず / 常に (「必ず崩れないように」
        # 「常に一定スピードで」 say how it must look), unless the person asks for it to be kept from now on
        vetoed |= {"instruction", "preference"}
    if _JA_ANSWER_RE.match(sentence) and not _JA_DURABLE_RE.search(sentence):
        # 「はい、削除してもいいです」「OK、テストは書かないで」: a yes to what the agent asked about the work at hand
        vetoed |= {"instruction", "preference"}
    return frozenset(vetoed)


# an answer that agrees with the agent opening the sentence (as 「可以，…」「好的，…」 do in Chinese); 「いや、」 disagrees
# and opens a correction or a rule of its own
_JA_ANSWER_RE = lazy(
    r"^[\s、]*(?:はい|うん|ええ|OK|ok|Ok|オッケー|おっけー|了解(?:です)?|りょうかい|大丈夫(?:です)?|それで(?:お願いします)?|"
    r"そうです(?:ね)?|いいよ|いいです(?:よ)?)[、,。！!\s]+"
)
# what makes a sentence stand past this turn whatever opens it
_JA_DURABLE_RE = lazy(r"今後|これから(?:は|も)|次回から|次から|以後|以降|毎回|いつも|常に|必ず|絶対|基本的に|原則|ずっと|覚えて")


_JA_KEEP_LEAD_RE = lazy(r"^[\s、]*(?:覚えて|" + _REMEMBER + r")[\s、,:：。!！]")
# 「私が言っているドラッグとは…」「言いたいのは…」: the person makes clear what they asked for
_JA_CLARIFIED_RE = lazy(r"(?:私|僕|俺|自分)が言って(?:い)?る|(?:私|僕|俺)の言(?:う|って(?:い)?る)|言いたい(?:の|こと)は|という意味で(?:す|は)")
# the product's screen: its layout, its motion and what breaks in it (with 必ず / 常に these still say how it must look)
# (「Authorization ヘッダー」 is HTTP's, named in Latin letters; 管理画面, the admin area, is a part of the code as often as a
# look: 「既存の管理画面は Options API のままで」)
_JA_SCREEN_RE = lazy(
    r"崩れ|レイアウト|スクロール|スライド|アニメーション|スピード|改行|余白|下線|ボタン|(?<!管理)画面|ページ|"
    r"(?<![A-Za-z0-9-])(?<![A-Za-z0-9-][ 　])ヘッダー|フッター|モーダル|"
    r"ホバー|クリック|タップ|スマホ|レスポンシブ|placeholder|プレースホルダー|divider|padding|margin|gap"
)
# what asks for it to stay past this turn whatever it names
_JA_KEPT_RE = lazy(r"今後|これから(?:は|も)|次回から|次から|以後|覚えて|" + _REMEMBER)

# 「ヘッダーは常に表示されるように」「ユーザーは必ずログインしてから使う仕様です」: a part of the product as the subject, or
# the product's spec (仕様), is a feature asked for, not a way of working
_JA_PRODUCT_SUBJECT_RE = lazy(
    r"^[\s、]*(?:(?:全ての|すべての|全部の|各|この|その|あの)\s*)?(?:ヘッダー|フッター|ボタン|メニュー|モーダル|ダイアログ|アプリ|"
    r"ユーザー|一覧|サイドバー|フォーム|ポップアップ|タブ"
    # how the product looks: 「色は青でお願いします」「デザインはシンプルな方がいい」「背景は白で」
    r"|色|カラー|配色|デザイン|フォント|文字色|文字サイズ|背景|背景色|レイアウト|余白|アイコン|ロゴ|見た目|画面|ページ|テーマ)\s*[はがも]"
    r"|仕様(?:です|だ|になって(?:い)?ます|にして)[。！!]*\s*$"
)


# a reason after the request: 「…もう要りません、エディタが保存時にかけるので。」
_JA_REASON_TAIL_RE = lazy(r"[、,][^、,。]*(?:ので|から|ため)[。！!\s]*$")
# 「常に最新のデータを表示するように」「ボタンを押したときに保存するように」「エラーメッセージを日本語にして」: what the
# product shows, or does on a user's click or load, is a feature asked for
_JA_PRODUCT_ACT_RE = lazy(
    r"表示(?:する|される|させる|して|し)|(?:クリック|タップ|押した|押す|読み込み|ロード|開いた|スクロール)(?:した)?(?:とき|時|際|場合)"
    # a user's act in the product: 「保存するときはバリデーションして」「アップロードする際はサイズをチェックして」
    r"|(?:保存|アップロード|ログイン|ログアウト|送信|受信|着信|入力|選択|遷移|ホバー|登録|購入)(?:する|した|される|された)?(?:とき|時|際|場合)"
    # 「…を追加できるように修正して」: the product changed so that it can do something; a bot's triggers and mentions
    r"|できるように(?:修正|変更|改修|実装|対応)|(?:BOT|Bot|bot|ボット)(?:の|が|は)|トリガー(?:して|しないで|する)"
    r"|(?:エラー)?メッセージ(?:を|は)[^。]{1,12}?に(?:して|する)"
)

CONNECTOR = r"(?:でも|ただ|ただし|それと|あと|なお|ちなみに|今後|これから|次回から|次から|普段は|基本的に)"


# What a stable fact names (a correction must hold one): a name in Latin letters or code, a path, a version, a word of
# the setup, a technical word in katakana; and what feedback on the output names instead: the screen and the figures
# of the task (「ボタンは右寄せではなく左寄せです」「合計は3000円です」)
_JA_FACT_ANCHOR_RE = lazy(
    r"[A-Za-z]{2,}|\d+\.\d+|/[\w.-]+|ポート|ブランチ|バージョン|データベース|スキーマ|シェル|環境|設定|ディレクトリ|フォルダ|パス|"
    r"型|キー|サーバ|サービス|リージョン|ホスト|ドメイン|テスト|ビルド|デプロイ|本番|ステージング|ローカル|ライブラリ|パッケージ|依存|"
    r"モジュール|リポジトリ|フレームワーク|言語|文字コード|タイムゾーン|ライセンス|デフォルト|コマンド|認証|"
    r"[\u30a1-\u30fa\u30fc]{4,}|意図的|わざと|あえて"
)
_JA_SCREEN_OR_FIGURE_RE = lazy(
    r"ボタン|画面|ページ|ヘッダー|フッター|サイドバー|メニュー|色|フォント|アイコン|余白|レイアウト|表示|右寄せ|左寄せ|合計|金額|円"
)


def stable_fact(claim: str) -> bool:
    """Whether a correction's claim names a stable fact of the project or the setup rather than the output at hand."""
    return _JA_FACT_ANCHOR_RE.search(claim) is not None and _JA_SCREEN_OR_FIGURE_RE.search(claim) is None


def has_claim(core: str) -> bool:
    """Whether Japanese words after a correction cue restate a fact (a copula, 「XではなくY」), not a request; a fact
    about one thing the person points at by its place (「そのボタンじゃなくて、上のボタンです」) is feedback on the work at hand."""
    if len(core) < 4 or _JA_CORRECTED_HERE_RE.search(core) or not stable_fact(core):
        return False
    has_contrast = re.search("ではなく|じゃなく|でなく", core)
    if _JA_REQUEST_END_RE.search(core) and not has_contrast:
        return False
    return bool(_JA_CLAIM_RE.search(core) or has_contrast)


# what a correction about the work at hand points at: 「上のボタン」「こっちのファイル」「これは」 (「その設定ファイルは YAML ではなく
# TOML です」 names a thing to state a fact of it)
_JA_CORRECTED_HERE_RE = lazy(r"(?:これ|それ|あれ)(?=[はをがもの])"
                             r"|(?<![以])(?:上|下|右|左|前|次)の(?!ルール|規約|方針)|こっち|そっち|あっち|こちら|そちら|さっき|先ほど")


STATED = r"覚え(?:て(?:おいて|ください|ね)|といて)|記憶して|今後|これから(?:は|も|ずっと)|次回から|今度から|忘れないで"
# one of these occurs wherever STATED matches (a word each of its branches needs)
STATED_CUES = r"覚え|記憶して|今後|これから|次回から|今度から|忘れないで"

HEADERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (lazy(r"今後|これから(?:は|も)|次回から"), "ja.instruction.kongo"),
    (lazy(r"(?:この|本|うちの)(?:プロジェクト|リポジトリ|リポ)(?:では|のルール)"),
     "ja.instruction.kono_project"),
    (lazy(r"覚え(?:て|といて)"), "ja.instruction.oboete"),
    (lazy(r"^[\s、]*必ず[\s:：]*$"), "ja.instruction.kanarazu"),
)
