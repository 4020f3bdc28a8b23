"""Stream chunking, token estimates and SSE decoding: pure functions, checked as properties."""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
from hypothesis import given
from hypothesis import strategies as st

from omoide.llm.chunking import estimate_tokens, stream_chunks
from omoide.llm.sse import SseDecoder, SseEvent, encode_sse_event, iter_sse_events


@given(st.text())
def test_chunks_join_back_to_the_text(text: str) -> None:
    assert "".join(stream_chunks(text)) == text


@given(st.text())
def test_chunks_are_never_empty(text: str) -> None:
    assert all(stream_chunks(text))


def test_english_streams_by_word_and_japanese_by_character() -> None:
    assert stream_chunks("[EMOTION:happy] I like ramen!") == [
        "[EMOTION:happy]",
        " I",
        " like",
        " ramen!",
    ]
    assert stream_chunks("ラーメン、好き") == ["ラ", "ー", "メ", "ン", "、", "好", "き"]
    assert stream_chunks("나는 라면을 좋아해") == ["나는", " 라면을", " 좋아해"]


@given(st.text(), st.text())
def test_token_estimate_grows_with_text(first: str, second: str) -> None:
    joined = estimate_tokens(first + " " + second)
    assert joined >= max(estimate_tokens(first), estimate_tokens(second))


def test_token_estimate_is_about_right() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("   ") == 0
    assert estimate_tokens("今日は疲れた") == 6
    assert 8 <= estimate_tokens("The quick brown fox jumps over the lazy dog.") <= 14


def decode(lines: list[str]) -> list[SseEvent]:
    decoder = SseDecoder()
    events = [event for line in lines if (event := decoder.feed(line)) is not None]
    last = decoder.finish()
    return [*events, last] if last is not None else events


def test_sse_fields_comments_and_multiline_data() -> None:
    lines = [
        ": comment",
        "event: content_block_delta",
        "id: 7",
        'data: {"a":',
        "data:1}",
        "retry: 100",
        "",
        "",
        "data: [DONE]",
    ]
    assert decode(lines) == [
        SseEvent("content_block_delta", '{"a":\n1}', "7"),
        SseEvent("message", "[DONE]", "7"),
    ]


def test_sse_event_without_data_is_dropped() -> None:
    assert decode(["event: ping", "", "data", ""]) == [SseEvent("message", "")]


line_text = st.text(alphabet=st.characters(exclude_characters="\r\n"), max_size=30)
events = st.lists(
    st.tuples(st.one_of(st.none(), line_text.filter(lambda t: t.strip() == t and t)), line_text),
    max_size=6,
)


@given(events)
def test_encoded_events_decode_to_themselves(sent: list[tuple[str | None, str]]) -> None:
    text = "".join(encode_sse_event(data, event=name) for name, data in sent)
    decoded = decode(text.split("\n"))
    assert [(e.event, e.data) for e in decoded] == [(n or "message", d) for n, d in sent]


def test_async_decoding_strips_line_endings() -> None:
    async def lines() -> AsyncIterator[str]:
        for line in ["data: one\r\n", "\r\n", "data: two"]:
            yield line

    async def run() -> list[SseEvent]:
        return [event async for event in iter_sse_events(lines())]

    assert anyio.run(run) == [SseEvent("message", "one"), SseEvent("message", "two")]
