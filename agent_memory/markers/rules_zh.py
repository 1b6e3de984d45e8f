"""Chinese marker rules (simplified and traditional), and the Chinese vetoes and claim check."""

from __future__ import annotations

import re

from .rule import EVERYTHING, Guard, MarkerRule, Reverser, lazy, tool_named

__all__ = ["CONNECTOR", "HEADERS", "RULES", "STATED", "STATED_CUES", "has_claim", "one_off", "reply_to_user_start", "vetoes"]

# ---------------------------------------------------------------------------- vetoes

# 么 as a question's last word, as 吗 is (「一定要输入参数么」); not 什么 / 那么 / 这么 / 怎么 / 多么 / 要么
_ZH_ME_ASKS = r"(?<![什那这這怎多要])[么麼]"
_ZH_QUESTION_RE = lazy(
    r"[?？]|[吗嗎呢]$|" + _ZH_ME_ASKS + r"$|是不是|要不要|能不能|"
    r"可不可以|为什么|為什麼|怎么|怎麼|哪个|哪個|有没有|有沒有|是如何|是怎样|是怎樣"
)
_ZH_HEDGE_RE = lazy(
    r"也许|也許|可能|或许|或許|大概|"
    r"我觉得|我覺得|好像|应该吧|應該吧"
    # 「建议统一使用…」: a suggestion for the work at hand, no rule laid down (「最好…」 often lays one down: 「最好用 pnpm」)
    r"|建议|建議"
)
ONE_OFF_RE = lazy(
    r"这次|這次|暂时|暫時|先这样|先這樣|"
    r"今天|临时|臨時|目前|现在(?!开始|開始|起)|現在(?!开始|開始|起)|"
    # 「你先plan」: what comes first in this piece of work
    r"(?:你|您|咱们|咱們|我们|我們)先|首先"
    # 「现修正…，再…」: 现 opening a request is "now", the step the work at hand takes next
    r"|^[\s，,]*现(?=修|改|做|把|删|刪|加|跑|重|处理|處理|检查|檢查)"
)
_ZH_NEGATED_RE = lazy(r"算了|不用了|没事|沒事")
_ZH_REPORTED_RE = lazy(
    r"[他她]说|[他她]說|据说|據說|听说|聽說|"
    r"文档说|文檔說|你(?:之前|刚才|剛才)?(?:说|說|提到)(?:过|過)?(?!的)"
)
# 假如…会: a hypothetical
_ZH_HYPOTHETICAL_RE = lazy(r"(?:假如|假設|假设|要是).*[会會]")
# a notice pasted from a platform or a tool: 「平台规则提醒：…」「系统通知：…」
_ZH_NOTICE_RE = lazy(r"^[^：:，,。]{0,12}(?:提醒|通知|公告|提示|警告)[：:]")
# the person explaining their goal or reasoning for the work at hand: 「我的需求是…」「因为如果一定要重 build …」
_ZH_TYPED_RULE_CHARS = 100  # a longer Chinese sentence with 必须 / 都要 / 不要 is a requirement spec, not a rule typed in passing
_ZH_REASONING_RE = lazy(r"我的(?:需求|逻辑|邏輯|想法|目标|目標)|需求是|逻辑是|邏輯是|我(?:就是)?要把|因为|因為|如果|要是|假如|万一|萬一|你要能"
                        # 「要求使用起来不要有任何卡顿」: a requirement of the thing to build; 「若…不行，再试…」: a condition
                        r"|^[\s，,]*要求|(?:^|[，,。\s])若(?!干)")
_ZH_CLAIM_RE = lazy(
    r"是|应该|應該|才对|才對|要用|用的"
)

# ----------------------------------------------------------------------------- rules

RULES: list[MarkerRule] = []


def _cjk(rule_id: str, kind: str, cue: str, pattern: str, claim: str = "none",
         guard: Guard | None = None, description: str = "", reverses: Reverser | None = None) -> None:
    RULES.append(MarkerRule(rule_id, kind, "zh", cue, pattern, claim, guard, description, reverses))

# correction: 不对 / 错了 / 不是这样 … + 是/应该 ; 不是X，而是Y
_cjk(
    "zh.correction.budui", "correction",
    "不对|不對|错了|錯了|不是",
    r"^[\s，,]*(?:不对|不對|错了|錯了|不是这样|不是這樣|"
    r"你错了|你錯了|搞错了|搞錯了)[，,。!！\s]*",
    claim="after_or_next",
    description="「不对，端口是5432」",
)
# 「不是A，是B」「不是左边，是右边」「不是 pitch，是 yaw」: which one the person meant, said bare (no subject, no 而是), or
# named by its place or its label, corrects the reading of a request at hand, not a fact of the project
_ZH_WHICH_ONE_RE = lazy(
    r"^[\s，,]*(?:不是|是)[^，。,]{1,20}[，,]\s*(?:不是|是)(?!.*而是)"
    r"|(?:左|右|上|下|前|后|後)(?:边|邊|面|侧|側)|(?:^|[^A-Za-z0-9])[A-Za-z0-9](?:[，,\s]|$)|第[一二三四五1-9]个"
)
# 不是X，而是Y / 是X，不是Y
_cjk(
    "zh.correction.bushi_ershi", "correction", "不是",
    r"不是[^，。,]{1,20}[，,]?\s*(?:而是|是)[^，。,]{1,30}"
    r"|是[^，。,]{1,30}[，,]\s*不是[^，。,]{1,30}",
    # 「这是平台的提醒信息，不是售后阶段」「我要的不是这种死框架」 correct a reading of the thing at hand
    # 「不是文案的问题，是宽度」「根因不是数量」: where the bug at hand lies
    guard=lambda s, m: _zh_standing(s, m) and not _ZH_REASONING_RE.search(s) and not re.search(r"[：:]", s)
    and not re.search(r"问题|問題|原因|根因|报错|報錯|错误|錯誤", s) and not _ZH_WHICH_ONE_RE.search(s) and stable_fact(s),
    description="「不是Jest，而是Vitest」",
)
_cjk(
    "zh.failure.meici", "failure",
    "每次|总是|總是|一直|始终|始終|必现|必現|稳定|穩定|百分之百",
    r"(?:每次(?:都)?|总是|總是|一直|始终|始終|百分之百|稳定|穩定)"
    r"[^，。？]{0,20}?(?:失败|失敗|报错|報錯|崩溃|崩潰|挂掉|掛掉|"
    r"挂了|掛了|超时|超時|卡住|复现|復現)|必现|必現",
    description="「每次都失败」「必现」",
)
_cjk(
    "zh.lesson.jiaoxun", "lesson",
    "教训|教訓|踩坑|备忘|備忘|学到|學到",
    r"(?:经验|經驗)?(?:教训|教訓)(?:是|[:：])\s*|(?:踩坑记录|踩坑|备忘|備忘)[:：]\s*"
    r"|今天(?:学到|學到)(?:了)?[:：，,]?\s*",
    claim="after_or_next",
    description="「教训：...」「踩坑：...」",
)
_cjk(
    "zh.preference.xihuan", "preference",
    "喜欢|喜歡|偏好|倾向|傾向|宁愿|寧願|宁可|寧可",
    r"(?:我|我们|我們)(?:更|比较|比較|还是|還是)(?:喜欢|喜歡|偏好|倾向于?|傾向於?)"
    r"|(?:我|我们|我們)?(?:宁愿|寧願|宁可|寧可)|(?:我|我们|我們)偏好",
    description="「我更喜欢用pnpm」",
)
# 「优先使用 uv」「优先用官方文档」: a standing choice of tool or source (not 「优先修复登录bug」, the task's order)
_cjk(
    "zh.preference.youxian", "preference",
    "优先|優先|首选|首選",
    r"^[\s，,]*(?:请|請|尽量|盡量)?(?:优先|優先|首选|首選)(?:使用|用|采用|採用|选用|選用|选择|選擇|参考|參考)[^，,。？?！!]{1,40}",
    guard=lambda s, m: _zh_standing(s, m) and not re.search(r"吗|嗎|一下|这次|這次", s),
    description="「优先使用 uv 管理依赖」「优先参考官方文档」",
)
# the product's own parts: a sentence about them asks for a feature
_ZH_PRODUCT_RE = lazy(r"界面|页面|頁面|按钮|按鈕|弹窗|彈窗|用户|用戶")
_cjk(
    "zh.instruction.yihou", "instruction",
    "以后|以後|今后|今後|现在开始|現在開始|今以后|今以後|往后|往後|之后|之後",
    r"(?:以后|以後|今后|今後|往后|往後)[，,\s]*(?:都|请|請|一律|统一|統一|要|不要|别|別|必须|必須|记得|記得|务必|務必|一定|禁止|不准)"
    r"|(?:从|從)(?:现在|現在|今天)开始|(?:从|從)(?:现在|現在|今天)開始|(?:从|從)今(?:以后|以後)"
    # 以后 opening the sentence: 「以后回答简短一点」 (not 以后再说 "later", 以后会 "will", 以后的 "later ...")
    r"|^[\s，,]*(?:那|好|好的|ok|OK)?[，,\s]*(?:以后|以後|今后|今後|往后|往後)[，,\s]*"
    r"(?!再|会|會|可能|的|如果|要是|就|才|还|還|也许|也許|有|[，,。！!？?]|$)\S"
    # 之后 opening the sentence, before a moment that recurs or a standing word: 「之后分析日志的时候从…看」「之后都用…」
    # (not 「之后把结果发给我」, the next step of the work at hand)
    r"|^[\s，,]*(?:之后|之後)[，,\s]*(?=[^，,。？?！!]{0,20}(?:的时候|的時候)|都|一律|统一|統一|不要|别|別|不用|不需要)\S",
    # 「以后遇到长视频，界面实时显示剩余时间」 asks the product for a feature
    # 「以后这个功能要加上登录」 plans one thing of the work at hand
    guard=lambda s, m: not re.search(r"就像|像是|好像|看起来|看起來|其实|其實|(?:以后|以後|今后|今後|往后|往後|之后|之後)[，,\s]*(?:这个|這個|那个|那個)", s)
    and not _ZH_PRODUCT_RE.search(s),
    description="「以后都用pnpm」「以后回答简短一点」",
)
_cjk(
    "zh.instruction.yongyuan", "instruction",
    "永远|永遠|绝对|絕對|千万|千萬|务必|務必|始终|始終|总是|總是|每次都要|一律",
    r"(?:永远|永遠|绝对|絕對|千万|千萬)(?:不要|别|別|不能|不准|不可以|要)"
    r"|(?:永远|永遠)(?:都)?(?:用|使用|以|写|寫|回覆|回复|回答|保持|先|把|在|跑|执行|執行)"
    r"|(?:务必|務必|始终|始終|总是|總是|每次都要|一律)(?:要|用|使用|先|把|在|写|寫|跑|执行|執行)",
    # 「我总是在重复消耗额度」「它总是在改配置」: what someone keeps doing, told, not asked for (总是在 is its progressive)
    guard=lambda s, m: not _ZH_REASONING_RE.search(s) and len(s) <= _ZH_TYPED_RULE_CHARS
    and not re.search(r"(?:我|我们|我們|它|他|她|你)(?:也|还|還)?(?:总是|總是|始终|始終)在", s),
    description="「永远不要直接推到main」",
)
_cjk(
    "zh.instruction.jizhu", "instruction", "记住|記住",
    # (「AI 会记住」「它能记住」 say what something will or can do, no one is asked to keep anything)
    r"(?<![会會能没沒])(?:请|請)?(?:记住|記住)[:：，,]?",
    guard=lambda s, m: len(re.sub(r"(?:请|請)?(?:记住|記住)|[:：，,。\s]", "", s)) >= 5,
    description="「记住：测试用pytest」",
)

# standing prohibitions and requirements: a generic object, no pointing word (这个, 那里, 它), and not
# a task request (帮我 …) or a for-now (先不要 "don't yet")
_ZH_HERE_RE = lazy(
    r"这|這|那|它|上面|下面|以上|上述|刚才|剛才|帮我|幫我|帮忙|幫忙|先不|先别|先別|还没|還沒|忘|一下|看看|试试|試試"
)
_ZH_LEAD = r"(?:^|[，,；;]\s*)(?:请|請|另外|还有|還有|注意|记得|記得|以后|以後|今后|今後)?[，,\s]*"


# a request for a piece of work: it opens on what to build or fix, or bounds it against "the other" parts
_ZH_TASK_RE = lazy(
    # (after where it happens: 「在本项目中新建route获取…，不要访问外部网络」)
    # (or offered as a way to do it: 「可以在 X 中添加检测逻辑，…，不要入库」)
    r"^[\s，,]*(?:并|並|然后|然後|再|接着|接著|接下来|接下來)?[，,\s]*(?:(?:你|您)?(?:也)?可以)?[，,\s]*"
    r"(?:在[^，,。]{1,24}?(?:中|里|裡|内|內|下))?[，,\s]*"
    r"(?:重构|重構|实现|實現|修复|修復|添加|新增|创建|創建|新建|"
    r"写一个|寫一個|做一个|做一個|改一下|优化|優化|完成|开发|開發|加一个|加一個)|其他|其它|低级错误|低級錯誤"
)
_ZH_HABIT_RE = lazy(
    # (重复添加 "add twice" is a bug in the work at hand; 重复确认 "keep asking" a habit)
    r"(?:重复|重複|反复|反覆)(?:确认|確認|询问|詢問|问|問|提问|提問|解释|解釋|说明|說明|总结|總結|道歉)|每次|总是|總是|老是|一直|随便|隨便|随意|隨意|擅自|私自|主动|主動|自作主张|自作主張|任何|所有|一律|"
    r"永远|永遠|再也|动不动|動不動|直接(?:推|push|提交|合并|合併)|提交|commit|push|推送|merge|rebase|合并|合併|硬编码|硬編碼|"
    r"写死|寫死|代码里|代碼裡|密钥|密鑰|密码|密碼|token|secret|mock|模拟数据|模擬數據|都|"
    # a class of the work's own things: 「不要引入新的依赖」「不要使用全局变量」「不要在代码里写中文注释」
    r"依赖|依賴|第三方|全局变量|全局變數|注释|註釋|emoji|表情|console\.log|print|any\b|类型断言|類型斷言|这类|這類|此类|此類|"
    # a condition that recurs, or one tool set against another: 「能用 const 就不要用 let」「不要用 var，用 let」
    r"手动|手動|手工|(?:不要|别|別)(?:用|使用)\s*[A-Za-z`=<>]|时候|時候|之前|以前|就不要|就别|就別|(?:不要|别|別)(?:用|使用)[^，,。]{1,20}[，,]\s*(?:要|请|請)?(?:用|改用|使用)",
    re.IGNORECASE,
)


# A bare 不要 / 别 is as often a hold on the work at hand (「不要改动代码」「不要做后续的推理模块」) or a plea (「不要搞砸了」)
# as a rule: it is heard when it names how the agent works (the habits above), a tool or a name in Latin letters, or a
# place that is never to be touched; the firm words 禁止 / 不得 / 不准 / 不许 stand on their own.
_ZH_WRITTEN_BAN_RE = lazy(r"禁止|不得|不准|不许|不許")
_ZH_DONT_ANCHOR_RE = lazy(r"[A-Za-z][\w.-]*|生产|生產|线上|線上|正式环境|正式環境|主分支")
# 「不要修改chu.md文件」: one named file kept out of the change at hand (a name in Latin letters is no practice here)
_ZH_HOLD_FILE_RE = lazy(r"(?:不要|别|別)(?:去)?(?:修改|改动|改動|改|动|動|删除|刪除|删|覆盖|覆蓋|重写|重寫)\s*[\w./-]+\.[A-Za-z]{1,5}(?![A-Za-z])")
# 「具体名字不要写到skill.md中」: what goes into the one file being written now (a secret kept out of a file is a habit's,
# 「不要把密钥写进 config.py」)
_ZH_INTO_FILE_RE = lazy(r"(?:不要|别|別)(?:把[^，,。]{0,12})?(?:写到|寫到|写进|寫進|写入|寫入|放到|放进|放進|加到|加进|加進)\s*"
                        r"[\w./-]+\.[A-Za-z]{1,5}(?![A-Za-z])")

# 「不得随意变动」「不要自动偏移」: the subject is a thing that moves or changes by itself, not the agent at work
_ZH_THING_STAYS_RE = lazy(r"(?:不要|不得|不能|别|別)(?:随意|隨意|随便|隨便|自动|自動|再)?(?:变动|變動|变化|變化|移动|移動|跳动|跳動|抖动|抖動|"
                          r"变形|變形|消失|偏移|错位|錯位|闪烁|閃爍)")


_ZH_KIND_BY_EXAMPLE_RE = lazy(r"(?<=[A-Za-z0-9_])\s*(?:这种|這種)")


def _zh_standing(sentence: str, m: re.Match[str]) -> bool:
    # (「这类段落」 "paragraphs of this kind" is a class of things, nothing at hand; so is 「wait这种命令」, a kind named by
    # an example in Latin letters)
    if "这种" in sentence or "這種" in sentence:
        sentence = _ZH_KIND_BY_EXAMPLE_RE.sub("", sentence)
    return not _ZH_HERE_RE.search(sentence.replace("这类", "").replace("這類", ""))


def _zh_clause_standing(sentence: str, m: re.Match[str]) -> bool:
    """As ``_zh_standing`` for the rule's own clause: a reason after a comma may point ("这是内部工具")."""
    return not _ZH_HERE_RE.search(re.split(r"[，,；;]", sentence[m.end() :], 1)[0] + m.group(0))


_cjk(
    "zh.instruction.buyao", "instruction",
    "不要|别|別|不准|不許|不许|禁止|不得|擅自|私自",
    r"(?:" + _ZH_LEAD + r"|^[\s，,]*[^，,。？?！!不别別禁]{1,15}?)"
    # (别 inside a word is no "don't": 区别, 识别, 分別, 级别, 类别, 特别, 个别; nor 别人 / 别的 "other")
    r"(?:不要|(?<![区區识識分级級类類特个個告差性辨鉴鑑派离離])(?:别|別)(?![人的处處])|不准(?![确確])|不許|不许|禁止"
    r"|不得(?![不了已])"  # 不得 "must not"; 不得不 "have to", 不得了 "terribly", 不得已 "no choice"
    # 「不可以擅自重装」: may not, of acting on one's own, is a rule on the agent's habit
    r"|(?:不可以|不能|不可)(?=擅自|私自))"
    r"(?!了|管|担心|擔心|急|客气|客氣|紧张|緊張|再)[^。？?！!]{2,40}",
    # 不要 inside a request for a piece of work bounds that work (「重构爬虫，不要出现低级错误」「不要添加其他组件」), unless
    # a habit or a whole class of things makes it a rule
    # 「其他图元应当保持稳定，不得随意变动」: what must not move or change is a thing of the product, a behaviour asked for
    guard=lambda s, m: _zh_standing(s, m) and len(s) <= _ZH_TYPED_RULE_CHARS and not _ZH_HOLD_FILE_RE.search(s)
    and not _ZH_THING_STAYS_RE.search(s)
    and not (_ZH_INTO_FILE_RE.search(s) and not _ZH_HABIT_RE.search(s))
    and not _ZH_REASONING_RE.search(s)
    and (not _ZH_TASK_RE.search(s) or bool(_ZH_HABIT_RE.search(s)))
    and (bool(_ZH_WRITTEN_BAN_RE.search(m.group(0))) or bool(_ZH_HABIT_RE.search(s)) or bool(_ZH_DONT_ANCHOR_RE.search(s))),
    description="「不要重复确认，直接改就行」「不要擅自提交代码」",
)
_cjk(
    "zh.instruction.bixu", "instruction",
    "必须|必須|一定要|都要|都得|一律|至少",
    _ZH_LEAD + r"(?:[^，,。？?]{0,20}?(?:必须|必須|一定要|都要|都得|一律)"
    r"|(?:每个|每個|每条|每條|每次)[^，,。？?]{1,12}?至少(?:要|得|需要))(?!是|在)[^。？?！!]{2,40}",
    # 「你必须告诉我原因」 asks for something now
    # 「我一定要给你确定规则」「所以我必须保证…」: what the speaker has to do, not a rule for the agent
    # 「每个都是独立的、必须下载的」: 是…的、 lists what the things at hand are, 必须…的 among them
    guard=lambda s, m: _zh_standing(s, m) and not re.search(r"你(?:们|們)?(?:必须|必須|一定要)|[：:]$|我(?!们|們)[^，,。]{0,4}(?:必须|必須|一定要|都要|都得)"
                                                        r"|是[^，,。]{1,20}的、", s)
    and not _ZH_REASONING_RE.search(s) and len(s) <= _ZH_TYPED_RULE_CHARS,
    description="「提交前必须跑测试」「所有接口都要有类型注解」",
)
_cjk(
    "zh.instruction.zhiqian", "instruction",
    "之前|以前|前",
    # (前 inside 当前 / 目前 "current", 提前 "ahead", 眼前 / 面前 "in front" is no "before")
    r"^[^，,。？?]{0,4}(?<!我)(?<!你)(?<!他)(?<!她)[^，,。？?之以]{1,20}?(?:之前|以前|(?<![当當目提眼面])前)[，,\s]*(?:都)?"
    r"(?:需要|要|必须|必須|请|請|先|得|一定要)[^。？?！!]{2,40}",
    guard=lambda s, m: _zh_standing(s, m) and not re.match(r"\s*(?:之前|以前|我之前|你之前)", s),
    description="「使用大量工具之前需要先经过我同意」「提交前先跑测试」",
)

_ZH_ONE_PIECE_RE = lazy(
    r"一[封份个個篇段张張下]|这|這|下面|列出|总结|總結|解释|解釋|翻译|翻譯|生成|整理|说明|說明|介绍|介紹|分析|讲|講"
)
_cjk(
    "zh.instruction.yuyan", "instruction",
    "中文|英文|英语|英語|日文|日语|日語",
    r"^[\s，,]*(?:请|請)?(?:[^，,。？?]{0,10}?)(?:都|一律|统一|統一)?(?:用|使用|以)(?:中文|英文|英语|英語|繁體中文|繁体中文|"
    r"简体中文|簡體中文|日文|日语|日語)(?:来|來)?(?:回答|回复|回覆|答复|答覆|写|寫|交流|沟通|溝通|注释|註釋|命名|描述)?"
    # a longer list of what is written in the language, and nothing after it: 「面向用户的输出、代码注释和文档使用简体中文。」
    r"|^[\s，,]*[^，,。？?把]{11,40}?(?:都|一律|统一|統一)?(?:使用|用)(?:中文|英文|简体中文|簡體中文|繁體中文|繁体中文)(?=[。！!]?$)"
    # the language alone before the act, the whole sentence: 「中文对话」「中文回答」
    r"|^[\s，,]*(?:请|請)?(?:中文|简体中文|簡體中文|繁體中文|繁体中文|英文)(?:对话|對話|回答|回复|回覆|交流|沟通|溝通)(?:我)?(?=[。！!]?$)",
    # 「用英文写一封邮件」「用中文列出修改点」: one piece of work asked for in a language, not the language of all work
    # 「以英文逗号分隔」「用英文字母」: English punctuation or letters in a format, not the language of the work
    # (「结果用英语回」「却用英文回复」: what the agent did, reported, not the language asked for)
    guard=lambda s, m: _zh_standing(s, m) and not _ZH_ONE_PIECE_RE.search(s[m.end():])
    and not re.match(r"[\s，,]*(?:结果|結果|却|卻|竟然|居然)", m.group(0))
    and not re.search(r"一[封份篇段]|这段|這段", m.group(0)) and not re.search(r"把|改成|改为|改為", s)
    and not re.match(r"\s*(?:的)?(?:逗号|逗號|句号|句號|冒号|冒號|分号|分號|引号|引號|括号|括號|标点|標點|字母|字符|单词|單詞|空格|半角|状态|狀態|输入法|輸入法)",
                     s[m.end():]),
    description="「请用中文回答」「代码注释用英文写」",
)
_cjk(
    "zh.instruction.suoyou", "instruction",
    "所有|全部|一切",
    r"(?:所有|全部|一切)[^，,。？?]{0,12}?(?:都|一律)(?:要|用|使用|写|寫|得|必须|必須|放在|走)[^。？?！!]{1,40}",
    guard=lambda s, m: _zh_standing(s, m) and not _ZH_REASONING_RE.search(s) and len(s) <= _ZH_TYPED_RULE_CHARS,
    description="「所有的提交信息都用英文」",
)

_ZH_STYLE_SUBJECT = (
    r"(?:缩进|縮排|縮進|命名|变量名|變數名|变量命名|函数名|函數名|类名|類名|注释|註解|註釋|提交信息|提交訊息|commit\s*message|"
    r"分支名|文件名|檔名|引号|引號|换行|換行|日志|日誌|测试|測試|配置|文档|文件|依赖|依賴)"
)
_cjk(
    "zh.instruction.fengge", "instruction",
    "缩进|縮排|縮進|命名|变量|變數|函数|函數|类名|類名|注释|註解|註釋|提交|分支|文件|檔名|引号|引號|换行|換行|日志|日誌|测试|測試|配置|文档|依赖|依賴",
    r"^[\s，,]*(?:关于[^：:]{1,8}[：:]\s*)?(?:[\w.`-]{1,20}\s*)?" + _ZH_STYLE_SUBJECT + r"[^，,。？?]{0,6}?(?:统一|統一|一律|都|要)?"
    # (用户 "user", 用例 "test case": 「测试用户」「测试用例」 name a thing, no tool chosen)
    r"(?:用(?![户戶例])|使用(?![户戶])|采用|採用|放在|放到|写在|寫在|遵循|遵守)[^。？?！!]{1,30}",
    guard=lambda s, m: _zh_standing(s, m) and not _ZH_TASK_RE.search(s) and not re.search(
        r"了[。！!]?$|失败|失敗|报错|報錯|没有|沒有|查|看一下|看看|找|搜|打开|打開|已经|已經", s),
    description="「缩进用两个空格」「测试统一放在 tests 目录下」",
)
_cjk(
    "zh.instruction.women_yong", "instruction",
    "我们用|我們用|我们使用|我們使用|我们采用|我們採用|我们都用|我們都用|我用|我是用|我一直用|我都用|我平时用|我平時用|我使用|我是使用",
    r"^[\s，,]*(?:(?:我们|我們)(?:都|一直|统一|統一)?(?:用|使用|采用|採用)\s*[\w.+#-]+\s*(?:来|來)?"
    r"(?:管理|做|写|寫|跑|部署|构建|構建|测试|測試|打包|格式化|检查|檢查)"
    # the person's own tool for a whole class of things, named in Latin letters: 「我是用uv管理python包」
    r"|我(?:是|一直|都|平时|平時)?(?:用|使用)\s*[A-Za-z][\w.+#-]*\s*(?:来|來)?(?:管理|部署|打包|格式化))[^。？?！!]{0,20}",
    # (the person's own tool: not one tried on this piece of work, 「我用这个脚本部署一下」)
    guard=lambda s, m: _zh_standing(s, m) and "了" not in s and (
        re.match(r"[\s，,]*我[们們]", m.group(0)) is not None or not re.search(r"一下|试|試|这个|這個|那个|那個", s)),
    description="「我们用 pnpm 管理依赖」「我是用uv管理python包」",
)
_cjk(
    "zh.preference.jianduan", "preference",
    "简短|簡短|简洁|簡潔|精简|精簡|详细|詳細|啰嗦|囉嗦",
    r"^[\s，,]*(?:回复|回覆|回答|答复|答覆|解释|解釋)(?:请|請|要|都)?(?:尽量|盡量)?(?:简短|簡短|简洁|簡潔|精简|精簡|详细|詳細)"
    r"|^[\s，,]*(?:请|請)?(?:简短|簡短|简洁|簡潔)(?:地|一点|一點)?(?:回答|回复|回覆)|不要(?:太)?(?:啰嗦|囉嗦)",
    guard=_zh_standing,
    description="「回复请简短」",
)

# the moment a rule recurs on must be one of the agent's work (「写代码时」「提交的时候」「使用大量tools时」); 「数据为空时…」
# 「加载失败时…」 say how the product behaves
_ZH_WORK_MOMENT_RE = lazy(
    r"写|寫|改|提交|commit|push|推送|合并|合併|merge|部署|发布|發布|上线|上線|新增|添加|创建|創建|修改|修复|修復|重构|重構|测试|測試|"
    r"构建|構建|安装|安裝|升级|升級|引入|回答|回复|回覆|解释|解釋|调试|調試|工具|tools?|命令|代码|代碼|接口|依赖|依賴|分支|PR|开发|開發|"
    r"实现|實現|运行|運行|执行|執行|review|审查|審查|使用",
    re.IGNORECASE,
)

_cjk(
    "zh.instruction.shi", "instruction",
    "时|時|时候|時候",
    r"^[\s，,]*(?<!有)(?<!那)(?<!这)(?<!到)[^，,。？?！!]{2,20}?(?<!有)(?<!那)(?<!这)(?<!到)(?<!空)(?:时|時|的时候|的時候)[，,\s]*"
    r"(?:请|請|要|都要|需要|必须|必須|一定要|记得|記得|先|都|不要|别|別)[^。？?！!]{2,40}",
    guard=lambda s, m: _zh_standing(s, m) and not re.search(
        r"有时|有時|那时|那時|这时|這時|到时|到時|有空|方便|空闲|空閒|了[。！!]?$|报错|報錯|失败|失敗", s)
    and _ZH_WORK_MOMENT_RE.search(re.split(r"时|時", s, 1)[0]) is not None,
    description="「写代码时请加上类型注解」",
)


# permissions: 「密钥直接写在 config.py 里就行」「CI 红了也可以 merge」
_cjk(
    "zh.instruction.jiuxing", "instruction",
    "就行|就可以|就好|也可以|也行|没问题|沒問題",
    r"(?:^|[，,]\s*)[^，,。？?]{0,20}?(?:(?:直接|都|统一|統一|一律)[^，,。？?]{1,24}?(?:就行|就可以|就好)|也可以|也行|"
    # (「用 npm 没问题」 permits a tool; 「spec没问题」 approves the work at hand)
    r"(?:用|使用|跑|装|裝|提交|推)\s*[A-Za-z`][\w.`-]*\s*(?:没问题|沒問題))",
    # 「你也可以有更好的思路」「也可以参考以下信息」: an option offered for the work at hand, no permission that stands
    guard=lambda s, m: _zh_clause_standing(s, m) and not re.search(r"吗|嗎|么|麼|一下|改就行|就行了吧", s)
    and not re.search(r"(?:你|您)(?:们|們)?也可以|也可以(?:参考|參考|告诉|告訴|联系|聯系|聯繫)", s)
    # 「或者先在宿主机搜进程，再杀掉也可以的」: 或者 offers another way for the work at hand
    and not re.match(r"[\s，,]*或者", s),
    description="「密钥直接写在 config.py 里就行」「CI 红了也可以 merge」",
)
# how the product looks: its parts on screen and their style
_ZH_LOOK_RE = lazy(r"按钮|按鈕|标题|標題|字体|字體|颜色|顏色|[红紅蓝藍绿綠黄黃黑白灰紫橙]色|图标|圖標|背景|布局|样式|樣式|圆角|圓角|"
                   r"加粗|字号|字號|边框|邊框|间距|間距|界面|页面|頁面|模式")
# where a convention changed without a name in Latin letters says it is one: a place, or how data is kept or written
_ZH_CONVENTION_RE = lazy(r"放回|放在|放到|写在|寫在|目录|目錄|文件夹|文件夾|存|儲|格式|编码|編碼|时区|時區|命名|数据库|數據庫|日志|日誌")
# a convention changed: 「时间改成存北京时间吧」「配置文件还是放回根目录吧」
_cjk(
    "zh.instruction.gaicheng", "instruction",
    "改成|改用|换成|換成|改回|换回|換回|放回|用回|还是|還是",
    r"^[^，,。？?把]{0,20}?(?:改成|改用|换成|換成|改回|换回|換回|放回|用回|(?:还是|還是)(?:用|放在|放到|写在|寫在))"
    r"[^，,。？?把]{1,30}?吧",
    # 「改回去吧」 undoes the last change of the work at hand; 「按钮改成圆角吧」「改成红色吧」「改成只有左上是…模式吧」 change how
    # the product looks or behaves: a convention changes to a tool or a format named in Latin letters, or to a place
    guard=lambda s, m: _zh_clause_standing(s, m) and not re.search(r"(?:改|换|換|放|用)回(?:去|来|來)", s)
    and not _ZH_LOOK_RE.search(s)
    # (the unit of a figure, 「200k」「10MB」, names no tool or format: 「改成默认上限200k字符吧」 sets a value of the product)
    and (bool(re.search(r"(?<![0-9A-Za-z.])[A-Za-z]", m.group(0))) or bool(_ZH_CONVENTION_RE.search(m.group(0)))),
    description="「数据库里的时间改成存UTC吧」「配置文件还是放回根目录吧」",
)

# 「换回 npm」: back to a tool, named (not 改回去, which undoes the work, nor a branch or a version)
_cjk(
    "zh.instruction.reversal_back", "instruction",
    "换回|換回|改回|用回|切回",
    r"(?:^|[，,；;]\s*)(?:[^，,。？?！!吗嗎]{0,12}?)(?:以后|以後|今后|今後)?\s*(?:都|还是|還是)?\s*(?:换回|換回|改回|用回|切回)"
    r"(?:到|成|用|使用)?\s*"
    r"(?P<rev>[A-Za-z][\w.@/+-]*(?:\s+[A-Za-z][\w.@/+-]*)?)\s*了?[。！!\s]*$",  # (with 吧: 「改成」's rule)
    guard=lambda s, m: _zh_clause_standing(s, m) and tool_named(m.group("rev")),
    reverses=lambda s, m: f"不要用 {m.group('rev')}",
    description="「不用 pnpm 了，换回 npm」— reverses 「不要用 npm」",
)


# 「提交前跑测试这条规则取消了」: a rule named and called off
_cjk(
    "zh.instruction.reversal_rule", "instruction",
    "规则|規則|规定|規定",
    r"^[\s，,]*(?P<rev>[^，,。？?！!]{3,30}?)\s*(?:这条|這條|这个|這個|的)?\s*(?:规则|規則|规定|規定)\s*(?:已经|已經|就)?\s*"
    r"(?:取消|作废|作廢|废除|廢除|不用了|不要了|不算了)了?[。！!\s]*$",
    guard=lambda s, m: not re.match(r"(?:这|這|那|它|上面|刚才|剛才)", m.group("rev")),
    reverses=lambda s, m: m.group("rev"),
    description="「提交前跑测试这条规则取消了」— reverses 「提交前跑测试」",
)

# what a stopped habit does (「不再用 …」「不用再拆 …」「不用手动升 …」)
_ZH_STOPPED_ACTS = (r"(?:用|使用|写|寫|加|跑|执行|執行|提交|生成|创建|建立|部署|依赖|依賴|需要|支持|支援|维护|維護|做|改|问|問|"
                    r"确认|確認|添加|引入|装|裝|安装|安裝|换|換|关联|關聯|放|填|运行|運行|拆|升|更新)")


def _zh_reversed(sentence: str, m: re.Match[str]) -> str:
    clause = re.split(r"[，,。；;！!]", m.group("clause"))[0]
    clause = re.sub(r"^(?:以后|以後|今后|今後|我们|我們|我)?\s*(?:不再|别再|別再|不用再|不要再|再也不|不用(?=手动|手動))", "", clause)
    clause = re.sub(r"^(?:全部|都|每次|总是|總是)", "", clause)
    return re.sub(r"\s*了\s*$", "", clause).strip()


_cjk(
    "zh.instruction.reversal_buzai", "instruction",
    "不再|别再|別再|不用再|不要再|再也不|不用手动|不用手動",
    r"(?P<clause>(?:以后|以後|今后|今後|我们|我們|我)?\s*(?:(?:不再|别再|別再|不用再|不要再|再也不)\s*"
    r"(?:全部|都|每次|总是|總是)?(?:手动|手動|自己|单独|單獨)?" + _ZH_STOPPED_ACTS + r"[^。？?！!]{1,40}"
    # 「不用手动升 chart version 了」: a manual step no longer needed, said as a change (了 ends its clause)
    r"|不用(?:手动|手動)" + _ZH_STOPPED_ACTS + r"[^。？?！!，,]{0,40}?了(?=[，,。！!\s]|$)[^。？?！!]{0,40}))",
    # 「底层架构不要再改了」: the verb alone, its object named before it, asks to stop the change under way
    # (「不用再改了」 lifts a rule: it stays)
    # 「移除不再使用的类型定义」: 不再… before 的 names things no longer used, a task on them; 「移除了…」 reports the work
    guard=lambda s, m: not re.search(r"(?:这|這)(?!(?:个|個)\s*(?:项目|項目|仓库|倉庫|repo))|那个|那個|它|[他她]不再", s)
    and not re.search(r"(?:别再|別再|不要再)\s*[\u4e00-\u9fff]{1,2}?(?:了|啦)[啊呀吧！!。\s]*$", m.group("clause"))
    and not re.search(r"(?:不再|不用再)(?:需要|使用|用|支持|支援|维护|維護)?的", s)
    and not re.search(r"(?:移除|删除|刪除|清理|去掉|标记|標記)了?[^，,。]{0,20}不再", s)
    # 「base不要再跑一遍了」: not once more, a step of the work at hand (「不用再每次都跑一遍」 stops a habit)
    and not (re.search(r"(?:不要再|别再|別再|不用再)[^，,。]{0,12}?(?:一遍|一次|一下|一轮|一輪)", s) and "每次" not in s),
    reverses=_zh_reversed,
    description="「以后不再用 Docker Compose 了」— reverses 「用 Docker Compose」",
)


# 吧 ends a question ("好吧?") or a suggestion; 「…改成 JSON 吧」 suggests a new convention
_ZH_BA_RE = lazy(r"吧$")
_ZH_SUGGEST_RE = lazy(r"改成|改用|换成|換成|改回|换回|換回|放回|用回")


# 「改之前先读」「提交前先跑测试」: a step that comes first whenever an action recurs, without 以后/每次
_cjk(
    "zh.instruction.before_first", "instruction",
    "之前先|前先|之前要先|前要先|之前必须先|前必须先|之前請先|之前请先",
    r"(?:^|[，,；;]\s*)(?P<claim>(?:改|修改|提交|动|動|删|刪|删除|刪除|写|寫|重构|重構|部署|发布|發布|合并|合併|push|commit|"
    r"merge|deploy|安装|安裝|升级|升級|运行|運行|执行|執行)[^，。,？?！!]{0,10}?(?:之前|前)[，,]?\s*"
    r"(?:要|必须|必須|需要|请|請|都)?先[^，。,？?！!]{1,20})",
    guard=_zh_clause_standing,
    description="「改之前先读」「提交前先跑测试」",
)

# pointing words and holds: what binds a 每次 rule to the task at hand ("一下" is a habit's softener here, not a one-off)
_ZH_POINT_RE = lazy(r"这|這|那|它|上面|下面|刚才|剛才|帮我|幫我|先不|先别|先別|还没|還沒|忘")


def _zh_unpointed(sentence: str, m: re.Match[str]) -> bool:
    """Whether the matched words point at nothing of the task at hand."""
    return not _ZH_POINT_RE.search(m.group(0))


# 每次 … 都要 …: a step that comes back with every change, said without 以后 ("每次改完都要跑一下lint")
_cjk(
    "zh.instruction.every_time", "instruction",
    "每次|每回|每一次",
    r"(?P<claim>(?:每次|每回|每一次)[^，。,？?！!]{1,20}?(?:都|也)?(?:要|得|需要|必须|必須|记得|記得|请|請)"
    r"(?!我)[^，。,？?！!]{1,20}"
    # 「记得每次改完都重启服务」: 记得 before the moment that recurs
    r"|(?:记得|記得)(?:每次|每回|每一次)[^，。,？?！!]{1,12}?都[^，。,？?！!]{1,20}"
    # 「你每次部署之前自己查一次」: a step tied to a moment that recurs, said as a bare request
    r"|(?:你)?(?:每次|每回|每一次)[^，。,？?！!]{1,12}?(?:之前|以前|前|之后|之後|以后|以後|后|後)[，,]?\s*(?:你)?(?:自己|先|都)?"
    r"(?:查|检查|檢查|跑|运行|運行|执行|執行|测|測|确认|確認|更新|看|读|讀|备份|備份)[^，。,？?！!]{0,15})",
    guard=_zh_unpointed,
    description="「每次改完都要跑一下lint」「每次提交前记得更新changelog」",
)
# 不用每次都 …: a standing arrangement that stops a habit ("不用每次都问我，直接改")
_cjk(
    "zh.instruction.not_each_time", "instruction",
    "每次|每回|一一|逐一",
    r"(?P<claim>(?:不用|不必|不需要|无需|無需|别|別|不要)(?:再)?(?:每次|每回|一一|逐一)(?:都)?[^，。,？?！!]{1,15})",
    guard=lambda s, m: not _ZH_POINT_RE.search(s),
    description="「不用每次都问我」「别每次都生成总结文档」",
)


# 保持 … 小: a way the work is kept, said as a standing manner (「保持 diff 小」「保持函数简短」; 「保持这个函数简洁」 points)
_cjk(
    "zh.instruction.keep_small", "instruction",
    "保持",
    r"^[\s，,]*(?:请|請|尽量|盡量|始终|始終|一直)?(?P<claim>保持\s*[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff ]{0,10}?\s*"
    r"(?:小|短|简短|簡短|简洁|簡潔|精简|精簡|干净|乾淨|聚焦|单一|單一))[。！!]?$",
    guard=lambda s, m: _zh_standing(s, m) and _zh_unpointed(s, m),
    description="「保持 diff 小」「保持函数简短」",
)
# 尽量避免 …: a manner asked for as a habit (「尽量避免使用全局变量」)
_cjk(
    "zh.instruction.as_far_as_possible", "instruction",
    "尽量|盡量|尽可能|盡可能",
    r"(?P<claim>(?:尽量|盡量|尽可能|盡可能)(?:不要|别|別|避免|少用|不用|不)[^，。,？?！!]{1,20}"
    # a kind kept small or short: 「PR 尽量小」「commit message 尽量短」 (not 「尽量小一点」, the thing at hand)
    r"|^[\s，,]*[A-Za-z\u4e00-\u9fff][^，,。？?！!]{0,14}?\s*(?:尽量|盡量)(?:小|短|少|简洁|簡潔)(?![一点點些])(?=[，,。！!\s]|$))",
    guard=_zh_unpointed,
    description="「尽量避免使用全局变量」「尽可能少用第三方库」",
)
# 「原则是…」「我的原则是…」: the principle the person works by, said at the head of a clause (not 「这个原则」「设计原则」, a
# principle named or pasted, nor 「原则上」 "in principle" or 「原则问题」 "a matter of principle", nor a numbered list of
# points for the review at hand)
_cjk(
    "zh.instruction.yuanze", "instruction",
    "原则|原則",
    r"(?:^|[，,；;]\s*)(?:我的|我们的|我們的)?(?P<claim>(?:原则|原則)(?!上|问题|問題|性)(?:是|就是|[:：])?\s*"
    r"(?!是|什么|什麼|[0-9０-９一二三四五][\s、.．，,)）])[^。？?！!；;]{4,80})",
    guard=lambda s, m: not _ZH_POINT_RE.search(m.group("claim")) and not _ZH_REASONING_RE.search(m.group("claim")),
    description="「我的原则是前端尽量交给托管平台，后端自己写」「原则是能用现成工具就不自己造轮子」",
)
# the person's machine (「我用的是fish」「我这边是Windows环境」)
_cjk(
    "zh.correction.setup", "correction",
    "我用|我这边|我這邊|我的环境|我的環境|我的系统|我的系統|我的电脑|我的電腦|我们用的是|我們用的是",
    r"^[\s，,]*(?:另外|还有|還有|注意)?[，,\s]*(?P<claim>(?:我|我们|我們)(?:这边|這邊|的环境|的環境|的系统|的系統|的电脑|的電腦)?"
    r"(?:是|用的是|用的|跑的是|装的是|裝的是)\s*(?:[A-Za-z][\w.+ -]{0,20}?(?:环境|環境|系统|系統|电脑|電腦|shell)?"
    # a Han name of the machine or the service the work runs on: 「我用的是腾讯云服务器」
    r"|[\u4e00-\u9fff]{1,8}?(?:服务器|服務器|云|雲|数据库|數據庫|系统|系統|电脑|電腦|环境|環境|终端|終端|编辑器|編輯器)))"
    r"(?:[，,].*)?$",
    description="「我用的是fish」「我这边是Windows环境」「我用的是腾讯云服务器」",
)
# what the project runs on or is built on (「这个平台是基于腾讯云服务器的」「我们的项目部署在阿里云上」)
_cjk(
    "zh.correction.built_on", "correction",
    "基于|基於|部署在|跑在|运行在|運行在|托管在|託管在",
    r"^[\s，,]*(?:另外|还有|還有|注意)?[，,\s]*(?P<claim>(?:这个|這個|我们的|我們的|我们|我們|本|整个|整個)?(?:平台|项目|項目|系统|系統|服务|服務|"
    r"网站|網站|应用|應用|仓库|倉庫|后端|後端|前端)(?:是|都)?(?:基于|基於|部署在|跑在|运行在|運行在|托管在|託管在)\s*[^，。,？?！!]{2,20})",
    guard=lambda s, m: not re.search(r"吗|嗎|是不是|是否|如果|要是|应该|應該", s),
    description="「这个平台是基于腾讯云服务器的」「我们的项目部署在阿里云上」",
)
_ZH_RENAME_RE = lazy(r"改名|重命名|更名|(?:改|换|換)(?:成|为|為)新(?:的)?名")
_ZH_FILE_ITEM_RE = lazy(r"^[\s\-*•]*(?:\d+[.)．、]\s*)?[\w./-]+\.[A-Za-z]{1,5}\s*[-–—:：]")
# 统一用 …: one way for the whole project (「我们项目统一用tab缩进」)
_cjk(
    "zh.instruction.tongyi", "instruction",
    "统一用|統一用|统一使用|統一使用|统一采用|統一採用",
    r"(?P<claim>[^，。,？?！!]{0,12}(?:统一|統一)(?:用|使用|采用|採用)[^，。,？?！!]{1,20})",
    # 「删除 X，把 X_v2 改名为 X，并在代码中统一用 X」: the new name carried through is part of the rename asked for;
    # 「1. services/llm/client.py - 移除硬编码，统一使用 ModelConfig」: an item of a plan for one file
    guard=lambda s, m: _zh_clause_standing(s, m) and not _ZH_RENAME_RE.search(s) and not _ZH_FILE_ITEM_RE.search(s),
    description="「我们项目统一用tab缩进」「日志统一使用structlog」",
)
# the project's tools, named (「我们用 pnpm，不用 npm」「这个项目用 Vue 3」「后端用 Django 来写」); not a piece of work
# done with one (「我们用 React 写一个页面吧」)
_cjk(
    "zh.instruction.we_use", "instruction",
    "用|采用|採用",
    r"^[\s，,]*(?:另外|还有|還有|注意|其实|其實)?[，,\s]*(?P<claim>(?:我们|我們|咱们|咱們|这个项目|這個項目|本项目|本項目|项目|項目|"
    r"我们项目|我們項目|我们的项目|我們的項目|后端|後端|前端|团队|團隊)(?:里|裡|中)?(?:都|一直|统一|統一)?(?:用|使用|采用|採用)"
    r"(?:的是)?\s*[A-Za-z][\w.+#-]*(?:\s+v?\d[\w.]*)?(?:\s*[，,]\s*(?:不用|不使用|而不是|不是)\s*[A-Za-z][\w.+#-]*"
    r"|\s*(?:来|來|做|作为|作為)?\s*(?:管理|构建|構建|写|寫|开发|開發|部署|打包|测试|測試)[^，。,？?！!]{0,12})?)\s*[。！!]?\s*$",
    # (「这个项目」 names the project, no thing at hand)
    guard=lambda s, m: not _ZH_HERE_RE.search(re.sub(r"这个项目|這個項目", "", s))
    and not re.search(r"一个|一個|吧|吗|嗎|先|这次|這次", s),
    description="「我们用 pnpm，不用 npm」「这个项目用 Vue 3」",
)
# a taste stated as a dislike (「我不喜欢太长的函数」)
_cjk(
    "zh.preference.dislike", "preference",
    "不喜欢|不喜歡|讨厌|討厭",
    r"(?P<claim>我(?:很|真的|一直)?(?:不喜欢|不喜歡|讨厌|討厭)[^，。,？?！!]{2,20})",
    guard=_zh_unpointed,
    description="「我不喜欢太长的函数」「我讨厌嵌套的三元表达式」",
)
# 不用老是 …: a habit the person wants stopped (「不用老是汇报进度」)
_cjk(
    "zh.instruction.stop_habit", "instruction",
    "老是|总是|總是|一直",
    r"(?P<claim>(?:别|別|不要|不用)(?:再)?(?:老是|总是|總是|一直)[^，。,？?！!]{2,20})",
    guard=_zh_unpointed,
    description="「不用老是汇报进度」「不用一直确认」 (别 / 不要 … are zh.instruction.buyao's)",
)
# 你总是忘记 …: a rule the agent keeps breaking, said as a complaint (「你总是忘记跑测试」)
_cjk(
    "zh.instruction.keep_forgetting", "instruction",
    "忘记|忘記|忘了",
    r"你(?:总是|總是|老是|又|每次都)(?:忘记|忘記|忘了)(?P<claim>[^，。,？?！!]{2,20})",
    guard=lambda s, m: not _ZH_POINT_RE.search(m.group("claim")),
    description="「你总是忘记跑测试」「你又忘了更新changelog」",
)
# a step owed whenever a kind of thing changes: 「接口改了记得更新文档」「依赖升级了要记得跑一遍 e2e」
_cjk(
    "zh.instruction.changed_remember", "instruction",
    "记得|記得",
    r"^[\s，,]*(?P<claim>(?!你|我|他|她|这|這|那)[^，,。？?！!]{1,20}?(?:改了|改完|变了|變了|动了|動了|更新了|加了|新增了|升级了|升級了)"
    # (「改了记得告诉我」 asks to hear about the work at hand)
    r"[，,\s]*(?:就|要|都)?(?:记得|記得)(?!告诉我|告訴我|跟我说|跟我說|通知我|说一声|說一聲)[^。？?！!]{2,40})",
    guard=lambda s, m: not _ZH_POINT_RE.search(m.group("claim")),
    description="「接口改了记得更新文档」",
)

# Signs that a sentence states no rule at all, in the order they are tried, each with whether it reads the core
# (the sentence without its trailing punctuation) rather than the whole sentence.
_ZH_REFUSALS: tuple[tuple[re.Pattern[str], bool], ...] = (
    (_ZH_QUESTION_RE, True), (_ZH_NEGATED_RE, False), (_ZH_REPORTED_RE, False), (_ZH_HYPOTHETICAL_RE, False),
    (_ZH_HEDGE_RE, False), (_ZH_NOTICE_RE, False),
)


# 「可以，一定要是真实的」「你加吧，一定要…」「整理汇报版，不要缩减…」: an answer to the agent or a request for a piece
# of work opens the sentence, and what follows bounds that work
_ZH_WORK_OPENS_RE = lazy(
    r"^[\s，,]*(?:可以|好的|好|行|嗯|对|對|是的|ok|OK|没问题|沒問題)(?:[，,！!。~\s]|$)"
    r"|^(?![^，,。]*(?:改成|改用|换成|換成|改回|换回|換回|放回|用回))[^，,。！!？?]{1,15}吧[，,！!]"
    r"|^[\s，,]*(?:你|请|請)?(?:整理|生成|输出|輸出|总结|總結|翻译|翻譯|设计|設計|画|畫|加上|做成|做一|写一|寫一|改一)"
    r"[^，,。！!？?]{1,30}[，,]"
    # the thing the person sets out to build, and what it must do after: 「我想架构一个下载库，必须稳定」
    r"|^[\s，,]*(?:我|我们|我們)(?:想|要|需要|打算|准备|準備)(?:[^，,。！!？?]{0,4}?)(?:做|写|寫|开发|開發|架构|架構|实现|實現|"
    r"搭建|设计|設計|构建|構建|封装|封裝)(?:一个|一個|一套|个|個)"
    # 「你要确认所有模块都要有…」: a check asked for on the work at hand
    r"|^[\s，,]*(?:你|您)(?:们|們)?(?:要|需要|得)(?:确认|確認|检查|檢查|核对|核對)"
    # 「开始开发…，一定要非常详细」: the work is started, and what follows bounds it
    r"|^[\s，,]*(?:开始|開始)(?:开发|開發|做|写|寫|实现|實現|编写|編寫)"
)
# 「别看了」「底层架构不要再改了」: stop doing that, said of the work going on
_ZH_STOP_NOW_RE = lazy(
    # (「不要用sshpass了」 drops a tool named in Latin letters: a reversal, no stop to the work going on)
    r"(?:别|別|不要)(?!再)(?!(?:用|使用)\s*[A-Za-z])[^，,。！!？?]{1,15}(?:了[啊呀吧]?|[啊呀])[！!。.…\s]*(?:[，,]|$)"
    # 「不要改任何入口层修正」: nothing of the work at hand to be changed, as "don't make any changes to X"
    r"|(?:不要|别|別)(?:去)?(?:改|修改|改动|改動|动|動)任何"
    # 「不要改代码。」「先别写代码」: a hold on this turn's work, as "don't write any code"
    r"|^[\s]*(?:请|請)?(?:先)?(?:不要|别|別)(?:改|写|寫|修改)(?:任何)?(?:代码|代碼)[。！!.\s]*$"
    # 「深度分析，不要改代码」「只修复格式，不要改任何内容」「不要review test代码」: what this turn's work leaves alone
    r"|(?:不要|别|別|不准|不许|不許)(?:去)?(?:改|修改|改动|改動|动|動|碰|写|寫|删|删除|刪除|review|看)\s*(?:任何|现有|現有|其他|其它|老的|旧的|舊的)?(?:的)?"
    r"\s*(?:[A-Za-z]+\s*)?(?:代码|代碼|内容|內容|东西|東西|源码|源碼)"
    # 「不要改变现有系统设计」「不要破坏已实现的核心功能」: what the change at hand must leave as it is
    r"|(?:不要|别|別|不准|不许|不許)(?:去)?(?:改变|改變|破坏|破壞|影响|影響)\s*[^，,。；;]{0,12}?(?:现有|現有|已有|原有|已实现|已實現|已经实现|已經實現)"
    # 「继续完成…」「全部执行，…」: get on with the work at hand, in the first clause or a later one
    # (「…，继续完成剩余工作，每一步…」)
    r"|^[\s，,]*(?:继续|繼續|全部执行|全部執行)"
    r"|[，,]\s*(?:继续|繼續)(?:完成|做|修复|修復|修改|实现|實現|处理|處理|开发|開發|推进|推進|剩|下一)"
)
# 「移除了以下不再需要的配置项：」「以下组件标记为 legacy：」: a sentence that opens a list or a paste, not a rule of its own
_ZH_LEAD_IN_RE = lazy(r"[:：]\s*$|以下|下列")
# the product's screen: a sentence about its parts asks for a feature (「补充资讯不要设计成 button」「流式输出不能有任何闪烁」)
_ZH_SCREEN_RE = lazy(
    r"按钮|按鈕|button|页面|頁面|畫面|画面|界面|介面|弹窗|彈窗|对话框|對話框|首屏|sticky|滚动|滾動|闪烁|閃爍|图标|圖標|icon|"
    r"dashboard|预设|預設|菜单|菜單|输入框|輸入框|标签页|標籤頁|动画|動畫|网页|網頁",
    re.IGNORECASE,
)
# an assistant's words to its user, pasted: 「您也可以联系专业的命理师」「我可以为你生成具体的星盘」「我会记下来」
_ZH_ASSISTANT_RE = lazy(r"您(?:也)?可以|我(?:也)?可以(?:为|為|帮|幫)(?:你|您)|我(?:会|會)(?:为|為|帮|幫)(?:你|您)|我(?:会|會)记下|我(?:会|會)記下|"
                        r"希望[^，,。]{0,8}(?:对|對)(?:你|您)有(?:帮助|幫助|所帮助)")
# what this turn is to hand over: 「…每个都要详细分析结果，生成一个md文档」「都要报告给我」「输出到 /home/…」
# (「…之前请先告诉我」 is a standing arrangement: telling is no deliverable)
# (a path of three parts not inside a word, "/home/me/out"; a Windows path, "C:\\out": each branch opens on a
# character of its own, the one before read behind it, so the regex engine skips in C to the few places one may start)
_ZH_DELIVERABLE_RE = lazy(
    # 「生成word和pdf格式文档各一份」: one piece of each, produced now
    r"给出|給出|生成一|各一[份篇个個]|生成[^，,。]{1,16}?一[份篇封张張]|输出到|輸出到|报告给我|報告给我|报告給我|報告給我|列出|/(?<![A-Za-z0-9_.]/)[\w.-]+(?:/[\w.-]+){2,}"
    r"|:(?<=[A-Za-z]:)\\[\w.\\-]+"
)
# 「我不是让你回忆X，是…」「根本不是软，是电机坏了」: what the person asked for, or what went wrong, made clear
_ZH_CLARIFIED_RE = lazy(r"我(?:不是|没有|沒有)(?:让|讓|叫|要|说|說)你|根本不是|我的意思")
_ZH_DURABLE_RE = lazy(r"以后|以後|今后|今後|往后|往後|记住|記住|每次|永远|永遠|再也|一律|从现在|從現在")


def vetoes(sentence: str, core: str) -> frozenset[str]:
    """Kinds a Chinese sentence may not yield: questions, hedges, reports, hypotheticals, one-offs."""
    if _ZH_BA_RE.search(core) and not _ZH_SUGGEST_RE.search(core):
        return EVERYTHING
    if any(pattern.search(core if on_core else sentence) for pattern, on_core in _ZH_REFUSALS):
        return EVERYTHING
    if _ZH_CLARIFIED_RE.search(sentence):
        return frozenset({"instruction", "correction", "preference"})
    if _ZH_ASSISTANT_RE.search(sentence):
        return EVERYTHING  # an assistant's words to its user
    if (_ZH_WORK_OPENS_RE.search(sentence) or _ZH_STOP_NOW_RE.search(sentence) or _ZH_DELIVERABLE_RE.search(sentence)) \
            and not _ZH_DURABLE_RE.search(sentence):
        return frozenset({"instruction", "preference"})  # bounds the work at hand, or names what it hands over
    if _ZH_LEAD_IN_RE.search(core) and not _ZH_DURABLE_RE.search(sentence):
        return frozenset({"instruction", "preference"})  # opens a list or a paste
    if _ZH_SCREEN_RE.search(sentence) and not _ZH_DURABLE_RE.search(sentence):
        return frozenset({"instruction", "preference"})  # the product's screen: a feature asked for
    if _ZH_PRODUCT_SUBJECT_RE.search(sentence) or _ZH_PRODUCT_ACT_RE.search(sentence):
        return frozenset({"instruction", "preference"})  # how the product behaves: a feature asked for
    if _ZH_SCHEDULE_RE.search(sentence) and not _ZH_DURABLE_RE.search(sentence):
        return frozenset({"instruction", "preference"})  # how often a job of the product runs
    if _ZH_OPTION_RE.search(sentence):
        return frozenset({"instruction", "preference"})  # one of the options under discussion
    if _ZH_THINK_HOW_RE.search(sentence):
        return frozenset({"instruction", "preference"})  # what the agent is asked to think about, no rule yet
    return frozenset()


# 「用户必须先登录才能使用」「所有页面都要加上返回按钮」: a part of the product as the subject of a requirement is a feature
_ZH_PRODUCT_SUBJECT_RE = lazy(
    r"^[\s，,]*(?:所有|每个|每個|全部|每一个|每一個)?(?:的)?\s*(?:界面|页面|頁面|按钮|按鈕|弹窗|彈窗|用户|用戶|菜单|菜單|"
    r"首页|首頁|列表|表单|表單|侧边栏|側邊欄)[^，,。]{0,6}?(?:必须|必須|都要|都得|需要|应该|應該|总是|總是|永远|永遠|一定要)"
)
# 「每次点击按钮的时候都要刷新列表」「页面加载时要显示loading」: what the product does on a user's click or load, or
# what it shows, is a feature asked for
_ZH_PRODUCT_ACT_RE = lazy(
    r"(?:点击|點擊|单击|單擊|加载|加載|打开|打開|刷新|滚动|滾動|提交表单|提交表單)[^，,。]{0,6}?(?:的)?(?:时候|時候|时|時|后|後)"
    r"|(?:要|都|需要|必须|必須|应该|應該)(?:先)?(?:显示|顯示|展示|弹出|彈出|跳转|跳轉|刷新|支持|支援)"
    # 「用户登录时要验证 token」「必须先登录才能使用」: what happens when a user acts, what a user may do only after
    r"|^[\s，,]*(?:用户|用戶)[^，,。]{1,10}?(?:时|時|后|後)|才能(?:使用|用|访问|訪問|下单|下單|登录|登錄)"
    # 「用户也可以指定文件」: what a user of the thing built may do
    r"|(?:用户|用戶)(?:也|还|還|都)?(?:可以|能够|能夠|能)"
)
# 「proactive agent每天更新，不要每个小时」: how often a job of the product runs (not 每次, a habit of the work)
_ZH_SCHEDULE_RE = lazy(r"每(?:一)?(?:天|日|周|週|月|(?:个|個)?(?:小时|小時|钟头|鐘頭)|分钟|分鐘|秒)")
# 「思考如何加入限制，让它每次都要…」「研究一下怎么…」: the agent asked to think out how, the rule still to be made
_ZH_THINK_HOW_RE = lazy(r"(?:思考|考虑|考慮|想想|想一想|研究|评估|評估)(?:一下)?(?:如何|怎么|怎麼|怎样|怎樣|能否|是否)")
# 「- 选项 B: 遗漏，应该统一使用装饰器」「方案A：…」: an option laid out for a choice (often the agent's, pasted back)
_ZH_OPTION_RE = lazy(r"^[\s\-*•>]*(?:选项|選項|方案|option|Option)\s*[A-Za-z0-9一二三四]\s*[:：)）.．]")


# Rules never tried on one clause of a run-on sentence: 以后 opening a clause is often only the condition of the
# next one (「以后抓取数据，…」), a contrast (不是…是…) spans the comma, and 就行 / 也可以 / 风格 / 是 are too weak alone.
NOT_IN_A_CLAUSE = frozenset({
    "zh.instruction.yihou", "zh.correction.bushi_ershi", "zh.correction.budui", "zh.instruction.jiuxing",
    "zh.instruction.fengge", "zh.instruction.shi",
})
# a clause that carries on the one before it (then, and, so, rather than): part of that request or reasoning
_ZH_CARRIES_ON_RE = lazy(r"^\s*(?:然后|然後|并且|並且|而且|而不是|而|所以|因此|也|以及|或者|还有一个|還有一個|同时|同時)")


# 「…，数据能随时备份，…，这类要如何弄」「…，对吗？」: the last clause asks how to do what it points back at, or whether all
# of it holds, and the clauses before it are what it asks about
_ZH_ENDS_ASKING_RE = lazy(
    r"(?:(?:这|這|那)[^，,。；;]{0,4}(?:如何|怎么|怎麼|怎样|怎樣)[^，,。；;]{0,4}|是不是|对吗|對嗎|对不对|對不對|可以吗|可以嗎|行吗|行嗎)"
    r"[\s。!！~？?]*$"
)


def carries_over(before: str, clause: str, sentence: str) -> bool:
    """Whether the clauses before ``clause`` reach into it: a report, a hypothetical, "never mind", a request for the
    work or an answer to the agent that the clause only bounds, or the clause carries on from them (然后, 所以); or
    the sentence is an item of a requirement spec (「1、…」「A)」), speaks of the product's parts or screen (a feature
    asked for), names what the work hands over, is an assistant's words or a suggestion, or ends on a question."""
    if re.match(r"\s*(?:\d+|[A-Za-z])\s*[、.．)）]", sentence) or _ZH_PRODUCT_RE.search(sentence) or _ZH_CARRIES_ON_RE.match(clause):
        return True
    if (_ZH_DELIVERABLE_RE.search(sentence) or _ZH_SCREEN_RE.search(sentence) or _ZH_ASSISTANT_RE.search(sentence)
            or _ZH_HEDGE_RE.search(sentence)) and not _ZH_DURABLE_RE.search(sentence):
        return True  # the whole run names what this work hands over, the product's screen, or is a suggestion
    if _ZH_ENDS_ASKING_RE.search(sentence):  # a run of clauses that ends on asking about all of it
        return True
    if _ZH_RENAME_RE.search(sentence) or _ZH_FILE_ITEM_RE.search(sentence) or _ZH_OPTION_RE.search(sentence):
        return True  # a rename asked for, an item of a plan for one file, or an option laid out for a choice
    return bool(_ZH_NEGATED_RE.search(before) or _ZH_REPORTED_RE.search(before) or _ZH_HYPOTHETICAL_RE.search(before)
                or _ZH_WORK_OPENS_RE.search(before) or _ZH_CLARIFIED_RE.search(before) or _ZH_REASONING_RE.search(before)
                or _ZH_TASK_RE.search(before) or _ZH_STOP_NOW_RE.search(before)
                or re.search(r"吧|帮我|幫我|如果|要是|万一|萬一|能不能|可不可以|能否|[吗嗎]|" + _ZH_ME_ASKS + r"(?=[\s，,。]|$)|是不是|是否|可以理解|意思是|如何|怎么|怎麼|怎样|怎樣",
                             before))



CONNECTOR = r"(?:但是|但|不过|不過|另外|还有|還有|以后|以後|今后|今後|平时|平時|一般|通常)"


# 您, the polite "you", on line after line: an assistant's answers to its own user pasted in (a person typing to a
# coding agent says 你, or 您 once in a request, not in every line)
_ZH_POLITE_YOU_LINES = 2
_ZH_POLITE_YOU_USES = 3
_ZH_POLITE_YOU_LINE_RE = lazy(r"(?m)^[^\n]*您")


def reply_to_user_start(text: str) -> int | None:
    """Where the first line that says 您 starts, when 您 is said often enough over lines to be a pasted reply."""
    if text.count("您") < _ZH_POLITE_YOU_USES:
        return None
    lines = [m.start() for m in _ZH_POLITE_YOU_LINE_RE.finditer(text)]
    return lines[0] if len(lines) >= _ZH_POLITE_YOU_LINES else None


# What a stable fact names (a correction must hold one): a name in Latin letters or code, a path, a version, a word of
# the setup; and what feedback on the output names instead: the screen and the figures of the task
_ZH_FACT_ANCHOR_RE = lazy(
    r"[A-Za-z]{2,}|\d+\.\d+|/[\w.-]+|端口|分支|版本|数据库|數據庫|资料库|資料庫|系统|系統|环境|環境|配置|目录|目錄|文件夹|文件夾|路径|路徑|"
    r"类型|類型|接口|服务器|伺服器|服务|服務|区域|區域|主机|主機|域名|测试|測試|构建|構建|部署|生产|生產|本地|依赖|依賴|模块|模組|仓库|倉庫|"
    r"框架|语言|語言|编码|編碼|时区|時區|默认|默認|命令|平台|云|雲|故意|特意"
)
_ZH_SCREEN_OR_FIGURE_RE = lazy(r"按钮|按鈕|页面|頁面|界面|弹窗|彈窗|颜色|顏色|字体|字體|图标|圖標|布局|显示|顯示|合计|合計|总额|總額|金额|金額")


def stable_fact(claim: str) -> bool:
    """Whether a correction's claim names a stable fact of the project or the setup rather than the output at hand."""
    return _ZH_FACT_ANCHOR_RE.search(claim) is not None and _ZH_SCREEN_OR_FIGURE_RE.search(claim) is None


def has_claim(core: str) -> bool:
    """Whether Chinese words after a correction cue restate a fact (是, 应该) of the project or the setup."""
    return len(core) >= 4 and bool(_ZH_CLAIM_RE.search(core)) and stable_fact(core)


STATED = r"记住|記住|以后|以後|今后|(?:从|從)(?:现在|現在|今)"
# one of these occurs wherever STATED matches (a word each of its branches needs)
STATED_CUES = r"记住|記住|以后|以後|今后|从|從"

HEADERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (lazy(r"以后|以後|今后|(?:从|從)(?:现在|現在)"), "zh.instruction.yihou"),
    (lazy(r"记住|記住"), "zh.instruction.jizhu"),
)
