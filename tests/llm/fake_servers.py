"""Real HTTP servers on 127.0.0.1 that imitate the chat APIs of Ollama, OpenAI and Anthropic.

A :class:`FakeChatServer` runs uvicorn in a background thread on a free port. Tests queue
what it should answer (:class:`Reply` for whole bodies, :class:`StreamedReply` for bodies
sent piece by piece) and read back what it received (:attr:`FakeChatServer.received`).
With nothing queued it answers in the format its path asks for (``/api/chat``,
``/v1/chat/completions``, ``/v1/messages``), streaming or not as the request says, with
:attr:`FakeChatServer.default_tokens`: a scripted-token server for any OpenAI-compatible
client. The helpers ``ollama_*``, ``openai_*`` and ``anthropic_*`` build vendor-shaped
replies.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

START_TIMEOUT_SECONDS = 10.0
HOLD_TIMEOUT_SECONDS = 5.0


@dataclass(frozen=True)
class Received:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


@dataclass(frozen=True)
class Reply:
    """A whole response, sent after ``delay_seconds``."""

    body: str
    status: int = 200
    content_type: str = "application/json"
    delay_seconds: float = 0.0


@dataclass(frozen=True)
class StreamedReply:
    """A response body sent piece by piece, ``interval_seconds`` apart.

    After ``hold_after`` pieces the server waits until :meth:`FakeChatServer.release` (or
    5 s); after ``stall_after`` pieces it sleeps ``stall_seconds``; after ``abort_after``
    pieces it drops the connection without finishing the body.
    """

    pieces: tuple[str, ...]
    status: int = 200
    content_type: str = "text/event-stream"
    interval_seconds: float = 0.0
    hold_after: int | None = None
    stall_after: int | None = None
    stall_seconds: float = 0.0
    abort_after: int | None = None


Scripted = Reply | StreamedReply


class DroppedConnectionError(Exception):
    """Raised inside the app to make uvicorn cut the connection mid-body."""


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _sse(value: object, event: str | None = None) -> str:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {value if isinstance(value, str) else _json(value)}\n\n"


# --- Ollama ---------------------------------------------------------------------------
def ollama_reply(text: str) -> Reply:
    message = {"role": "assistant", "content": text}
    return Reply(_json({"model": "m", "message": message, "done": True}))


def ollama_stream(tokens: Sequence[str], *, done: bool = True, **options: Any) -> StreamedReply:
    pieces = [
        _json({"message": {"role": "assistant", "content": token}, "done": False}) + "\n"
        for token in tokens
    ]
    if done:
        pieces.append(_json({"message": {"role": "assistant", "content": ""}, "done": True}) + "\n")
    return StreamedReply(tuple(pieces), content_type="application/x-ndjson", **options)


# --- OpenAI-compatible ----------------------------------------------------------------
def openai_reply(text: str | None) -> Reply:
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": text},
        "finish_reason": "stop",
    }
    return Reply(_json({"id": "c1", "object": "chat.completion", "choices": [choice]}))


def openai_chunk(content: str | None, finish_reason: str | None = None) -> str:
    delta = {} if content is None else {"content": content}
    choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
    return _sse({"id": "c1", "object": "chat.completion.chunk", "choices": [choice]})


def openai_stream(tokens: Sequence[str], *, done: bool = True, **options: Any) -> StreamedReply:
    role = _sse({"choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]})
    pieces = [role, *(openai_chunk(token) for token in tokens)]
    if done:
        pieces += [openai_chunk(None, "stop"), _sse("[DONE]")]
    return StreamedReply(tuple(pieces), **options)


# --- Anthropic ------------------------------------------------------------------------
def anthropic_reply(*texts: str) -> Reply:
    blocks = [{"type": "text", "text": text} for text in texts]
    return Reply(_json({"type": "message", "role": "assistant", "content": blocks}))


def anthropic_delta(text: str, delta_type: str = "text_delta") -> str:
    delta = {"type": delta_type, "text": text}
    return _sse({"type": "content_block_delta", "index": 0, "delta": delta}, "content_block_delta")


def anthropic_error_event(error_type: str, message: str) -> str:
    return _sse({"type": "error", "error": {"type": error_type, "message": message}}, "error")


def anthropic_stream(tokens: Sequence[str], *, done: bool = True, **options: Any) -> StreamedReply:
    start = _sse({"type": "message_start", "message": {"role": "assistant"}}, "message_start")
    block = _sse({"type": "content_block_start", "index": 0}, "content_block_start")
    pieces = [start, block, ": keep-alive comment\n\n", *(anthropic_delta(t) for t in tokens)]
    if done:
        pieces += [
            _sse({"type": "content_block_stop", "index": 0}, "content_block_stop"),
            _sse({"type": "message_stop"}, "message_stop"),
        ]
    return StreamedReply(tuple(pieces), **options)


def error_reply(status: int, message: str, **options: Any) -> Reply:
    """An error body in the common ``{"error": {"message": ...}}`` shape."""
    return Reply(_json({"error": {"type": "test_error", "message": message}}), status, **options)


def default_reply_for(path: str, body: Any, tokens: Sequence[str]) -> Scripted:
    """What the server answers when nothing is queued: the path's format, streamed or not."""
    stream = isinstance(body, dict) and body.get("stream") is True
    if path.endswith("/api/chat"):
        return ollama_stream(tokens) if stream else ollama_reply("".join(tokens))
    if path.endswith("/v1/messages"):
        return anthropic_stream(tokens) if stream else anthropic_reply("".join(tokens))
    if path.endswith("/chat/completions"):
        return openai_stream(tokens) if stream else openai_reply("".join(tokens))
    return error_reply(404, f"no such endpoint: {path}")


@dataclass
class FakeChatServer:
    """A scripted chat server on 127.0.0.1; start it with :func:`running_server`."""

    default_tokens: tuple[str, ...] = ("Hello", " there", "!")
    received: list[Received] = field(default_factory=list)
    hold_outcomes: list[bool] = field(default_factory=list)
    """For each held stream: True if :meth:`release` let it go on, False if it timed out."""
    base_url: str = ""
    _queue: deque[Scripted] = field(default_factory=deque)
    _released: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def enqueue(self, *replies: Scripted) -> None:
        with self._lock:
            self._queue.extend(replies)

    def release(self) -> None:
        """Let a held stream (``hold_after``) continue."""
        self._released.set()

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self.received.clear()
            self.hold_outcomes.clear()
        self._released.clear()
        self.default_tokens = ("Hello", " there", "!")

    def _take(self, request: Received) -> Scripted:
        with self._lock:
            self.received.append(request)
            if self._queue:
                return self._queue.popleft()
        return default_reply_for(request.path, request.body, self.default_tokens)

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        request = await _read_request(scope, receive)
        reply = self._take(request)
        if isinstance(reply, Reply):
            await asyncio.sleep(reply.delay_seconds)
            await _start(send, reply.status, reply.content_type)
            await send({"type": "http.response.body", "body": reply.body.encode()})
        else:
            await self._send_streamed(reply, send)

    async def _send_streamed(self, reply: StreamedReply, send: Send) -> None:
        await _start(send, reply.status, reply.content_type)
        for sent, piece in enumerate(reply.pieces):
            await self._pause_before(reply, sent)
            body = piece.encode()
            await send({"type": "http.response.body", "body": body, "more_body": True})
            await asyncio.sleep(reply.interval_seconds)
        await self._pause_before(reply, len(reply.pieces))
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _pause_before(self, reply: StreamedReply, sent: int) -> None:
        if sent == reply.hold_after:
            deadline = time.monotonic() + HOLD_TIMEOUT_SECONDS
            while not self._released.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
            self.hold_outcomes.append(self._released.is_set())
        if sent == reply.stall_after:
            await asyncio.sleep(reply.stall_seconds)
        if sent == reply.abort_after:
            raise DroppedConnectionError("fake server drops the connection on purpose")


async def _read_request(scope: Message, receive: Receive) -> Received:
    chunks: list[bytes] = []
    more = True
    while more:
        message = await receive()
        chunks.append(message.get("body", b""))
        more = bool(message.get("more_body", False))
    raw = b"".join(chunks)
    headers = {key.decode().lower(): value.decode() for key, value in scope["headers"]}
    try:
        body: Any = json.loads(raw) if raw else None
    except ValueError:
        body = raw.decode("utf-8", "replace")
    return Received(scope["method"], scope["path"], headers, body)


async def _start(send: Send, status: int, content_type: str) -> None:
    headers = [(b"content-type", content_type.encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})


def free_port() -> int:
    """A port on 127.0.0.1 nobody listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def running_server(server: FakeChatServer | None = None) -> Iterator[FakeChatServer]:
    """Serve ``server`` (a new one by default) on a free port for the ``with`` block."""
    app = server if server is not None else FakeChatServer()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    app.base_url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    config = uvicorn.Config(
        app, log_config=None, log_level="critical", access_log=False, lifespan="off",
        loop="asyncio", http="h11", timeout_graceful_shutdown=1,
    )  # fmt: skip
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=uvicorn_server.run, kwargs={"sockets": [listener]})
    thread.start()
    try:
        _wait_started(uvicorn_server, thread)
        yield app
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=START_TIMEOUT_SECONDS)
        listener.close()


def _wait_started(uvicorn_server: uvicorn.Server, thread: threading.Thread) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while not uvicorn_server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the fake chat server did not start")
        time.sleep(0.01)
