"""The write path's second look at what the rules took no fact from: the disclosure model.

For each remembered exchange the rules read, the sentences that may tell something about
the viewer (:func:`~omoide.memory.extraction.disclosure.told_readings`, a long one with its
parts of two clauses) and that no rule fact was taken from (:func:`uncovered`) are
embedded — one call for the batch; the vectors
are kept in the fact-vector cache, so a sentence that becomes a fact is not embedded
again — and read by the shipped model
(:func:`~omoide.memory.extraction.disclosure.load_disclosure_model`). A sentence it reads
as a disclosure (a long sentence not read whole: its surest part) becomes a fact candidate
beside the rules' own
(:func:`~omoide.memory.extraction.disclosure.said_candidate`); when the rules found no fact
in the message, the exchange's importance also gets the disclosure bonus they would have
given it (:func:`~omoide.memory.importance.with_disclosure`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from omoide.domain import ScoringMethod
from omoide.embed.base import Embedder
from omoide.memory.config import WriteConfig
from omoide.memory.extraction.disclosure import Reading, said_candidate, told_readings
from omoide.memory.extraction.sentence_models import SentenceModel
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facts.text import object_key, viewer_text
from omoide.memory.facts.vectors import FactVectorCache
from omoide.memory.importance import with_disclosure
from omoide.memory.patterns import english_equivalent_length
from omoide.memory.planning import PlannedTurn, planned_episode
from omoide.metrics import Metrics


def unread(plan: PlannedTurn) -> bool:
    """Whether the disclosure model should read ``plan``'s message: rules extract its facts
    (``foreseen`` known), it is not too small to keep at all (laughter, a greeting), and it
    is kept, or was scored below the store threshold by rules alone (a stream comment)."""
    if plan.foreseen is None or "low_signal" in plan.importance.signals:
        return False
    return plan.episode is not None or plan.importance.method == ScoringMethod.RULES


def uncovered(sentences: Sequence[str], foreseen: Sequence[FactCandidate]) -> list[str]:
    """The ``sentences`` no fact the rules found was taken from (a fact's text is its
    sentence, a part of it, or it and the next: "알바 옮김!! 이제 볼링장에서 일함"): a
    message telling two things, one in a shape the rules read, has the other read by the
    model."""
    taken = [" ".join(candidate.text.split()).casefold() for candidate in foreseen]
    said = [(sentence, " ".join(sentence.split()).casefold()) for sentence in sentences]
    return [
        sentence
        for sentence, read in said
        if not any(text and (text in read or (read and read in text)) for text in taken)
    ]


def disclosed(plan: PlannedTurn, sentences: tuple[str, ...], config: WriteConfig) -> PlannedTurn:
    """``plan`` once the model read ``sentences`` in it as disclosures: its importance
    raised, kept, and the sentences its fact candidates."""
    importance = plan.importance
    if not plan.foreseen:  # the rules found nothing: the model's find counts as theirs would
        importance = with_disclosure(importance, store_threshold=config.store_threshold)
    episode = plan.episode
    if episode is None and importance.worth_storing:
        episode = planned_episode(plan.turn, plan.state, plan.recorded_at, importance)
    elif episode is not None and importance.score != episode.importance:
        episode = replace(episode, importance=importance.score)
    if episode is None:
        return plan
    extracts = importance.score >= config.fact_extraction_threshold
    candidates = (*(plan.foreseen or ()), *(said_candidate(sentence) for sentence in sentences))
    return replace(
        plan,
        importance=importance,
        episode=episode,
        extracts_facts=extracts,
        foreseen=candidates if extracts else (),
    )


class DisclosureReader:
    """Reads the sentences of messages the rules found no fact in."""

    def __init__(
        self,
        *,
        model: SentenceModel,
        embedder: Embedder,
        cache: FactVectorCache,
        config: WriteConfig,
        metrics: Metrics,
    ) -> None:
        self._model = model
        self._config = config
        self._embedder = embedder
        self._cache = cache
        self._metrics = metrics

    async def read_planned(self, planned: tuple[PlannedTurn, ...]) -> tuple[PlannedTurn, ...]:
        """``planned`` with what the model reads in the turns the rules found no fact in."""
        indexes = [index for index, plan in enumerate(planned) if unread(plan)]
        if not indexes:
            return planned
        told = await self.disclosed(
            [planned[index].turn.user_message for index in indexes],
            [planned[index].foreseen or () for index in indexes],
        )
        updated = list(planned)
        for index, sentences in zip(indexes, told, strict=True):
            if sentences:
                updated[index] = disclosed(planned[index], sentences, self._config)
        return tuple(updated)

    async def disclosed(
        self, messages: Sequence[str], foreseen: Sequence[Sequence[FactCandidate]]
    ) -> list[tuple[str, ...]]:
        """For each message, its sentences read as disclosures (in the viewer's words),
        among those no fact in ``foreseen`` (the rules' facts of each message) was taken
        from; a long sentence not read as one gives its part read most surely, if any."""
        readings = [
            _uncovered_readings(told_readings(message), facts)
            for message, facts in zip(messages, foreseen, strict=True)
        ]
        texts = [text for found in readings for reading in found for text in _texts(reading)]
        unique = list(dict.fromkeys(texts))
        if not unique:
            return [() for _ in messages]
        self._metrics.increment("disclosures.read", len(unique))
        logits = self._model.logits(await self._vectors(unique))
        threshold = self._model.threshold
        told = {
            text: float(logit)
            for text, logit in zip(unique, logits, strict=True)
            if logit >= threshold
        }
        chosen = [tuple(_told_text(reading, told) for reading in found) for found in readings]
        self._metrics.increment(
            "disclosures.found", sum(text is not None for c in chosen for text in c)
        )
        return [tuple(text for text in found if text is not None) for found in chosen]

    async def _vectors(self, texts: list[str]) -> np.ndarray:
        """The vectors of ``texts`` (the cache's, the others embedded in one call and kept)."""
        vectors = self._cache.found(texts)
        missing = [text for text in texts if text not in vectors]
        if missing:
            matrix = await self._embedder.embed_documents(missing)
            embedded = {text: matrix[row] for row, text in enumerate(missing)}
            self._cache.keep(embedded)
            vectors = {**vectors, **embedded}
        return np.stack([vectors[text] for text in texts])


def _texts(reading: Reading) -> tuple[str, ...]:
    return (reading.whole, *reading.parts)


def _uncovered_readings(
    readings: Sequence[Reading], foreseen: Sequence[FactCandidate]
) -> list[Reading]:
    """The ``readings`` no fact of ``foreseen`` was taken from; of one a fact was taken from
    a part of, the rest when it is long enough to tell something more."""
    kept = set(uncovered([reading.whole for reading in readings], foreseen))
    rests = (
        reading if reading.whole in kept else _rest_of(reading.whole, foreseen)
        for reading in readings
    )
    return [reading for reading in rests if reading is not None]


REST_MIN_LENGTH = 24
"""In English-equivalent characters: what a sentence says besides the rules' fact in it,
read by the model when at least this long ("…卖了三十瓶面霜 그리고 엄마가 다음 달에 青岛에서
처음으로 나 보러 온대": the rules read a trip in the first clause, the visit is the rest)."""


def _rest_of(sentence: str, foreseen: Sequence[FactCandidate]) -> Reading | None:
    """``sentence`` without the text of the facts taken from parts of it, as a reading."""
    rest = sentence
    for candidate in foreseen:
        if candidate.text and candidate.text != sentence:
            rest = rest.replace(candidate.text, " ")
    if rest == sentence:
        return None
    kept = viewer_text(rest)
    return Reading(kept) if english_equivalent_length(object_key(kept)) >= REST_MIN_LENGTH else None


def _told_text(reading: Reading, told: dict[str, float]) -> str | None:
    """The whole sentence when the model read it as a disclosure, else its part read most
    surely, else nothing."""
    if reading.whole in told:
        return reading.whole
    parts = [part for part in reading.parts if part in told]
    return max(parts, key=lambda part: told[part]) if parts else None
