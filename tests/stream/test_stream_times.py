"""Stream comments dated after the server's clock are refused, naming the event and time."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from omoide.domain import Scope
from omoide.errors import InvalidInput
from omoide.store.base import EpisodeFilter
from omoide.stream.events import StreamEvent
from tests.stream.harness import START, Parts, open_service


@pytest.mark.anyio
async def test_a_comment_from_the_future_refuses_the_batch(omoide: Parts, cid: str) -> None:
    service = await open_service(omoide, use_llm=False)
    events = [
        StreamEvent("v1", "V1", "my birthday is next week!", START + timedelta(minutes=5)),
        StreamEvent("v2", "V2", "my birthday is next month!", START + timedelta(minutes=6)),
    ]
    server_time = re.escape(f"server's time is {START.isoformat()}")
    with pytest.raises(InvalidInput, match=rf"^event 1: time .*{server_time}"):
        await service.ingest(cid, "s1", events)
    for viewer in ("v1", "v2"):
        scope = Scope(cid, viewer)
        assert await omoide.store.count_episodes(scope, where=EpisodeFilter()) == 0
