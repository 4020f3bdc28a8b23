"""Typed tuning for the memory pipeline; built from Settings in the composition root."""

from __future__ import annotations

from dataclasses import dataclass, field

from omoide.memory.associations import AssociationConfig
from omoide.memory.forgetting import DecayPolicy
from omoide.memory.neighbours import NeighbourConfig
from omoide.memory.ranking import KEYWORD_HALF, FusionConfig, RankingWeights
from omoide.memory.viewer_profile import ProfileConfig

SMALL_TALK_IMPORTANCE = 0.4
"""Below this importance an exchange is small talk (the rules score plain talk 0.32, a
disclosure 0.62 or more: ``omoide.memory.importance``)."""


@dataclass(frozen=True, slots=True)
class RecallConfig:
    """How much the reply path looks at and how much it may put in the prompt."""

    episode_candidates: int = 30
    episodes_in_context: int = 5
    fact_candidates: int = 20
    facts_in_context: int = 8
    token_budget: int = 300
    min_relevance: float = 0.1
    """Absolute relevance (:mod:`omoide.memory.ranking`) a memory needs to reach the
    prompt: below it, the best of an unrelated pool is still unrelated."""
    small_talk_relevance: float = 0.2
    """The relevance an exchange scored as small talk (importance below
    :data:`SMALL_TALK_IMPORTANCE`) needs to reach the prompt: a remark about the weather
    or the stream is worth recalling only when the message is clearly about the same
    thing; a weak match leaves its room to what the viewer told about themselves."""
    keyword_half: float = KEYWORD_HALF
    """BM25 per query term at which keyword relevance is 0.5 (:class:`RelevanceScale`)."""
    cued_relevance: float = 0.4
    """The relevance a profile fact gets when the message cues its group
    (:mod:`omoide.memory.facet_cues`): a walk cues the dog, dinner the allergy."""
    associations: AssociationConfig = field(default_factory=AssociationConfig)
    """Told exchanges a message calls up by what they are about (a walk, the dog)."""
    emotion_days: int = 7
    min_importance: float = 0.0
    neighbours: NeighbourConfig = field(default_factory=NeighbourConfig)


@dataclass(frozen=True, slots=True)
class WriteConfig:
    """What is worth keeping and when facts are extracted."""

    store_threshold: float = 0.3
    fact_extraction_threshold: float = 0.0
    related_facts_for_extraction: int = 10


@dataclass(frozen=True, slots=True)
class MemoryConfig:
    ranking: RankingWeights = field(default_factory=RankingWeights)
    fusion: FusionConfig = field(default_factory=FusionConfig)
    recall: RecallConfig = field(default_factory=RecallConfig)
    profile: ProfileConfig = field(default_factory=ProfileConfig)
    write: WriteConfig = field(default_factory=WriteConfig)
    decay: DecayPolicy = field(default_factory=DecayPolicy)
