from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.fake_servers import FakeChatServer, running_server


@pytest.fixture(scope="session")
def shared_chat_server() -> Iterator[FakeChatServer]:
    with running_server() as server:
        yield server


@pytest.fixture
def chat_server(shared_chat_server: FakeChatServer) -> Iterator[FakeChatServer]:
    """The session's fake chat server, emptied for each test."""
    shared_chat_server.reset()
    yield shared_chat_server
    shared_chat_server.release()
