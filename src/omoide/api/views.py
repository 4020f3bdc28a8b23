"""Response models, and how library values become them.

Every response has an explicit model, so the OpenAPI document shows exactly what comes
back. Times are ISO 8601 in UTC.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from pydantic import BaseModel, Field

from omoide.domain import (
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    MetadataValue,
    ScopeExport,
    ScoringMethod,
    Tombstone,
    TrustState,
)
from omoide.memory.context import MemoryContext
from omoide.memory.emotions import EmotionSummary
from omoide.memory.ranking import Ranked, ScoreComponents
from omoide.memory.recall import Recollection
from omoide.memory.turns import FactChange, StoredTurn


class ComponentsOut(BaseModel):
    """Why a memory ranked where it did: normalised components in [0, 1], their weighted
    mean ``total``, and the raw values before normalisation."""

    relevance: float
    recency: float
    importance: float
    total: float
    raw_relevance: float
    raw_recency: float
    raw_importance: float

    @classmethod
    def of(cls, components: ScoreComponents) -> ComponentsOut:
        return cls(
            relevance=components.relevance,
            recency=components.recency,
            importance=components.importance,
            total=components.total,
            raw_relevance=components.raw_relevance,
            raw_recency=components.raw_recency,
            raw_importance=components.raw_importance,
        )


class EpisodeOut(BaseModel):
    """One remembered exchange."""

    episode_id: str
    user_message: str
    bot_message: str
    timestamp: datetime = Field(description="When the exchange happened")
    importance: float
    scoring: ScoringMethod
    emotion: str
    emotion_intensity: float
    topics: list[str]
    metadata: dict[str, MetadataValue] = Field(description="As given when it was stored")
    recall_count: int
    last_recalled_at: datetime | None
    archived_at: datetime | None

    @classmethod
    def of(cls, episode: Episode) -> EpisodeOut:
        return cls(
            episode_id=episode.id,
            user_message=episode.user_message,
            bot_message=episode.bot_message,
            timestamp=episode.recorded_at,
            importance=episode.importance,
            scoring=episode.scoring,
            emotion=episode.emotion,
            emotion_intensity=episode.emotion_intensity,
            topics=list(episode.topics),
            metadata=dict(episode.metadata),
            recall_count=episode.recall_count,
            last_recalled_at=episode.last_recalled_at,
            archived_at=episode.archived_at,
        )


class FactOut(BaseModel):
    """Something believed about the viewer, with provenance and validity times."""

    fact_id: str
    text: str
    category: FactCategory
    confidence: float = Field(description="How likely it is true")
    salience: float = Field(description="How much it matters")
    confirmation_count: int
    trust: TrustState
    current: bool = Field(description="Neither superseded nor contradicted")
    recorded_at: datetime
    valid_from: datetime
    valid_to: datetime | None
    superseded_at: datetime | None
    supersedes: str | None = Field(description="The fact id this version replaced")
    source_episode_ids: list[str]
    recall_count: int
    last_recalled_at: datetime | None

    @classmethod
    def of(cls, fact: Fact) -> FactOut:
        return cls(
            fact_id=fact.id,
            text=fact.text,
            category=fact.category,
            confidence=fact.confidence,
            salience=fact.salience,
            confirmation_count=fact.confirmation_count,
            trust=fact.trust,
            current=fact.is_current,
            recorded_at=fact.recorded_at,
            valid_from=fact.valid_from,
            valid_to=fact.valid_to,
            superseded_at=fact.superseded_at,
            supersedes=fact.supersedes,
            source_episode_ids=list(fact.source_episode_ids),
            recall_count=fact.recall_count,
            last_recalled_at=fact.last_recalled_at,
        )


class EpisodeHit(EpisodeOut):
    score: float = Field(description="The ranking total, in [0, 1]")
    components: ComponentsOut

    @classmethod
    def ranked(cls, ranked: Ranked[Episode]) -> EpisodeHit:
        base = EpisodeOut.of(ranked.item).model_dump()
        return cls(**base, score=ranked.total, components=ComponentsOut.of(ranked.components))


class FactHit(FactOut):
    score: float = Field(description="The ranking total, in [0, 1]")
    components: ComponentsOut

    @classmethod
    def ranked(cls, ranked: Ranked[Fact]) -> FactHit:
        base = FactOut.of(ranked.item).model_dump()
        return cls(**base, score=ranked.total, components=ComponentsOut.of(ranked.components))


class SearchOut(BaseModel):
    """Ranked memories, best first, each with the components of its score."""

    episodes: list[EpisodeHit]
    facts: list[FactHit]

    @classmethod
    def of(cls, context: MemoryContext, *, limit: int) -> SearchOut:
        return cls(
            episodes=[EpisodeHit.ranked(ranked) for ranked in context.episodes[:limit]],
            facts=[FactHit.ranked(ranked) for ranked in context.facts[:limit]],
        )


class ContextOut(BaseModel):
    """The memory section a reply would get, and the ranked memories it was chosen from."""

    text: str = Field(description="The prompt section (empty when nothing is worth saying)")
    tokens: int
    fact_ids: list[str] = Field(description="Facts in the text, in the order shown")
    episode_ids: list[str] = Field(description="Episodes in the text, in the order shown")
    searched: bool = Field(description="False when the message was too slight to search")
    now: datetime
    facts: list[FactHit]
    episodes: list[EpisodeHit]

    @classmethod
    def of(cls, recollection: Recollection) -> ContextOut:
        rendered, context = recollection.rendered, recollection.context
        return cls(
            text=rendered.text,
            tokens=rendered.tokens,
            fact_ids=list(rendered.fact_ids),
            episode_ids=list(rendered.episode_ids),
            searched=recollection.searched,
            now=recollection.now,
            facts=[FactHit.ranked(ranked) for ranked in context.facts],
            episodes=[EpisodeHit.ranked(ranked) for ranked in context.episodes],
        )


class FactChangeOut(BaseModel):
    action: str = Field(description="add | confirm | update | delete")
    fact_id: str
    text: str
    replaced_fact_id: str | None


class TurnOut(BaseModel):
    """What remembering one exchange did."""

    episode_id: str | None = Field(description="None when the exchange was not worth storing")
    importance: float
    stored: bool
    scoring: ScoringMethod
    signals: list[str] = Field(description="Why it scored as it did")
    timestamp: datetime
    fact_changes: list[FactChangeOut]
    extraction_failed: bool

    @classmethod
    def of(cls, stored: StoredTurn) -> TurnOut:
        return cls(
            episode_id=stored.episode_id,
            importance=stored.importance,
            stored=stored.stored,
            scoring=stored.scoring,
            signals=list(stored.signals),
            timestamp=stored.recorded_at,
            fact_changes=[_change(change) for change in stored.fact_changes],
            extraction_failed=stored.extraction_failed,
        )


def _change(change: FactChange) -> FactChangeOut:
    return FactChangeOut(
        action=change.action,
        fact_id=change.fact_id,
        text=change.text,
        replaced_fact_id=change.replaced_fact_id,
    )


class TurnBatchOut(BaseModel):
    turns: list[TurnOut] = Field(description="One outcome per turn, in the order given")


class TombstoneOut(BaseModel):
    """What remains of a deleted memory: never its content."""

    memory_id: str
    kind: str
    deleted_at: datetime
    reason: str

    @classmethod
    def of(cls, tombstone: Tombstone) -> TombstoneOut:
        return cls(
            memory_id=tombstone.memory_id,
            kind=str(tombstone.kind),
            deleted_at=tombstone.deleted_at,
            reason=tombstone.reason,
        )


class EmotionOut(BaseModel):
    emotion_id: str
    emotion: str
    intensity: float
    timestamp: datetime
    trigger_topics: list[str]
    episode_id: str | None

    @classmethod
    def of(cls, record: EmotionRecord) -> EmotionOut:
        return cls(
            emotion_id=record.id,
            emotion=record.emotion,
            intensity=record.intensity,
            timestamp=record.recorded_at,
            trigger_topics=list(record.trigger_topics),
            episode_id=record.episode_id,
        )


class EmotionSummaryOut(BaseModel):
    days: int
    dominant: str | None
    average_intensity: float | None
    counts: dict[str, int]
    hard_days: list[date]
    record_count: int

    @classmethod
    def of(cls, summary: EmotionSummary) -> EmotionSummaryOut:
        return cls(
            days=summary.days,
            dominant=summary.dominant,
            average_intensity=summary.average_intensity,
            counts=dict(summary.counts),
            hard_days=list(summary.hard_days),
            record_count=summary.record_count,
        )


class EmotionsOut(BaseModel):
    summary: EmotionSummaryOut
    records: list[EmotionOut] = Field(description="The records summarised, oldest first")


class ExportOut(BaseModel):
    """Everything stored about one viewer: facts include superseded versions."""

    character_id: str
    user_id: str
    episodes: list[EpisodeOut]
    facts: list[FactOut]
    emotions: list[EmotionOut]
    tombstones: list[TombstoneOut]

    @classmethod
    def of(cls, export: ScopeExport) -> ExportOut:
        return cls(
            character_id=export.scope.character_id,
            user_id=export.scope.user_id or "",
            episodes=[EpisodeOut.of(episode) for episode in export.episodes],
            facts=[FactOut.of(fact) for fact in export.facts],
            emotions=[EmotionOut.of(record) for record in export.emotions],
            tombstones=[TombstoneOut.of(tombstone) for tombstone in export.tombstones],
        )


class ForgetOut(BaseModel):
    """What forgetting a viewer removed (tombstones remain, without content)."""

    character_id: str
    user_id: str
    episodes: int
    facts: int
    emotions: int


class EpisodePage(BaseModel):
    episodes: list[EpisodeOut] = Field(description="Newest first")
    total: int
    limit: int
    offset: int

    @classmethod
    def of(cls, episodes: Sequence[Episode], *, total: int, limit: int, offset: int) -> EpisodePage:
        items = [EpisodeOut.of(episode) for episode in episodes]
        return cls(episodes=items, total=total, limit=limit, offset=offset)
