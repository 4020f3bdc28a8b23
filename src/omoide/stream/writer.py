"""The stream's write path: the memory pipeline with rules only, never a language model.

A stream brings hundreds of comments a minute. The service's own write path may ask a
model to score ambiguous turns and to extract facts (one call per turn); on a stream that
would put a model call behind every comment. So stream ingestion gets a second
:class:`~omoide.memory.remember.Rememberer` over the SAME store, embedder and
:class:`~omoide.memory.facts.FactKeeper`, built with the rule scorer and the rule
extractor (in the composition root, :mod:`omoide.wiring.streams`). Model work for a stream
is batched per viewer instead (see
:mod:`omoide.stream.viewers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from omoide.domain import TurnInput
from omoide.memory.remember import Rememberer
from omoide.memory.turns import StoredTurn


class InteractionWriter(Protocol):
    """Remembers a batch of one character's exchanges in one transaction."""

    async def store_interactions(
        self, character_id: str, turns: Sequence[TurnInput]
    ) -> list[StoredTurn]: ...


class RuleOnlyWriter:
    """An :class:`InteractionWriter` over a :class:`~omoide.memory.remember.Rememberer`
    whose scorer and extractor are rules only (the composition root builds it so)."""

    def __init__(self, rememberer: Rememberer) -> None:
        self._rememberer = rememberer

    async def store_interactions(
        self, character_id: str, turns: Sequence[TurnInput]
    ) -> list[StoredTurn]:
        return await self._rememberer.remember(character_id, turns)
