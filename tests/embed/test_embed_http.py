"""Ollama and OpenAI embedders against a real local HTTP server (no patched httpx)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import numpy as np
import pytest

from omoide.embed import OllamaEmbedder, OpenAIEmbedder, RetryPolicy
from omoide.errors import BackendError, BackendUnavailable, ConfigError
from tests.embed.scripted_http import (
    PlannedReply,
    ScriptedEmbeddingServer,
    closed_port_url,
    expected_unit_vector,
)

FAST_RETRY = RetryPolicy(max_attempts=3, initial_delay_seconds=0.01, max_delay_seconds=0.05)
HttpEmbedder = OllamaEmbedder | OpenAIEmbedder
Factory = Callable[..., HttpEmbedder]

pytestmark = pytest.mark.anyio


def make_ollama(base_url: str, **options: object) -> HttpEmbedder:
    settings: dict[str, object] = {"dimensions": 8, "retry": FAST_RETRY, **options}
    return OllamaEmbedder("test-embed", base_url=base_url, **settings)  # type: ignore[arg-type]


def make_openai(base_url: str, **options: object) -> HttpEmbedder:
    settings: dict[str, object] = {"dimensions": 8, "retry": FAST_RETRY, **options}
    return OpenAIEmbedder("test-embed", base_url=base_url, **settings)  # type: ignore[arg-type]


@pytest.fixture(params=["ollama", "openai"])
async def backend(
    request: pytest.FixtureRequest, embedding_server: ScriptedEmbeddingServer
) -> AsyncIterator[tuple[HttpEmbedder, str]]:
    """Each HTTP embedder, pointed at the scripted server, with the path it must POST to."""
    if request.param == "ollama":
        embedder, path = make_ollama(embedding_server.url), "/api/embed"
    else:
        embedder, path = make_openai(embedding_server.url), "/v1/embeddings"
    async with embedder:
        yield embedder, path


async def test_documents_are_unit_vectors_in_input_order(
    backend: tuple[HttpEmbedder, str], embedding_server: ScriptedEmbeddingServer
) -> None:
    embedder, path = backend
    texts = ["first", "second", "third"]
    matrix = await embedder.embed_documents(texts)
    assert matrix.dtype == np.float32
    assert matrix.shape == (3, 8)
    for row, text in zip(matrix, texts, strict=True):
        np.testing.assert_allclose(row, expected_unit_vector(text, 8), rtol=1e-5, atol=1e-6)
    assert [request.path for request in embedding_server.requests] == [path]
    assert embedding_server.requests[0].body["model"] == "test-embed"


async def test_query_is_one_unit_vector(backend: tuple[HttpEmbedder, str]) -> None:
    embedder, _ = backend
    vector = await embedder.embed_query("hello")
    assert vector.shape == (8,)
    assert vector.dtype == np.float32
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_allclose(vector, expected_unit_vector("hello", 8), rtol=1e-5, atol=1e-6)


async def test_no_texts_make_no_request(
    backend: tuple[HttpEmbedder, str], embedding_server: ScriptedEmbeddingServer
) -> None:
    embedder, _ = backend
    matrix = await embedder.embed_documents([])
    assert matrix.shape == (0, 8)
    assert matrix.dtype == np.float32
    assert embedding_server.requests == []


@pytest.mark.parametrize("make", [make_ollama, make_openai])
async def test_large_inputs_are_sent_in_batches(
    make: Factory, embedding_server: ScriptedEmbeddingServer
) -> None:
    texts = [f"text number {index}" for index in range(5)]
    async with make(embedding_server.url, batch_size=2) as embedder:
        matrix = await embedder.embed_documents(texts)
    assert [len(request.inputs) for request in embedding_server.requests] == [2, 2, 1]
    assert [text for request in embedding_server.requests for text in request.inputs] == texts
    for row, text in zip(matrix, texts, strict=True):
        np.testing.assert_allclose(row, expected_unit_vector(text, 8), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("status", [500, 502, 503, 429])
async def test_a_failed_attempt_is_retried(
    status: int, backend: tuple[HttpEmbedder, str], embedding_server: ScriptedEmbeddingServer
) -> None:
    embedder, _ = backend
    embedding_server.plan(PlannedReply.json(status, {"error": "busy"}))
    matrix = await embedder.embed_documents(["again"])
    np.testing.assert_allclose(matrix[0], expected_unit_vector("again", 8), rtol=1e-5, atol=1e-6)
    assert len(embedding_server.requests) == 2


async def test_retries_are_bounded_then_unavailable(
    backend: tuple[HttpEmbedder, str], embedding_server: ScriptedEmbeddingServer
) -> None:
    embedder, _ = backend
    embedding_server.plan(*[PlannedReply.json(500, {"error": "down"})] * 5)
    with pytest.raises(BackendUnavailable, match="HTTP 500"):
        await embedder.embed_query("anyone?")
    assert len(embedding_server.requests) == FAST_RETRY.max_attempts


async def test_client_error_is_not_retried_and_names_url_and_model(
    backend: tuple[HttpEmbedder, str], embedding_server: ScriptedEmbeddingServer
) -> None:
    embedder, path = backend
    embedding_server.plan(PlannedReply.json(400, {"error": "model not found"}))
    with pytest.raises(BackendError) as caught:
        await embedder.embed_query("hello")
    assert not isinstance(caught.value, BackendUnavailable)
    message = str(caught.value)
    assert embedding_server.url + path in message
    assert "test-embed" in message
    assert "model not found" in message
    assert len(embedding_server.requests) == 1


@pytest.mark.parametrize(
    "reply",
    [
        PlannedReply(200, b"{not json"),
        PlannedReply(200, b""),
        PlannedReply.json(200, {"unexpected": True}),
        PlannedReply.json(200, ["a list"]),
        PlannedReply.json(200, {"embeddings": [[1.0, 2.0]], "data": []}),
    ],
    ids=["invalid-json", "empty-body", "no-vectors", "list-body", "wrong-shape"],
)
async def test_malformed_answers_are_backend_errors(
    reply: PlannedReply,
    backend: tuple[HttpEmbedder, str],
    embedding_server: ScriptedEmbeddingServer,
) -> None:
    embedder, path = backend
    embedding_server.plan(reply)
    with pytest.raises(BackendError) as caught:
        await embedder.embed_documents(["one", "two"])
    assert not isinstance(caught.value, BackendUnavailable)
    assert embedding_server.url + path in str(caught.value)
    assert len(embedding_server.requests) == 1


@pytest.mark.parametrize(
    "rows",
    [
        [[1.0, 0.0, 0.0]],  # wrong dimension
        [[0.0] * 8],  # cannot be normalised
        [[1.0] * 7 + ["x"]],  # not numbers
        [[1.0] * 8, [1.0] * 8],  # one vector too many
        [[True] * 8],  # booleans are not numbers here
    ],
)
async def test_wrong_vectors_from_ollama_are_backend_errors(
    rows: list[list[object]], embedding_server: ScriptedEmbeddingServer
) -> None:
    embedding_server.plan(PlannedReply.json(200, {"embeddings": rows}))
    async with make_ollama(embedding_server.url) as embedder:
        with pytest.raises(BackendError, match="test-embed"):
            await embedder.embed_query("one")


@pytest.mark.parametrize(
    "data",
    [
        [{"index": 1, "embedding": [1.0] * 8}],  # index out of range
        [{"index": 0, "embedding": [1.0] * 8}, {"index": 0, "embedding": [1.0] * 8}],
        [{"embedding": [1.0] * 8}],  # no index
        [{"index": 0}],  # no embedding
        [{"index": 0, "embedding": [1.0] * 9}],  # wrong dimension
    ],
)
async def test_wrong_data_from_openai_is_a_backend_error(
    data: list[dict[str, object]], embedding_server: ScriptedEmbeddingServer
) -> None:
    embedding_server.plan(PlannedReply.json(200, {"data": data}))
    async with make_openai(embedding_server.url) as embedder:
        with pytest.raises(BackendError, match="test-embed"):
            await embedder.embed_query("one")


@pytest.mark.parametrize("make", [make_ollama, make_openai])
async def test_closed_port_is_unavailable(make: Factory) -> None:
    url = closed_port_url()
    async with make(url) as embedder:
        with pytest.raises(BackendUnavailable, match="unreachable") as caught:
            await embedder.embed_query("hello")
    assert url in str(caught.value)


@pytest.mark.parametrize("make", [make_ollama, make_openai])
async def test_timeout_is_unavailable(
    make: Factory, embedding_server: ScriptedEmbeddingServer
) -> None:
    embedding_server.plan(PlannedReply(200, b"{}", delay_seconds=5.0))
    single_try = RetryPolicy(max_attempts=1)
    async with make(embedding_server.url, timeout_seconds=0.2, retry=single_try) as embedder:
        with pytest.raises(BackendUnavailable, match="timed out"):
            await embedder.embed_query("slow")
    assert len(embedding_server.requests) == 1


async def test_ollama_connect_discovers_dimensions(
    embedding_server: ScriptedEmbeddingServer,
) -> None:
    embedding_server.dimensions = 12
    embedder = await OllamaEmbedder.connect("probe-model", base_url=embedding_server.url)
    async with embedder:
        assert embedder.dimensions == 12
        assert embedder.model_name == "ollama:probe-model"
        assert (await embedder.embed_documents(["a", "b"])).shape == (2, 12)


async def test_openai_connect_discovers_dimensions(
    embedding_server: ScriptedEmbeddingServer,
) -> None:
    embedding_server.dimensions = 20
    embedder = await OpenAIEmbedder.connect("probe-model", base_url=embedding_server.url)
    async with embedder:
        assert embedder.dimensions == 20
        assert embedder.model_name == "openai:probe-model"
        assert (await embedder.embed_query("a")).shape == (20,)


@pytest.mark.parametrize(
    "connect",
    [OllamaEmbedder.connect, OpenAIEmbedder.connect],
    ids=["ollama", "openai"],
)
async def test_connect_refuses_a_contradicting_dimension(
    connect: Callable[..., Awaitable[HttpEmbedder]],
    embedding_server: ScriptedEmbeddingServer,
) -> None:
    with pytest.raises(BackendError, match="12-d vectors, not the 16 configured"):
        embedding_server.dimensions = 12
        await connect("probe-model", base_url=embedding_server.url, dimensions=16)


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
async def test_openai_base_url_with_or_without_v1(
    suffix: str, embedding_server: ScriptedEmbeddingServer
) -> None:
    async with make_openai(embedding_server.url + suffix) as embedder:
        await embedder.embed_query("hello")
    assert [request.path for request in embedding_server.requests] == ["/v1/embeddings"]


async def test_openai_sends_the_api_key_as_bearer_token(
    embedding_server: ScriptedEmbeddingServer,
) -> None:
    async with make_openai(embedding_server.url, api_key="sk-test-123") as embedder:
        await embedder.embed_query("hello")
    async with make_openai(embedding_server.url) as anonymous:
        await anonymous.embed_query("hello")
    first, second = embedding_server.requests
    assert first.headers["authorization"] == "Bearer sk-test-123"
    assert "authorization" not in second.headers


async def test_openai_api_key_stays_out_of_error_messages(
    embedding_server: ScriptedEmbeddingServer,
) -> None:
    embedding_server.plan(PlannedReply.json(401, {"error": "bad key"}))
    async with make_openai(embedding_server.url, api_key="sk-secret-999") as embedder:
        with pytest.raises(BackendError) as caught:
            await embedder.embed_query("hello")
    assert "sk-secret-999" not in str(caught.value)
    assert "sk-secret-999" not in repr(caught.value)


async def test_openai_sends_empty_text_as_a_space(
    embedding_server: ScriptedEmbeddingServer,
) -> None:
    async with make_openai(embedding_server.url) as embedder:
        matrix = await embedder.embed_documents(["", "word"])
    assert embedding_server.requests[0].inputs == [" ", "word"]
    assert matrix.shape == (2, 8)


async def test_ollama_sends_empty_text_as_is(embedding_server: ScriptedEmbeddingServer) -> None:
    async with make_ollama(embedding_server.url) as embedder:
        await embedder.embed_documents(["", "word"])
    assert embedding_server.requests[0].inputs == ["", "word"]


@pytest.mark.parametrize("make", [make_ollama, make_openai])
@pytest.mark.parametrize(
    "options",
    [
        {"base_url": "localhost:11434"},
        {"base_url": "ftp://example.invalid"},
        {"dimensions": 0},
        {"batch_size": 0},
        {"timeout_seconds": 0.0},
    ],
)
async def test_bad_settings_are_config_errors(make: Factory, options: dict[str, object]) -> None:
    settings = dict(options)
    base_url = str(settings.pop("base_url", "http://127.0.0.1:9"))
    with pytest.raises(ConfigError):
        make(base_url, **settings)


@pytest.mark.parametrize("make", [make_ollama, make_openai])
async def test_model_names_name_backend_and_model(make: Factory) -> None:
    async with make("http://127.0.0.1:9") as embedder:
        backend_name = "ollama" if isinstance(embedder, OllamaEmbedder) else "openai"
        assert embedder.model_name == f"{backend_name}:test-embed"
        assert embedder.dimensions == 8
