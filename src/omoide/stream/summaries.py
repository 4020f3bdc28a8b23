"""Summaries written without a language model, which say so in their first words.

A viewer's rolling summary falls back to their current facts by type and the topics of
their recent comments; a diary entry falls back to the numbers of the window: comments,
viewers, the most active ones, topics, moods (from the rule signal groups) and the facts
learned. Both are plain English text, searchable like any other memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from omoide.domain import Fact, FactCategory
from omoide.fence import quoted, sanitise_memory_text
from omoide.store.records.stream import DiaryReason, DiaryWindow, ViewerBatch

STRUCTURED_VIEWER_PREFIX: Final = "Structured summary (no language model was used)."
STRUCTURED_DIARY_PREFIX: Final = "Structured diary entry (no language model wrote this)."
MOOD_NAMES: Final = {
    "preference": "enthusiasm about things they like",
    "affection": "thanks and affection",
    "vulnerability": "tiredness, worry or sadness",
    "dislike": "complaints and dislikes",
    "date": "important dates and events",
    "identity": "self-introductions",
    "habit": "routines",
    "unique": "firsts and lasts",
}
FACTS_PER_CATEGORY: Final = 3
QUOTE_CHARS: Final = 120


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1] + "…"


def _ranked(counts: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{name} ({count})" for name, count in counts)


def facts_by_category(facts: Sequence[Fact]) -> str:
    """``preference: likes X, likes Y; emotion: ...`` with the most salient facts first."""
    parts = []
    for category in FactCategory:
        chosen = sorted(
            (fact for fact in facts if fact.category is category),
            key=lambda fact: (-fact.salience, fact.text),
        )[:FACTS_PER_CATEGORY]
        if chosen:
            parts.append(f"{category.value}: " + ", ".join(_quote(f.text) for f in chosen))
    return "; ".join(parts)


def structured_viewer_summary(batch: ViewerBatch, facts: Sequence[Fact]) -> str:
    name = quoted(sanitise_memory_text(batch.display_name))
    lines = [
        f"{STRUCTURED_VIEWER_PREFIX} {name} has written {batch.messages_seen} comments in "
        "streams so far."
    ]
    known = facts_by_category(facts)
    if known:
        lines.append(f"Known: {known}.")
    topics = Counter(topic for c in batch.comments for topic in c.entry.topics)
    if topics:
        lines.append(f"Recent topics: {', '.join(t for t, _ in topics.most_common(5))}.")
    lines.append(f'Latest comment: "{_quote(batch.comments[-1].entry.text)}"')
    return " ".join(lines)


def window_lines(window: DiaryWindow) -> list[str]:
    """The numbers of a diary window, one statement per line (also the model's digest)."""
    stats, job = window.stats, window.job
    span = ""
    if stats.first_time is not None and stats.last_time is not None:
        span = f" between {stats.first_time:%Y-%m-%d %H:%M} and {stats.last_time:%H:%M} UTC"
    lines = [
        f"{stats.comments} comments (numbers {job.from_seq}-{job.to_seq} of the stream) "
        f"from {stats.viewers} viewers{span}.",
        f"I answered {stats.replied}; {stats.stored} were worth remembering; "
        f"{stats.low_signal} were laughter or short reactions.",
    ]
    if stats.top_viewers:
        lines.append(f"Most active viewers: {_ranked(stats.top_viewers)}.")
    if stats.topics:
        lines.append(f"Topics: {_ranked(stats.topics)}.")
    moods = [(MOOD_NAMES.get(name, name), count) for name, count in stats.signals]
    if moods:
        lines.append(f"Moods and signals: {_ranked(moods)}.")
    if window.learned:
        learned = "; ".join(
            f"{quoted(sanitise_memory_text(fact.display_name))} {_quote(fact.text)}"
            for fact in window.learned
        )
        lines.append(f"Learned: {learned}.")
    return lines


def structured_diary(window: DiaryWindow, *, character_name: str) -> str:
    job = window.job
    when = "the stream ended" if job.reason is DiaryReason.END else "a stretch of comments"
    head = (
        f"{STRUCTURED_DIARY_PREFIX} {character_name}'s diary, stream {job.stream_id}, "
        f"entry {job.number}, after {when}."
    )
    if window.stats.comments == 0:
        return f"{head} No new comments since the previous entry."
    return "\n".join([head, *window_lines(window)])
