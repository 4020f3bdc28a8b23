"""The done-when test: a scripted stream of 700 comments from 50 viewers, end to end."""

from __future__ import annotations

import math
from collections import Counter
from datetime import timedelta

import pytest

from omoide.character.identity import OutcomeStatus
from omoide.character.identity_policy import profile_diff
from omoide.clock import FixedClock
from omoide.domain import Scope
from omoide.errors import Conflict
from omoide.llm.scripted import ScriptedChatModel
from omoide.store.records.profile import EVOLVABLE_FIELDS, PROTECTED_FIELDS
from omoide.store.records.stream import DiaryReason
from omoide.stream.events import StreamEvent
from tests.stream.harness import START, Parts, StreamScript, open_service

VIEWERS = 50
COMMENTS = 700
BATCH = 20
NEW_TRAIT = "방송을 거듭하며 시청자의 작은 변화도 알아채게 되었다."
FILLER = ("www", "ㅋㅋㅋ", "lol", "888", "hello everyone", "草", "gg")


def game_of(viewer: int) -> str:
    return f"Quest{viewer:02d}"


def stream_comments() -> list[StreamEvent]:
    """Each viewer states one distinctive preference once, then chats and reacts."""
    events = []
    for index in range(COMMENTS):
        viewer = index % VIEWERS
        if index < VIEWERS:
            text = f"I really love playing {game_of(viewer)}!"
        elif index % 3 == 0:
            text = f"{game_of(viewer)} is my favorite game, the boss fights are great"
        else:
            text = FILLER[index % len(FILLER)]
        reply = "Thanks for coming!" if index % 25 == 0 else None
        moment = START + timedelta(seconds=5 * index)
        events.append(
            StreamEvent(f"viewer{viewer:02d}", f"Fan {viewer:02d}", text, moment, "twitch", reply)
        )
    return events


@pytest.mark.anyio
async def test_a_700_comment_stream_grows_the_character_within_its_bounds(
    omoide: Parts, cid: str, script: StreamScript, model: ScriptedChatModel, clock: FixedClock
) -> None:
    original = (await omoide.characters.load(cid)).profile
    script.identity_diff = {
        "personality": [*original.personality, NEW_TRAIT],
        "name": "Someone Else",
    }
    service = await open_service(omoide)
    events = stream_comments()
    clock.set(events[-1].time)  # the comments arrive live: none is after the server's clock
    for start in range(0, COMMENTS, 100):
        report = await service.ingest(cid, "s1", events[start : start + 100])
        assert report.received == 100
    assert model.call_count == 0, "ingestion must never wait for the model"

    flushed = await service.drain()
    assert [entry.number for entry in flushed.diary_entries] == [1, 2]
    assert [(e.from_comment, e.to_comment) for e in flushed.diary_entries] == [(1, 300), (301, 600)]
    end = await service.end_stream(cid, "s1")
    assert (end.diary.number, end.diary.reason) == (3, DiaryReason.END)
    assert (end.diary.from_comment, end.diary.to_comment) == (601, 700)
    assert {entry.number for entry in await service.diary(cid)} == {1, 2, 3}

    outcomes = [*flushed.identity, *end.identity]
    assert len(outcomes) == 3
    for outcome in outcomes:
        assert outcome.status is OutcomeStatus.PENDING
        assert [change.field for change in outcome.accepted] == ["personality"]
        assert [refused.field for refused in outcome.refused] == ["name"]
    assert await service.identity.versions(cid) == []
    assert (await service.identity.current_profile(cid)) == original

    first = outcomes[0].change_id
    assert first is not None
    version = await service.identity.approve(cid, first)
    evolved = await service.identity.current_profile(cid)
    assert evolved.personality[-1] == NEW_TRAIT
    assert evolved.name == original.name
    changed = {change.field for change in profile_diff(original, evolved)}
    assert changed == {"personality"}
    assert changed <= set(EVOLVABLE_FIELDS) and not changed & PROTECTED_FIELDS
    assert version.diary_entry_id == outcomes[0].diary_entry_id
    second = outcomes[1].change_id
    assert second is not None
    with pytest.raises(Conflict):  # its "before" is no longer the current personality
        await service.identity.approve(cid, second)

    await service.identity.rollback(cid, 0)
    restored = await service.identity.current_profile(cid)
    assert restored.model_dump() == original.model_dump()

    await _each_viewer_has_only_their_own_facts(omoide, cid)
    _model_calls_are_bounded(service.stats().llm_calls, events, diary_entries=3)
    assert Counter(script.asked) == {"viewer": VIEWERS, "diary": 3, "identity": 3}


async def _each_viewer_has_only_their_own_facts(omoide: Parts, cid: str) -> None:
    for viewer in range(VIEWERS):
        facts = await omoide.memory.list_facts(Scope(cid, f"viewer{viewer:02d}"))
        texts = " | ".join(fact.text for fact in facts)
        assert game_of(viewer) in texts, texts
        assert f"goes by Fan {viewer:02d}" in texts, texts
        others = [game_of(other) for other in range(VIEWERS) if other != viewer]
        assert not any(other in texts for other in others), texts
        assert not any(f"Fan {other:02d}" in texts for other in range(VIEWERS) if other != viewer)


def _model_calls_are_bounded(calls: int, events: list[StreamEvent], *, diary_entries: int) -> None:
    """At most one call per full-or-idle viewer batch, plus a diary and an identity call
    per diary entry: far fewer than one call per comment."""
    from omoide.memory.importance import is_low_signal

    waiting = Counter(event.viewer_id for event in events if not is_low_signal(event.text))
    bound = sum(math.ceil(count / BATCH) for count in waiting.values()) + 2 * diary_entries
    assert calls <= bound
    per_thousand = 1000 * calls / len(events)
    assert per_thousand <= 1000 * bound / len(events) < 100
