"""The built-in responder of :class:`~omoide.llm.scripted.ScriptedChatModel`, for demos.

It needs no model and is deterministic. Asked for JSON (``json_mode``, or a system message
that mentions JSON), it answers with an empty but valid value: ``[]`` when the first bracket
after the last mention of JSON is ``[``, otherwise ``{}``. Otherwise it answers the last
user message in that message's language (Japanese, Korean or English) with a leading
``[EMOTION:name]`` tag (happy, sad, curious or excited, chosen by keywords), a short quote of
what was said and, when the system prompt's ``<memories>`` section lists remembered things
as ``- `` bullets, the one sharing the most words with the message (else the first, the
section's best), so a demo shows memory being used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.llm.base import ChatMessage

_JSON_WORD = re.compile(r"json", re.IGNORECASE)
_KANA_OR_HAN = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_BULLET = re.compile(r"^\s*(?:[-*•・]|\d+[.)])\s+(.+?)\s*$", re.MULTILINE)
_WORD = re.compile(r"\w+")
_PARENTHESISED = re.compile(r"\s*[(（][^()（）]*[)）]")
_MEMORIES = re.compile(r"<memories>(.*?)</memories>", re.DOTALL)
_QUOTE_LIMIT = 40
_SHARED_WORDS = 2
"""A bullet must share this many words with the message to win over the section's own
first line: one shared word ("요즘", "today") is as often chance as a match."""

_SAD_WORDS = (
    "sad", "tired", "lonely", "hard day", "exhausted", "cry", "miss ",
    "悲し", "疲れ", "寂し", "辛い", "つらい", "泣",
    "슬퍼", "슬프", "힘들", "피곤", "외로",
)  # fmt: skip
_EXCITED_WORDS = ("amazing", "awesome", "finally", "great news", "すごい", "やった", "대박")

_OPENERS = {
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


def _language(text: str) -> str:
    if _HANGUL.search(text):
        return "ko"
    return "ja" if _KANA_OR_HAN.search(text) else "en"


def _emotion(text: str) -> str:
    lowered = text.lower()
    if any(word in lowered for word in _SAD_WORDS):
        return "sad"
    if any(word in lowered for word in _EXCITED_WORDS) or lowered.rstrip().endswith("!"):
        return "excited"
    if lowered.rstrip().endswith(("?", "？")):
        return "curious"
    return "happy"


def _remembered(system_prompt: str, said: str) -> str | None:
    """The remembered bullet (inside ``<memories>``) sharing the most words with what was
    said (at least two words); else the first one (the section is in priority order: the
    viewer profile, then the best matches). Bullets elsewhere in the prompt (the
    character's personality, the relationship) are not memories."""
    block = _MEMORIES.search(system_prompt)
    if block is None:
        return None
    said_words = {word.lower() for word in _WORD.findall(said)}
    bullets = [
        _PARENTHESISED.sub("", bullet).strip().strip('"')
        for bullet in _BULLET.findall(block.group(1))
    ]
    if not bullets:
        return None
    overlaps = [len(said_words & {word.lower() for word in _WORD.findall(b)}) for b in bullets]
    best = max(range(len(bullets)), key=lambda index: (overlaps[index], -index))
    return bullets[best] if overlaps[best] >= _SHARED_WORDS else bullets[0]


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _QUOTE_LIMIT else flat[: _QUOTE_LIMIT - 1] + "…"


def character_reply(messages: Sequence[ChatMessage]) -> str:
    said = next((m.content for m in reversed(messages) if m.role == "user"), "")
    system_prompt = "\n".join(m.content for m in messages if m.role == "system")
    language, emotion = _language(said), _emotion(said)
    opener = _OPENERS[language][emotion]
    memory = _remembered(system_prompt, said)
    if language == "ja":
        recalled = f"覚えてるよ、{memory}。" if memory else ""
        return f"[EMOTION:{emotion}] {opener}「{_quote(said)}」だね。{recalled}もっと聞かせて！"
    if language == "ko":
        recalled = f"기억나요, {memory}. " if memory else ""
        return f'[EMOTION:{emotion}] {opener} "{_quote(said)}" 말이죠? {recalled}더 얘기해 줘요~'
    recalled = f"I remember: {memory}. " if memory else ""
    return f'[EMOTION:{emotion}] {opener} You said "{_quote(said)}". {recalled}Tell me more~'


def demo_responder(messages: Sequence[ChatMessage]) -> str:
    """Empty JSON when the prompt asks for JSON, else an in-character reply with a tag."""
    if asks_for_json(messages):
        return empty_json_reply(messages)
    return character_reply(messages)
