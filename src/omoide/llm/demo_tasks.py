"""The demo model's answers to omoide's own background tasks, read from their prompts.

omoide's stream prompts name their task on the system prompt's first line (``omoide task:
diary``, ``omoide task: identity-diff``, ``omoide task: viewer-batch``) and carry their
data in a fixed layout, which a real model reads as text and this module reads
deterministically. Each answer is valid output for the task's own parser and says it was
written by the scripted demo model, so nobody takes it for a language model's work:

* a diary entry (``{"entry", "mood", "topics"}``) in the comments' language, naming the
  stream's topics, its most active viewers and its mood, ending with the topic line of
  the digest (``Topics: Minecraft (5), games (2).``);
* an identity diff that adds ONE like about the diary's most frequent topic not yet
  among the likes, written in the likes' language and labelled :data:`SCRIPTED_LABEL`
  (``{}`` when the likes are protected, full, or already cover every topic);
* a viewer summary (``{"facts": [], "summary"}``): the facts were already taken from the
  comments by the rule extractor when they arrived.

Nothing here sees anything a real model would not: only the messages.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from omoide.llm.base import ChatMessage
from omoide.llm.demo_language import language_named, text_language

DIARY_TASK: Final = "omoide task: diary"
IDENTITY_TASK: Final = "omoide task: identity-diff"
VIEWER_BATCH_TASK: Final = "omoide task: viewer-batch"
"""The task lines of :mod:`omoide.stream` prompts (a test pins them to the originals)."""

SCRIPTED_LABEL: Final = "scripted demo model"
SCRIPTED_DIARY_PREFIX: Final = (
    "Scripted demo diary (omoide's offline demo model wrote this, not a language model)."
)
SCRIPTED_SUMMARY_PREFIX: Final = (
    "Scripted demo summary (omoide's offline demo model wrote this, not a language model)."
)
MAX_LIST_ITEMS: Final = 40
SUMMARY_FACTS = 3
QUOTE_CHARS = 80

_RANKED_ITEM = re.compile(r"(?:^|, )(.+?) \((\d+)\)(?=, |$)")
_TOPICS_LINE = re.compile(r"^Topics: (.+)\.\s*$", re.MULTILINE)
_MOODS_LINE = re.compile(r"^Moods and signals: (.+)\.\s*$", re.MULTILINE)
_VIEWERS_LINE = re.compile(r"^Most active viewers: (.+)\.\s*$", re.MULTILINE)
_COUNTS_LINE = re.compile(r"^(\d+) comments \(numbers .*\) from (\d+) viewers", re.MULTILINE)
_STREAM_LINE = re.compile(r"^Stream (.+), diary entry (\d+)\.$", re.MULTILINE)
_WRITE_IN = re.compile(r"^Write in (.+?)\. At most", re.MULTILINE)
_PROTECTED_LINE = re.compile(r"Never change these fields: (.+?)\.$", re.MULTILINE)
_ITEMS_LINE = re.compile(r"at most (\d+) items")
_DEFINITION = "Your current character definition:\n"
_DIARY = "\n\nYour diary entry:\n"

_MOODS: Final = {
    "enthusiasm about things they like": (
        "excited",
        {
            "en": "Everyone lit up talking about the things they love.",
            "ko": "다들 좋아하는 것 이야기로 신나 있었다.",
            "ja": "みんな好きなものの話で盛り上がってた。",
            "zh": "大家聊起喜欢的东西都特别兴奋。",
        },
    ),
    "thanks and affection": (
        "grateful",
        {
            "en": "I got so many kind words tonight.",
            "ko": "따뜻한 말을 정말 많이 들었다.",
            "ja": "あったかい言葉をたくさんもらった。",
            "zh": "今天收到了好多温暖的话。",
        },
    ),
    "tiredness, worry or sadness": (
        "concerned",
        {
            "en": "Some of them were tired or having a hard time; I hope they rest well.",
            "ko": "지치거나 힘든 사람도 있었다. 다들 푹 쉬었으면 좋겠다.",
            "ja": "疲れてる人もいたな。ゆっくり休んでほしい。",
            "zh": "有人很累或者不太开心，希望他们好好休息。",
        },
    ),
}
_DIARY_LINES: Final = {
    "en": {
        "counts": "Stream {stream} is behind me: {comments} comments from {viewers} viewers.",
        "topics": "We talked most about {topics}.",
        "viewers": "{first} was the liveliest in chat{others}.",
        "others": ", with {names} close behind",
        "closing": "I want to remember what everyone told me, and bring up {topic} again.",
        "quiet": "I want to remember what everyone told me.",
        "and": " and ",
        "list": ", ",
    },
    "ko": {
        "counts": "스트림 {stream} 끝! 시청자 {viewers}명이 댓글 {comments}개를 남겨 줬다.",
        "topics": "제일 많이 나온 이야기는 {topics}.",
        "viewers": "{first} 님이 제일 활발했고{others}.",
        "others": ", {names} 님도 함께해 줬다",
        "closing": "다들 들려준 이야기를 잘 기억해 뒀다가, 다음에 {topic} 이야기를 또 해야지.",
        "quiet": "다들 들려준 이야기를 잘 기억해 둬야지.",
        "and": ", 그리고 ",
        "list": ", ",
    },
    "ja": {
        "counts": "配信{stream}おしまい！{viewers}人から{comments}件のコメントをもらった。",
        "topics": "いちばん盛り上がった話題は{topics}。",
        "viewers": "{first}さんがいちばん元気で{others}。",
        "others": "、{names}さんも一緒にいてくれた",
        "closing": "みんなが話してくれたことをちゃんと覚えておいて、次も{topic}の話をしたいな。",
        "quiet": "みんなが話してくれたことをちゃんと覚えておこう。",
        "and": "と",
        "list": "、",
    },
    "zh": {
        "counts": "直播{stream}结束啦！今天有{viewers}位观众留了{comments}条评论。",
        "topics": "聊得最多的是{topics}。",
        "viewers": "{first}最活跃{others}。",
        "others": "，{names}也一直陪着我",
        "closing": "要好好记住大家跟我说的话，下次再聊{topic}。",
        "quiet": "要好好记住大家跟我说的话。",
        "and": "和",
        "list": "、",
    },
}
_LIKE_ITEMS: Final = {
    "en": "talking about {topic} with chat ({label})",
    "ko": "방송에서 시청자들과 {topic} 이야기하기 ({label})",
    "ja": "配信でみんなと{topic}の話をすること（{label}）",
    "zh": "在直播里和观众聊{topic}（{label}）",
}


@dataclass(frozen=True, slots=True)
class _Digest:
    """What a diary prompt says about its stretch of the stream."""

    stream: str
    comments: int
    viewers: int
    topics: tuple[str, ...]
    moods: tuple[str, ...]
    active: tuple[str, ...]
    samples: tuple[tuple[str, str], ...]


def task_reply(messages: Sequence[ChatMessage]) -> str | None:
    """The answer to one of omoide's stream tasks, or ``None`` for any other request."""
    system = next((m.content for m in messages if m.role == "system"), "")
    request = next((m.content for m in messages if m.role == "user"), "")
    task = system.split("\n", 1)[0].strip()
    if task == DIARY_TASK:
        return diary_reply(system, request)
    if task == IDENTITY_TASK:
        return identity_reply(system, request)
    if task == VIEWER_BATCH_TASK:
        return viewer_reply(request)
    return None


def _ranked(line: re.Pattern[str], text: str) -> tuple[str, ...]:
    found = line.search(text)
    if found is None:
        return ()
    return tuple(item.group(1) for item in _RANKED_ITEM.finditer(found.group(1)))


def _samples(request: str) -> tuple[tuple[str, str], ...]:
    samples: list[tuple[str, str]] = []
    for line in request.splitlines():
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            samples.append((str(value.get("viewer", "")), str(value.get("comment", ""))))
    return tuple(samples)


def read_digest(request: str) -> _Digest:
    stream = _STREAM_LINE.search(request)
    counts = _COUNTS_LINE.search(request)
    samples = _samples(request)
    by_count = Counter(viewer for viewer, _ in samples if viewer)
    active = _ranked(_VIEWERS_LINE, request) or tuple(name for name, _ in by_count.most_common())
    return _Digest(
        stream=stream.group(1) if stream else "",
        comments=int(counts.group(1)) if counts else len(samples),
        viewers=int(counts.group(2)) if counts else len(by_count),
        topics=_ranked(_TOPICS_LINE, request),
        moods=_ranked(_MOODS_LINE, request),
        active=active,
        samples=samples,
    )


def _diary_language(system: str, digest: _Digest) -> str:
    asked = _WRITE_IN.search(system)
    if asked is not None and not asked.group(1).startswith("the language most"):
        named = language_named(asked.group(1))
        if named is not None:
            return named
    spoken = Counter(text_language(comment, fallback="") for _, comment in digest.samples)
    spoken.pop("", None)
    return spoken.most_common(1)[0][0] if spoken else "en"


def _joined(items: Sequence[str], words: dict[str, str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return words["list"].join(items[:-1]) + words["and"] + items[-1]


def _named(name: str, language: str) -> str:
    """A viewer's name set apart from the words around it: Japanese and Chinese do not
    space words, and forgetting a viewer finds their name as a whole word."""
    return f"「{name}」" if language in ("ja", "zh") else name


def _diary_text(digest: _Digest, language: str) -> tuple[str, str]:
    words = _DIARY_LINES[language]
    lines = [
        SCRIPTED_DIARY_PREFIX,
        words["counts"].format(
            stream=digest.stream, comments=digest.comments, viewers=digest.viewers
        ),
    ]
    if digest.topics:
        lines.append(words["topics"].format(topics=_joined(digest.topics[:2], words)))
    if digest.active:
        first, *others = [_named(name, language) for name in digest.active[:3]]
        names = words["others"].format(names=words["list"].join(others)) if others else ""
        lines.append(words["viewers"].format(first=first, others=names))
    mood = "happy"
    known = next((name for name in digest.moods if name in _MOODS), None)
    if known is not None:
        mood, sentences = _MOODS[known]
        lines.append(sentences[language])
    closing = words["closing"] if digest.topics else words["quiet"]
    lines.append(closing.format(topic=digest.topics[0] if digest.topics else ""))
    return "\n".join(lines), mood


def diary_reply(system: str, request: str) -> str:
    """``{"entry", "mood", "topics"}`` from a diary prompt's digest; the entry ends with
    the digest's own topic line (what :func:`identity_reply` reads back)."""
    digest = read_digest(request)
    text, mood = _diary_text(digest, _diary_language(system, digest))
    topic_line = _TOPICS_LINE.search(request)
    if topic_line is not None:
        text += "\n" + topic_line.group(0).strip()
    reply = {"entry": text, "mood": mood, "topics": list(digest.topics[:8])}
    return json.dumps(reply, ensure_ascii=False)


def _identity_request(request: str) -> tuple[dict[str, object], str] | None:
    """The definition and the diary entry an identity prompt carries."""
    if not request.startswith(_DEFINITION) or _DIARY not in request:
        return None
    definition_text, diary_text = request[len(_DEFINITION) :].split(_DIARY, 1)
    try:
        definition, diary = json.loads(definition_text), json.loads(diary_text)
    except ValueError:
        return None
    if not isinstance(definition, dict) or not isinstance(diary, dict):
        return None
    entry = diary.get("diary_entry")
    return definition, entry if isinstance(entry, str) else ""


def _allowed_items(system: str) -> int:
    found = _ITEMS_LINE.search(system)
    return int(found.group(1)) if found else 0


def _protected(system: str) -> set[str]:
    found = _PROTECTED_LINE.search(system)
    return {name.strip() for name in found.group(1).split(",")} if found else set()


def identity_reply(system: str, request: str) -> str:
    """A diff adding one like about the diary's top new topic, or ``{}`` (see module)."""
    read = _identity_request(request)
    if read is None or "likes" in _protected(system) or _allowed_items(system) < 1:
        return "{}"
    definition, entry = read
    likes = definition.get("likes")
    if not isinstance(likes, list) or len(likes) >= MAX_LIST_ITEMS:
        return "{}"
    current = [str(like) for like in likes]
    folded = " ".join(current).casefold()
    topic = next((t for t in _ranked(_TOPICS_LINE, entry) if t.casefold() not in folded), None)
    if topic is None:
        return "{}"
    language = text_language(" ".join(current), fallback="en")
    item = _LIKE_ITEMS[language].format(topic=topic, label=SCRIPTED_LABEL)
    return json.dumps({"likes": [*current, item]}, ensure_ascii=False)


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1] + "…"


def viewer_reply(request: str) -> str:
    """``{"facts": [], "summary"}`` from a viewer batch's comments and known facts."""
    try:
        data = json.loads(request)
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    name = str(data.get("viewer_name") or "This viewer")
    comments = [c for c in data.get("comments") or [] if isinstance(c, dict)]
    facts = [f for f in data.get("known_facts") or [] if isinstance(f, dict)]
    parts = [SCRIPTED_SUMMARY_PREFIX, f"{name} wrote {len(comments)} comment(s) in this batch."]
    known = [_quote(str(fact.get("fact", ""))) for fact in facts[:SUMMARY_FACTS]]
    if any(known):
        parts.append("Known: " + "; ".join(k for k in known if k) + ".")
    if comments:
        parts.append(f'Latest comment: "{_quote(str(comments[-1].get("comment", "")))}"')
    return json.dumps({"facts": [], "summary": " ".join(parts)}, ensure_ascii=False)
