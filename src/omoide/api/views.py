"""Response models, and how library values become them.

Every response has an explicit model, so the OpenAPI document shows exactly what comes
back. Times are ISO 8601 in UTC. A model that mirrors one library value is read from that
value's attributes (:class:`LibraryView`); a field named differently in the API says which
attribute it comes from (``validation_alias``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from omoide.domain import (
    EmotionRecord,
    Episode,
    Fact,
    FactCategory,
    ScopeExport,
    ScoringMethod,
    Tombstone,
    TrustState,
)
from omoide.memory.emotions import EmotionSummary
from omoide.memory.ranking import Ranked, ScoreComponents
from omoide.memory.turns import StoredTurn
from omoide.metadata import MetadataValue

if TYPE_CHECKING:  # the CLI prints these models without loading recall
    from omoide.memory.context import MemoryContext
    from omoide.memory.recall import Recollection


class LibraryView(BaseModel):
    """A response model read from a library value's attributes, or built by field name."""

    model_config = ConfigDict(from_attributes=True, validate_by_name=True)


class ComponentsOut(LibraryView):
    """Why a memory ranked where it did: normalised components in [0, 1], their weighted
    mean ``total``, and the raw values before normalisation."""

    relevance: float
    recency: float
    importance: float
    total: float
    raw_relevance: float
    raw_recency: float
    raw_importance: float
    neighbour_of: str | None = Field(
        default=None,
        description="Set when the memory ranked for being recorded next to this episode: "
        "the components are that episode's, scaled",
    )
    associated: bool = Field(
        default=False,
        description="Set when the relevance is the lift a told exchange gets for being about "
        "what the message cues (a walk, the dog), not its search relevance",
    )

    @classmethod
    def of(cls, components: ScoreComponents) -> ComponentsOut:
        return cls.model_validate(components)


class EpisodeOut(LibraryView):
    """One remembered exchange."""

    episode_id: str = Field(validation_alias="id")
    user_message: str
    bot_message: str
    timestamp: datetime = Field(
        description="When the exchange happened", validation_alias="recorded_at"
    )
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
        return cls.model_validate(episode)


class FactOut(LibraryView):
    """Something believed about the viewer, with provenance and validity times."""

    fact_id: str = Field(validation_alias="id")
    text: str
    category: FactCategory
    confidence: float = Field(description="How likely it is true")
    salience: float = Field(description="How much it matters")
    confirmation_count: int
    trust: TrustState
    current: bool = Field(
        description="Neither superseded nor contradicted", validation_alias="is_current"
    )
    recorded_at: datetime
    valid_from: datetime
    valid_to: datetime | None
    superseded_at: datetime | None
    supersedes: str | None = Field(description="The fact id this version replaced")
    source_episode_ids: list[str]
    recall_count: int
    last_recalled_at: datetime | None
    slot: str | None = Field(
        default=None, description='What the fact fills ("home", "pet:猫", "like:<object>")'
    )
    terms: list[str] = Field(default_factory=list, description="Key terms as the viewer said them")

    @classmethod
    def of(cls, fact: Fact) -> FactOut:
        return cls.model_validate(fact)


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


class FactChangeOut(LibraryView):
    action: str = Field(description="add | confirm | update | delete | end")
    fact_id: str
    text: str
    replaced_fact_id: str | None


class TurnOut(LibraryView):
    """What remembering one exchange did."""

    episode_id: str | None = Field(description="None when the exchange was not worth storing")
    importance: float
    stored: bool
    scoring: ScoringMethod
    signals: list[str] = Field(description="Why it scored as it did")
    timestamp: datetime = Field(validation_alias="recorded_at")
    fact_changes: list[FactChangeOut]
    extraction_failed: bool

    @classmethod
    def of(cls, stored: StoredTurn) -> TurnOut:
        return cls.model_validate(stored)


class TurnBatchOut(BaseModel):
    turns: list[TurnOut] = Field(description="One outcome per turn, in the order given")


class TombstoneOut(LibraryView):
    """What remains of a deleted memory: never its content."""

    memory_id: str
    kind: str
    deleted_at: datetime
    reason: str

    @classmethod
    def of(cls, tombstone: Tombstone) -> TombstoneOut:
        return cls.model_validate(tombstone)


class EmotionOut(LibraryView):
    emotion_id: str = Field(validation_alias="id")
    emotion: str
    intensity: float
    timestamp: datetime = Field(validation_alias="recorded_at")
    trigger_topics: list[str]
    episode_id: str | None

    @classmethod
    def of(cls, record: EmotionRecord) -> EmotionOut:
        return cls.model_validate(record)


class EmotionSummaryOut(LibraryView):
    days: int
    dominant: str | None
    average_intensity: float | None
    counts: dict[str, int]
    hard_days: list[date]
    record_count: int

    @classmethod
    def of(cls, summary: EmotionSummary) -> EmotionSummaryOut:
        return cls.model_validate(summary)


class EmotionsOut(BaseModel):
    summary: EmotionSummaryOut
    records: list[EmotionOut] = Field(description="The records summarised, oldest first")


class DisplayNameOut(LibraryView):
    """A name the viewer went by (chat ``user_name``, a stream comment's ``display_name``)."""

    name: str
    first_seen_at: datetime
    last_seen_at: datetime


class ExportOut(BaseModel):
    """Everything stored about one viewer: facts include superseded versions."""

    character_id: str
    user_id: str
    episodes: list[EpisodeOut]
    facts: list[FactOut]
    emotions: list[EmotionOut]
    tombstones: list[TombstoneOut]
    display_names: list[DisplayNameOut] = Field(
        default_factory=list, description="The names the viewer went by, latest first"
    )

    @classmethod
    def of(cls, export: ScopeExport) -> ExportOut:
        return cls(
            character_id=export.scope.character_id,
            user_id=export.scope.user_id or "",
            episodes=[EpisodeOut.of(episode) for episode in export.episodes],
            facts=[FactOut.of(fact) for fact in export.facts],
            emotions=[EmotionOut.of(record) for record in export.emotions],
            tombstones=[TombstoneOut.of(tombstone) for tombstone in export.tombstones],
            display_names=[DisplayNameOut.model_validate(n) for n in export.display_names],
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
