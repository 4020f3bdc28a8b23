"""Clauses of a viewer's message, and the viewer's own words cleaned per script.

A message is cut into clauses at sentence punctuation and commas, then at connectives
("but", "는데", "けど", "但是") so that "고양이는 좋아하는데 개는 싫어" yields two facts.
Questions are marked: "do you like cats?", "좋아해요?", "好きですか", "你喜欢猫吗" state
nothing about the viewer.

Cleaning trims what is not the object: the speaker's own pronoun and adverbs in front
("나 롤 게임 엄청" -> "롤 게임"), particles behind ("고양이를" -> "고양이", "ラーメンが" ->
"ラーメン"), English clause tails ("cats but I hate dogs" -> "cats").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from omoide.memory.extraction.syntax import Script
from omoide.memory.extraction.vocab import JA_ADVERBS, JA_SELF, KO_ADVERBS, KO_SELF
from omoide.memory.facts.text import laughter_marked, scrub
from omoide.memory.patterns import is_low_signal

MAX_MESSAGE_CHARS = 2000
"""Only the start of a longer message is read for facts: chat messages are short, and
the patterns' cost grows with the square of a clause's length."""
MAX_CLAUSE_CHARS = 160
MAX_OBJECT_CHARS = 60
MAX_OBJECT_WORDS = 8
MAX_NAME_WORDS = 3

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


@dataclass(frozen=True, slots=True)
class Clause:
    text: str
    is_question: bool
    start: int = 0
    """Where the clause starts in its sentence's text."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of a message (cut at sentence punctuation) and its clauses (cut at
    commas and connectives), each clause knowing where it starts in ``text``."""

    text: str
    clauses: tuple[Clause, ...]


_SENTENCE_END = re.compile(r"([!?！？。;；\n]+|\.+(?!\d))")
_PAUSE = "\x1f"
"""Where laughter was: a clause ends there ("좀비임 ㅋㅋ 쌀 불리는 거 구경해봤어?": the
question is the second clause), and the sentence's text holds a space."""
_COMMA = re.compile(r"[,，、\x1f](?!\d)")
_CONNECTIVE = re.compile(
    r"\s+(?=(?:but|however|whereas)\b)"
    r"|(?<=[가-힣](?:는데|은데|인데|지만|거든|니까|어서|아서|해서))\s+"
    r"|(?<=[가-힣]고)(?<!라고)\s+(?!있|싶|계|말|하)"
    r"|(?<=けど)|(?<=けれど)|(?<=ですが)|(?<=だが)|(?<=のに)"
    r"|(?=但是|可是|不过|而且|所以|然后|因为)",
    re.IGNORECASE,
)
_EN_QUESTION = re.compile(
    r"^\s*(?:(?:do|does|did|are|is|am|was|were|can|could|would|will|should|have|has|may"
    r"|might|shall)\s+(?:you|u|ya|i|we|they|he|she|it|there|your|ur|anyone|anybody)\b"
    r"|(?:what|which|who|whom|whose|how|why|where)\b)",
    re.IGNORECASE,
)
_CJK_QUESTION = re.compile(
    r"(?:니|냐|나요|(?<!니)까요?|는지|(?:です|ます|の|好き|嫌い)か|吗|嘛|(?<!什)么)\s*$"
)
_ZH_QUESTION_WORDS = r"什么|哪|谁|多少|是不是|有没有|喜不喜欢|爱不爱|好不好|对不对"
_ZH_QUESTION_WORD = re.compile(_ZH_QUESTION_WORDS)
_ZH_ADDRESSED = re.compile(r"你|您|主播|告诉我|想问|请问|问一下|问问|想知道")
"""Asked of the listener however it is worded: "你还记得…什么", "我想问你喜欢什么颜色"."""
_ZH_REPORTED = re.compile(
    rf"(?:问|知道|告诉|记得|忘了|决定)[^,，。!?！？]{{0,12}}?(?:{_ZH_QUESTION_WORDS})"
)
"""A question word after a verb of asking or knowing is a question told, not asked:
"被问做什么工作" (I was asked what I do), "不知道吃什么" (don't know what to eat)."""


_NAMING_REQUEST = re.compile(
    r"\b(?:can|could|would|will)\s+(?:you|u|ya)\s+(?:please\s+|just\s+)?call\s+me\s+"
    r"(?!(?:back|later|when|if|after|before|tomorrow|tonight|sometime|anytime|at|on|now"
    r"|again|soon|whenever|out|up)\b)\w"
    r"|라고\s*불러\s*(?:줄래|줄\s*수|주실|주세요|줘)|(?:って|と)呼んで|(?:能|可以|可不可以)叫我",
    re.IGNORECASE,
)
"""A request to be called a name, asked as a question ("can u call me Wren?", "민지라고
불러줄래요?"): the viewer tells their name, nothing is asked."""


def _is_question(text: str, ending: str) -> bool:
    if _NAMING_REQUEST.search(text):
        return False
    if "?" in ending or "？" in ending:
        return True
    if _EN_QUESTION.search(text) or _CJK_QUESTION.search(text.strip()):
        return True
    if not _ZH_QUESTION_WORD.search(text):
        return False
    return _ZH_ADDRESSED.search(text) is not None or _ZH_REPORTED.search(text) is None


def asks_something(message: str) -> bool:
    """Whether any clause of ``message`` is a question."""
    return any(clause.is_question for clause in split_clauses(message))


def _bounded(text: str) -> list[str]:
    """``text`` in pieces of at most MAX_CLAUSE_CHARS, cut at spaces where possible."""
    pieces = []
    rest = text.strip()
    while len(rest) > MAX_CLAUSE_CHARS:
        cut = rest.rfind(" ", 0, MAX_CLAUSE_CHARS)
        cut = cut if cut > 0 else MAX_CLAUSE_CHARS
        pieces.append(rest[:cut].strip())
        rest = rest[cut:].strip()
    return [*pieces, rest]


def _pieces(text: str) -> list[tuple[int, str]]:
    """``text`` cut at commas and connectives: (start, piece) pairs in order."""
    found: list[tuple[int, str]] = []
    position = 0
    for comma_part in _COMMA.split(text):
        offset = position
        for part in _CONNECTIVE.split(comma_part):
            found.append((offset, part))
            offset += len(part)
        position += len(comma_part) + 1
    return found


def _sentence(text: str, ending: str) -> Sentence:
    clauses: list[Clause] = []
    pieces = _pieces(text)
    for index, (start, part) in enumerate(pieces):
        last = index == len(pieces) - 1
        skip = len(part) - len(part.lstrip())
        for bounded in _bounded(part) if part.strip() else []:
            where = text.find(bounded, start + skip)
            asked = _is_question(bounded, ending if last else "")
            clauses.append(Clause(bounded, asked, max(where, start)))
    return Sentence(text.replace(_PAUSE, " "), tuple(clauses))


def normalised(message: str) -> str:
    """The text the rules read: the first MAX_MESSAGE_CHARS of ``message``, NFKC, with
    typographic apostrophes made plain (every clause is a piece of it, scrubbed)."""
    return unicodedata.normalize("NFKC", message[:MAX_MESSAGE_CHARS]).translate(_APOSTROPHES)


def split_sentences(message: str) -> list[Sentence]:
    """The sentences of ``message`` (its first MAX_MESSAGE_CHARS, NFKC) with their clauses."""
    pieces = _SENTENCE_END.split(scrub(laughter_marked(normalised(message), f" {_PAUSE} ")))
    sentences = []
    for index in range(0, len(pieces), 2):
        ending = pieces[index + 1] if index + 1 < len(pieces) else ""
        sentence = _sentence(pieces[index], ending)
        if sentence.clauses:
            sentences.append(sentence)
    return sentences


def split_clauses(message: str) -> list[Clause]:
    """The clauses of ``message`` in order, each marked as a question or a statement."""
    return [clause for sentence in split_sentences(message) for clause in sentence.clauses]


# --- cleaning -----------------------------------------------------------------------


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_EDGE_NOISE = "\"'`「」『』【】“”‘’()（）[]<>《》~〜～-_*#@:;・…♡♥☆★"
_EN_TAIL = re.compile(
    r"\s+(?:but|because|cause|cuz|since|though|although|when|whenever|while|if|so|and\s+then"
    r"|and\s+I|which|who|lol|lmao|haha|tho|btw|except|unless)\b.*$",
    re.IGNORECASE,
)
_EN_FILLER = re.compile(
    r"\s+(?:so\s+much|a\s+lot|very\s+much|too|as\s+well|anymore|now|tbh|honestly|though"
    r"|haha|lol|really|right\s+now|these\s+days|a\s+bit|lately|recently|nowadays"
    r"|last\s+(?:week|month|year|night)|yesterday|a\s+while\s+ago|all\s+week|fr|ngl|rn"
    r"|(?:for\s+)?(?:like\s+|about\s+|almost\s+|over\s+)?(?:\d+|a|an|one|two|three|few"
    r"|couple(?:\s+of)?)\s+(?:days?|weeks?|months?|years?)(?:\s+ago|\s+now)?)$",
    re.IGNORECASE,
)
_NAME_STOP = _word_set(
    "and but i im i'm nice btw lol from by so who the or to haha please thanks thank "
    "my here its it's"
)
_KO_LEADING = frozenset(KO_SELF.split("|")) | frozenset(KO_ADVERBS.split("|"))
_KO_TRAILING = frozenset(KO_ADVERBS.split("|"))
_KO_PARTICLES = (
    "이랑",
    "에서",
    "한테",
    "에게",
    "을",
    "를",
    "은",
    "는",
    "도",
    "가",
    "이",
    "랑",
    "와",
    "과",
    "에",
)
_KO_AFTER_CONSONANT = frozenset({"을", "은", "이", "과", "이랑"})
_KO_AFTER_VOWEL = frozenset({"를", "는", "가", "와", "랑"})
_KO_NOUNS_LOOKING_LIKE_PARTICLES = _word_set(
    "고양이 호랑이 원숭이 거북이 떡볶이 어린이 놀이 종이 아이 오이 나이 포도 온도 정도 지도 속도 "
    "태도 인도 수도 휴가 작가 화가 평가 사과 과 우리 가 제주도 독도 울릉도 강원도 경기도 충청도 "
    "전라도 경상도 영도 강화도 거제도 진도 완도 반도 보도 복도 감도"
)
_JA_LEADING = re.compile(
    rf"^(?:(?:{JA_SELF})(?:は|も|が|って|(?!の))|(?:{JA_ADVERBS})|実は|でも|まあ)"
)
_JA_TRAILING = re.compile(rf"(?:が|は|も|を|のこと|の事|って|(?:{JA_ADVERBS}))$")
_JA_NOMINALISER = re.compile(r"(?<=[るうくぐすつぬぶむ])の$")
_ZH_LEADING = re.compile(r"^(?:我|本人)")
_ZH_TRAILING = re.compile(r"[了的啊呀哦呢吧哈啦喔嘛]$")
_UNWANTED_OBJECTS = _word_set(
    """
    it that this them these those you u ya him her me myself everything nothing anything
    something everyone everybody stuff things one em 'em to
    그거 이거 저거 그것 이것 너 당신 널 니 뭐 무엇 누구 다 그 이 저 걔
    それ これ あれ あなた 君 きみ 何 なに 誰 お前 全部 みんな
    这个 那个 你 它 他 她 什么 谁 哪个 一切 都 这 那 好 坏 男 女
    """
)


def _trim_edges(words: str) -> str:
    trimmed = words.strip()
    while trimmed and (trimmed[0] in _EDGE_NOISE or not _is_wordlike(trimmed[0])):
        trimmed = trimmed[1:].strip()
    while trimmed and (trimmed[-1] in _EDGE_NOISE or not _is_wordlike(trimmed[-1])):
        trimmed = trimmed[:-1].strip()
    return trimmed


def _is_wordlike(character: str) -> bool:
    return unicodedata.category(character)[0] in "LN"


def _has_batchim(syllable: str) -> bool | None:
    code = ord(syllable) - 0xAC00
    return None if not 0 <= code <= 11171 else code % 28 != 0


def _strip_korean_particle(token: str) -> str:
    if token in _KO_NOUNS_LOOKING_LIKE_PARTICLES:
        return token
    for particle in _KO_PARTICLES:
        stem = token[: -len(particle)]
        if not token.endswith(particle) or not stem:
            continue
        batchim = _has_batchim(stem[-1])
        if batchim is not None and particle in _KO_AFTER_CONSONANT and not batchim:
            continue
        if batchim is not None and particle in _KO_AFTER_VOWEL and batchim:
            continue
        return stem
    return token


def _is_korean_topic(token: str) -> bool:
    """ "직업은", "요즘은": a leading topic phrase, not part of the object."""
    return token.endswith(("은", "는")) and _strip_korean_particle(token) != token


def _clean_korean(words: str) -> str:
    tokens = words.split()
    while len(tokens) > 1 and tokens[-1] in _KO_TRAILING:
        tokens.pop()
    while len(tokens) > 1 and (tokens[0] in _KO_LEADING or _is_korean_topic(tokens[0])):
        tokens.pop(0)
    if tokens and tokens[0] in _KO_LEADING:
        tokens.pop(0)
    while tokens and tokens[-1] in _KO_TRAILING:
        tokens.pop()
    if not tokens:
        return ""
    last = tokens[-1]
    for adverb in sorted(_KO_TRAILING, key=len, reverse=True):
        if len(adverb) > 1 and last.endswith(adverb) and len(last) > len(adverb):
            last = last[: -len(adverb)]
            break
    tokens[-1] = _strip_korean_particle(last)
    return " ".join(tokens)


def _clean_japanese(words: str) -> str:
    text = words.strip()
    for pattern, replacement in ((_JA_LEADING, ""), (_JA_TRAILING, ""), (_JA_NOMINALISER, "")):
        previous = None
        while previous != text:
            previous, text = text, pattern.sub(replacement, text, count=1).strip()
    return text


def _clean_chinese(words: str) -> str:
    text = words.strip()
    for pattern in (_ZH_LEADING, _ZH_TRAILING):
        previous = None
        while previous != text and len(text) > 1:
            previous, text = text, pattern.sub("", text, count=1).strip()
    return text


def _clean_english(words: str) -> str:
    text = _EN_TAIL.sub("", words.strip())
    previous = None
    while previous != text:
        previous, text = text, _trim_edges(_EN_FILLER.sub("", text))
    return text


_CLEANERS = {
    "en": _clean_english,
    "ko": _clean_korean,
    "ja": _clean_japanese,
    "zh": _clean_chinese,
}


def clean_object(words: str, script: Script) -> str | None:
    """The viewer's words for the object of a fact, or None when nothing usable is left."""
    cleaned = _trim_edges(_CLEANERS[script](_trim_edges(words)))
    if not cleaned or len(cleaned) > MAX_OBJECT_CHARS:
        return None
    if len(cleaned.split()) > MAX_OBJECT_WORDS:
        return None
    if cleaned.casefold() in _UNWANTED_OBJECTS or is_low_signal(cleaned):
        return None
    return cleaned


def clean_name(words: str, script: Script) -> str | None:
    """A person's or pet's name: at most three words, ending at the first non-name word."""
    cleaned = clean_object(words, script)
    if cleaned is None:
        return None
    kept: list[str] = []
    for token in cleaned.split():
        if token.casefold() in _NAME_STOP or len(kept) == MAX_NAME_WORDS:
            break
        kept.append(token)
    name = _trim_edges(" ".join(kept))
    return name or None
