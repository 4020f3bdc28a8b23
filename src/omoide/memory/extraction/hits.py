"""What the rules find in one clause: the kind of fact and its key terms.

A :class:`Hit` is one rule's match in one clause, its captured words cleaned into terms
(``memory.extraction.clauses``) and its slot made (``memory.facts.text``). Clauses that
state nothing about the viewer give none: questions, hypotheticals and the past ("if I
had a dog", "만약", "もし", "如果", "I used to live in"), and, in Korean and Japanese,
clauses whose subject is someone else.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from omoide.memory.extraction.clauses import Clause, Sentence, clean_name, clean_object
from omoide.memory.extraction.patterns import OTHER_PERSON, RULES, SOFTENERS, FactRule
from omoide.memory.extraction.vocab import (
    DATES,
    EN_PETS,
    EN_STRONG,
    GAME_CUES,
    JA_PETS,
    JA_STRONG,
    KO_PETS,
    KO_STRONG,
    PLANS,
    RELATIVES,
    ZH_PETS,
    ZH_STRONG,
)
from omoide.memory.facts.text import KINDS, Kind, object_key, slot_for
from omoide.memory.pattern_gates import PatternGate, set_bits
from omoide.memory.patterns import SIGNAL_GROUPS, normalise

_NAMED = frozenset({"name", "nickname"})
_AS_SAID = frozenset({"plan", "style", "person", "care", "breakup"})
"""Kinds whose captured words are kept as said (a relation, a plan word, a phrase)."""
_LIKES = frozenset({"like", "dislike", "hooked"})
ABOUT_THE_STREAM = re.compile(
    r"^(?:this|that|these|those|your|ur|the\s+(?:stream|song|bgm|music|chat))\b"
    r"|\b(?:stream|bgm|vod|emotes?|your\s+voice|ur\s+voice|your\s+laugh)\b"
    r"|^(?:이|그|저|이번|방금|지금)\s|방송|브금|목소리|웃음소리|(?<![머버모부형누생장수])(?:님|쨩|짱)(?:의|\s)"
    r"|^(?:この|その|あの|今の|今日の|さっきの)|配信|BGM|笑い声|歌声"
    r"|(?<![いあえうじば爺婆兄姉母父叔伯])(?:ちゃん|さん|くん|様|たん)の"
    r"|^(?:这|那|今天的|刚才的)(?!.*[\u3040-\u30ff])|直播|主播|你的|笑声",  # Chinese: no kana
    re.IGNORECASE,
)
"""A (dis)like of the stream, its music, the character or "this": not about the viewer.
(A name's honorific counts, not a relative's: "じいちゃんの", "お母さんの", "어머님의".)"""
_PET_WORDS = re.compile(f"{EN_PETS}|{KO_PETS}|{JA_PETS}|{ZH_PETS}", re.IGNORECASE)
_SELF_MENTION = re.compile(
    r"\bmy\b|\bI\b|(?:^|\s)(?:제|내|저의|나의)\s|私|僕|俺|わたし|あたし|我", re.IGNORECASE
)
_NOT_HABITS = tuple(SIGNAL_GROUPS[name] for name in ("preference", "dislike", "affection"))
_DATES = re.compile(DATES, re.IGNORECASE)
_GAME = re.compile(GAME_CUES, re.IGNORECASE)
STRONG_WORDS = re.compile(
    rf"\b(?:{EN_STRONG})\b|{KO_STRONG}|大好き|大嫌い|{JA_STRONG}|{ZH_STRONG}", re.IGNORECASE
)
"""Intensifiers: a like said with one of these is a strong like."""
NOT_ABOUT_NOW = re.compile(
    r"\b(?:if|unless|would|wish|imagine|suppose|supposing|used\s+to|back\s+then|when\s+I\s+was"
    r"|in\s+the\s+past)\b|만약|만일|(?:다|라|으|였|었|했)(?:으)?면\s|면\s*좋겠|예전에|옛날에|전에는"
    r"|어렸을\s*때|もし|たら(?!い)|なら(?!ない)|だったら|昔は|以前は|(?<!名)前は|子供の頃"
    r"|如果|要是|假如|假设|以前|过去|小时候",
    re.IGNORECASE,
)
"""Hypotheticals, wishes and the past: such a clause states nothing current."""
_FUTURE = re.compile(
    r"\b(?:going\s+to|gonna|will|'ll|have\s+an?|got\s+an?|coming\s+up|preparing|upcoming"
    r"|planning|booked|scheduled)\b|예정|할\s*거|갈\s*거|볼\s*거|보러|있어요|있어|있습니다|앞두고"
    r"|준비|가요|가야|해야|予定|行く|行きます|受ける|受けます|控えて|あります|ある|準備|決まった"
    r"|要|准备|打算|快|将|得|安排",
    re.IGNORECASE,
)
_THIRD_PERSON_ZH = re.compile(r"^(?:[^我]{0,6}?)(?:他|她|你|他们|她们|它)")


@functools.cache
def _rule_gate() -> PatternGate:
    """Built on first use, not at import: it parses every rule's expression."""
    return PatternGate.of([rule.pattern for rule in RULES])


_SUBJECT_DROPPING = sum(
    1 << index
    for index, rule in enumerate(RULES)
    if rule.script in ("ko", "ja") and not rule.others_ok
)
"""Korean and Japanese rules skipped when the clause's subject is someone else."""
_JAPANESE = sum(1 << index for index, rule in enumerate(RULES) if rule.script == "ja")
_CHINESE = sum(1 << index for index, rule in enumerate(RULES) if rule.script == "zh")
_KANA = re.compile("[\u3040-\u30ff]")
_CHINESE_WORDS = re.compile("[我你他她的了是吗呢吧们这那个很都]")


@dataclass(frozen=True, slots=True)
class Hit:
    """One fact found in one clause."""

    kind: Kind
    slot: str
    terms: tuple[str, ...]
    strong: bool


def possible_rules(text: str, *, gated: bool = True) -> Iterator[FactRule]:
    """The rules that can match ``text``, in table order (all of them when not ``gated``).

    Japanese rules are not tried on Chinese (no kana and a Chinese function word), nor
    Chinese rules on Japanese (kana): the scripts share characters ("在住", "旅行")."""
    possible = _rule_gate().possible(text) if gated else (1 << len(RULES)) - 1
    if possible & _SUBJECT_DROPPING and OTHER_PERSON.search(text):
        possible &= ~_SUBJECT_DROPPING
    if _KANA.search(text):
        possible &= ~_CHINESE
    elif possible & _JAPANESE and _CHINESE_WORDS.search(text):
        possible &= ~_JAPANESE
    return (RULES[index] for index in set_bits(possible))


def may_state_facts(text: str) -> bool:
    """Whether any rule can match somewhere in ``text`` (False: no clause of it can)."""
    return _rule_gate().possible(text) != 0


def states_something(clause: Clause) -> bool:
    return not clause.is_question and NOT_ABOUT_NOW.search(clause.text) is None


MIN_STATED_FIRST = 6
"""Letters a sentence states before it turns hypothetical or past for it to state something."""


def states_first(sentence: Sentence) -> bool:
    """Whether ``sentence`` states something before any question, hypothetical or past it
    goes on to ("我恐高特别严重 … 小时候从滑梯上摔下来过", "乳糖不耐症で牛乳飲むとお腹が即終わる
    アイスも一口なら…", "ゴンザレス、3回目の夏越したんよ、この子長生きすぎん？"): chat tells a
    thing and then its story, its exception or a question about it. ``If I had a dog`` and
    ``when I was a kid I had a dog`` state nothing."""
    if not sentence.clauses or sentence.clauses[0].is_question:
        return False
    text = sentence.text
    turn = _first_turn(text)
    return turn is None or len(object_key(text[: turn.start()])) >= MIN_STATED_FIRST


_WHEN_IT_HAPPENED = re.compile(r"(?:た|だった|でした|ました)(?=[、,\s]|$)")
"""A past ending after たら: "帰ったら…全部消えた" is when it happened, not if."""


def _first_turn(text: str) -> re.Match[str] | None:
    """The first hypothetical, wish or past in ``text``; a たら told in the past is a
    moment, not a condition ("今日帰ったらちゅん太が肩に飛んできて…消えた")."""
    for turn in NOT_ABOUT_NOW.finditer(text):
        if turn.group() == "たら" and _WHEN_IT_HAPPENED.search(text, turn.end()):
            continue
        return turn
    return None


def clause_hits(clause: Clause, sentence: str, message: str, *, gated: bool = True) -> list[Hit]:
    """The facts the rules find in ``clause`` (one per kind, table order)."""
    hits: dict[str, Hit] = {}
    for rule in possible_rules(clause.text, gated=gated):
        if rule.kind in hits:
            continue
        match = rule.pattern.search(clause.text)
        hit = _hit(rule, match, clause, sentence, message) if match else None
        if hit is not None:
            hits.setdefault(hit.kind.key, hit)
    return list(hits.values())


def _hit(
    rule: FactRule, match: re.Match[str], clause: Clause, sentence: str, message: str
) -> Hit | None:
    kind = KINDS[rule.kind]
    if kind.key == "plan" and not _plan_stated(rule, clause.text):
        return None
    words = _words(rule, kind, match)
    if words is None:
        return None
    if kind.key == "name" and _ambiguous_name(clause, message):
        return None
    if kind.key == "hooked" and _GAME.search(sentence):
        kind = KINDS["game_now"]
    dates = tuple(" ".join(d.split()) for d in _DATES.findall(clause.text))
    terms, key = _terms(kind, words, _name(rule, match), dates)
    strong = kind.key == "like" and _is_strong(clause.text)
    return Hit(kind, slot_for(kind, key), tuple(dict.fromkeys(terms))[:8], strong)


def _words(rule: FactRule, kind: Kind, match: re.Match[str]) -> str | None:
    raw = match.group("obj") or match.group(0)
    if kind.key in _NAMED:
        return clean_name(raw, rule.script)
    if kind.key in _AS_SAID:
        return " ".join(raw.split()) or None
    words = clean_object(raw, rule.script)
    if words is not None and kind.key in _LIKES and ABOUT_THE_STREAM.search(words):
        return None
    if words is not None and kind.key == "habit":
        folded = normalise(words)
        return None if any(group.search(folded) for group in _NOT_HABITS) else words
    return words


def _name(rule: FactRule, match: re.Match[str]) -> str | None:
    raw = match.groupdict().get("name")
    return clean_name(raw, rule.script) if raw else None


def _terms(
    kind: Kind, words: str, name: str | None, dates: tuple[str, ...]
) -> tuple[tuple[str, ...], str]:
    """A fact's terms (its value first) and the key words of its slot."""
    if kind.key == "pet":
        return ((name, words) if name else (words,)), words
    if kind.key in ("person", "care"):
        relation = RELATIVES.get(words.casefold(), words)
        return ((name, words) if name else (words,)), relation
    if kind.key == "breakup":
        return (words,), "partner"
    if kind.key == "plan":
        place = (_DATES.sub("", name).strip(),) if name and _DATES.sub("", name).strip() else ()
        return (*dates, words, *place), PLANS.get(words.casefold(), words)
    return (words, *dates), words


def _plan_stated(rule: FactRule, text: str) -> bool:
    """A plan needs a date or a future marker, and (Chinese) no other subject."""
    if rule.script == "zh" and _THIRD_PERSON_ZH.search(text):
        return False
    return _DATES.search(text) is not None or _FUTURE.search(text) is not None


def _ambiguous_name(clause: Clause, message: str) -> bool:
    """A name in a message about a pet, with no "I"/"my": maybe the pet's name."""
    return _PET_WORDS.search(message) is not None and not _SELF_MENTION.search(clause.text)


def _is_strong(text: str) -> bool:
    return STRONG_WORDS.search(text) is not None and not SOFTENERS.search(text)
