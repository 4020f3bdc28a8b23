"""The stream service, built from the same collaborators as the rest of omoide: the same
memory store, embedder, fact keeper (and its batch limit) and identity service, and the
growth logs, each passed on its own to what uses it. Its options are the ``stream_*``
settings (``OMOIDE_STREAM_*``)."""

from __future__ import annotations

from dataclasses import dataclass

from omoide.character.identity import IdentityService
from omoide.character.library import CharacterLibrary
from omoide.clock import Clock
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.errors import ConfigError
from omoide.llm.base import ChatModel
from omoide.memory.config import WriteConfig
from omoide.memory.extraction.rules import RuleFactExtractor
from omoide.memory.facts.keeper import FactKeeper
from omoide.memory.importance import ImportanceScorer
from omoide.memory.remember import Rememberer
from omoide.metrics import Metrics
from omoide.stream.config import StreamConfig
from omoide.stream.diary import DiaryWriter
from omoide.stream.evolution import IdentityEvolver
from omoide.stream.ingest import StreamIngestor
from omoide.stream.logs import DiaryJobLog, StreamLog, ViewerWorkLog
from omoide.stream.service import StreamService
from omoide.stream.viewers import ViewerWorker
from omoide.stream.writer import RuleOnlyWriter
from omoide.wiring.memory import rule_readers
from omoide.wiring.storage import MemoryBackend


def stream_config(settings: Settings) -> StreamConfig:
    """The ``stream_*`` settings as the stream's typed config."""
    return StreamConfig(
        store_threshold=settings.stream_store_threshold,
        fact_extraction_threshold=settings.stream_fact_extraction_threshold,
        read_disclosures=settings.disclosure_model,
        rate_lasting=settings.lasting_model,
        extract_topics=settings.stream_extract_topics,
        viewer_batch_size=settings.stream_viewer_batch_size,
        viewer_idle_seconds=settings.stream_viewer_idle_seconds,
        viewer_min_llm_comments=settings.stream_viewer_min_llm_comments,
        viewers_per_flush=settings.stream_viewers_per_flush,
        diary_every=settings.stream_diary_every,
        digest_comments=settings.stream_digest_comments,
        digest_characters=settings.stream_digest_characters,
        evolve_identity=settings.stream_evolve_identity,
        llm_concurrency=settings.stream_llm_concurrency,
        max_events_per_batch=settings.stream_max_events_per_batch,
    )


def stream_model(settings: Settings, model: ChatModel | None) -> ChatModel | None:
    """The model that does stream work (``OMOIDE_STREAM_LLM``): ``auto`` the configured
    one, a real model or the scripted demo model (which answers the stream tasks offline,
    labelled as scripted); ``on`` whatever is configured; ``off`` none."""
    match settings.stream_llm:
        case "off":
            return None
        case "auto":
            return model if settings.llm != "none" else None
        case "on":
            if model is None:
                raise ConfigError("OMOIDE_STREAM_LLM=on needs a chat model (set OMOIDE_LLM)")
            return model


@dataclass(frozen=True, slots=True)
class StreamParts:
    """What the stream service shares with the rest of omoide (built once, in the root)."""

    store: MemoryBackend
    embedder: Embedder
    facts: FactKeeper
    identity: IdentityService
    log: StreamLog
    diary_jobs: DiaryJobLog
    viewer_work: ViewerWorkLog
    characters: CharacterLibrary
    clock: Clock
    metrics: Metrics
    model_embedder: Embedder | None = None
    """The embedder itself when ``embedder`` wraps it (the sentence models are the
    model's); ``None``: ``embedder`` is the model."""


def build_streams(parts: StreamParts, config: StreamConfig, llm: ChatModel | None) -> StreamService:
    """The stream service over ``parts``; ``llm`` (or none) does its model work."""
    evolver = None
    if llm is not None and config.evolve_identity:
        evolver = IdentityEvolver(identity=parts.identity, llm=llm, metrics=parts.metrics)
    return StreamService(
        ingestor=_ingestor(parts, config),
        viewers=ViewerWorker(
            log=parts.viewer_work,
            store=parts.store,
            embedder=parts.embedder,
            facts=parts.facts,
            llm=llm,
            config=config,
            clock=parts.clock,
            metrics=parts.metrics,
        ),
        diaries=DiaryWriter(
            log=parts.diary_jobs,
            store=parts.store,
            embedder=parts.embedder,
            profiles=parts.identity,
            llm=llm,
            config=config,
            clock=parts.clock,
            metrics=parts.metrics,
        ),
        identity=parts.identity,
        evolver=evolver,
        log=parts.log,
        viewer_log=parts.viewer_work,
        uses_llm=llm is not None,
        clock=parts.clock,
        metrics=parts.metrics,
    )


def _ingestor(parts: StreamParts, config: StreamConfig) -> StreamIngestor:
    store_threshold = config.store_threshold
    readers = rule_readers(
        parts.model_embedder or parts.embedder,
        disclosures=config.read_disclosures,
        lasting=config.rate_lasting,
    )
    rules = Rememberer(
        store=parts.store,
        embedder=parts.embedder,
        scorer=ImportanceScorer(llm=None, metrics=parts.metrics, store_threshold=store_threshold),
        extractor=RuleFactExtractor(),
        facts=parts.facts,
        config=WriteConfig(
            store_threshold=store_threshold,
            fact_extraction_threshold=config.fact_extraction_threshold,
        ),
        clock=parts.clock,
        metrics=parts.metrics,
        disclosure_model=readers.disclosure_model,
        lasting_model=readers.lasting_model,
    )
    writer = RuleOnlyWriter(rules)
    return StreamIngestor(
        writer=writer,
        log=parts.log,
        characters=parts.characters,
        config=config,
        clock=parts.clock,
        metrics=parts.metrics,
    )
