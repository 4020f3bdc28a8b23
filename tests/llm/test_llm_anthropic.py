"""Anthropic's Messages API wire format, checked on what a real local server received."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.errors import BackendError, BackendUnavailable
from omoide.llm import AnthropicChatModel, ChatMessage, ChatOptions, RetryPolicy
from omoide.llm.anthropic import API_VERSION, JSON_INSTRUCTION, anthropic_request_body
from tests.llm.fake_servers import (
    FakeChatServer,
    Reply,
    StreamedReply,
    anthropic_delta,
    anthropic_error_event,
    anthropic_stream,
    error_reply,
)

SECRET = "sk-ant-test-secret-123456"
FAST_RETRY = RetryPolicy(max_retries=2, base_delay_seconds=0.001, max_delay_seconds=0.005)
MESSAGES = [
    ChatMessage("system", "You are Haru."),
    ChatMessage("system", "[Facts]\n- loves ramen"),
    ChatMessage("user", "hi"),
    ChatMessage("assistant", "hello!"),
    ChatMessage("user", "what do I like?"),
]


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True])
async def test_headers_system_field_and_messages(chat_server: FakeChatServer, stream: bool) -> None:
    model = AnthropicChatModel("claude-test", api_key=SECRET, base_url=chat_server.base_url)
    options = ChatOptions(max_tokens=77, temperature=0.4)
    if stream:
        [_ async for _ in model.stream(MESSAGES, options)]
    else:
        await model.complete(MESSAGES, options)
    await model.aclose()
    [request] = chat_server.received
    assert request.path == "/v1/messages"
    assert request.header("x-api-key") == SECRET
    assert request.header("anthropic-version") == API_VERSION == "2023-06-01"
    assert request.body == {
        "model": "claude-test",
        "max_tokens": 77,
        "temperature": 0.4,
        "system": "You are Haru.\n\n[Facts]\n- loves ramen",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello!"},
            {"role": "user", "content": "what do I like?"},
        ],
        "stream": stream,
    }


@pytest.mark.anyio
async def test_json_mode_is_an_instruction_in_system(chat_server: FakeChatServer) -> None:
    model = AnthropicChatModel("claude-test", base_url=chat_server.base_url)
    await model.complete(MESSAGES, ChatOptions(json_mode=True, temperature=1.7))
    await model.aclose()
    [request] = chat_server.received
    assert request.body["system"].endswith(JSON_INSTRUCTION)
    assert request.body["temperature"] == 1.0
    assert request.header("x-api-key") is None


def test_system_only_request_becomes_the_user_message() -> None:
    body = anthropic_request_body(
        "m", [ChatMessage("system", "Write today's diary.")], ChatOptions(), stream=False
    )
    assert body["messages"] == [{"role": "user", "content": "Write today's diary."}]
    assert "system" not in body


roles = st.sampled_from(["system", "user", "assistant"])
chat_messages = st.builds(ChatMessage, roles, st.text(max_size=20))


@given(st.lists(chat_messages, min_size=1, max_size=8), st.booleans())
def test_system_text_is_joined_and_turns_keep_their_order(
    messages: list[ChatMessage], json_mode: bool
) -> None:
    body = anthropic_request_body("m", messages, ChatOptions(json_mode=json_mode), stream=True)
    turns = [{"role": m.role, "content": m.content} for m in messages if m.role != "system"]
    parts = [m.content for m in messages if m.role == "system"]
    system = "\n\n".join(p for p in [*parts, *([JSON_INSTRUCTION] if json_mode else [])] if p)
    if turns:
        assert body["messages"] == turns
        assert body.get("system", "") == system
    else:
        assert body["messages"] == [{"role": "user", "content": system}]


@pytest.mark.anyio
async def test_text_blocks_are_joined_and_others_skipped(chat_server: FakeChatServer) -> None:
    blocks = (
        '{"type": "message", "content": [{"type": "text", "text": "Ramen"},'
        ' {"type": "tool_use", "id": "t", "name": "x", "input": {}},'
        ' {"type": "text", "text": ", of course!"}]}'
    )
    chat_server.enqueue(Reply(blocks))
    model = AnthropicChatModel("claude-test", base_url=chat_server.base_url)
    assert await model.complete(MESSAGES, ChatOptions()) == "Ramen, of course!"
    await model.aclose()


@pytest.mark.anyio
async def test_non_text_deltas_are_not_reply_text(chat_server: FakeChatServer) -> None:
    streamed = anthropic_stream(["visible"])
    thinking = anthropic_delta("hidden", delta_type="thinking_delta")
    chat_server.enqueue(StreamedReply((thinking, *streamed.pieces)))
    model = AnthropicChatModel("claude-test", base_url=chat_server.base_url)
    assert [t async for t in model.stream(MESSAGES, ChatOptions())] == ["visible"]
    await model.aclose()


@pytest.mark.anyio
async def test_overloaded_before_first_token_is_retried(chat_server: FakeChatServer) -> None:
    overloaded = StreamedReply((anthropic_error_event("overloaded_error", "Overloaded"),))
    chat_server.enqueue(overloaded, anthropic_stream(["ok"]))
    model = AnthropicChatModel("claude-test", base_url=chat_server.base_url, retry=FAST_RETRY)
    assert [t async for t in model.stream(MESSAGES, ChatOptions())] == ["ok"]
    await model.aclose()
    assert len(chat_server.received) == 2


@pytest.mark.anyio
async def test_overloaded_after_a_token_is_raised(chat_server: FakeChatServer) -> None:
    streamed = anthropic_stream(["partial"], done=False)
    pieces = (*streamed.pieces, anthropic_error_event("overloaded_error", "Overloaded"))
    chat_server.enqueue(StreamedReply(pieces), anthropic_stream(["again"]))
    model = AnthropicChatModel("claude-test", base_url=chat_server.base_url, retry=FAST_RETRY)
    received: list[str] = []
    with pytest.raises(BackendUnavailable, match="overloaded_error: Overloaded"):
        async for token in model.stream(MESSAGES, ChatOptions()):
            received.append(token)
    await model.aclose()
    assert received == ["partial"]
    assert len(chat_server.received) == 1


@pytest.mark.anyio
async def test_overloaded_status_529_is_unavailable(chat_server: FakeChatServer) -> None:
    chat_server.enqueue(error_reply(529, "Overloaded"))
    model = AnthropicChatModel(
        "claude-test", base_url=chat_server.base_url, retry=RetryPolicy(max_retries=0)
    )
    with pytest.raises(BackendUnavailable, match="529"):
        await model.complete(MESSAGES, ChatOptions())
    await model.aclose()


@pytest.mark.anyio
async def test_api_key_never_appears_in_errors(chat_server: FakeChatServer) -> None:
    chat_server.enqueue(error_reply(403, f"key {SECRET} may not use this model"))
    model = AnthropicChatModel("claude-test", api_key=SECRET, base_url=chat_server.base_url)
    with pytest.raises(BackendError) as caught:
        await model.complete(MESSAGES, ChatOptions())
    await model.aclose()
    assert SECRET not in str(caught.value)
    assert "may not use this model" in str(caught.value)
