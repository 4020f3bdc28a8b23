"""Behaviour every HTTP backend shares, checked against a real local server per vendor."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from omoide.errors import BackendError, BackendUnavailable, ConfigError, InvalidInput
from omoide.llm import (
    AnthropicChatModel,
    ChatMessage,
    ChatOptions,
    OllamaChatModel,
    OpenAIChatModel,
    RetryPolicy,
)
from tests.llm.fake_servers import (
    FakeChatServer,
    Reply,
    StreamedReply,
    anthropic_error_event,
    anthropic_reply,
    anthropic_stream,
    error_reply,
    free_port,
    ollama_reply,
    ollama_stream,
    openai_reply,
    openai_stream,
)

HttpChatModel = OllamaChatModel | OpenAIChatModel | AnthropicChatModel
FAST_RETRY = RetryPolicy(max_retries=2, base_delay_seconds=0.001, max_delay_seconds=0.005)
NO_RETRY = RetryPolicy(max_retries=0)
MESSAGES = [ChatMessage("system", "You are Haru."), ChatMessage("user", "hello")]
OPTIONS = ChatOptions(max_tokens=64, temperature=0.2)
TOKENS = ("Hel", "lo", " 世界", "!")


@dataclass(frozen=True)
class Vendor:
    name: str
    make: Callable[..., HttpChatModel]
    path: str
    reply: Callable[[str], Reply]
    stream: Callable[..., StreamedReply]
    error_piece: str
    """A stream piece in which the server reports a (non-retryable) error."""

    def __str__(self) -> str:
        return self.name


VENDORS = [
    Vendor(
        "ollama", OllamaChatModel, "/api/chat", ollama_reply, ollama_stream,
        '{"error": "model runner crashed"}\n',
    ),
    Vendor(
        "openai", OpenAIChatModel, "/v1/chat/completions", openai_reply, openai_stream,
        'data: {"error": {"message": "model runner crashed"}}\n\n',
    ),
    Vendor(
        "anthropic", AnthropicChatModel, "/v1/messages", anthropic_reply, anthropic_stream,
        anthropic_error_event("invalid_request_error", "model runner crashed"),
    ),
]  # fmt: skip


@pytest.fixture(params=VENDORS, ids=str)
def vendor(request: pytest.FixtureRequest) -> Vendor:
    chosen: Vendor = request.param
    return chosen


@asynccontextmanager
async def opened(vendor: Vendor, base_url: str, **settings: Any) -> AsyncIterator[HttpChatModel]:
    settings.setdefault("retry", FAST_RETRY)
    model = vendor.make("test-model", base_url=base_url, **settings)
    try:
        yield model
    finally:
        await model.aclose()


def first_token_index(reply: StreamedReply) -> int:
    return next(i for i, piece in enumerate(reply.pieces) if TOKENS[0] in piece)


async def collect(model: HttpChatModel, into: list[str]) -> None:
    async for token in model.stream(MESSAGES, OPTIONS):
        into.append(token)


@pytest.mark.anyio
async def test_complete_returns_the_reply_text(vendor: Vendor, chat_server: FakeChatServer) -> None:
    chat_server.enqueue(vendor.reply("はい、覚えてるよ"))
    async with opened(vendor, chat_server.base_url) as model:
        assert await model.complete(MESSAGES, OPTIONS) == "はい、覚えてるよ"
    [request] = chat_server.received
    assert request.path == vendor.path
    assert request.body["model"] == "test-model"
    assert request.body["stream"] is False


@pytest.mark.anyio
async def test_stream_yields_each_delta_once(vendor: Vendor, chat_server: FakeChatServer) -> None:
    chat_server.enqueue(vendor.stream(TOKENS, interval_seconds=0.002))
    received: list[str] = []
    async with opened(vendor, chat_server.base_url) as model:
        await collect(model, received)
    assert received == list(TOKENS)
    [request] = chat_server.received
    assert request.body["stream"] is True


@pytest.mark.anyio
async def test_stream_delivers_tokens_before_the_body_ends(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    streamed = vendor.stream(TOKENS)
    hold = first_token_index(streamed) + 1
    chat_server.enqueue(dataclasses.replace(streamed, hold_after=hold))
    received: list[str] = []
    async with opened(vendor, chat_server.base_url) as model:
        async for token in model.stream(MESSAGES, OPTIONS):
            received.append(token)
            chat_server.release()
    assert received == list(TOKENS)
    assert chat_server.hold_outcomes == [True], "the client waited for the whole body"


@pytest.mark.anyio
async def test_server_error_then_success_is_retried(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    chat_server.enqueue(error_reply(500, "try later"), vendor.reply("second time"))
    async with opened(vendor, chat_server.base_url) as model:
        assert await model.complete(MESSAGES, OPTIONS) == "second time"
    assert len(chat_server.received) == 2


@pytest.mark.anyio
@pytest.mark.parametrize("status", [429, 503])
async def test_exhausted_retries_raise_unavailable(
    vendor: Vendor, chat_server: FakeChatServer, status: int
) -> None:
    chat_server.enqueue(*(error_reply(status, "busy") for _ in range(3)), vendor.reply("late"))
    async with opened(vendor, chat_server.base_url) as model:
        with pytest.raises(BackendUnavailable, match="gave up after 3 attempts") as caught:
            await model.complete(MESSAGES, OPTIONS)
    assert len(chat_server.received) == 3
    assert "busy" in str(caught.value)


@pytest.mark.anyio
async def test_client_error_is_not_retried(vendor: Vendor, chat_server: FakeChatServer) -> None:
    chat_server.enqueue(error_reply(400, "bad field"), vendor.reply("never sent"))
    async with opened(vendor, chat_server.base_url) as model:
        with pytest.raises(BackendError) as caught:
            await model.complete(MESSAGES, OPTIONS)
    assert not isinstance(caught.value, BackendUnavailable)
    assert len(chat_server.received) == 1
    message = str(caught.value)
    assert vendor.name in message and "test-model" in message
    assert chat_server.base_url + vendor.path in message and "bad field" in message


@pytest.mark.anyio
async def test_streamed_client_error_is_not_retried(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    chat_server.enqueue(error_reply(404, "no such model"), vendor.stream(TOKENS))
    async with opened(vendor, chat_server.base_url) as model:
        with pytest.raises(BackendError, match="no such model") as caught:
            await collect(model, [])
    assert not isinstance(caught.value, BackendUnavailable)
    assert len(chat_server.received) == 1


@pytest.mark.anyio
async def test_closed_port_is_unavailable(vendor: Vendor) -> None:
    async with opened(vendor, f"http://127.0.0.1:{free_port()}") as model:
        with pytest.raises(BackendUnavailable, match="could not be reached"):
            await model.complete(MESSAGES, OPTIONS)
        with pytest.raises(BackendUnavailable):
            await collect(model, [])


@pytest.mark.anyio
async def test_slow_server_times_out_as_unavailable(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    chat_server.enqueue(dataclasses.replace(vendor.reply("too late"), delay_seconds=1.5))
    settings = {"timeout_seconds": 0.1, "retry": NO_RETRY}
    async with opened(vendor, chat_server.base_url, **settings) as model:
        with pytest.raises(BackendUnavailable, match="timed out"):
            await model.complete(MESSAGES, OPTIONS)
    assert len(chat_server.received) == 1


@pytest.mark.anyio
async def test_timeout_is_retried(vendor: Vendor, chat_server: FakeChatServer) -> None:
    slow = dataclasses.replace(vendor.reply("too late"), delay_seconds=3.0)
    chat_server.enqueue(slow, vendor.reply("in time"))
    async with opened(vendor, chat_server.base_url, timeout_seconds=0.5) as model:
        assert await model.complete(MESSAGES, OPTIONS) == "in time"
    assert len(chat_server.received) == 2


@pytest.mark.anyio
async def test_stream_retries_failures_before_the_first_token(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    streamed = vendor.stream(TOKENS)
    dropped = dataclasses.replace(streamed, abort_after=first_token_index(streamed))
    chat_server.enqueue(error_reply(502, "gateway"), dropped, streamed)
    received: list[str] = []
    async with opened(vendor, chat_server.base_url) as model:
        await collect(model, received)
    assert received == list(TOKENS)
    assert len(chat_server.received) == 3


@pytest.mark.anyio
async def test_stream_cut_after_tokens_raises_without_retrying(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    streamed = vendor.stream(TOKENS)
    cut = dataclasses.replace(streamed, abort_after=first_token_index(streamed) + 2)
    chat_server.enqueue(cut, streamed)
    received: list[str] = []
    async with opened(vendor, chat_server.base_url) as model:
        with pytest.raises(BackendUnavailable, match="broke off"):
            await collect(model, received)
    assert received == list(TOKENS[:2])
    assert len(chat_server.received) == 1


@pytest.mark.anyio
async def test_stream_stalling_after_tokens_times_out(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    streamed = vendor.stream(TOKENS)
    stall = first_token_index(streamed) + 1
    chat_server.enqueue(dataclasses.replace(streamed, stall_after=stall, stall_seconds=3.0))
    received: list[str] = []
    async with opened(vendor, chat_server.base_url, timeout_seconds=0.5) as model:
        with pytest.raises(BackendUnavailable, match="timed out"):
            await collect(model, received)
    assert received == [TOKENS[0]]
    assert len(chat_server.received) == 1


@pytest.mark.anyio
async def test_error_reported_mid_stream_reaches_the_consumer(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    streamed = vendor.stream(TOKENS)
    after_two = first_token_index(streamed) + 2
    pieces = (*streamed.pieces[:after_two], vendor.error_piece, *streamed.pieces[after_two:])
    chat_server.enqueue(dataclasses.replace(streamed, pieces=pieces), streamed)
    received: list[str] = []
    async with opened(vendor, chat_server.base_url) as model:
        with pytest.raises(BackendError, match="model runner crashed") as caught:
            await collect(model, received)
    assert not isinstance(caught.value, BackendUnavailable)
    assert received == list(TOKENS[:2])
    assert len(chat_server.received) == 1


@pytest.mark.anyio
async def test_stream_without_its_end_marker_is_unavailable(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    chat_server.enqueue(vendor.stream(TOKENS, done=False))
    received: list[str] = []
    async with opened(vendor, chat_server.base_url, retry=NO_RETRY) as model:
        with pytest.raises(BackendUnavailable, match="before saying it was done"):
            await collect(model, received)
    assert received == list(TOKENS)


@pytest.mark.anyio
@pytest.mark.parametrize("body", ["<html>proxy error</html>", '{"unexpected": true}', "[1, 2]"])
async def test_malformed_reply_is_a_backend_error(
    vendor: Vendor, chat_server: FakeChatServer, body: str
) -> None:
    chat_server.enqueue(Reply(body), vendor.reply("never sent"))
    async with opened(vendor, chat_server.base_url) as model:
        with pytest.raises(BackendError, match="malformed") as caught:
            await model.complete(MESSAGES, OPTIONS)
    assert not isinstance(caught.value, BackendUnavailable)
    assert len(chat_server.received) == 1


@pytest.mark.anyio
async def test_malformed_stream_line_is_a_backend_error(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    garbage = "data: {not json\n\n" if vendor.name != "ollama" else "{not json\n"
    chat_server.enqueue(StreamedReply((garbage,)))
    async with opened(vendor, chat_server.base_url) as model:
        with pytest.raises(BackendError, match="malformed"):
            await collect(model, [])
    assert len(chat_server.received) == 1


@pytest.mark.anyio
async def test_consumer_may_stop_early(vendor: Vendor, chat_server: FakeChatServer) -> None:
    chat_server.enqueue(vendor.stream(TOKENS, interval_seconds=0.002), vendor.reply("next"))
    async with opened(vendor, chat_server.base_url) as model:
        async for token in model.stream(MESSAGES, OPTIONS):
            assert token == TOKENS[0]
            break
        assert await model.complete(MESSAGES, OPTIONS) == "next"


@pytest.mark.anyio
async def test_invalid_requests_are_refused_before_sending(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    async with opened(vendor, chat_server.base_url) as model:
        with pytest.raises(InvalidInput, match="messages"):
            await model.complete([], OPTIONS)
        with pytest.raises(InvalidInput, match="max_tokens"):
            await model.complete(MESSAGES, ChatOptions(max_tokens=0))
        with pytest.raises(InvalidInput, match="temperature"):
            await collect_with(model, ChatOptions(temperature=float("nan")))
    assert chat_server.received == []


async def collect_with(model: HttpChatModel, options: ChatOptions) -> list[str]:
    return [token async for token in model.stream(MESSAGES, options)]


@pytest.mark.parametrize(
    "settings",
    [
        {"model": ""},
        {"base_url": "localhost:11434"},
        {"base_url": "ftp://example.org"},
        {"timeout_seconds": 0.0},
        {"timeout_seconds": float("inf")},
    ],
)
def test_bad_settings_are_config_errors(vendor: Vendor, settings: dict[str, Any]) -> None:
    arguments: dict[str, Any] = {"model": "m", "base_url": "http://127.0.0.1:1", **settings}
    with pytest.raises(ConfigError):
        vendor.make(arguments.pop("model"), **arguments)


@pytest.mark.anyio
async def test_injected_client_is_used_and_left_open(
    vendor: Vendor, chat_server: FakeChatServer
) -> None:
    async with httpx.AsyncClient(headers={"x-trace": "t-1"}) as client:
        async with opened(vendor, chat_server.base_url, client=client) as model:
            assert await model.complete(MESSAGES, OPTIONS) == "Hello there!"
        response = await client.get(chat_server.base_url + "/health")
        assert response.status_code == 404
    assert chat_server.received[0].header("x-trace") == "t-1"


def test_name_tells_backend_and_model(vendor: Vendor) -> None:
    model = vendor.make("llama3.1:8b", base_url="http://127.0.0.1:1")
    assert model.name == f"{vendor.name}:llama3.1:8b"
