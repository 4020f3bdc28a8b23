"""Multilingual pattern tables for the importance first pass (ko, ja, zh, en).

Three things live here, all pure functions over text:

* :func:`is_low_signal`: laughter, acknowledgements, emoji and punctuation that carry
  nothing worth remembering ("ㅋㅋ", "www", "草", "哈哈", "lol", "👍", "...").
* :data:`SIGNAL_GROUPS`: named groups of high-importance patterns (preferences, dates,
  identity, ...). Each group is one signal, counted once however often it matches.
* :func:`english_equivalent_length`: a message length that is fair to CJK scripts.

Text is compared after NFKC normalisation and casefolding, so full-width letters
("ｗｗｗ", "ＯＫ") and compatibility jamo behave like their plain forms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

from omoide.memory.pattern_gates import PatternGate, set_bits

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def normalise(text: str) -> str:
    """NFKC, casefold, typographic apostrophes made plain: the form patterns match."""
    return unicodedata.normalize("NFKC", text).casefold().translate(_APOSTROPHES)


def _compile(source: str) -> re.Pattern[str]:
    """Patterns are NFKC-normalised too: NFKC turns compatibility jamo (ㅋ) into
    conjoining jamo, and a pattern must match the text's normalised form."""
    return re.compile(unicodedata.normalize("NFKC", source))


_CONTENT_RUN = re.compile(r"[^\W_]+")
"""Runs of letters and digits: for ``str`` patterns ``\\w`` is ``str.isalnum()`` plus "_",
and ``isalnum()`` is exactly the Unicode categories L and N (the tests check every code
point)."""


def _content_tokens(text: str) -> list[str]:
    """Normalised words with punctuation, whitespace, emoji and joiners removed."""
    return _CONTENT_RUN.findall(normalise(text))


_REPEATED_RUN = re.compile(r"(.)\1+")


def _squeezed(token: str, *, keep: int) -> str:
    """Runs of one repeated character shortened to ``keep`` ("yesss" -> "yes" at 1)."""
    return _REPEATED_RUN.sub(lambda run: run.group(1) * min(keep, len(run.group(0))), token)


# --- low signal ---------------------------------------------------------------------


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_LATIN_ACKNOWLEDGEMENTS = _word_set(
    """
    lol lmao lmfao rofl kek xd ok okay okey okie oki k kk yeah yea ya yah ye yep yup yes
    yess no nope nah naw nice cool sure right true wow woah whoa oh ah aw aww uh um umm hmm
    hm mhm huh gg omg wtf same fr ikr idk bruh damn great awesome alright fine good lit
    based yay w oui ouais mdr ptdr si ja nein rs rsrs jsjs
    """
)
_LATIN_LAUGHTER = re.compile(
    r"(?:ha|he|ja|je|hue){2,}h?|hah?|heh|a?ha(?:ha)+|l+o+l+(?:o+l+)*|lm+f?a+o+|ro+fl"
    r"|k{2,}|w{2,}|x+d+|o+k+|m+h+m+|h+m+"
)
_CJK_UNITS = (
    # Korean: jamo laughter and tears, short reactions and acknowledgements
    r"ㅋ+|ㅎ+|ㅠ+|ㅜ+|ㅡ+|ㅇㅇ+|ㅇㅋ|ㄱㄱ|ㄴㄴ|ㄹㅇ|ㄷㄷ+|응+|웅+|엉+|어+|네+|넹+|넵+|예|아+|오+"
    r"|와+|우와|헐|흠+|음+|맞아요?|맞지|맞네|맞음|그래요?|그렇구나|그렇군요|그렇지|그치|그쵸"
    r"|알았어요?|알겠어요?|알겠습니다|오케이|좋아요?|굿|대박|진짜|정말|레알|인정|아하+|오호+"
    r"|하하+|헤헤+|히히+|호호+|크크+|키키+|흐흐+|에이|엥|앗|와우"
    # Japanese: laughter, aizuchi and reactions
    r"|笑|草|ワロタ|わろた|はい|うん+|ええ|そう|そうだね|そうですね|そうなんだ|そっか|そうか"
    r"|なるほど|了解|りょ|りょうかい|おけ|おっけー?|まじか?|マジか?|へー+|へぇ+|ほー+"
    r"|ふーん|あー+|おー+|えー+|わかる|たしかに|確かに|それな|だね|だよね|乙|おつ|いいね"
    r"|ナイス|うける|ウケる"
    # Chinese: laughter, acknowledgements, internet numerals (666 = great, 233 = lol)
    r"|哈+|呵+|嘿+|嘻+|嗯+|噢+|哦+|啊+|好的?|好吧|好哒|好滴|对啊?|对的|是的|是啊|行|可以"
    r"|收到|知道了|明白|真的|确实|厉害|牛|笑死|吗|呢|吧|6{3,}|23{2,}|8{2,}"
    # Latin acknowledgements glued to CJK ("okㅋㅋ", "草w")
    r"|w+|ok|lol|lmao|k+"
    # a few from other languages: Spanish, Russian
    r"|sí|да+|нет|ок|ага|угу|х+а+(?:х+а+)*|а+х+(?:а+х+)*"
)
_CJK_ACKNOWLEDGEMENTS = _compile(
    "(?:(?>" + "|".join(sorted(_CJK_UNITS.split("|"), key=len, reverse=True)) + "))+"
)
"""Units are tried longest first and matched atomically, so matching stays linear even on
a long run of laughter that ends in something else ("ㅋㅋㅋ…ㅋ가")."""
_LATIN_TOKEN = re.compile(r"[a-z0-9]+")
_INTERNET_NUMERALS = re.compile(r"6{3,}|23{2,}|8{2,}|5{3,}")


def _is_low_signal_token(token: str) -> bool:
    forms = (
        {token, _squeezed(token, keep=2), _squeezed(token, keep=1)}
        if _REPEATED_RUN.search(token)
        else {token}
    )
    if _LATIN_TOKEN.fullmatch(token):
        return any(
            form in _LATIN_ACKNOWLEDGEMENTS
            or _LATIN_LAUGHTER.fullmatch(form)
            or _INTERNET_NUMERALS.fullmatch(form)
            for form in forms
        )
    return any(_CJK_ACKNOWLEDGEMENTS.fullmatch(form) for form in forms)


def is_low_signal(message: str) -> bool:
    """True for messages that carry nothing worth remembering or searching for.

    Empty, punctuation-only and emoji-only messages; one character repeated three or
    more times ("aaaa", "ㅋㅋㅋ"); and messages made only of laughter, acknowledgements
    and short reactions in Korean, Japanese, Chinese or English ("ㅋㅋ 응", "はいｗ",
    "哈哈哈", "ok lol", "yesss").
    """
    tokens = _content_tokens(message)
    if not tokens:
        return True
    joined = "".join(tokens)
    if len(joined) >= 3 and len(set(joined)) == 1:
        return True
    return all(_is_low_signal_token(token) for token in tokens)


# --- high-importance signal groups --------------------------------------------------

_EN_ADVERBS = r"(?:(?:really|just|absolutely|totally|also|actually|truly|genuinely|so|do)\s+)*"

SIGNAL_GROUPS: Mapping[str, re.Pattern[str]] = MappingProxyType(
    {
        "preference": _compile(
            r"(?<!안 )(?<!안)좋아(?:해|하|함|합|요)(?!지\s*않)|최애|제일 좋|가장 좋"
            r"|(?<!不)(?:大)?好き(?!じゃ|では|くな)|好物|推し|ハマって"
            r"|(?<!不)喜欢|最爱|爱吃|爱玩|爱看|爱听|热爱"
            rf"|\bi\s+{_EN_ADVERBS}(?:love|like|adore|enjoy)\b(?!\s+(?:you|u)\b)"
            r"|\bfavou?rite\b|\bfan of\b|\bi'?m\s+(?:really\s+)?into\b"
            r"|취미|趣味|爱好|\bhobb(?:y|ies)\b"
        ),
        "dislike": _compile(
            r"싫어|싫다|싫음|안 좋아해|좋아하지 않|질색"
            r"|嫌い|苦手|好きじゃ|好きでは|好きくな"
            r"|讨厌|不喜欢|受不了|不爱"
            r"|\b(?:hate|dislike|can'?t stand|cannot stand|detest|loathe)\b"
            r"|\b(?:don'?t|do not|never)\s+(?:really\s+)?(?:like|enjoy)\b|\bnot a fan\b"
        ),
        "date": _compile(
            r"생일|기념일|결혼|졸업|입학|시험|면접|\d{1,2}\s*월\s*\d{1,2}\s*일"
            r"|誕生日|記念日|結婚|卒業|入学|試験|面接|\d{1,2}\s*月\s*\d{1,2}\s*[日号]"
            r"|生日|纪念日|结婚|毕业|考试|面试"
            r"|birthday|\bb-?day\b|anniversary|graduat|wedding|\bmarried\b|\bexams?\b"
            r"|\binterview\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+"
            r"\d{1,2}(?:st|nd|rd|th)?\b"
        ),
        "identity": _compile(
            r"이름은|이름이|불러\s*줘|라고\s*불러|직업은|살이에요|살이야|살입니다"
            r"|名前は|名前が|って呼んで|と呼んで|と申します|仕事は|歳です|歳だ"
            r"|我叫|我的名字|叫我|我的工作|岁了|\d+岁"
            r"|my name|call me|\bi'?m called\b|\bi go by\b|\byears old\b|\bi work as\b"
            r"|\bmy job\b|\bi live in\b|\bi'?m from\b"
        ),
        "habit": _compile(
            r"항상|절대|반드시|매일|맨날|매번|언제나"
            r"|いつも|絶対|必ず|毎日|毎朝|毎晩|決して"
            r"|总是|从不|从来不|每天|一直|绝对|必须"
            r"|\balways\b|\bnever\b|\busually\b|\bevery\s+(?:day|morning|night|week)"
        ),
        "unique": _compile(
            r"처음|마지막|유일"
            r"|初めて|はじめて|最後|唯一"
            r"|第一次|最后|唯一"
            r"|first time|for the first time|\bmy first\b|\blast time\b|\bthe last\b"
            r"|\bonly one\b|\bnever before\b"
        ),
        "affection": _compile(
            r"고마워|고맙|감사|사랑|보고\s*싶"
            r"|ありがとう|ありがと|感謝|愛して|会いたい"
            r"|谢谢|感谢|多谢|爱你|想你"
            r"|\bthank|\bthx\b|\bty\b|grateful|appreciate|\blove (?:you|u)\b|\bmiss (?:you|u)\b"
        ),
        "vulnerability": _compile(
            r"무서워|무섭|힘들|외로|슬퍼|슬프|우울|불안|지쳤|지쳐|피곤|아파|죽고\s*싶"
            r"|怖い|寂しい|さみしい|さびしい|辛い|つらい|悲しい|疲れ|しんどい|不安|落ち込|死にたい"
            r"|害怕|孤独|寂寞|难过|伤心|(?<!积)累(?!计|积)|压力|焦虑|抑郁|想哭|痛苦"
            r"|\bscared\b|\bafraid\b|\blonely\b|\bsad\b|depress|anxious|anxiety|\btired\b"
            r"|exhausted|stressed|\bhurt|\bcry|\bcrying\b|worried|struggling|overwhelmed"
        ),
    }
)


def _top_level_alternatives(source: str) -> list[str]:
    """``source`` cut at each ``|`` outside groups and classes: ``"a|(b|c)"`` gives
    ``["a", "(b|c)"]``. A pattern finds a match exactly when one of these does."""
    alternatives, start, depth, in_class, escaped = [], 0, 0, False, False
    for position, character in enumerate(source):
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif in_class:
            in_class = character != "]" or source[position - 1] == "["
        elif character == "[":
            in_class = True
        elif character in "()":
            depth += 1 if character == "(" else -1
        elif character == "|" and depth == 0:
            alternatives.append(source[start:position])
            start = position + 1
    return [*alternatives, source[start:]]


_ALTERNATIVES = tuple(
    (name, re.compile(alternative))
    for name, pattern in SIGNAL_GROUPS.items()
    for alternative in _top_level_alternatives(pattern.pattern)
)
"""Each signal group's alternatives on their own: a group matches when one of them does,
and the gate below skips those whose literals are missing from the text."""
_SIGNAL_GATE = PatternGate.of([pattern for _name, pattern in _ALTERNATIVES])


def matched_signals(text: str) -> tuple[str, ...]:
    """Names of the signal groups that match ``text``, each once, in table order."""
    folded = normalise(text)
    matched: set[str] = set()
    for index in set_bits(_SIGNAL_GATE.possible(folded)):
        name, pattern = _ALTERNATIVES[index]
        if name not in matched and pattern.search(folded):
            matched.add(name)
    return tuple(name for name in SIGNAL_GROUPS if name in matched)


# --- length fair to CJK -------------------------------------------------------------

_HAN_WEIGHT = 4.0
_HANGUL_WEIGHT = 3.0
_KANA_WEIGHT = 2.5


_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3131-\u318e]")
_KANA = re.compile("[\u3040-\u30ff]")
_HAN = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]")


def english_equivalent_length(text: str) -> float:
    """Length in "English characters": a fair long-message measure across scripts.

    Parallel sentences (the same content in English, Korean, Japanese and Chinese) are
    2.5-3x shorter in Hangul (spaces included), 2.5-3x in Japanese and 3.5-5x in Chinese,
    so a Hangul syllable counts 3, a kana 2.5 and a Han character 4; everything else
    (Latin letters, digits, spaces, punctuation) counts 1. Runs of one repeated character
    count at most twice, so "ㅋㅋㅋㅋㅋㅋ" or "!!!!!!" cannot make a message long.
    """
    squeezed = _squeezed(unicodedata.normalize("NFKC", text).strip(), keep=2)
    hangul = len(_HANGUL.findall(squeezed))
    kana = len(_KANA.findall(squeezed))
    han = len(_HAN.findall(squeezed))
    plain = len(squeezed) - hangul - kana - han
    return plain + _HANGUL_WEIGHT * hangul + _KANA_WEIGHT * kana + _HAN_WEIGHT * han
