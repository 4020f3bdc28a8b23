"""Whose words a sentence is, and about whom: the gate of facts told in passing.

A sentence may tell something of the viewer when it is a statement (not a question,
hypothetical or past from its start), about the speaker (a word of theirs in English; the
other languages drop the subject), not about the stream nor to someone, and not a story
(at most :data:`MAX_TOLD_CHARS`). Its leading or trailing clauses about the stream are left
out ("아 방송 늦게 옴, 집 오니까 게코 단테가…": the gecko).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from omoide.memory.extraction.clauses import Clause, Sentence
from omoide.memory.extraction.hits import ABOUT_THE_STREAM, states_first
from omoide.memory.extraction.vocab import JA_SELF
from omoide.memory.patterns import english_equivalent_length

MAX_TOLD_CHARS = 160
"""A longer sentence is a story, not a fact told in passing: it is read in windows of its
clauses (:func:`told_windows`)."""

_ADDRESSED = re.compile(
    r"\b(?:you|your|yours|ur|u|ya)\b|(?:^|\s)(?:너|니가|네가|너는|넌|당신)|あなた|君|きみ|お前|おまえ"
    r"|你|您",
    re.IGNORECASE,
)
_PREFACE = re.compile(
    r"\b(?:guess\s+what|you\s+know\s+what|you\s+guys|y'?all|(?:i\s+)?told\s+(?:you|u|ya))\b"
    r"|있잖아(?:요)?|너네|여러분"
    r"|聞いて(?:よ|ください)?|ねえねえ|みんな|見て見て|들어봐|자랑\s?(?:좀|해도)"
    r"|跟你们?(?:说|讲)|告诉你们?|你们?知道吗|大家|(?:说出来)?你别笑|给你们?看看?|不瞒你说|你猜|你敢信",
    re.IGNORECASE,
)
"""A preface telling the audience: what follows is still about the speaker."""
_SPEAKER = re.compile(
    rf"\b(?:i|i'm|im|i've|ive|i'd|my|me|mine|myself|we|we're|our|us)\b|{JA_SELF}"
    r"|^\s*(?:[\w'-]+\s+){1,3}here\b"  # "retired nurse here": a chat self-introduction
    r"|^\s*(?:(?:ok|so|omg|lol|update:?)\s+)?first\s+(?:day|week|shift|month)s?\s+(?:(?:done|over)\s+)?(?:at|in|of)\b"
    # the subject dropped, as chat does: "finally got a job", "just adopted a kitten"
    r"|^\s*(?:(?:update:?|finally|just|so|ok\s+so|also|today|yesterday|lol|omg)\s+){0,2}"
    r"(?:[a-z]{2,}ed|got|quit|left|bought|took|went|made|began|found|lost|broke|won|met|had"
    r"|sold|built|kept|gave|wrote|ran|fell|hurt|spent|paid|told|heard|caught)\b"
    # or doing, at the start or after a comma: "studying for the bar", "CompTIA Security+,
    # trying to get out of help desk"
    r"|(?:^|,)\s*(?:(?:still|just|finally|currently)\s+)?(?:trying|studying|working|learning"
    r"|training|saving|planning|applying|preparing|moving|starting)\s+(?:to|for|on|at|in|into)\b",
    re.IGNORECASE,
)


_HANGUL_OR_KANA_OR_HAN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]")


def tells_of_the_viewer(sentence: Sentence) -> str | None:
    """``sentence``'s text (up to a question it goes on to) when it may tell something of
    the viewer in passing: a statement (no question, hypothetical or past), about the
    speaker, at most :data:`MAX_TOLD_CHARS` long; ``None`` otherwise. The gate of facts
    told in passing and of the disclosure model."""
    if len(sentence.text.strip()) > MAX_TOLD_CHARS or not states_first(sentence):
        return None
    sentence = _before_a_question(sentence)
    text = sentence.text.strip()
    if about_the_viewer(text):
        return text
    rest = _past_the_stream(sentence)
    return rest if rest and about_the_viewer(rest) else None


def _before_a_question(sentence: Sentence) -> Sentence:
    """``sentence``'s clauses before its first question ("I got a puppy, what should I
    name him?", "oh wait, remember when I told you the date?"): a question tells nothing
    of the speaker. ``sentence`` states first (:func:`states_first`)."""
    asked = next((i for i, clause in enumerate(sentence.clauses) if clause.is_question), None)
    return sentence if asked is None else window_of(sentence, list(sentence.clauses[:asked]))


def told_windows(sentence: Sentence) -> list[Sentence]:
    """``sentence`` itself when it is short enough to tell a thing in passing; a longer one
    (chat runs a story on without a full stop: "a bride's mum cried in my chair, then my
    fiancé texted that he's offshore now, 3 weeks on 3 off, …") in windows of its
    consecutive clauses, each at most :data:`MAX_TOLD_CHARS` long, read as sentences."""
    if len(sentence.text.strip()) <= MAX_TOLD_CHARS:
        return [sentence]
    windows: list[Sentence] = []
    current: list[Clause] = []
    for clause in sentence.clauses:
        if current and clause.start + len(clause.text) - current[0].start > MAX_TOLD_CHARS:
            windows.append(window_of(sentence, current))
            current = []
        current.append(clause)
    return [*windows, window_of(sentence, current)] if current else windows


def window_of(sentence: Sentence, clauses: Sequence[Clause]) -> Sentence:
    """The part of ``sentence`` its consecutive ``clauses`` span, as a sentence."""
    start, last = clauses[0].start, clauses[-1]
    text = sentence.text[start : last.start + len(last.text)]
    return Sentence(text, tuple(replace(clause, start=clause.start - start) for clause in clauses))


FRAGMENT_CHARS = 40
"""A statement this short with no word of the speaker may be a piece of their news."""


def told_fragment(sentence: Sentence) -> str | None:
    """``sentence``'s text when it is a short statement, not about the stream nor to
    someone, with no word of the speaker: chat tells news in pieces ("so uh. Dana's
    pregnant. due in March."), and a run of them is read together
    (:func:`~omoide.memory.extraction.disclosure.told_readings`); ``None`` otherwise."""
    text = sentence.text.strip()
    if not text or len(text) > FRAGMENT_CHARS or not states_first(sentence):
        return None
    return None if _not_of_the_viewer(text) or _names_the_speaker(text) else text


def _past_the_stream(sentence: Sentence) -> str | None:
    """What ``sentence`` says besides its clauses about the stream or to someone, if
    anything: the longest run of clauses between them, in characters, the first on a tie
    ("아 방송 늦게 옴, 집 오니까 게코가 허물 껴있어서…": the gecko; "PC방 야간 알바 중인데
    손님 없어서 방송 보는 중 사장님한텐 비밀": the night shift; "so tired, watching the
    stream rn, I just got engaged": the engagement)."""
    clauses = sentence.clauses
    runs: list[list[Clause]] = [[]]
    for clause in clauses:
        if _not_of_the_viewer(clause.text):
            runs.append([])
        else:
            runs[-1].append(clause)
    best = max(runs, key=lambda run: sum(len(clause.text) for clause in run))
    if not best or len(best) == len(clauses):
        return None
    first, last = best[0], best[-1]
    return sentence.text[first.start : last.start + len(last.text)].strip()


def _not_of_the_viewer(text: str) -> bool:
    said = _PREFACE.sub(" ", text)
    return bool(ABOUT_THE_STREAM.search(said) or _ADDRESSED.search(said))


def about_the_viewer(text: str) -> bool:
    """Whether ``text`` speaks of the speaker: not of the stream, not to someone, and in
    English with a word of the speaker (the other languages drop the subject)."""
    if _not_of_the_viewer(text):  # "guess what", "跟你们说": to the audience, about oneself
        return False
    return _names_the_speaker(text)


def _names_the_speaker(text: str) -> bool:
    """A word of the speaker in English, or a script that drops the subject."""
    return _SPEAKER.search(text) is not None or _HANGUL_OR_KANA_OR_HAN.search(text) is not None


MIN_TOLD_REST = 6
"""In English-equivalent characters (:func:`~omoide.memory.patterns.english_equivalent_length`):
what a sentence naming a person says besides the person and the speaker ("my mum. my mum
does" names the mother and tells nothing of her; "my mum is a nurse", "我妈做饭" do)."""
_SELF_WORDS = re.compile(
    r"\b(?:my|our|me|i|i'm|im|we)\b|(?<![가-힣])(?:우리|내|제|나|저)(?![가-힣])"
    r"|うちの|私の|僕の|俺の|我的|我家|我们|我",
    re.IGNORECASE,
)
_WORDS = re.compile(r"[^\W_]+")


def says_more_than(read: str, word: str) -> bool:
    """Whether ``read`` tells something besides naming ``word`` (a person) and the
    speaker."""
    rest = _SELF_WORDS.sub(" ", read.replace(word, " ", 1))
    return english_equivalent_length("".join(_WORDS.findall(rest))) >= MIN_TOLD_REST
