"""Facts told in passing: a sentence about the viewer's own life that no rule types.

The rules (:mod:`omoide.memory.extraction.patterns`) read the shapes of a statement ("I
have a dog named X", "X에 빠졌어요"); viewers mostly tell things in passing, in shapes no
list can hold: "우리 집 고양이 나비가 또 키보드 밟음", "花粉やばい、今年も死んでる",
"我姐下个月结婚". What such a sentence is about is still plain from a word in it: a pet or
a relative, an allergy or a limit, a job or a school, an event on a coming date, how to be
talked to, a game one is hooked on. A sentence the rules found nothing in becomes a fact
here when

* it states something before any question, hypothetical or past (``states_first``), not about
  the stream or the character, and not addressed to someone ("you", "너", "あなた", "你");
* it names one of those things (:data:`_TOLD`, one group of the profile each, tried in
  order: a dated event first, so "我姐下个月结婚" is a plan and "우리 강아지 오늘 수술했어요"
  is about the dog);
* in English, it speaks of the speaker ("I", "my", "we"); Korean, Japanese and Chinese
  drop the subject, so there the statement itself is enough.

Its text is the sentence in the viewer's words, its slot ``told_<group>:<the sentence>``:
the same sentence told again confirms it, a sentence near it in meaning is merged by the
fact keeper's duplicate check, others are other facts; the word that placed it is its
term. A sentence saying the viewer misspoke ("my bad, the wedding is in X", "正しくは",
"说错了") replaces what they told last, in its group (:attr:`FactCandidate.corrects`).
Confidence and salience are below the rules' (:data:`TOLD_CONFIDENCE`): a fact told in
passing is less certain.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from omoide.domain import TrustState
from omoide.memory.extraction.change_words import (
    CHANGING_KINDS,
    NAMED,
    PONDERING,
    RENAMED,
    WORK_CHANGE,
    WORKING_AT_NOW,
)
from omoide.memory.extraction.clauses import Sentence
from omoide.memory.extraction.misspeaking import corrects_with_a_value, says_misspoke
from omoide.memory.extraction.speaker import says_more_than, tells_of_the_viewer, told_windows
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.extraction.vocab import (
    EN_JOBS,
    EN_PETS,
    EN_PLANS,
    EN_RELATIVES,
    JA_JOBS,
    JA_PETS,
    JA_PLANS,
    JA_RELATIVES,
    KO_JOBS,
    KO_PETS,
    KO_PLANS,
    KO_RELATIVES,
    ZH_JOBS,
    ZH_PETS,
    ZH_PLANS,
    ZH_RELATIVES,
    words,
)
from omoide.memory.facts.text import KINDS, object_key, viewer_text
from omoide.memory.lexicon import Lexicon, alternatives
from omoide.memory.pattern_gates import PatternGate, set_bits, top_level_alternatives

TOLD_CONFIDENCE = 0.6
MAX_SLOT_KEY = 48

_FUTURE_DATES = (
    r"\b(?:tomorrow|tmrw|tmr|2morrow|(?:this|next)\s+(?:spring|summer|fall|autumn|winter)"
    r"|this\s+(?:weekend|week|month|coming)|next\s+(?:week(?:end)?"
    r"|month|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|in\s+(?:a|two|three|\d+)\s+"
    r"(?:days?|weeks?|months?)|soon|coming\s+up)\b"
    r"|\b(?:in|this|next|early|late)\s+(?:january|february|march|april|may|june|july|august"
    r"|september|october|november|december)\b"
    r"|내일|모레|이번\s*주말?|다음\s*(?:주말?|달)|내년|곧|앞두고|\d{1,2}\s*월\s*(?:\d{1,2}\s*일)?에"
    r"|明日|あした|明後日|あさって|今週末?|来週末?|来月|来年|もうすぐ|控えて|\d{1,2}\s*月\S{0,4}に"
    r"|明天|后天|下(?:个)?(?:周|星期|月)|这周末?|明年|快要|快(?=\S{0,4}[了啦])"
)
_EVENT_WORDS = Lexicon(
    alternatives(
        EN_PLANS,
        KO_PLANS,
        JA_PLANS,
        ZH_PLANS,
        words("wedding married graduation recital tournament 결혼 졸업 대회 발표회 심사 실기 필기"),
        words("結婚 卒業 資格 検定"),
        words("大会 発表会 審査 结婚 毕业 比赛"),
    )
)
_HEALTH = (
    r"\b(?:allerg\w*|pollen|hay\s?fever|lactose|gluten|celiac|vegan|vegetarian|asthma"
    r"|migraines?|diabet\w*|intoleran\w*|insomnia|epilep\w*|sober|can'?t\s+(?:swim|drive"
    r"|eat|drink|have|handle|stand)|(?:scared|afraid|terrified)\s+of|phobi\w*)\b"
    r"|알레르기|알러지|꽃가루|비염|유당|글루텐|채식|비건|천식|편두통|당뇨|불면증|공황"
    r"|못\s?(?:먹|마시|마셔)|(?:먹|마시)으?면\s?(?:배|속|두드러기|탈)|체질|무서워|무섭"
    r"|(?:수영|운전|자전거)\S{0,2}\s?못"
    r"|アレルギー|花粉|乳糖|不耐|グルテン|ベジタリアン|ヴィーガン|喘息|偏頭痛|頭痛持ち|糖尿"
    r"|不眠|持病|体質|食べられない|飲めない|泳げない|怖くて|怖い|無理|お腹(?:壊|こわ)"
    r"|过敏|花粉|乳糖|不耐|素食|吃素|哮喘|偏头痛|糖尿病|失眠|不能(?:吃|喝)|喝不了|吃不了"
    r"|不会(?:游泳|开车|骑车|喝酒)|不敢|害怕|拉肚子|体质"
)
_NOT_PETS_ALONE = frozenset(alternatives(words("fish bird birds pet pets 鳥 魚 鸟 鱼 ペット 宠物")))
"""Words of the pet lists that alone say nothing of a pet (fish for dinner, "a bird")."""
_PEOPLE_WORDS = Lexicon(
    word
    for word in alternatives(
        EN_PETS,
        EN_RELATIVES,
        KO_PETS,
        KO_RELATIVES,
        JA_PETS,
        JA_RELATIVES,
        ZH_PETS,
        ZH_RELATIVES,
        words("grandkid grandkids grandson granddaughter niece nephew 조카 손주 손녀 손자"),
        words("孫 姪 甥 闺女 媳妇 娃 孙子 孙女 外甥 侄子"),
    )
    if word not in _NOT_PETS_ALONE
)
_STUDENTS = frozenset(
    alternatives(
        words(
            "student intern 학생 대학생 고등학생 중학생 대학원생 취준생 고3 고2 고1 재수생 수험생"
        ),
        words(
            "学生 大学生 高校生 中学生 大学院生 就活生 受験生 浪人生 看護学生 高中生 初中生 研究生"
        ),
        words("博士生 高三学生 考生"),
    )
)
_WORK_WORDS = Lexicon(
    [
        *(
            word
            for word in alternatives(EN_JOBS, KO_JOBS, JA_JOBS, ZH_JOBS)
            if word not in _STUDENTS
        ),
        *alternatives(
            words(
                "retired 취업 알바 직장 퇴사 이직 은퇴 영업직 就職 転職 退職 勤め 定年 辞职 上班"
                " 打工 兼职 实习 跳槽 講師 公司 会社 회사"
            ),
        ),
    ]
)
_WORK = (
    r"\b(?:works?\s+(?:as|at|in)|working\s+(?:as|at)|got\s+(?:a|the)\s+job|(?:got|was)\s+hired|new\s+job"
    r"|first\s+(?:day|week|shift|month)s?\s+(?:done\s+|over\s+)?at|quit\s+my\s+job)\b|开了(?:个|一家)\S{0,6}店"
    r"|(?<![\u30a1-\u30fa\u30fc])パート(?![\u30a1-\u30fa\u30fc])"  # not the パート of アパート
    r"|で働(?:き(?:始め|はじめ)|いて)|で勤務"
    r"|에서\s?(?:일해|일하|일함|일했|근무)|在\S{1,8}(?:工作|上班)"  # at a place: 매표소에서 일해
    # a job said by its ending: 飼育員やってます, 간호사예요, 我是服务员
    r"|\S(?:員|師|士)(?:を?(?:やって|して)|です|だよ)|\S(?:원|사|관)(?:이에요|예요|입니다|이야|로\s?일해)"
    r"|我(?:是|在\S{1,8}当)\S{0,6}(?:员|师)"
)
_WORKING_LIFE_WORDS = Lexicon(
    alternatives(
        words(
            "shift shifts overtime 마감조 오픈조 야간조 야간 마감 야근 교대근무 シフト 夜勤"
            " 早番 遅番 残業 夜班 早班 倒班 加班 下班"
        )
    )
)
"""Words of a working life that name no job (closing shifts, 야근, 残業): what a viewer told
of them is about their work too."""
_IDENTITY_WORDS = Lexicon(
    alternatives(
        words(" ".join(sorted(_STUDENTS))),
        words("college university uni grad freshman sophomore junior senior"),
        words(
            "대학 대학교 대학원 학과 전공 학년 출신 大学 専攻 学部 年生 出身 专业 年级 来自 老家"
        ),
        words("大一 大二 大三 大四 高一 高二 高三 初一 初二 初三"),
    )
)
_IDENTITY = (
    r"\b(?:high\s?school|grad\s+school|nursing\s+school|(?-i:from\s+[A-Z]\w+))\b"
    r"|에서\s?왔|から来"
)
_STYLE = (
    r"\b(?:(?:reply|replies|answer|answers|talk|keep\s+it)\s+(?:short|casual|brief|simple)"
    r"|no\s+need\s+(?:to\s+be|for)\s+formal|call\s+me)\b"
    r"|짧게\s?(?:해|답|말|대답)|(?:대답|답장|답|말)\S{0,3}\s?짧게|반말|존댓말|편하게\s?(?:말|불러)"
    r"|(?:返事|返信|答え|コメント|レス)\S{0,4}(?:短め|短く)|短めで|タメ口|敬語|で呼んで"
    r"|简短|(?:回复|回答|说)\S{0,3}短一?点|别用敬语|叫我"
)
_LIKES = (
    r"\b(?:hooked|obsessed|addicted|really\s+into|big\s+fan\s+of"
    r"|i'?m\s+an?\s+[\w'-]+\s+(?:player|main|fan|gamer)(?:\s+now)?)\b|入り浸"
    r"|빠졌|빠져서|빠져\s?있|꽂혔|중독|덕질|ハマ(?:って|り|る|った)|どハマり|沼|推し"
    r"|迷上|沉迷|入坑|上头|着迷"
)
_Reader = tuple[Lexicon | None, re.Pattern[str] | None]


def _reader(words: Lexicon | None, pattern: str | None) -> _Reader:
    return words, None if pattern is None else re.compile(pattern, re.IGNORECASE)


_TOLD: tuple[tuple[str, _Reader], ...] = (
    # the kind of fact (``fact_text.KINDS``) and what names its group, tried in this order
    ("told_plans", _reader(_EVENT_WORDS, None)),
    ("told_health", _reader(None, _HEALTH)),
    ("told_people", _reader(_PEOPLE_WORDS, None)),
    ("told_work", _reader(_WORK_WORDS, _WORK)),
    ("told_identity", _reader(_IDENTITY_WORDS, _IDENTITY)),
    ("told_style", _reader(None, _STYLE)),
    ("told_likes", _reader(None, _LIKES)),
)
_NOT_ABOUT_PETS = re.compile(
    r"\b(?:hot\s?dogs?|corn\s?dogs?|dog[- ]tired|underdog|top\s?dog|cat\s?walk|copycat)\b"
    r"|夜猫子|熊猫|猫眼|猫腻|狗血|单身狗|舔狗|猫舌|猫背|猫かぶり|犬猿",
    re.IGNORECASE,
)
"""Words holding a pet's word that are about no pet ("hot dog", "夜猫子" a night owl)."""
_FUTURE = re.compile(_FUTURE_DATES, re.IGNORECASE)
_WORK_READER = dict(_TOLD)["told_work"]
_EVERY_WORD = Lexicon(word for _k, (lexicon, _p) in _TOLD if lexicon for word in lexicon)
_EVERY_PATTERN = re.compile(
    "|".join(f"(?:{pattern.pattern})" for _k, (_l, pattern) in _TOLD if pattern), re.IGNORECASE
)


def correcting_clause(sentences: Sequence[Sentence]) -> FactCandidate | None:
    """A clause saying the viewer misspoke and naming what holds (:func:`corrects_with_a_value`),
    as a fact of its own: the correction when no fact was read from it."""
    for sentence in sentences:
        for index in range(len(sentence.clauses)):
            said = _with_the_value(sentence, index)
            if said is not None:
                found = _candidate("told_situation", "", viewer_text(said), changes=False)
                return found[0] if found else None
    return None


def _with_the_value(sentence: Sentence, index: int) -> str | None:
    """The ``index``-th clause of ``sentence`` when it says the viewer misspoke and names
    what holds, or it with the next clause when that names it ("잘못 말함 ㅋㅋ it's Leiden",
    "my bad, it's Leiden"); else ``None``."""
    clause = sentence.clauses[index]
    if corrects_with_a_value(clause.text):
        return clause.text
    if index + 1 == len(sentence.clauses) or not says_misspoke(clause.text):
        return None
    after = sentence.clauses[index + 1]
    joined = sentence.text[clause.start : after.start + len(after.text)]
    return joined if corrects_with_a_value(joined) else None


def may_tell(text: str) -> bool:
    """Whether some sentence of ``text`` may tell a fact in passing (a cheap first look:
    one pass over every group's words, one over their patterns)."""
    return (
        _EVERY_WORD.find(text) is not None
        or _EVERY_PATTERN.search(text) is not None
        or says_misspoke(text)
    )


def says_work_changed(text: str) -> bool:
    """Whether ``text`` names the viewer's work and says it changed (not only weighing it)."""
    return about_work(text) and _says_a_change(text)


def _says_a_change(text: str) -> bool:
    """Whether ``text`` says the viewer's work changed, not only weighing a change."""
    said = WORK_CHANGE.search(text) or WORKING_AT_NOW.search(text)
    return said is not None and PONDERING.search(text) is None


def about_work(text: str) -> bool:
    """Whether ``text`` names what the viewer does for a living (a job, a workplace, work,
    its shifts)."""
    read = _NOT_ABOUT_PETS.sub(" ", text)
    return _told_place(_WORK_READER, read) is not None or _WORKING_LIFE_WORDS.find(read) is not None


def told_kinds(text: str) -> frozenset[str]:
    """Every kind of thing ``text`` names a word of (a pet or relative, an allergy, work, an
    event, ...), whatever the shape of its sentences: what a memory holding it is about.

    Only whether a group is named matters here, not where: a group's pattern is tried by
    its alternatives that the text holds the literals of (:mod:`..pattern_gates`), and its
    words only when none of them matched."""
    gates = _told_gates()
    read = _NOT_ABOUT_PETS.sub(" ", text) if gates[0].possible(text) else text
    named: set[int] = set()
    for index in set_bits(gates[1].possible(read)):
        reader, alternative = _TOLD_ALTERNATIVES[index]
        if reader not in named and alternative.search(read):
            named.add(reader)
    return frozenset(
        kind
        for reader, (kind, (words, _pattern)) in enumerate(_TOLD)
        if reader in named or (words is not None and words.locate(read) is not None)
    )


_TOLD_ALTERNATIVES: tuple[tuple[int, re.Pattern[str]], ...] = tuple(
    (reader, re.compile(alternative, pattern.flags))
    for reader, (_kind, (_words, pattern)) in enumerate(_TOLD)
    if pattern is not None
    for alternative in top_level_alternatives(pattern.pattern)
)
"""Each group's pattern cut into its alternatives (:data:`_TOLD`'s order), with its group."""


@functools.cache
def _told_gates() -> tuple[PatternGate, PatternGate]:
    """What a text can match: the words about no pet, then each alternative of a group.
    Built on first use: it parses every expression."""
    alternatives = [pattern for _reader, pattern in _TOLD_ALTERNATIVES]
    return PatternGate.of([_NOT_ABOUT_PETS]), PatternGate.of(alternatives)


def _told_word(reader: _Reader, text: str) -> str | None:
    """The word of ``reader``'s group that ``text`` names, if any."""
    found = _told_place(reader, text)
    return None if found is None else found[1]


def _told_place(reader: _Reader, text: str) -> tuple[int, str] | None:
    """Where ``text`` first names a word of ``reader``'s group, and the word."""
    words, pattern = reader
    found = words.locate(text) if words is not None else None
    match = pattern.search(text) if pattern is not None else None
    if match is not None and (found is None or match.start() < found[0]):
        found = match.start(), match.group(0)
    return found


def _told_kind(read: str) -> tuple[str, str] | None:
    """The kind of fact ``read`` tells and the word that says so: a dated event, then
    health and limits (the most important to remember), then whichever other group the
    sentence names first ("回老家开了个奶茶店，离闺女近一点" is about work, "媳妇在医院当护士"
    about the wife)."""
    for kind, reader in _TOLD[:2]:
        word = _told_word(reader, read)
        if word is not None and (
            kind != "told_plans" or _FUTURE.search(read) or RENAMED.search(read)
        ):
            return kind, word
    places = [
        (place, order, kind, word)
        for order, (kind, reader) in enumerate(_TOLD[2:])
        if (found := _told_place(reader, read)) is not None
        for place, word in [found]
    ]
    if not places:
        return None
    _place, _order, kind, word = min(places)
    return kind, word


def told_facts(sentence: Sentence) -> list[FactCandidate]:
    """The facts ``sentence`` tells in passing (see the module's rules): one at most, or
    one in each window of a long sentence (:func:`~.speaker.told_windows`)."""
    return [fact for window in told_windows(sentence) for fact in _told_fact(window)]


def _told_fact(sentence: Sentence) -> list[FactCandidate]:
    """The fact ``sentence`` tells in passing, if any."""
    text = tells_of_the_viewer(sentence)
    if text is None:
        return []
    read = _NOT_ABOUT_PETS.sub(" ", text)
    told = _told_kind(read)
    if told is not None and (told[0] != "told_people" or says_more_than(read, told[1])):
        kind, word = told
        changes = _changes(kind, read)
        return _candidate(kind, word, viewer_text(text), changes=changes)
    # a correction naming nothing of a group: typed as what it corrects (``decide``)
    corrects = says_misspoke(read)
    return _candidate("told_situation", "", viewer_text(text), changes=False) if corrects else []


def _changes(kind: str, read: str) -> bool:
    """Whether ``read``, a told fact of ``kind``, says something told before changed."""
    if kind in CHANGING_KINDS:
        return _says_a_change(read)
    if RENAMED.search(read) is None:
        return False
    return kind != "told_people" or NAMED.search(read) is not None


def told_slot(kind: str, text: str) -> str:
    """The slot of a fact of ``kind`` told in passing as ``text``: one per sentence."""
    return f"{kind}:{object_key(text)[:MAX_SLOT_KEY]}"


def _candidate(kind_key: str, word: str, text: str, *, changes: bool) -> list[FactCandidate]:
    if not object_key(text):
        return []
    kind = KINDS[kind_key]
    candidate = FactCandidate(
        text=text,
        category=kind.category,
        confidence=TOLD_CONFIDENCE,
        salience=kind.salience,
        trust=TrustState.STATED,
        slot=told_slot(kind_key, text),
        terms=(word.strip(),) if word.strip() else (),
        changes=changes,
    )
    return [candidate]
