"""What the reply path's store reads found for one message, as one finding; which
episodes are outdated (they first told a fact that no longer holds)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from omoide.domain import EmotionRecord, Episode, Fact
from omoide.store.base import FactFilter, Hit, ReplyFound


@dataclass(slots=True)
class ReplyFinding:
    """What the store found for one message, joined from the parts read for it."""

    episode_vector: list[Hit[Episode]]
    episode_keyword: list[Hit[Episode]]
    fact_vector: list[Hit[Fact]]
    fact_keyword: list[Hit[Fact]]
    emotions: list[EmotionRecord]
    current_facts: list[Fact]
    outdated: frozenset[str] = frozenset()
    """Episodes that first told a fact no longer holding (replaced or corrected): not shown."""


EVERY_FACT = FactFilter(include_inactive=True)


def outdated_sources(facts: Sequence[Fact]) -> frozenset[str]:
    """The episodes that first told a fact no longer holding: what a viewer said before
    they moved, changed jobs or corrected themselves is not offered as a memory, even
    beside something that still holds ("대전 사는 직장인인데 오늘도 성심당 빵": the bread is
    a fact of its own, the exchange would tell of the city left). An exchange that only
    said the fact again, on the way to something else, stays; so does one whose fact a
    person reworded (the new version cites the episodes the old one did)."""
    by_id = {fact.id: fact for fact in facts}
    reworded = {
        source
        for fact in facts
        if fact.is_current and fact.supersedes is not None and fact.supersedes in by_id
        for source in fact.source_episode_ids
        if source in by_id[fact.supersedes].source_episode_ids
    }
    return (
        frozenset(
            fact.source_episode_ids[0]
            for fact in facts
            if not fact.is_current and fact.source_episode_ids
        )
        - reworded
    )


def joined(parts: Sequence[ReplyFound], with_profile: bool) -> ReplyFinding:
    """The parts read for one message, as one finding."""
    every = [fact for part in parts for fact in part.facts]
    return ReplyFinding(
        episode_vector=[hit for part in parts for hit in part.episode_vector],
        episode_keyword=[hit for part in parts for hit in part.episode_keyword],
        fact_vector=[hit for part in parts for hit in part.fact_vector],
        fact_keyword=[hit for part in parts for hit in part.fact_keyword],
        emotions=[record for part in parts for record in part.emotions],
        current_facts=[fact for fact in every if fact.is_current],
        outdated=outdated_sources(every) if with_profile else frozenset(),
    )
