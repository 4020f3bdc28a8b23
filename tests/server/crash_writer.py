"""A process that writes to a server store and is killed mid-write (run by the crash test).

It opens the store from the JSON config in ``OMOIDE_CRASH_CONFIG``, prints ``ready``, and on
each line of standard input (``write <id> <text>`` or ``delete <id>``) changes one episode
of the viewer ``haru/minjun``; the test kills it with SIGKILL while it waits for Qdrant.
"""

from __future__ import annotations

import json
import os
import sys

import anyio

from omoide.domain import Scope
from omoide.store.server import ServerConfig, open_server_store
from tests.store.builders import EMBEDDING, at, episode, turn

VIEWER = Scope("haru", "minjun")


async def main() -> None:
    config = ServerConfig(**json.loads(os.environ["OMOIDE_CRASH_CONFIG"]))
    store = await open_server_store(config, embedding=EMBEDDING)
    print("ready", flush=True)
    while line := await anyio.to_thread.run_sync(sys.stdin.readline):
        command, episode_id, *words = line.split()
        if command == "write":
            await store.write_turns("haru", [turn(episode(VIEWER, episode_id, " ".join(words)))])
        else:
            await store.delete_episode(VIEWER, episode_id, reason="asked", at=at(1))
        print("done", flush=True)


if __name__ == "__main__":
    anyio.run(main)
