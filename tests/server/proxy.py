"""A TCP proxy on 127.0.0.1 in front of Qdrant that a test can make refuse or hang.

Real sockets, real HTTP: the store under test talks to the proxy as it would to Qdrant.
``forward`` passes bytes both ways; ``refuse`` drops every connection (Qdrant is down);
``hang`` holds requests unanswered (Qdrant stalls: the writer is stuck mid-publish).
Switching mode applies to new requests on kept-alive connections too.
"""

from __future__ import annotations

from typing import Literal

import anyio
from anyio.abc import ByteStream, SocketStream, TaskStatus

Mode = Literal["forward", "refuse", "hang"]


class QdrantProxy:
    def __init__(self, target_port: int) -> None:
        self._target_port = target_port
        self.mode: Mode = "forward"
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def serve(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
        async with listener:
            self.port = int(listener.extra(anyio.abc.SocketAttribute.local_port))
            task_status.started()
            await listener.serve(self._handle)

    async def _handle(self, client: SocketStream) -> None:
        async with client:
            if self.mode == "refuse":
                return
            try:
                upstream = await anyio.connect_tcp("127.0.0.1", self._target_port)
            except OSError:
                return
            async with upstream, anyio.create_task_group() as group:
                group.start_soon(self._pipe, client, upstream, group.cancel_scope)
                group.start_soon(self._pipe, upstream, client, group.cancel_scope)

    async def _pipe(self, source: ByteStream, sink: ByteStream, scope: anyio.CancelScope) -> None:
        try:
            async for chunk in source:
                if self.mode == "hang":
                    await anyio.sleep_forever()
                if self.mode == "refuse":
                    break
                await sink.send(chunk)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            pass
        scope.cancel()
