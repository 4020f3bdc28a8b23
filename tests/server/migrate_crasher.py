"""A process that migrates an embedded store and is killed mid-copy (run by a migrate test).

It opens the server store from the JSON config in ``OMOIDE_CRASH_CONFIG`` and the embedded
file named by ``OMOIDE_CRASH_SOURCE``, prints ``ready``, and on a line of standard input
copies the file one scope per batch; the test stalls Qdrant and kills it with SIGKILL
while it waits to publish a batch PostgreSQL has committed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio

from omoide.store.server import ServerConfig, open_server_store
from omoide.store.server.migrate import copy_store
from omoide.store.server.sqlite_source import open_sqlite_source


async def main() -> None:
    config = ServerConfig(**json.loads(os.environ["OMOIDE_CRASH_CONFIG"]))
    source = await open_sqlite_source(Path(os.environ["OMOIDE_CRASH_SOURCE"]))
    store = await open_server_store(config, embedding=source.embedding)
    print("ready", flush=True)
    await anyio.to_thread.run_sync(sys.stdin.readline)
    await copy_store(source, store.engines, batch=1)
    print("done", flush=True)


if __name__ == "__main__":
    anyio.run(main)
