"""Japanese marker rules, and the Japanese vetoes and claim check the engine applies."""

from __future__ import annotations

import re

from .rule import EVERYTHING, Guard, MarkerRule, TRAIL_RE
from .rule import I as _I

__all__ = ["HEADERS", "RULES", "STATED", "has_claim", "vetoes"]

_TRAIL_RE = TRAIL_RE

# ---------------------------------------------------------------------------- vetoes

# question marks, question endings, question words; 「教えて」 asks for information
_JA_QUESTION_RE = re.compile(
    r"[?？]|(?:ですか|ますか|でしょうか|"
    r"ませんか|かな|かね|っけ|(?<!と)(?<!なん)か)$"
    r"|どっち(?!でも)|どちら(?!でも)|なぜ|"
    r"なんで(?!も)|何で(?!も)|どうして(?!も)|"
    r"どうすれば|どうやって(?!も)|"
    r"どう(?:思|です|する|しよう|かな)|"
    r"どれ(?!でも|も)"
    r"|教えて(?:ください|ほしい|欲しい|もらえる)?$"
)
_JA_HEDGE_RE = re.compile(
    r"かもしれ|かも(?:ね|です|$)|たぶん|多分|"
    r"おそらく|恐らく|気がする|気がします|"
    r"ような気|ようです|みたい(?:です|だ|$)|"
    r"らしい|でしょう|だろう|かなぁ|"
    r"できれば|可能であれば|かも$"
)
# "I think": vetoes all but preferences (see _vetoed)
_JA_THINK_RE = re.compile(r"と思(?:う|い|っ)|と感じ")
_JA_ONE_OFF_RE = re.compile(
    r"今回|とりあえず|一旦|いったん|"
    r"今だけ|今日(?!の学び|学んだ)|暫定|"
    r"一時的|仮で|ひとまず|今は|"
    r"この(?:PR|タスク|ブランチ|コミット)(?:では|だけ)|"
    r"まだ|しばらく"
)
_JA_NEGATED_RE = re.compile(
    r"やっぱり?(?:いい|やめ|なし|大丈夫)|"
    r"気にしないで|忘れて(?:ください|$|。)|"
    r"取り消し|なしで|必ずしも|"
    r"いつも(?:ありがとう|お世話|助か)|"
    r"とは限らない|わけではない"
    # 「今後ともよろしくお願いします」 is a greeting
    r"|よろしく"
)
_JA_REPORTED_RE = re.compile(
    r"(?:と|って)言(?:って(?:い|た|ま)|われ)|"
    r"と書いて|によると|とのこと|"
    r"だそう(?:です|だ)|と聞いた|って聞いた"
)
_JA_HYPOTHETICAL_RE = re.compile(
    r"仮に|としたら|とすれば|もし.*(?:たら|なら).*(?:のに|けど)"
)
# past tense: a report of what happened, not a rule
_JA_PAST_RE = re.compile(
    r"(?:た|だ|でした|ました|だった)(?:よ|ね|けど|が|のに)?$"
)
_JA_ASSISTANT_RE = re.compile(
    # 気をつけます: the speaker's own promise, not a rule for the agent
    r"気をつけ(?:ます|る)|(?:いたします|致します|させて(?:いただ|頂)きます)(?:ね)?$"
    r"|^(?:承知|かしこまり)"
)

# copula / polite declaratives; requests (ください, して, お願いします) are not claims
_JA_CLAIM_RE = re.compile(
    r"ではなく|じゃなく|でなく|"
    r"(?:です|だ|である|ます|ません|はず|"
    r"べき|正しい|が正解|ですよ|だよ|"
    r"ですね|んです|のです|ている|てる|"
    r"でした|だった)(?:よ|ね)?$"
)
_JA_REQUEST_END_RE = re.compile(
    r"(?:お願いします|ください|下さい|"
    r"ませんか|ましょう|てくれ|して)(?:ね|よ)?$"
)
# 是 应该 應該 而是 才是 才对 才對 用的是 要用
# ----------------------------------------------------------------------------- rules

RULES: list[MarkerRule] = []


def _cjk(rule_id: str, kind: str, cue: str, pattern: str, claim: str = "none",
         guard: Guard | None = None, description: str = "") -> None:
    RULES.append(MarkerRule(rule_id, kind, "ja", cue, re.compile(pattern), claim, guard, description))


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
_JA_FAIL_NOT_RE = re.compile(
    r"ことがある|ことがあります|時々|"
    r"たまに|ときどき|まれに|稀に|"
    r"ランダムに|不定期|フレーキー|flaky",
    _I,
)


def _ja_fail_ok(sentence: str, m: re.Match[str]) -> bool:
    return not _JA_FAIL_NOT_RE.search(sentence)


# endings that make a sentence with a durable cue a rule rather than a description
_JA_DIRECTIVE_END_RE = re.compile(
    r"(?:ください|下さい|て|で|こと|ように|"
    r"べき(?:です|だ)?|ましょう|しよう|"
    r"お願い(?:します)?|ほしい(?:です)?|欲しい(?:です)?|"
    r"禁止(?:です)?|厳禁(?:です)?|NG(?:です)?|ダメ(?:です)?|"
    r"だめ(?:です)?|いけない|いけません|ならない|"
    r"なりません|ない|ません|ます|です|だ|"
    r"[うくぐすつぬふぶむる])(?:よ|ね|な|ぞ|よね)?$"
)
# strict set for いつも / 毎回, which also open relative clauses ("いつも使ってるコマンドを教えて")
_JA_STRICT_END_RE = re.compile(
    r"(?:ください|下さい|こと|ように(?:して)?|"
    r"べき(?:です|だ)?|お願い(?:します)?|"
    r"しないで|禁止(?:です)?|ましょう|"
    r"てほしい(?:です)?|て欲しい(?:です)?|てね)(?:よ|ね)?$"
)


# 「必ず失敗するテスト」: 必ず inside a relative clause describes the thing to build
_JA_RELATIVE_RE = re.compile(
    r"必ず(?:失敗|落ち|通|成功|動|エラーに|パス)"
    r"[\u3040-\u309f]{0,4}?(?:する|る|く|す|なる)(?=[\u30a0-\u30ff\u4e00-\u9fff])"
)


# こと / 禁止 / ダメ / NG / いけない / ならない: endings that forbid
_JA_PROHIBIT_END_RE = re.compile(
    r"(?:こと|禁止|厳禁|ダメ|だめ|NG|いけない|"
    r"いけません|ならない|なりません)(?:です)?(?:よ|ね)?$"
)


def _ja_directive(sentence: str, m: re.Match[str] | None = None) -> bool:
    return bool(_JA_DIRECTIVE_END_RE.search(_TRAIL_RE.sub("", sentence)))


def _ja_strict(sentence: str, m: re.Match[str] | None = None) -> bool:
    return bool(_JA_STRICT_END_RE.search(_TRAIL_RE.sub("", sentence)))


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
    r"[^。]{1,60}(?:です|だ|である|が正しい(?:です)?|"
    r"が正解(?:です)?|のはず(?:です)?|はずです|"
    r"ています|てます|ている|てる)(?:よ|ね)?[。!！\s]*$",
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
    description="「npmよりpnpmの方が好き」",
)
# 〜が好きです / 〜派です / 〜を好む
_cjk(
    "ja.preference.suki", "preference",
    "好き|好み|好む|派",
    r"(?:が|は|も)(?:大)?(?:好き|好み)(?:です|だ|なんです|なんだ)?(?:よ|ね)?[。!！\s]*$"
    r"|を好む|派(?:です|だ|なんです|なんだ)(?:よ|ね)?[。!！\s]*$",
    description="「型ヒントは明示的に書く方が好きです」「タブ派です」",
)

# instruction
_cjk(
    "ja.instruction.kanarazu", "instruction", "必ず",
    r"必ず(?!しも)", guard=lambda s, m: _ja_directive(s) and not _JA_RELATIVE_RE.search(s),
    description="「PRを出す前に必ずlintを通してください」",
)
_cjk(
    "ja.instruction.tsuneni", "instruction", "常に",
    r"常に", guard=_ja_directive,
    description="「常に型ヒントを付けて」",
)
_cjk(
    "ja.instruction.zettai", "instruction", "絶対",
    r"絶対(?:に)?(?!パス|値|参照|URL|位置|座標|的|指定|"
    r"インポート|import|時間|温度|無理|だめ)",
    guard=lambda s, m: _ja_strict(s) or bool(_JA_PROHIBIT_END_RE.search(_TRAIL_RE.sub("", s))),
    description="「絶対にmainへ直接pushしないで」(not 絶対パス)",
)
_cjk(
    "ja.instruction.itsumo", "instruction", "いつも",
    r"いつも(?!通り|どおり|の|ありがとう|お世話|助か)",
    guard=_ja_strict,
    description="「いつも日本語で返答してください」",
)
_cjk(
    "ja.instruction.maikai", "instruction", "毎回",
    r"毎回", guard=_ja_strict,
    description="「毎回テストを実行してからコミットしてください」",
)
# 今後 / これからは / 次回から / 次から / 今度から
_cjk(
    "ja.instruction.kongo", "instruction",
    "今後|これから|次回|次から|今度から",
    r"今後(?:は|も|とも|ずっと|[、,\s])|これから(?:は|も|ずっと)|"
    r"次回(?:から|以降)|次から(?!次)|今度から",
    guard=_ja_directive,
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
_JA_OBOETE_STRIP_RE = re.compile(
    r"(?:これ|このこと|以下)?(?:を)?(?:覚え(?:て(?:おいて|ください|ね)|といて)|"
    r"記憶して(?:おいて|ください))(?:ください|ほしい|欲しい|ね)?[:：]?"
)


def _oboete_has_content(sentence: str, m: re.Match[str]) -> bool:
    """「覚えておいて」 alone keeps nothing: there must be something to remember."""
    return len(_JA_OBOETE_STRIP_RE.sub("", _TRAIL_RE.sub("", sentence))) >= 6


_cjk(
    "ja.instruction.oboete", "instruction", "覚え|記憶",
    r"覚え(?:て(?:おいて|ください|ね)|といて)|記憶して(?:おいて|ください)",
    guard=_oboete_has_content,
    description="「mainは保護ブランチだと覚えておいて」",
)
# 〜は禁止です
_cjk(
    "ja.instruction.kinshi", "instruction", "禁止|厳禁",
    r"(?:は|を|の)(?:禁止|厳禁)(?:です|だ|とする|とします|にします|でお願いします)?(?:よ|ね)?[。!！\s]*$",
    description="「mainへの直接pushは禁止です」",
)


def vetoes(sentence: str, core: str) -> frozenset[str]:
    """Kinds a Japanese sentence may not yield: questions, hedges, reports, one-offs, past tense."""
    if _JA_QUESTION_RE.search(core) or _JA_NEGATED_RE.search(sentence):
        return EVERYTHING
    if _JA_REPORTED_RE.search(sentence) or _JA_HYPOTHETICAL_RE.search(sentence):
        return EVERYTHING
    if _JA_HEDGE_RE.search(core) or _JA_ASSISTANT_RE.search(core):
        return EVERYTHING
    vetoed: set[str] = set()
    if _JA_THINK_RE.search(sentence):
        # 「〜の方がいいと思います」 is the ordinary way to state a preference
        vetoed |= EVERYTHING - {"preference"}
    if _JA_ONE_OFF_RE.search(sentence):
        vetoed |= {"instruction", "preference", "correction"}
    if _JA_PAST_RE.search(core):
        vetoed |= {"instruction", "preference"}
    return frozenset(vetoed)


def has_claim(core: str) -> bool:
    """Whether Japanese words after a correction cue restate a fact (a copula, 「XではなくY」), not a request."""
    if len(core) < 4:
        return False
    has_contrast = re.search("ではなく|じゃなく|でなく", core)
    if _JA_REQUEST_END_RE.search(core) and not has_contrast:
        return False
    return bool(_JA_CLAIM_RE.search(core) or has_contrast)


STATED = r"覚え(?:て(?:おいて|ください|ね)|といて)|記憶して|今後|これから(?:は|も|ずっと)|次回から|今度から|忘れないで"

HEADERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"今後|これから(?:は|も)|次回から"), "ja.instruction.kongo"),
    (re.compile(r"(?:この|本|うちの)(?:プロジェクト|リポジトリ|リポ)(?:では|のルール)"),
     "ja.instruction.kono_project"),
    (re.compile(r"覚え(?:て|といて)"), "ja.instruction.oboete"),
    (re.compile(r"^[\s、]*必ず[\s:：]*$"), "ja.instruction.kanarazu"),
)
