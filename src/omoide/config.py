"""Settings: the only place that reads the environment (``OMOIDE_`` prefix)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from omoide.errors import ConfigError

EmbedderName = Literal[
    "use", "e5", "use+e5", "sentence-transformers", "ollama", "openai", "hashing"
]
LLMName = Literal["none", "scripted", "ollama", "openai", "anthropic"]
StoreName = Literal["sqlite", "server"]
StreamModelUse = Literal["auto", "on", "off"]


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/omoide``, else ``~/.cache/omoide``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(base) if Path(base).is_absolute() else Path.home() / ".cache") / "omoide"


class Settings(BaseSettings):
    """Everything configurable, each field settable as ``OMOIDE_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="OMOIDE_", extra="forbid", frozen=True)

    data_dir: Path = Path("./data")
    store: StoreName = "sqlite"
    database_url: SecretStr | None = None
    """PostgreSQL for the server profile (``postgresql://user:password@host:5432/omoide``)."""
    qdrant_url: str | None = None
    qdrant_api_key: SecretStr | None = None
    qdrant_grpc_port: int | None = Field(default=None, ge=1, le=65535)
    """Talk gRPC to this port of the Qdrant host (faster than REST); REST when unset."""
    qdrant_collection_prefix: str = "omoide"
    qdrant_shards: int = Field(default=1, ge=1, le=1024)
    qdrant_replication_factor: int = Field(default=1, ge=1, le=16)
    qdrant_write_consistency: int = Field(default=1, ge=1, le=16)
    database_pool_size: int = Field(default=10, ge=1, le=1000)

    embedder: EmbedderName = "use"
    embedder_model: str | None = None
    embedder_url: str | None = None
    embedder_api_key: SecretStr | None = None
    embedder_dimensions: int | None = Field(default=None, ge=1, le=16384)
    embedder_threads: int = Field(default=1, ge=1, le=64)
    embedder_worker: bool = True
    fused_e5_weight: float = Field(default=0.5, gt=0, lt=1)
    """With ``embedder=use+e5``: e5's weight in the fused similarity (USE has the rest;
    ``omoide.embed.fused``)."""
    """Local models (USE, e5) embed large document batches in a worker process."""
    cache_dir: Path = Field(default_factory=default_cache_dir)
    """Where a local model is kept in a form that loads fast, made on its first load (USE:
    85 MB; ``omoide.embed.use_cache``). Nothing else is kept here."""
    query_cache_size: int = Field(default=512, ge=0)
    query_cache_seconds: float = Field(default=300.0, ge=0)

    llm: LLMName = "scripted"
    llm_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout_seconds: float = Field(default=60.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)
    llm_importance: bool = True
    llm_extraction: bool = True
    disclosure_model: bool = True
    """Read what the fact rules found nothing in with the disclosure model shipped for the
    embedder (``omoide.memory.extraction.disclosure``; none for other embedders)."""
    lasting_model: bool = True
    """Rate the salience of the facts rules and the disclosure model find by how long they
    will matter, with the model shipped for the embedder (``omoide.memory.extraction.lasting``;
    none for other embedders)."""
    centre_queries: bool = True
    """Search by meaning with the chat direction taken out of the query, with the centroid
    shipped for the embedder (``omoide.embed.centring``; none for other embedders)."""

    default_viewer: str = Field(default="viewer", min_length=1, max_length=200)
    """The viewer of an OpenAI-compatible chat request that names none (no ``user`` field,
    no ``X-Omoide-User`` header): every such request talks as this one viewer."""

    characters_dirs: list[Path] = Field(default_factory=list)
    history_turns: int = Field(default=10, ge=0, le=200)

    neighbours_of_best: int = Field(default=3, ge=0, le=100)
    neighbour_share: float = Field(default=0.5, ge=0, lt=1)
    """Of the best ``neighbours_of_best`` episodes, each that asked something lends this
    share of its score to the episode recorded right after it (its answer; 0: off)."""
    fact_batch_limit: int = Field(default=256, ge=0, le=100_000)
    """Batched writes keep viewers' facts with one read and one write while a viewer has at
    most this many current facts (more: by searches, turn by turn); 0 turns it off."""
    weight_relevance: float = Field(default=1.0, gt=0)
    weight_recency: float = Field(default=0.1, ge=0)
    weight_importance: float = Field(default=1.0, ge=0)
    """Recency and importance scale relevance by a factor in
    [relevance / (relevance + recency + importance), 1] (see omoide.memory.ranking)."""
    recency_decay_per_hour: float = Field(default=0.99, gt=0, le=1)
    context_token_budget: int = Field(default=300, ge=0, le=8192)
    min_relevance: float = Field(default=0.1, ge=0, le=1)
    small_talk_relevance: float = Field(default=0.2, ge=0, le=1)
    """Relevance an exchange scored as small talk needs to reach the prompt."""
    """Absolute relevance an episode or matched fact needs to reach the prompt."""
    keyword_half: float = Field(default=2.0, gt=0)
    """BM25 per query term at which keyword relevance is 0.5."""
    associated_episodes: int = Field(default=2, ge=0, le=10)
    """Told exchanges a message may call up by what they are about, not by resemblance (a
    walk, the dog): lifted just above the relevance floor; 0 turns it off."""
    profile_share: float = Field(default=0.45, ge=0, le=1)
    """Share of the memory section's token budget the viewer profile may take."""
    profile_max_facts: int = Field(default=10, ge=0, le=100)
    store_threshold: float = Field(default=0.3, ge=0, le=1)

    stream_llm: StreamModelUse = "auto"
    """Which model does stream work (viewer summaries, diary, identity proposals): ``auto``
    the configured chat model (a real one, or the scripted demo model, whose answers are
    labelled as scripted), ``on`` whatever chat model is configured, ``off`` none (diary
    entries are structured, written on ingestion)."""
    stream_store_threshold: float = Field(default=0.4, ge=0, le=1)
    """Rule importance an unanswered stream comment needs to be kept as an episode."""
    stream_fact_extraction_threshold: float = Field(default=0.4, ge=0, le=1)
    stream_extract_topics: bool = True
    stream_viewer_batch_size: int = Field(default=20, ge=1)
    stream_viewer_idle_seconds: float = Field(default=3600.0, ge=0)
    stream_viewer_min_llm_comments: int = Field(default=3, ge=1)
    stream_viewers_per_flush: int = Field(default=64, ge=1)
    stream_diary_every: int = Field(default=300, ge=1)
    stream_digest_comments: int = Field(default=80, ge=1)
    stream_digest_characters: int = Field(default=6000, ge=1)
    stream_evolve_identity: bool = True
    stream_llm_concurrency: int = Field(default=4, ge=1)
    stream_max_events_per_batch: int = Field(default=5000, ge=1)
    """The ``stream_*`` options are :class:`omoide.stream.config.StreamConfig`'s (read there
    what each does), settable as ``OMOIDE_STREAM_<NAME>``."""

    api_keys: SecretStr | None = None
    """Keys as ``secret:character,character;secret:*`` (also see ``omoide keys``)."""
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    forwarded_allow_ips: list[str] = Field(default_factory=list)
    """Proxies (their addresses) whose ``Forwarded``, ``X-Forwarded-For`` and ``X-Real-IP``
    headers are believed; with none, a request carrying such a header is never local."""

    @property
    def database_path(self) -> Path:
        return self.data_dir / "omoide.sqlite3"

    @property
    def queue_path(self) -> Path:
        return self.data_dir / "queue.sqlite3"

    @property
    def state_path(self) -> Path:
        return self.data_dir / "states.sqlite3"

    @property
    def uses_real_llm(self) -> bool:
        """A real model also helps the memory pipeline; the scripted one only chats."""
        return self.llm not in ("none", "scripted")


def load_settings(**overrides: object) -> Settings:
    """Read settings from the environment, with explicit overrides winning."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(f"invalid omoide settings: {exc}") from exc
