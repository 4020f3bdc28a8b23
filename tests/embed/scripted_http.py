"""A real HTTP server on 127.0.0.1 that speaks the Ollama and OpenAI embedding APIs.

By default it answers every request with deterministic vectors derived from each input
text (not unit length, so clients must normalise). Tests can queue planned replies
(status, body, delay) that are served first, in order, and read back every request.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

from omoide.domain import Vector


def raw_vector(text: str, dimensions: int) -> list[float]:
    """The server's (unnormalised) embedding of ``text``: seeded by its BLAKE2b hash."""
    seed = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")
    values = np.random.default_rng(seed).normal(size=dimensions) * 3.0
    return [float(value) for value in values]


def expected_unit_vector(text: str, dimensions: int) -> Vector:
    vector = np.asarray(raw_vector(text, dimensions), dtype=np.float64)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


@dataclass(frozen=True)
class PlannedReply:
    status: int
    body: bytes = b""
    delay_seconds: float = 0.0

    @classmethod
    def json(cls, status: int, document: object) -> PlannedReply:
        return cls(status=status, body=json.dumps(document).encode("utf-8"))


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, object]

    @property
    def inputs(self) -> list[str]:
        texts = self.body["input"]
        assert isinstance(texts, list)
        return [str(text) for text in texts]


class ScriptedEmbeddingServer:
    def __init__(self, *, dimensions: int = 8) -> None:
        self.dimensions = dimensions
        self.requests: list[RecordedRequest] = []
        self._planned: list[PlannedReply] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def plan(self, *replies: PlannedReply) -> None:
        with self._lock:
            self._planned.extend(replies)

    def _next_planned(self) -> PlannedReply | None:
        with self._lock:
            return self._planned.pop(0) if self._planned else None

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def default_reply(self, path: str, body: dict[str, object]) -> PlannedReply:
        texts = [str(text) for text in body.get("input", [])]  # type: ignore[attr-defined]
        vectors = [raw_vector(text, self.dimensions) for text in texts]
        if path == "/api/embed":
            return PlannedReply.json(200, {"model": body.get("model"), "embeddings": vectors})
        if path == "/v1/embeddings":
            data = [
                {"object": "embedding", "index": index, "embedding": vector}
                for index, vector in enumerate(vectors)
            ]
            data.reverse()  # out of order on purpose: clients must sort by index
            return PlannedReply.json(200, {"object": "list", "data": data})
        return PlannedReply.json(404, {"error": f"no route {path}"})

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                headers = {name.lower(): value for name, value in self.headers.items()}
                server._record(RecordedRequest(path=self.path, headers=headers, body=body))
                reply = server._next_planned() or server.default_reply(self.path, body)
                if reply.delay_seconds and server._stopping.wait(reply.delay_seconds):
                    return
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, format: str, *args: object) -> None:
                return

        return Handler


def closed_port_url() -> str:
    """The URL of a port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
