"""The optional sentence-transformers backend.

The extra is not installed by default. Without it, the adapter runs against a stand-in
package with the same calls (no PyTorch); with it, a tiny static-embedding model built
from scratch (no download) runs for real.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from omoide.embed import SentenceTransformerEmbedder
from omoide.errors import BackendError, ConfigError

pytestmark = pytest.mark.anyio

INSTALLED = importlib.util.find_spec("sentence_transformers") is not None


@pytest.mark.skipif(INSTALLED, reason="sentence-transformers is installed")
def test_missing_extra_is_a_config_error_naming_it() -> None:
    with pytest.raises(ConfigError, match=r"pip install 'omoide\[sentence-transformers\]'"):
        SentenceTransformerEmbedder("any-model", dimensions=384)


def build_tiny_model(directory: Path) -> Path:
    """A word-level static embedding model saved to ``directory``: no network needed."""
    # Imported by name: these optional packages may lack type information.
    sentence_transformers = importlib.import_module("sentence_transformers")
    static_embedding = importlib.import_module("sentence_transformers.models").StaticEmbedding
    tokenizers = importlib.import_module("tokenizers")
    word_level = importlib.import_module("tokenizers.models").WordLevel
    whitespace = importlib.import_module("tokenizers.pre_tokenizers").Whitespace

    words = ["[UNK]", "[PAD]", "i", "like", "cats", "dogs", "query", "passage", ":", "weather"]
    vocabulary = {word: index for index, word in enumerate(words)}
    tokenizer = tokenizers.Tokenizer(word_level(vocabulary, "[UNK]"))
    tokenizer.pre_tokenizer = whitespace()
    weights = np.random.default_rng(7).normal(size=(len(words), 16)).astype(np.float32)
    module = static_embedding(tokenizer, embedding_weights=weights)
    model = sentence_transformers.SentenceTransformer(modules=[module])
    model.save(str(directory))
    return directory


@pytest.mark.skipif(not INSTALLED, reason="sentence-transformers is not installed")
async def test_a_local_model_embeds_unit_vectors_with_prefixes(tmp_path: Path) -> None:
    path = build_tiny_model(tmp_path / "tiny")
    embedder = await SentenceTransformerEmbedder.load(
        str(path), query_prefix="query: ", document_prefix="passage: ", device="cpu"
    )
    assert embedder.dimensions == 16
    assert embedder.model_name == f"st:{path}"
    matrix = await embedder.embed_documents(["i like cats", "weather", ""])
    assert matrix.shape == (3, 16)
    assert matrix.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    query = await embedder.embed_query("i like cats")
    assert float(query @ matrix[0]) < 0.9999  # different prefixes, different vectors
    assert (await embedder.embed_documents([])).shape == (0, 16)


STAND_IN_PACKAGE = '''
"""A stand-in for the sentence_transformers package: the same calls, a tiny fake model."""
import hashlib
import numpy as np

seen_texts = []
loaded = []


class SentenceTransformer:
    def __init__(self, name, device=None):
        if name == "missing-model":
            raise OSError(f"no model named {name}")
        loaded.append((name, device))

    def get_sentence_embedding_dimension(self):
        return 6

    def encode(self, texts, batch_size, convert_to_numpy, normalize_embeddings, show_progress_bar):
        seen_texts.extend(texts)
        rows = []
        for text in texts:
            digest = hashlib.blake2b(text.encode("utf-8"), digest_size=6).digest()
            rows.append([byte + 1.0 for byte in digest])  # not unit length on purpose
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), 6)
'''


@pytest.fixture
def stand_in_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """Puts the stand-in package on sys.path, for the adapter code run without PyTorch."""
    package = tmp_path / "stand_in" / "sentence_transformers"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(STAND_IN_PACKAGE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(package.parent))
    yield importlib.import_module("sentence_transformers")
    sys.modules.pop("sentence_transformers", None)


@pytest.mark.skipif(INSTALLED, reason="the real package is installed")
async def test_adapter_prefixes_normalises_and_loads_lazily(stand_in_package: ModuleType) -> None:
    embedder = SentenceTransformerEmbedder(
        "some/model", dimensions=6, query_prefix="q: ", document_prefix="d: ", batch_size=2
    )
    assert stand_in_package.loaded == []  # nothing loaded before first use
    matrix = await embedder.embed_documents(["one", "two", "three", ""])
    query = await embedder.embed_query("one")
    assert stand_in_package.loaded == [("some/model", None)]
    assert stand_in_package.seen_texts == ["d: one", "d: two", "d: three", "d: ", "q: one"]
    assert matrix.shape == (4, 6)
    assert matrix.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-6)
    assert float(np.linalg.norm(query)) == pytest.approx(1.0, abs=1e-6)
    assert embedder.model_name == "st:some/model"


@pytest.mark.skipif(INSTALLED, reason="the real package is installed")
async def test_load_reads_dimensions_from_the_model(stand_in_package: ModuleType) -> None:
    embedder = await SentenceTransformerEmbedder.load("some/model", device="cpu")
    assert embedder.dimensions == 6
    assert stand_in_package.loaded == [("some/model", "cpu")]


@pytest.mark.skipif(INSTALLED, reason="the real package is installed")
async def test_wrong_configured_dimensions_are_a_backend_error(
    stand_in_package: ModuleType,
) -> None:
    embedder = SentenceTransformerEmbedder("some/model", dimensions=384)
    with pytest.raises(BackendError, match="st:some/model"):
        await embedder.embed_query("hello")


@pytest.mark.skipif(INSTALLED, reason="the real package is installed")
async def test_a_model_that_fails_to_load_is_a_backend_error(
    stand_in_package: ModuleType,
) -> None:
    embedder = SentenceTransformerEmbedder("missing-model", dimensions=6)
    with pytest.raises(BackendError, match="failed to load"):
        await embedder.embed_documents(["hello"])
