"""The embedder and the chat model named by the settings: one ``match`` per seam.

Optional dependencies are imported lazily, inside the case that needs them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.errors import ConfigError

if TYPE_CHECKING:  # omoide.llm's package loads every HTTP client: a search needs none
    from omoide.llm.base import ChatModel


async def build_embedder(settings: Settings) -> Embedder:
    """The embedder named by ``settings.embedder``, without the query cache; a local model
    embeds large document batches in a worker process unless ``embedder_worker`` is off."""
    model = settings.embedder_model
    match settings.embedder:
        case "use":
            from omoide.embed.use import USEEmbedder

            return _local_model(
                settings,
                functools.partial(
                    USEEmbedder, threads=settings.embedder_threads, cache_dir=settings.cache_dir
                ),
            )
        case "e5":
            from omoide.embed.e5 import E5Embedder

            return _local_model(
                settings, functools.partial(E5Embedder, threads=settings.embedder_threads)
            )
        case "use+e5":
            from omoide.embed.e5 import E5Embedder
            from omoide.embed.fused import FusedEmbedder
            from omoide.embed.use import USEEmbedder

            use = functools.partial(
                USEEmbedder, threads=settings.embedder_threads, cache_dir=settings.cache_dir
            )
            e5 = functools.partial(E5Embedder, threads=settings.embedder_threads)
            weight = settings.fused_e5_weight
            return FusedEmbedder(
                [(_local_model(settings, use), 1.0 - weight), (_local_model(settings, e5), weight)]
            )
        case "hashing":
            from omoide.embed.hashing import HashingEmbedder

            return HashingEmbedder(settings.embedder_dimensions or 256)
        case "sentence-transformers":
            from omoide.embed.sentence_transformers import SentenceTransformerEmbedder

            return await SentenceTransformerEmbedder.load(_required(model, "OMOIDE_EMBEDDER_MODEL"))
        case "ollama":
            from omoide.embed.ollama import OllamaEmbedder

            return await OllamaEmbedder.connect(
                _required(model, "OMOIDE_EMBEDDER_MODEL"),
                dimensions=settings.embedder_dimensions,
                base_url=settings.embedder_url or "http://localhost:11434",
            )
        case "openai":
            from omoide.embed.openai import OpenAIEmbedder

            key = settings.embedder_api_key
            return await OpenAIEmbedder.connect(
                _required(model, "OMOIDE_EMBEDDER_MODEL"),
                dimensions=settings.embedder_dimensions,
                base_url=settings.embedder_url or "https://api.openai.com/v1",
                api_key=key.get_secret_value() if key else None,
            )


def _local_model(settings: Settings, factory: Callable[[], Embedder]) -> Embedder:
    """``factory``'s model, with a worker process for large document batches if enabled."""
    inner = factory()
    if not settings.embedder_worker:
        return inner
    from omoide.embed.process import WorkerProcessEmbedder

    return WorkerProcessEmbedder(inner, factory)


def build_chat_model(settings: Settings) -> ChatModel | None:
    """The chat model named by ``settings.llm``; ``none`` means no model at all."""
    from omoide.llm.retry import RetryPolicy

    retry = RetryPolicy(max_retries=settings.llm_max_retries)
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    timeout = settings.llm_timeout_seconds
    match settings.llm:
        case "none":
            return None
        case "scripted":
            from omoide.llm.scripted import ScriptedChatModel

            return ScriptedChatModel()
        case "ollama":
            from omoide.llm.ollama import OllamaChatModel

            return OllamaChatModel(
                _required(settings.llm_model, "OMOIDE_LLM_MODEL"),
                base_url=settings.llm_url or "http://localhost:11434",
                timeout_seconds=timeout,
                retry=retry,
            )
        case "openai":
            from omoide.llm.openai import OpenAIChatModel

            return OpenAIChatModel(
                _required(settings.llm_model, "OMOIDE_LLM_MODEL"),
                base_url=settings.llm_url or "https://api.openai.com",
                api_key=key,
                timeout_seconds=timeout,
                retry=retry,
            )
        case "anthropic":
            from omoide.llm.anthropic import AnthropicChatModel

            return AnthropicChatModel(
                _required(settings.llm_model, "OMOIDE_LLM_MODEL"),
                base_url=settings.llm_url or "https://api.anthropic.com",
                api_key=key,
                timeout_seconds=timeout,
                retry=retry,
            )


def _required(value: str | None, variable: str) -> str:
    if not value:
        raise ConfigError(f"{variable} must be set for this backend")
    return value
