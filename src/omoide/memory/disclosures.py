"""The write path's second look at what the rules found nothing in: the disclosure model.

For each remembered exchange whose message gave the rules no fact, the sentences that may
tell something about the viewer (:func:`~omoide.memory.extraction.disclosure.told_sentences`)
are embedded — one call for the batch; the vectors are kept in the fact-vector cache, so
a sentence that becomes a fact is not embedded again — and read by the shipped
:class:`~omoide.memory.extraction.disclosure.DisclosureModel`. A sentence it reads as a
disclosure becomes a fact candidate (:func:`~omoide.memory.extraction.disclosure.said_candidate`),
and the exchange's importance gets the disclosure bonus the rules would have given it
(:func:`~omoide.memory.importance.with_disclosure`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from omoide.embed.base import Embedder
from omoide.memory.extraction.disclosure import DisclosureModel, told_sentences
from omoide.memory.facts.vectors import FactVectorCache
from omoide.metrics import Metrics


class DisclosureReader:
    """Reads the sentences of messages the rules found no fact in."""

    def __init__(
        self,
        *,
        model: DisclosureModel,
        embedder: Embedder,
        cache: FactVectorCache,
        metrics: Metrics,
    ) -> None:
        self._model = model
        self._embedder = embedder
        self._cache = cache
        self._metrics = metrics

    async def disclosed(self, messages: Sequence[str]) -> list[tuple[str, ...]]:
        """For each message, its sentences read as disclosures (in the viewer's words)."""
        sentences = [told_sentences(message) for message in messages]
        unique = list(dict.fromkeys(sentence for found in sentences for sentence in found))
        if not unique:
            return [() for _ in messages]
        vectors = self._cache.found(unique)
        missing = [sentence for sentence in unique if sentence not in vectors]
        if missing:
            matrix = await self._embedder.embed_documents(missing)
            embedded = {sentence: matrix[row] for row, sentence in enumerate(missing)}
            self._cache.keep(embedded)
            vectors = {**vectors, **embedded}
        self._metrics.increment("disclosures.read", len(unique))
        verdicts = self._model.discloses(np.stack([vectors[sentence] for sentence in unique]))
        told = {sentence for sentence, yes in zip(unique, verdicts, strict=True) if yes}
        self._metrics.increment("disclosures.found", len(told))
        return [tuple(sentence for sentence in found if sentence in told) for found in sentences]
