"""Which parts of the viewer profile a message bears on, from cue words in four languages.

A friend hears "what should we get for dinner?" and remembers the peanut allergy; hears
"going out for a walk" and asks after the dog; hears "this week is packed" and thinks of
the exam. The message shares no word and little meaning with the fact, yet it touches
its part of the profile. :func:`cued_facets` finds those parts; the profile then treats
their facts as relevant to the message (:mod:`omoide.memory.viewer_profile`).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from omoide.memory.facets import Facet
from omoide.memory.lexicon import trie_pattern
from omoide.memory.pattern_gates import PatternGate, set_bits

_CUES: dict[Facet, tuple[str, ...]] = {
    Facet.HEALTH: (
        r"\b(eat|ate|eating|food|dinner|lunch|breakfast|snack|meal|restaurant|cook\w*"
        r"|recipe|order(ing)? in|takeout|delivery|drink\w*|coffee|tea|beer|wine|dessert"
        r"|cake|bake\w*|menu|hungry|diet|pizza|burger|sushi|ramen|bbq|barbecue"
        r"|party|picnic|cafe|bar|sick|doctor|hospital|medicine|workout|gym|run(ning)?)\b",
        r"먹|밥|식사|저녁|점심|아침|간식|야식|음식|요리|배달|메뉴|맛집|식당|카페|커피|술|맥주"
        r"|마시|디저트|케이크|빵|치킨|피자|라면|고기|회식|파티|배고|다이어트|병원|약\s?먹|운동|헬스",
        r"食べ|食事|ご飯|ごはん|晩ご飯|夕飯|昼ご飯|朝ご飯|ランチ|ディナー|おやつ|料理|外食"
        r"|出前|レストラン|カフェ|コーヒー|お酒|ビール|飲み|飲む|デザート|ケーキ|ラーメン"
        r"|焼肉|寿司|パーティ|腹減|お腹|ダイエット|病院|薬|運動|ジム",
        r"吃|饭|餐|早饭|午饭|晚饭|夜宵|零食|菜|外卖|餐厅|饭店|咖啡|奶茶|喝|酒|啤酒|甜点"
        r"|蛋糕|火锅|烧烤|聚餐|聚会|饿|减肥|医院|药|运动|健身",
    ),
    Facet.PEOPLE: (
        r"\b(walk\w*|park|pets?|dogs?|pupp(y|ies)|cats?|kitty|kitten|vet|leash|fetch|treats?"
        r"|groom\w*|litter|fur|bark\w*|meow\w*|home|house|family|mom|mum|dad"
        r"|parents?|brother|sister|son|daughter|kids?|wife|husband|partner|girlfriend"
        r"|boyfriend|grandma|grandpa|friends?|visit\w*|couples?|dating|date night|single|ex)\b",
        r"산책|공원|강아지|댕댕|멍멍|고양이|냥이|반려|동물병원|목줄|간식|사료|털|집사|집|가족|엄마"
        r"|아빠|부모|형|오빠|누나|언니"
        r"|동생|아들|딸|아이|애들|남편|아내|와이프|여자친구|남자친구|여친|남친|할머니|할아버지|친구"
        r"|커플|연애|데이트|솔로|전여친|전남친",
        r"散歩|公園|犬|いぬ|猫|ねこ|ペット|動物病院|リード|おやつ|毛|わんこ|にゃんこ|家|実家|家族"
        r"|母|父|お母さん|お父さん|親"
        r"|兄|姉|弟|妹|息子|娘|子供|子ども|夫|妻|旦那|嫁|彼女|彼氏|祖母|祖父|友達"
        r"|カップル|デート|恋愛|元カノ|元カレ",
        r"散步|公园|狗|猫|宠物|遛|牵引绳|狗绳|猫粮|狗粮|铲屎|毛孩子|家|家人|妈|爸|父母|哥|姐|弟|妹"
        r"|儿子|女儿|孩子|老公|老婆"
        r"|女朋友|男朋友|奶奶|爷爷|外婆|朋友|情侣|约会|恋爱|单身|前任",
    ),
    Facet.PLANS: (
        r"\b(this week|next week|weekend|tomorrow|tonight|soon|busy|schedule|plans?"
        r"|deadline|exam|test|interview|trip|travel\w*|flight|vacation|holiday|move|moving"
        r"|birthday|anniversary|wedding|appointment|next month|this month|monday|tuesday"
        r"|wednesday|thursday|friday|saturday|sunday)\b",
        r"이번\s?주|다음\s?주|주말|내일|모레|오늘\s?밤|곧|바쁘|바빠|일정|계획|마감|시험|면접|여행"
        r"|비행기|휴가|이사|생일|기념일|결혼|약속|다음\s?달|이번\s?달|월요일|금요일|토요일|일요일",
        r"今週|来週|週末|明日|あした|今夜|もうすぐ|忙し|予定|計画|締め切り|試験|テスト|面接"
        r"|旅行|飛行機|休み|引っ越|誕生日|記念日|結婚|約束|来月|今月|月曜|金曜|土曜|日曜",
        r"这周|下周|周末|明天|今晚|快要|忙|安排|计划|截止|考试|面试|旅行|旅游|飞机|放假|假期"
        r"|搬家|生日|纪念日|结婚|约|下个月|这个月|周一|周五|周六|周日|星期",
    ),
    Facet.LIKES: (
        r"\b(fun|hobb(y|ies)|favou?rite|play\w*|games?|enjoy\w*|free time|watch\w*"
        r"|listen\w*|music|songs?|movies?|shows?|anime|books?|read\w*|recommend\w*|bored)\b",
        r"놀|취미|좋아|게임|재미|즐겨|추천|영화|드라마|애니|음악|노래|책|심심",
        r"遊|趣味|好き|ゲーム|楽し|おすすめ|映画|ドラマ|アニメ|音楽|曲|本|暇",
        r"玩|爱好|喜欢|游戏|好玩|推荐|电影|电视剧|动漫|音乐|歌|书|无聊",
    ),
    Facet.HABITS: (
        r"\b(usually|every ?day|morning|night|routine|sleep\w*|wake|commute|weekday)\b",
        r"보통|매일|아침|밤|새벽|잠|자고|일어나|출근|퇴근",
        r"いつも|毎日|朝|夜|寝|起き|通勤",
        r"平时|每天|早上|晚上|睡|起床|上班|下班",
    ),
    Facet.SITUATION: (
        r"\b(how are you|tired|exhausted|stress\w*|worr\w*|sad|lonely|anxious|hard day"
        r"|rough|okay\?|feel\w*)\b",
        r"어때|힘들|피곤|지치|스트레스|걱정|우울|외로|불안|괜찮",
        r"元気|疲れ|しんど|つら|辛い|ストレス|心配|寂し|不安|大丈夫",
        r"怎么样|累|辛苦|压力|担心|难过|孤独|寂寞|焦虑|还好吗|没事吧",
    ),
    Facet.IDENTITY: (
        r"\b(work\w*|job|office|boss|school|class|university|college|city|town|where"
        r"|shift|overtime|meeting|client|customers?|coworkers?|colleagues?|part-time|paycheck)\b",
        r"일하|직장|회사|상사|학교|수업|대학|동네|어디|외근|야근|출장|회의|거래처|고객|손님|동료"
        r"|알바|출근|퇴근|근무|월급",
        r"仕事|会社|職場|上司|学校|授業|大学|街|どこ|外回り|残業|出張|会議|取引先|お客|同僚"
        r"|バイト|出勤|退勤|勤務|給料",
        r"工作|公司|老板|学校|上课|大学|城市|哪里|加班|出差|开会|客户|顾客|同事|生意"
        r"|打工|兼职|上班|下班|工资",
    ),
}

_PLAIN_WORD = re.compile(r"[^.^$*+?{}\[\]\\|()]+")
"""An alternative with no regular expression syntax: a word to put in a trie."""
_WORD_BOUNDED = re.compile(r"\\b\((.*)\)\\b")
"""An English cue's shape: ``\\b(`` alternatives ``)\\b``."""


def _top_level(alternation: str) -> list[str]:
    """The alternatives of ``alternation`` (a ``|`` inside a group stays in its group)."""
    parts, current, depth, escaped = [], "", 0, False
    for character in alternation:
        if not escaped and depth == 0 and character == "|":
            parts.append(current)
            current = ""
            continue
        current += character
        if not escaped:
            depth += {"(": 1, ")": -1}.get(character, 0)
        escaped = not escaped and character == "\\"
    return [*parts, current]


def _words_and_others(alternatives: list[str]) -> tuple[list[str], list[str]]:
    """The plain words among ``alternatives`` (no regular expression syntax), and the rest."""
    words = [word for word in alternatives if _PLAIN_WORD.fullmatch(word)]
    return words, [pattern for pattern in alternatives if not _PLAIN_WORD.fullmatch(pattern)]


def _latin_cues(cue: str) -> re.Pattern[str]:
    shape = _WORD_BOUNDED.fullmatch(cue)
    if shape is None:
        return re.compile(cue, re.IGNORECASE)
    words, others = _words_and_others(_top_level(shape.group(1)))
    trie = [trie_pattern(words, whole=True)] if words else []
    body = "|".join([*trie, *(f"(?:{other})" for other in others)])
    return re.compile(rf"\b(?:{body})\b", re.IGNORECASE)


_LATIN_CUES: dict[Facet, re.Pattern[str]] = {
    facet: _latin_cues(cues[0]) for facet, cues in _CUES.items()
}
"""The English cues: every alternative starts with an ASCII letter."""


def _other_cues(cues: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """The Korean, Japanese and Chinese cues of one group as patterns one of which finds
    what their alternation finds: the plain words as a trie (``re`` tries each alternative
    of a long alternation at every place a first character matches; a trie compares
    each character once), the others (``약\\s?먹``) as an alternation of their own."""
    words, others = _words_and_others([part for cue in cues for part in cue.split("|")])
    patterns = [trie_pattern(words)] if words else []
    if others:
        patterns.append("|".join(f"(?:{pattern})" for pattern in others))
    return tuple(re.compile(pattern, re.IGNORECASE) for pattern in patterns)


_OTHER_CUES: dict[Facet, tuple[re.Pattern[str], ...]] = {
    facet: _other_cues(cues[1:]) for facet, cues in _CUES.items()
}
_CUE_PATTERNS: tuple[tuple[Facet, re.Pattern[str]], ...] = tuple(
    (facet, pattern) for facet in _CUES for pattern in (_LATIN_CUES[facet], *_OTHER_CUES[facet])
)
"""Every group's patterns, English first: a group is cued when one of them matches."""


@functools.cache
def _cue_gate() -> PatternGate:
    """The patterns a text can match, from their literals (:mod:`.pattern_gates`): a
    text without an English cue's words skips its alternation, tried at every position
    and most of the cost. Built on first use: it parses every cue's expression."""
    return PatternGate.of([pattern for _facet, pattern in _CUE_PATTERNS])


def cued_facets(message: str) -> frozenset[Facet]:
    """The profile groups ``message`` bears on (empty for a message that cues none)."""
    folded = unicodedata.normalize("NFKC", message).casefold()
    cued: set[Facet] = set()
    for index in set_bits(_cue_gate().possible(folded)):
        facet, pattern = _CUE_PATTERNS[index]
        if facet not in cued and pattern.search(folded):
            cued.add(facet)
    return frozenset(cued)
