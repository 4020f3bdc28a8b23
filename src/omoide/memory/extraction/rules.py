"""Rule-based fact extraction: no model, Korean, Japanese, Chinese and English.

Only the viewer's message is read; the character's reply never becomes a fact about the
viewer. A fact's text is the viewer's own words (``memory.facts.text.viewer_text``): the
sentence that states it, from the clause where the fact starts to the end of the sentence
(a following question, contrast or other person's clause cut off), or only the clause when
one sentence states several different things ("고양이는 좋아하는데 개는 싫어" gives two
facts). Facts are marked STATED with confidence 0.75 (0.8 for a like said strongly).

Decisions against the viewer's existing facts are in :mod:`.decisions`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from omoide.domain import Fact, TrustState
from omoide.memory.extraction.change_words import CHANGING_KINDS
from omoide.memory.extraction.clauses import Clause, Sentence, normalised, split_sentences
from omoide.memory.extraction.decisions import decide
from omoide.memory.extraction.hits import Hit, clause_hits, may_state_facts, states_something
from omoide.memory.extraction.mentions import (
    correcting_clause,
    may_tell,
    says_work_changed,
    told_facts,
    told_slot,
)
from omoide.memory.extraction.misspeaking import (
    corrects_with_a_value,
    only_misspeaking,
    says_misspoke,
)
from omoide.memory.extraction.patterns import OTHER_PERSON
from omoide.memory.extraction.speaker import MAX_TOLD_CHARS, about_the_viewer, window_of
from omoide.memory.extraction.value_words import value_words
from omoide.memory.extraction.values import FactCandidate, FactDecision
from omoide.memory.facts.text import (
    OPPOSITES,
    object_key,
    scrub,
    slot_parts,
    viewer_text,
)

RULE_CONFIDENCE = 0.75
STRONG_CONFIDENCE = 0.8
STRONG_SALIENCE_BONUS = 0.15
MAX_TEXT_CHARS = 240
MAX_WHOLE_SENTENCE = 80
MAX_BARE_FACT = 24
"""A fact told in at most this many characters may hold only half of what it tells: that
something changed ("알바 옮김!!"), or happened ("오빠네 딸 태어났어!!"), with the what in the
next sentence ("이름 서윤이로 지었대", "3月8日!!")."""

_SOFT_KINDS = frozenset({"habit", "situation"})
"""Kinds that join a sentence's other fact instead of standing alone."""
_CUT_BEFORE = re.compile(
    r"^\s*(?:but|however|whereas|though|although|and\s+(?:he|she|they)|(?:he|she|they)\b"
    r"|his\b|her\b|their\b|하지만|그런데|근데|그치만|でも|だけど|けど|但是|可是|不过|他|她)",
    re.IGNORECASE,
)
_CONTRAST_END = re.compile(r"(?:지만|けど|けれど|のに|ですが|だが)\s*$")
_SET_ASIDE = re.compile(
    r"(?:じゃなくて|じゃなく|ではなく(?:て)?|아니고|아니라|말고)\s*$|\b(?:not|instead|rather)\b|不是|而是",
    re.IGNORECASE,
)
"""Clauses before a rule's fact that set something aside for it ("出身は沖縄じゃなくて、
広島出身です", "not Leeds, I live in York"), as a contrast does (:data:`_CONTRAST_END`): not
told of the viewer in passing."""
_BACKGROUND_END = re.compile(r"(?:는데|은데|인데|거든|니까|어서|아서|해서|려고)\s*$")
"""A Korean clause that sets up what follows (background, reason, purpose): "…6살인데",
"…하는데", "4월에 하프 마라톤 나가려고"."""
_STILL = re.compile(
    r"^\s*(?:아직도|아직|지금도|여전히|still\b|even\s+now\b|まだ|今でも|今も|还是|仍然|依然|到现在)",
    re.IGNORECASE,
)
"""A fact that goes on from the sentence before it ("아직도 무서워요", "still scared of it")."""
_HUMBLE_I = re.compile(r"^저\s+")
"""A Korean sentence opening with the humble "I" ("저 어릴 때부터…"), not "that"."""

_UNTOLD_AS_WORK = frozenset({"plan", "allergy", "diet", "pet", "home", "hometown", "school"})
"""Slots a change of work told in the same words does not take over (a plan to start a job
is a plan: "다음 달부터 새 회사 출근")."""
Found = tuple[int, Hit]
"""A hit with the index of its clause in the sentence."""


def _hits(sentence: Sentence, message: str, *, gated: bool) -> list[Found]:
    """Hits clause by clause; when none, in the whole sentence read as one clause (a short
    sentence whose fact spans a comma: "うちの猫、ミケって名前")."""
    found = [
        (index, hit)
        for index, clause in enumerate(sentence.clauses)
        if states_something(clause)
        for hit in clause_hits(clause, sentence.text, message, gated=gated)
    ]
    clauses = sentence.clauses
    if found or len(clauses) < 2 or len(sentence.text) > MAX_WHOLE_SENTENCE:
        return found
    whole = Clause(sentence.text.strip(), any(c.is_question for c in clauses), clauses[0].start)
    if not states_something(whole):
        return []
    return [(0, hit) for hit in clause_hits(whole, sentence.text, message, gated=gated)]


def _one_fact(found: Sequence[Found]) -> bool:
    """Whether a sentence's hits state one thing (one slot, soft kinds aside)."""
    hard = {hit.slot for _i, hit in found if hit.kind.key not in _SOFT_KINDS}
    return len(hard) <= 1 and len({hit.slot for _i, hit in found}) <= max(1, len(found))


def _with_background(sentence: Sentence, first: int) -> int:
    """Where a fact starting in clause ``first`` starts once the clauses that set it up are
    taken with it: statements of the viewer ending in a background connective ("왕관앵무
    코코 6살인데 / 아침마다 내 이름 부름", "국악 동아리에서 해금 하는데 / 11월에 정기공연
    있어"), which name the very thing the fact is about."""
    clauses = sentence.clauses
    while first > 0:
        before = clauses[first - 1]
        if not _BACKGROUND_END.search(before.text) or not states_something(before):
            break
        if OTHER_PERSON.search(before.text) or _CUT_BEFORE.search(before.text):
            break
        first -= 1
    return first


def _span_end(sentence: Sentence, first: int) -> int:
    """Where the viewer's words for a fact starting in clause ``first`` end."""
    clauses = sentence.clauses
    end = first
    for index in range(first + 1, len(clauses)):
        clause = clauses[index]
        if clause.is_question or _CUT_BEFORE.search(clause.text):
            break
        if OTHER_PERSON.search(clause.text) or _CONTRAST_END.search(clauses[index - 1].text):
            break
        end = index
    last = clauses[end]
    return last.start + len(last.text)


def _text(sentence: Sentence, first: int, *, whole: bool) -> str:
    clause = sentence.clauses[first]
    if whole:
        text = viewer_text(sentence.text[clause.start : _span_end(sentence, first)])
        if 0 < len(text) <= MAX_TEXT_CHARS:
            return text
    return viewer_text(clause.text)


def _candidate(hit: Hit, text: str, terms: tuple[str, ...]) -> FactCandidate | None:
    if not text:
        return None
    strong = hit.strong
    return FactCandidate(
        text=text,
        category=hit.kind.category,
        confidence=STRONG_CONFIDENCE if strong else RULE_CONFIDENCE,
        salience=min(1.0, hit.kind.salience + (STRONG_SALIENCE_BONUS if strong else 0.0)),
        trust=TrustState.STATED,
        slot=hit.slot,
        terms=terms,
    )


def _sentence_facts(sentence: Sentence, message: str, *, gated: bool) -> list[FactCandidate]:
    found = _hits(sentence, message, gated=gated)
    if not found:
        return told_facts(sentence)
    first = _with_background(sentence, min(index for index, _hit in found))
    # what the clauses before the rule's fact tell in passing ("换工作啦，现在在花店上班，
    # florist assistant lol 每天包花包到手软": the change of work, before the habit)
    leading = sentence.clauses[:first]
    set_aside = (
        not leading
        or _BACKGROUND_END.search(leading[-1].text) is not None  # it sets up the fact
        or any(_SET_ASIDE.search(c.text) or _CONTRAST_END.search(c.text) for c in leading)
    )
    before = [] if set_aside else told_facts(window_of(sentence, leading))
    if _one_fact(found):
        hard = [f for f in found if f[1].kind.key not in _SOFT_KINDS] or found
        _first, hit = hard[0]
        terms = tuple(dict.fromkeys(term for _i, h in found if h is hit for term in h.terms))
        candidate = _candidate(hit, _text(sentence, first, whole=True), terms)
        return [candidate, *before] if candidate is not None else before
    candidates = (_candidate(hit, _text(sentence, i, whole=False), hit.terms) for i, hit in found)
    return [*(candidate for candidate in candidates if candidate is not None), *before]


def _drop_contradicted(found: list[FactCandidate]) -> list[FactCandidate]:
    """A message that both likes and dislikes (quits, can't have) one object: not a like."""
    against = {
        slot_parts(c.slot)[1]
        for c in found
        if c.slot and slot_parts(c.slot)[0] in OPPOSITES["like"]
    }
    return [
        c
        for c in found
        if not (c.slot and c.slot.startswith("like:") and slot_parts(c.slot)[1] in against)
    ]


def _identity(candidate: FactCandidate) -> str:
    return candidate.slot or object_key(candidate.text)


def find_facts(message: str, *, gated: bool = True) -> list[FactCandidate]:
    """Facts the viewer states about themselves in ``message``, in order, without repeats.

    ``gated=False`` searches every rule on every clause (the reference the tests compare
    the gated search with); the results are the same.
    """
    # the gate reads the text the sentences are cut from (laughter and emoji gone: the
    # "ww" of "mumww" is laughter, and "mum" a word once it is)
    if gated and not (may_state_facts(text := scrub(normalised(message))) or may_tell(text)):
        return []
    found: dict[str, FactCandidate] = {}
    sentences = split_sentences(message)
    per_sentence = [_sentence_facts(sentence, message, gated=gated) for sentence in sentences]
    for index, candidates in enumerate(per_sentence):
        following = sentences[index + 1] if index + 1 < len(sentences) else None
        bare = following is not None and not per_sentence[index + 1]
        before = sentences[index - 1] if index and not per_sentence[index - 1] else None
        for candidate in candidates:
            told = _told_on(candidate, following, bare=bare) if following else candidate
            told = _told_after(told, before) if before else told
            told = _as_work_change(told)
            found.setdefault(_identity(told), told)
    return _as_corrections(message, _drop_contradicted(_without_repeats(list(found.values()))))


def _without_repeats(found: list[FactCandidate]) -> list[FactCandidate]:
    """``found`` without a fact whose words another fact of the message holds whole (a
    sentence told on with the next one: "알바 옮김!! 이제 볼링장에서 일함" is one fact, not
    it and "이제 볼링장에서 일함")."""
    texts = [" ".join(candidate.text.split()).casefold() for candidate in found]
    return [
        candidate
        for index, candidate in enumerate(found)
        if not any(
            other != index and texts[index] in texts[other] and texts[index] != texts[other]
            for other in range(len(found))
        )
    ]


def _as_work_change(candidate: FactCandidate) -> FactCandidate:
    """A fact naming the viewer's work and saying it changed ("ほたる書房ってとこでバイト
    始めた", read as a habit; "我现在在小满花店上班", a workplace) is a change of work:
    it replaces what they did before (:func:`~omoide.memory.extraction.replacing.replaced_fact`)."""
    if candidate.changes or candidate.slot is None or not says_work_changed(candidate.text):
        return candidate
    prefix = slot_parts(candidate.slot)[0]
    if prefix in CHANGING_KINDS:
        return replace(candidate, changes=True)
    if prefix.startswith("told_") or prefix in _UNTOLD_AS_WORK:
        return candidate
    return replace(candidate, changes=True, slot=told_slot("told_work", candidate.text))


def _told_on(candidate: FactCandidate, following: Sentence, *, bare: bool) -> FactCandidate:
    """A fact told in a few words of its own with its what in the next sentence: a change
    ("알바 옮김!!", "バイト変えた!" then "이제 동네 볼링장에서 일함"), or, when the next
    sentence tells no fact of its own (``bare``), any short fact ("推しバンドの横浜公演当たった!!"
    then "3月8日!!") and a sentence saying the viewer misspoke ("my phone autocorrected her
    name. it's Ximena"): the fact holds both, so what holds is in the viewer's words."""
    short = len(candidate.text) <= MAX_BARE_FACT
    if not ((candidate.changes and short) or (bare and (short or says_misspoke(candidate.text)))):
        return candidate
    said = following.text.strip()
    whole = Clause(said, any(clause.is_question for clause in following.clauses))
    if len(said) > MAX_TOLD_CHARS or not states_something(whole):
        return candidate
    return _joined(candidate, f"{candidate.text} {said}")


def _joined(candidate: FactCandidate, said: str) -> FactCandidate:
    """``candidate`` holding ``said`` (it and a sentence beside it) in the viewer's words."""
    text = viewer_text(said)
    if not text or len(text) > MAX_TEXT_CHARS or candidate.slot is None:
        return candidate
    prefix = slot_parts(candidate.slot)[0]
    slot = told_slot(prefix, text) if prefix.startswith("told_") else candidate.slot
    return replace(candidate, text=text, slot=slot)


def _told_after(candidate: FactCandidate, before: Sentence) -> FactCandidate:
    """A short fact going on from the sentence before it, which tells no fact of its own
    ("저 어릴 때부터 천둥 치면 이불 속에 숨어요... 아직도 무서워요"): it holds both."""
    if len(candidate.text) > MAX_BARE_FACT or not _STILL.search(candidate.text):
        return candidate
    if value_words(candidate.text):  # "아직도 고양이 키워요" tells its own what
        return candidate
    said = before.text.strip()  # its past is the story of what still holds
    if len(said) > MAX_TOLD_CHARS or any(clause.is_question for clause in before.clauses):
        return candidate
    if not about_the_viewer(_HUMBLE_I.sub("", said)):  # "방송 왜 늦게 켰어": to the stream
        return candidate
    return _joined(candidate, f"{said} {candidate.text}")


def _as_corrections(message: str, found: list[FactCandidate]) -> list[FactCandidate]:
    """A message saying the viewer misspoke corrects with its first fact, or first with
    the sentence saying so when it names what holds ("아까 학교 이름 잘못 말함 it's
    Leiden"); a sentence that only says so ("I had it wrong") stands for the correction
    when nothing else does."""
    if not says_misspoke(message):
        return found
    found = [c for c in found if not only_misspeaking(c.text)]
    only_saying_so = [c for c in found if c.slot and c.slot.startswith("told_") and not c.terms]
    valued = [c for c in only_saying_so if corrects_with_a_value(c.text)]
    named = None if valued else correcting_clause(split_sentences(message))
    if named is not None and not any(named.text in c.text for c in found):
        valued = [named]
    stated = [*valued, *(c for c in found if c not in only_saying_so)] or only_saying_so[:1]
    return [replace(stated[0], corrects=True), *stated[1:]] if stated else []


class RuleFactExtractor:
    """A :class:`~omoide.memory.extraction.FactExtractor` made of patterns; no model."""

    def may_hold_facts(self, user_message: str) -> bool:
        return bool(find_facts(user_message))

    async def extract(
        self,
        user_message: str,
        bot_message: str,
        *,
        user_name: str | None,
        existing: Sequence[Fact],
    ) -> list[FactDecision]:
        """Decisions for the facts in ``user_message``; the reply and name are not read."""
        return decide(find_facts(user_message), existing)
