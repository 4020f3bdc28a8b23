"""The words of a fact that may name a value: a name, a place, a thing.

Read without a dictionary: capitalised Latin names, katakana words, kanji words in Japanese,
Hangul nouns (their particles cut off, not verbs); the commonest words of chat ("요즘",
"今日", "today") never count. What a change outdates
(:mod:`omoide.memory.extraction.outdating`) and what a new game leaves behind
(:mod:`omoide.memory.extraction.switching`) are found by them.
"""

from __future__ import annotations

import re

_LATIN_NAME = re.compile(r"\b[A-Z][\w'+-]*(?:\s+(?:&\s+)?[A-Z][\w'+-]*)*")
_KATAKANA = re.compile(r"[\u30a1-\u30fa\u30fc]{2,}")
_KANJI = re.compile(r"[\u3400-\u9fff]{2,5}")
KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30ff]")
_HANGUL_WORD = re.compile(r"(?<![0-9])[\uac00-\ud7a3]{2,}")
HAN_RUN = re.compile(r"[\u3400-\u9fff]+")


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_KOREAN_PARTICLES = sorted(
    _split(
        "이랑 하고 한테 에게 에서 까지 부터 처럼 보다 으로 로"
        " 이 가 은 는 을 를 도 랑 와 과 의 만 에 들"
    ),
    key=len,
    reverse=True,
)
_KOREAN_VERB_ENDINGS = tuple("다요함음데서고지게니어아해했됨임네죠래대까냐며면듯")
COMMON_WORDS = frozenset(
    _split(
        "i i'm im my the a an so ok okay omg lol and but today tonight yesterday tomorrow just"
        " finally also haru hi hey hello yes no oh wait well this that it its"
        " 요즘 오늘 어제 내일 진짜 정말 너무 완전 그냥 하루 이제 지금 아직 매일 맨날 항상 우리"
        " 처음 다시 조금 나중 주말 평일 아침 저녁 시간 사람 친구 회사 알바 학교 집에"
        " 今日 昨日 明日 最近 毎日 毎晩 今年 去年 来年 来月 先月 今週 来週 先週 週末 時間 仕事"
        " 友達 家族 会社 学校 自分 一番 本当 全然 普通 結構 大丈夫 バイト シフト ゲーム"
        " 今天 昨天 明天 现在 每天 明年 时候 时间 工作 上班 下班 朋友 家里 我们"
        " 你们 他们 自己 一个 一直 真的 还是 已经 觉得 知道 喜欢 没有 什么 这个 那个 周末 主播"
    )
)
"""The commonest words of chat in the four languages: never a value."""


def value_words(text: str) -> frozenset[str]:
    """The words of ``text`` that may name a value (a name, a place, a thing), casefolded."""
    found = {name for match in _LATIN_NAME.finditer(text) if (name := _latin_name(match))}
    found.update(_KATAKANA.findall(text))
    if KANA.search(text):
        found.update(_KANJI.findall(text))
    found.update(noun for word in _HANGUL_WORD.findall(text) if (noun := _korean_noun(word)))
    return frozenset(word.casefold() for word in found if word) - COMMON_WORDS


def _latin_name(match: re.Match[str]) -> str:
    """A capitalised name, not a sentence's capitalised first word ("Got lottie a pass"):
    one word first in its text counts only when no lower-case word follows it."""
    name = match.group(0)
    first = match.string[: match.start()].strip() == ""
    if first and " " not in name and re.match(r"\s+[a-z]", match.string[match.end() :]):
        return ""
    return name if len(name) >= 3 else ""


def _korean_noun(word: str) -> str:
    """``word`` without its particle when it reads as a noun ("영화관에서": "영화관"); empty
    for a verb or a chat ending ("하는데", "옮김", "끝남": a final ㅁ makes a verb a noun)."""
    noun = _without_particle(word)
    if len(noun) < 2 or noun.endswith(_KOREAN_VERB_ENDINGS):
        return ""
    return "" if (ord(noun[-1]) - 0xAC00) % 28 == 16 else noun  # final consonant ㅁ


def _without_particle(word: str) -> str:
    for particle in _KOREAN_PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return word[: -len(particle)]
    return word


def holds(text: str, word: str) -> bool:
    """Whether casefolded ``text`` holds ``word``: a Latin one as a whole word."""
    if not word.isascii():
        return word in text
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None
