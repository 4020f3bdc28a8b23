"""Ollama's /api/chat wire format, checked on what a real local server received."""

from __future__ import annotations

import pytest

from omoide.errors import BackendError, BackendUnavailable
from omoide.llm import ChatMessage, ChatOptions, OllamaChatModel, RetryPolicy
from omoide.llm.ollama import DEFAULT_BASE_URL
from tests.llm.fake_servers import FakeChatServer, Reply, StreamedReply, ollama_stream

MESSAGES = [
    ChatMessage("system", "あなたはハル。"),
    ChatMessage("user", "こんにちは"),
    ChatMessage("assistant", "やっほー"),
    ChatMessage("user", "覚えてる？"),
]


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True])
async def test_request_body_matches_the_api(chat_server: FakeChatServer, stream: bool) -> None:
    model = OllamaChatModel("qwen2.5:7b", base_url=chat_server.base_url + "/")
    options = ChatOptions(max_tokens=99, temperature=0.3)
    if stream:
        assert [token async for token in model.stream(MESSAGES, options)] == [
            "Hello",
            " there",
            "!",
        ]
    else:
        assert await model.complete(MESSAGES, options) == "Hello there!"
    await model.aclose()
    [request] = chat_server.received
    assert request.path == "/api/chat"
    assert request.body == {
        "model": "qwen2.5:7b",
        "messages": [{"role": m.role, "content": m.content} for m in MESSAGES],
        "stream": stream,
        "options": {"temperature": 0.3, "num_predict": 99},
    }


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True])
async def test_json_mode_sends_format_json(chat_server: FakeChatServer, stream: bool) -> None:
    model = OllamaChatModel("m", base_url=chat_server.base_url)
    options = ChatOptions(json_mode=True)
    if stream:
        [_ async for _ in model.stream(MESSAGES, options)]
    else:
        await model.complete(MESSAGES, options)
    await model.aclose()
    assert chat_server.received[0].body["format"] == "json"


@pytest.mark.anyio
async def test_error_in_a_successful_answer_is_a_backend_error(
    chat_server: FakeChatServer,
) -> None:
    chat_server.enqueue(Reply('{"error": "model \\"m\\" not found, try pulling it first"}'))
    model = OllamaChatModel("m", base_url=chat_server.base_url)
    with pytest.raises(BackendError, match="try pulling it first") as caught:
        await model.complete(MESSAGES, ChatOptions())
    await model.aclose()
    assert not isinstance(caught.value, BackendUnavailable)


@pytest.mark.anyio
async def test_stream_ignores_blank_lines_and_stops_at_done(chat_server: FakeChatServer) -> None:
    streamed = ollama_stream(["a", "b"])
    after_done = '{"message": {"content": "ignored"}, "done": false}\n'
    chat_server.enqueue(StreamedReply(("\n", *streamed.pieces, after_done)))
    model = OllamaChatModel("m", base_url=chat_server.base_url, retry=RetryPolicy(max_retries=0))
    assert [token async for token in model.stream(MESSAGES, ChatOptions())] == ["a", "b"]
    await model.aclose()


def test_default_base_url_is_the_local_daemon() -> None:
    assert DEFAULT_BASE_URL == "http://localhost:11434"
