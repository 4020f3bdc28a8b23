"""The built-in responder of :class:`~omoide.llm.scripted.ScriptedChatModel`, for demos.

It needs no model and is deterministic. A request from one of omoide's own background
tasks (a diary entry, an identity proposal, a viewer summary: the first line of the
system prompt names the task) gets a valid answer built from the request's data, see
:mod:`omoide.llm.demo_tasks`. Any other request for JSON (``json_mode``, or a system
message that mentions JSON) gets an empty but valid value: ``[]`` when the first bracket
after the last mention of JSON is ``[``, otherwise ``{}``.

A chat message gets a short in-character line in the message's language (Korean,
Japanese, Chinese or English, from its script) with a leading ``[EMOTION:name]`` tag
(happy, sad, curious or excited, chosen by keywords). When the system prompt's
``<memories>`` section holds a remembered detail about the viewer (a line under
``[About the viewer]`` or ``[Facts about the viewer]``), the reply mentions one: the
one sharing the most words with the message, else the section's first (its best), so a
demo shows memory being used. The reply never repeats any other text of the system
prompt (the character sheet, the relationship, the rules), nor the viewer's message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from omoide.llm.base import ChatMessage
from omoide.llm.demo_language import language_named, text_language
from omoide.llm.demo_tasks import task_reply

_JSON_WORD = re.compile(r"json", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_MEMORIES = re.compile(r"<memories>(.*?)</memories>", re.DOTALL)
_QUOTED_LINE = re.compile(r'^\s*-\s+"([^"]+)"')
_SECTION_HEADER = re.compile(r"^\s*\[(.+)\]\s*$")
_DETAIL_SECTIONS: Final = frozenset({"About the viewer", "Facts about the viewer"})
_ENGLISH_PREDICATE = re.compile(r"^(?:[a-z][a-z'’-]*:?\s+)+(?=\S)")
_UNCLEAR_FALLBACK = re.compile(r"When it is unclear[^.]*?, use (\w+)")
_DETAIL_CHARS = 40
_SHARED_WORDS = 2
"""A detail must share this many words with the message to win over the section's own
first line: one shared word ("요즘", "today") is as often chance as a match."""

_SAD_WORDS = (
    "sad", "tired", "lonely", "hard day", "exhausted", "cry", "miss ", "sick",
    "悲し", "疲れ", "寂し", "辛い", "つらい", "泣",
    "슬퍼", "슬프", "힘들", "피곤", "외로", "아파", "감기",
    "难过", "伤心", "累", "寂寞", "孤单", "哭", "生病",
)  # fmt: skip
_EXCITED_WORDS = (
    "amazing", "awesome", "finally", "great news", "すごい", "やった", "대박", "최고",
    "太好了", "厉害", "终于",
)  # fmt: skip

_OPENERS: Final = {
    "en": {
        "happy": "Ehehe, that makes me happy!",
        "sad": "Oh no… that sounds really hard.",
        "curious": "Hmm, good question!",
        "excited": "Whoa, really?!",
    },
    "ja": {
        "happy": "えへへ、うれしいな！",
        "sad": "そっか…それは大変だったね。",
        "curious": "うーん、いい質問だね！",
        "excited": "えっ、ほんとに！？",
    },
    "ko": {
        "happy": "헤헤, 기분 좋아요!",
        "sad": "아이고… 정말 힘들었겠어요.",
        "curious": "음, 좋은 질문이에요!",
        "excited": "와, 진짜요?!",
    },
    "zh": {
        "happy": "嘿嘿，好开心！",
        "sad": "哎呀……那一定很辛苦吧。",
        "curious": "嗯，好问题！",
        "excited": "哇，真的吗？！",
    },
}
_CLOSERS: Final = {
    "en": {
        "sad": "I'm right here with you, okay?",
        "curious": "What do you think?",
        "other": "Tell me more~",
    },
    "ja": {
        "sad": "無理しないで、ここにいるからね。",
        "curious": "どう思う？",
        "other": "もっと聞かせて！",
    },
    "ko": {
        "sad": "무리하지 말고, 제가 옆에 있을게요.",
        "curious": "어떻게 생각해요?",
        "other": "더 얘기해 줘요~",
    },
    "zh": {
        "sad": "别勉强自己，我一直在这里哦。",
        "curious": "你觉得呢？",
        "other": "再多跟我说说吧~",
    },
}
_RECALLS: Final = {
    "en": "Oh, and I remember: {detail}! How's that going?",
    "ja": "そういえば、「{detail}」って言ってたよね！最近はどう？",
    "ko": "참, \u201c{detail}\u201d 얘기 기억하고 있어요! 요즘은 어때요?",
    "zh": "对了，我记得「{detail}」！最近怎么样？",
}


def asks_for_json(messages: Sequence[ChatMessage]) -> bool:
    """Whether a system message mentions JSON (a viewer saying "JSON" does not count)."""
    return any(m.role == "system" and _JSON_WORD.search(m.content) for m in messages)


def empty_json_reply(messages: Sequence[ChatMessage]) -> str:
    """``[]`` or ``{}``, whichever shape the prompt's JSON instructions show first."""
    mentioning = [message.content for message in messages if _JSON_WORD.search(message.content)]
    if not mentioning:
        return "{}"
    text = mentioning[-1]
    after = text[[*_JSON_WORD.finditer(text)][-1].end() :]
    brackets = re.search(r"[\[{]", after)
    return "[]" if brackets is not None and brackets.group() == "[" else "{}"


def _fallback_language(system_prompt: str) -> str:
    """The language the prompt says to use when the viewer's is unclear (else English)."""
    found = _UNCLEAR_FALLBACK.search(system_prompt)
    named = language_named(found.group(1)) if found else None
    return named or "en"


def _emotion(text: str) -> str:
    lowered = text.lower()
    if any(word in lowered for word in _SAD_WORDS):
        return "sad"
    if any(word in lowered for word in _EXCITED_WORDS) or lowered.rstrip().endswith(("!", "！")):
        return "excited"
    if lowered.rstrip().endswith(("?", "？")):
        return "curious"
    return "happy"


def _detail_text(quoted_text: str) -> str:
    """A fact's own words: ``likes 롤 게임`` -> ``롤 게임``; bounded for a spoken line."""
    stripped = _ENGLISH_PREDICATE.sub("", quoted_text).strip(" .")
    words = stripped or quoted_text.strip()
    return words if len(words) <= _DETAIL_CHARS else words[: _DETAIL_CHARS - 1] + "…"


def remembered_details(system_prompt: str) -> list[str]:
    """The quoted texts of the profile and fact lines inside ``<memories>``, in order."""
    block = _MEMORIES.search(system_prompt)
    if block is None:
        return []
    details: list[str] = []
    section = ""
    for line in block.group(1).splitlines():
        header = _SECTION_HEADER.match(line)
        if header is not None:
            section = header.group(1)
            continue
        quoted_text = _QUOTED_LINE.match(line)
        if section in _DETAIL_SECTIONS and quoted_text is not None:
            details.append(quoted_text.group(1).strip())
    return [detail for detail in details if detail]


def _remembered(system_prompt: str, said: str) -> str | None:
    """The detail sharing the most words with what was said (at least two words); else
    the first one (the section is in priority order: profile, then the best matches)."""
    details = remembered_details(system_prompt)
    if not details:
        return None
    said_words = {word.lower() for word in _WORD.findall(said)}
    overlaps = [len(said_words & {word.lower() for word in _WORD.findall(d)}) for d in details]
    best = max(range(len(details)), key=lambda index: (overlaps[index], -index))
    return _detail_text(details[best] if overlaps[best] >= _SHARED_WORDS else details[0])


def character_reply(messages: Sequence[ChatMessage]) -> str:
    """A short in-character line for the last user message (see the module docstring)."""
    said = next((m.content for m in reversed(messages) if m.role == "user"), "")
    system_prompt = "\n".join(m.content for m in messages if m.role == "system")
    language = text_language(said, fallback=_fallback_language(system_prompt))
    emotion = _emotion(said)
    parts = [f"[EMOTION:{emotion}]", _OPENERS[language][emotion]]
    memory = _remembered(system_prompt, said)
    if memory is not None:
        parts.append(_RECALLS[language].format(detail=memory))
    closers = _CLOSERS[language]
    if emotion == "sad" or memory is None:
        parts.append(closers.get(emotion, closers["other"]))
    separator = "" if language in ("ja", "zh") else " "
    return f"{parts[0]} {separator.join(parts[1:])}"


def demo_responder(messages: Sequence[ChatMessage]) -> str:
    """A stream task's answer, empty JSON when the prompt asks for other JSON, else an
    in-character reply with a tag."""
    answer = task_reply(messages)
    if answer is not None:
        return answer
    if asks_for_json(messages):
        return empty_json_reply(messages)
    return character_reply(messages)
