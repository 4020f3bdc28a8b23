"""The viewer profile as it is shown: groups in reading order, each fact with its scores.

One shape for every shell: ``GET .../profile`` answers with :class:`ProfileOut`, and
``omoide profile --json`` prints the same model.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from omoide.domain import FactCategory, TrustState
from omoide.memory.facets import FACET_LABELS, Facet
from omoide.memory.viewer_profile import ProfileEntry, ViewerProfile


class ProfileFactOut(BaseModel):
    """One fact of the profile, and why it was chosen."""

    fact_id: str
    text: str
    category: FactCategory
    confidence: float = Field(description="How likely it is true")
    salience: float = Field(description="How much it matters")
    confirmation_count: int
    weight: float = Field(description="Salience x confidence x confirmation, in [0, 1]")
    relevance: float = Field(description="Relevance to the message, in [0, 1] (0 without one)")
    score: float = Field(description="The weight and the relevance mixed: what chose the fact")
    recorded_at: datetime
    valid_from: datetime
    trust: TrustState
    slot: str | None = Field(description='What the fact fills ("home", "pet:<species>")')
    terms: list[str] = Field(description="Key terms as the viewer said them")
    source_episode_ids: list[str]

    @classmethod
    def of(cls, entry: ProfileEntry) -> ProfileFactOut:
        fact = entry.fact
        return cls(
            fact_id=fact.id,
            text=fact.text,
            category=fact.category,
            confidence=fact.confidence,
            salience=fact.salience,
            confirmation_count=fact.confirmation_count,
            weight=entry.weight,
            relevance=entry.relevance,
            score=entry.score,
            recorded_at=fact.recorded_at,
            valid_from=fact.valid_from,
            trust=fact.trust,
            slot=fact.slot,
            terms=list(fact.terms),
            source_episode_ids=list(fact.source_episode_ids),
        )


class ProfileGroupOut(BaseModel):
    """One part of the profile (who they are, people and pets, likes, ...)."""

    facet: Facet
    label: str = Field(description="How the prompt names the group")
    facts: list[ProfileFactOut] = Field(description="Best first")


class ProfileOut(BaseModel):
    """What the viewer has told about themselves, as the prompt carries it."""

    character_id: str
    user_id: str
    groups: list[ProfileGroupOut] = Field(description="In reading order; empty groups left out")
    total_facts: int = Field(description="Current facts the profile was chosen from")
    shown: int = Field(description="Facts in the profile")

    @classmethod
    def of(cls, profile: ViewerProfile) -> ProfileOut:
        groups = [
            ProfileGroupOut(
                facet=facet,
                label=FACET_LABELS[facet],
                facts=[ProfileFactOut.of(entry) for entry in entries],
            )
            for facet, entries in profile.by_facet().items()
        ]
        return cls(
            character_id=profile.scope.character_id,
            user_id=profile.scope.user_id or "",
            groups=groups,
            total_facts=profile.total_facts,
            shown=len(profile.entries),
        )
