"""The OpenAI-compatible wire format, checked on what a real local server received."""

from __future__ import annotations

import pytest

from omoide.errors import BackendError, BackendUnavailable
from omoide.llm import ChatMessage, ChatOptions, OpenAIChatModel
from omoide.llm.openai import chat_completions_url
from tests.llm.fake_servers import (
    FakeChatServer,
    Reply,
    StreamedReply,
    error_reply,
    openai_chunk,
    openai_reply,
)

MESSAGES = [ChatMessage("system", "You are Haru."), ChatMessage("user", "Do you remember me?")]
SECRET = "sk-test-0123456789abcdef"


@pytest.mark.anyio
@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/", "/v1/chat/completions"])
async def test_base_url_with_or_without_v1(chat_server: FakeChatServer, suffix: str) -> None:
    model = OpenAIChatModel("gpt-test", base_url=chat_server.base_url + suffix)
    assert await model.complete(MESSAGES, ChatOptions()) == "Hello there!"
    await model.aclose()
    assert chat_server.received[0].path == "/v1/chat/completions"


def test_chat_completions_url_keeps_path_prefixes() -> None:
    assert chat_completions_url("https://openrouter.ai/api/v1") == (
        "https://openrouter.ai/api/v1/chat/completions"
    )
    assert chat_completions_url("http://gw.local/llm") == "http://gw.local/llm/v1/chat/completions"


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True])
async def test_request_body_and_bearer_key(chat_server: FakeChatServer, stream: bool) -> None:
    model = OpenAIChatModel("gpt-test", base_url=chat_server.base_url, api_key=SECRET)
    options = ChatOptions(max_tokens=42, temperature=1.5, json_mode=True)
    if stream:
        [_ async for _ in model.stream(MESSAGES, options)]
    else:
        await model.complete(MESSAGES, options)
    await model.aclose()
    [request] = chat_server.received
    assert request.header("authorization") == f"Bearer {SECRET}"
    assert request.body == {
        "model": "gpt-test",
        "messages": [{"role": m.role, "content": m.content} for m in MESSAGES],
        "max_tokens": 42,
        "temperature": 1.5,
        "stream": stream,
        "response_format": {"type": "json_object"},
    }


@pytest.mark.anyio
async def test_no_key_no_header_and_no_json_flag(chat_server: FakeChatServer) -> None:
    model = OpenAIChatModel("local", base_url=chat_server.base_url)
    await model.complete(MESSAGES, ChatOptions())
    await model.aclose()
    [request] = chat_server.received
    assert request.header("authorization") is None
    assert "response_format" not in request.body


@pytest.mark.anyio
async def test_api_key_never_appears_in_errors(chat_server: FakeChatServer) -> None:
    chat_server.enqueue(error_reply(401, f"Incorrect API key provided: {SECRET}."))
    model = OpenAIChatModel("gpt-test", base_url=chat_server.base_url, api_key=SECRET)
    with pytest.raises(BackendError, match="Incorrect API key") as caught:
        await model.complete(MESSAGES, ChatOptions())
    await model.aclose()
    assert SECRET not in str(caught.value)
    assert SECRET not in repr(caught.value)


@pytest.mark.anyio
async def test_null_content_is_malformed(chat_server: FakeChatServer) -> None:
    chat_server.enqueue(openai_reply(None))
    model = OpenAIChatModel("gpt-test", base_url=chat_server.base_url)
    with pytest.raises(BackendError, match="malformed"):
        await model.complete(MESSAGES, ChatOptions())
    await model.aclose()


@pytest.mark.anyio
async def test_finish_reason_ends_a_stream_without_done(chat_server: FakeChatServer) -> None:
    usage = 'data: {"choices": [], "usage": {"total_tokens": 3}}\n\n'
    pieces = (openai_chunk("a"), openai_chunk(""), usage, openai_chunk("b", "stop"))
    chat_server.enqueue(StreamedReply(pieces))
    model = OpenAIChatModel("gpt-test", base_url=chat_server.base_url)
    assert [token async for token in model.stream(MESSAGES, ChatOptions())] == ["a", "b"]
    await model.aclose()


@pytest.mark.anyio
async def test_error_object_in_a_200_answer(chat_server: FakeChatServer) -> None:
    chat_server.enqueue(Reply('{"error": {"message": "context length exceeded"}}'))
    model = OpenAIChatModel("gpt-test", base_url=chat_server.base_url)
    with pytest.raises(BackendError, match="context length exceeded") as caught:
        await model.complete(MESSAGES, ChatOptions())
    await model.aclose()
    assert not isinstance(caught.value, BackendUnavailable)
