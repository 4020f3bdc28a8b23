"""The memory pipeline: remembering (scoring, extraction, facts) and recalling."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import anyio

from omoide.character.library import CharacterLibrary
from omoide.clock import Clock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.embed.fused import FusedEmbedder
from omoide.embed.threshold_cache import ThresholdCache, cached_duplicate_threshold
from omoide.llm.base import ChatModel
from omoide.memory.extraction.disclosure import load_disclosure_model
from omoide.memory.extraction.lasting import load_lasting_model
from omoide.memory.extraction.llm import LLMFactExtractor
from omoide.memory.extraction.rules import RuleFactExtractor
from omoide.memory.extraction.sentence_models import SentenceModel, model_key
from omoide.memory.extraction.values import FactExtractor
from omoide.memory.facts.corrections import FactCorrector
from omoide.memory.facts.keeper import FactKeeper
from omoide.memory.importance import ImportanceScorer
from omoide.memory.manager import MemoryManager
from omoide.memory.remember import Rememberer
from omoide.memory.tokens import SentencePieceTokenCounter
from omoide.metrics import Metrics
from omoide.wiring.recall import build_recaller, memory_config
from omoide.wiring.storage import MemoryBackend


def build_extractor(
    settings: Settings, chat_model: ChatModel | None, metrics: Metrics
) -> FactExtractor:
    rules = RuleFactExtractor()
    if chat_model is None or not settings.llm_extraction or not settings.uses_real_llm:
        return rules
    return LLMFactExtractor(chat_model, metrics=metrics, fallback=rules)


@dataclass(frozen=True, slots=True)
class RuleReaders:
    """The sentence models shipped for the embedder that rule extraction reads with (none
    with a language model, which reads every message itself and judges what matters)."""

    disclosure_model: SentenceModel | None = None
    lasting_model: SentenceModel | None = None


def rule_readers(embedder: Embedder, *, disclosures: bool, lasting: bool) -> RuleReaders:
    """The disclosure and lasting models shipped for ``embedder`` (the model itself, not a
    wrapper of it), each when it is on."""
    return RuleReaders(
        _sentence_model(embedder, load_disclosure_model) if disclosures else None,
        _sentence_model(embedder, load_lasting_model) if lasting else None,
    )


def _sentence_model(
    embedder: Embedder, load: Callable[[str], SentenceModel | None]
) -> SentenceModel | None:
    """The model shipped for ``embedder``; for a fused embedder, the one of its first part
    that has one, laid into the fused space (it reads exactly what it read of the part)."""
    if not isinstance(embedder, FusedEmbedder):
        return load(embedder.model_name)
    for part in embedder.parts:
        model = load(part.embedder.model_name)
        if model is not None:
            return replace(
                model,
                embedder=model_key(embedder.model_name),
                weights=embedder.lift(part, model.weights),
            )
    return None


@dataclass(frozen=True, slots=True)
class MemoryParts:
    """What the memory pipeline is built over."""

    settings: Settings
    store: MemoryBackend
    model_embedder: Embedder
    """The embedder itself (calibration reads it; the cache would only fill up)."""
    embedder: Embedder
    """The embedder with the query cache, for everything else."""
    chat_model: ChatModel | None
    characters: CharacterLibrary
    clock: Clock
    metrics: Metrics


async def build_facts(parts: MemoryParts) -> FactKeeper:
    """The one fact keeper: its duplicate threshold is calibrated once per embedder."""
    cache = ThresholdCache(parts.settings.data_dir / "calibration.json")
    duplicate = await cached_duplicate_threshold(parts.model_embedder, cache)
    return FactKeeper(
        store=parts.store,
        embedder=parts.embedder,
        duplicate_threshold=duplicate.threshold,
        metrics=parts.metrics,
        batch_limit=parts.settings.fact_batch_limit,
    )


async def build_memory(parts: MemoryParts, facts: FactKeeper) -> MemoryManager:
    settings, model, metrics = parts.settings, parts.chat_model, parts.metrics
    config = memory_config(settings)
    scorer = ImportanceScorer(
        llm=model if settings.llm_importance and settings.uses_real_llm else None,
        metrics=metrics,
        store_threshold=config.write.store_threshold,
    )
    extractor = build_extractor(settings, model, metrics)
    readers = (
        rule_readers(
            parts.model_embedder,
            disclosures=settings.disclosure_model,
            lasting=settings.lasting_model,
        )
        if isinstance(extractor, RuleFactExtractor)
        else RuleReaders()
    )
    rememberer = Rememberer(
        store=parts.store,
        embedder=parts.embedder,
        scorer=scorer,
        extractor=extractor,
        facts=facts,
        config=config.write,
        clock=parts.clock,
        metrics=metrics,
        disclosure_model=readers.disclosure_model,
        lasting_model=readers.lasting_model,
    )
    recaller = await build_recaller(
        settings,
        parts.store,
        embedder=parts.embedder,
        model_embedder=parts.model_embedder,
        counter=await anyio.to_thread.run_sync(SentencePieceTokenCounter),
        names=parts.characters,
        clock=parts.clock,
    )
    return MemoryManager(
        listing=parts.store,
        deletion=parts.store,
        viewers=parts.store,
        maintenance=parts.store,
        rememberer=rememberer,
        recaller=recaller,
        corrections=FactCorrector(store=parts.store, embedder=parts.embedder),
        config=config,
        clock=parts.clock,
    )
