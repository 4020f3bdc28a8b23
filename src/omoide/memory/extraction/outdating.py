"""What else a change makes outdated, besides the one fact it replaces.

A viewer who left the cinema for a bowling alley told of the cinema more than once: the
job, its closing shifts, the free passes. The change replaces one fact
(:func:`~omoide.memory.extraction.rules.decide`); the others would stay current and the
profile would tell of both jobs. They end too (not contradicted: they held until then):

* a change of work ends every other fact naming the viewer's work (a job, a workplace, its
  shifts: :func:`~omoide.memory.extraction.mentions.about_work`);
* any update ends the facts that name the old value by its own words: a name or place the
  replaced fact holds ("Boulder Barn", "スプラ", "메이플", "麺屋") and the new one does not.

Facts of other people and of dates ahead are left alone (a sister still lives in the city
the viewer left, and a plan is its own), and an old value's name ends only what was of the
moment (who they are, habits, what is going on): a like outlives a move.

A value's words are read without a dictionary: capitalised Latin names, katakana words,
kanji words in Japanese, Hangul nouns (their particles cut off, not verbs) and Chinese runs
of two to four Han characters shared whole; the commonest words of chat ("요즘", "今日",
"today") never count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from omoide.domain import Fact
from omoide.memory.extraction.change_words import CHANGING_KINDS
from omoide.memory.extraction.mentions import about_work
from omoide.memory.extraction.values import FactDecision
from omoide.memory.facets import Facet, facet_of
from omoide.memory.facts.text import slot_parts

_OTHERS = frozenset({Facet.PEOPLE, Facet.PLANS})
"""Groups whose facts tell of others (a sister's hospital, a friend's city) or of a date
ahead: no change of the viewer's own ends them."""
_OF_THE_MOMENT = frozenset({Facet.IDENTITY, Facet.HABITS, Facet.SITUATION})
"""Groups whose facts an old value's name outdates (the rides through the city left, the
old game's rank); a like, a health limit or a way of talking outlives a move."""

_LATIN_NAME = re.compile(r"\b[A-Z][\w'+-]*(?:\s+(?:&\s+)?[A-Z][\w'+-]*)*")
_KATAKANA = re.compile(r"[\u30a1-\u30fa\u30fc]{2,}")
_KANJI = re.compile(r"[\u3400-\u9fff]{2,5}")
_KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30ff]")
_HANGUL_WORD = re.compile(r"(?<![0-9])[\uac00-\ud7a3]{2,}")
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")


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
_COMMON = frozenset(
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
    if _KANA.search(text):
        found.update(_KANJI.findall(text))
    found.update(noun for word in _HANGUL_WORD.findall(text) if (noun := _korean_noun(word)))
    return frozenset(word.casefold() for word in found if word) - _COMMON


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


@dataclass(frozen=True, slots=True)
class _OldValue:
    """What a replaced fact named that the new statement no longer holds, read once."""

    words: tuple[str, ...]
    """The replaced fact's value words the new statement does not hold."""
    han_pieces: frozenset[str]
    """Its Chinese runs of two to four Han characters, no common word and not said now
    (菜鸟驿站: 驿站, …); none for Japanese text."""

    @classmethod
    def of(cls, old: Fact, new_text: str) -> _OldValue:
        said_now = new_text.casefold()
        words = tuple(word for word in value_words(old.text) if not _holds(said_now, word))
        if _KANA.search(old.text):
            return cls(words, frozenset())
        pieces = {
            run[start : start + size]
            for run in _HAN_RUN.findall(old.text)
            for size in (4, 3, 2)
            for start in range(len(run) - size + 1)
        }
        return cls(words, frozenset(p for p in pieces if p not in _COMMON and p not in said_now))

    def named_by(self, other: Fact) -> bool:
        """Whether ``other`` names this old value (菜鸟驿站 / 驿站老板: 驿站)."""
        text = other.text.casefold()
        if any(_holds(text, word) for word in self.words):
            return True
        if not self.han_pieces or _KANA.search(other.text):
            return False
        theirs = "".join(_HAN_RUN.findall(other.text))
        return any(piece in theirs for piece in self.han_pieces)


def _holds(text: str, word: str) -> bool:
    """Whether casefolded ``text`` holds ``word``: a Latin one as a whole word."""
    if not word.isascii():
        return word in text
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def outdated(decision: FactDecision, known: Sequence[Fact], taken: set[str]) -> list[Fact]:
    """The current facts ``decision`` (an update) makes outdated besides its target."""
    candidate = decision.candidate
    if decision.action != "update" or candidate is None:
        return []
    replaced = next((fact for fact in known if fact.id == decision.target_fact_id), None)
    old_value = None if replaced is None else _OldValue.of(replaced, candidate.text)
    work_changed = (
        candidate.changes
        and candidate.slot is not None
        and slot_parts(candidate.slot)[0] in CHANGING_KINDS
    )
    return [
        fact
        for fact in known
        if fact.id not in taken
        and fact.id != decision.target_fact_id
        and facet_of(fact) not in _OTHERS
        and (
            (work_changed and about_work(fact.text))
            or (
                old_value is not None
                and facet_of(fact) in _OF_THE_MOMENT
                and old_value.named_by(fact)
            )
        )
    ]
