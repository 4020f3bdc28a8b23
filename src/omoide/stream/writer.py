"""The stream's write path: the memory pipeline with rules only, never a language model.

A stream brings hundreds of comments a minute. The service's own write path may ask a
model to score ambiguous turns and to extract facts (one call per turn); on a stream that
would put a model call behind every comment. So stream ingestion gets a second
:class:`~omoide.memory.remember.Rememberer` over the SAME store, embedder and
:class:`~omoide.memory.facts.FactKeeper`, built with the rule scorer and the rule
extractor. Model work for a stream is batched per viewer instead (see
:mod:`omoide.stream.viewers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from omoide.clock import Clock
from omoide.domain import TurnInput
from omoide.embed.base import Embedder
from omoide.memory.config import WriteConfig
from omoide.memory.extraction.disclosure import DisclosureModel
from omoide.memory.extraction.rules import RuleFactExtractor
from omoide.memory.facts.keeper import FactKeeper
from omoide.memory.importance import ImportanceScorer
from omoide.memory.remember import Rememberer, TurnWriting
from omoide.memory.turns import StoredTurn
from omoide.metrics import Metrics


class InteractionWriter(Protocol):
    """Remembers a batch of one character's exchanges in one transaction."""

    async def store_interactions(
        self, character_id: str, turns: Sequence[TurnInput]
    ) -> list[StoredTurn]: ...


class RuleOnlyWriter:
    """An :class:`InteractionWriter` whose scorer and extractor are rules only."""

    def __init__(
        self,
        *,
        store: TurnWriting,
        embedder: Embedder,
        facts: FactKeeper,
        clock: Clock,
        metrics: Metrics,
        store_threshold: float,
        fact_extraction_threshold: float,
        disclosure_model: DisclosureModel | None = None,
    ) -> None:
        config = WriteConfig(
            store_threshold=store_threshold, fact_extraction_threshold=fact_extraction_threshold
        )
        self._rememberer = Rememberer(
            store=store,
            embedder=embedder,
            scorer=ImportanceScorer(llm=None, metrics=metrics, store_threshold=store_threshold),
            extractor=RuleFactExtractor(),
            facts=facts,
            config=config,
            clock=clock,
            metrics=metrics,
            disclosure_model=disclosure_model,
        )

    async def store_interactions(
        self, character_id: str, turns: Sequence[TurnInput]
    ) -> list[StoredTurn]:
        return await self._rememberer.remember(character_id, turns)
