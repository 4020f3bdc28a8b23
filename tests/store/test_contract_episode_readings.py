"""Contract: an episode's readings (what the reply path reads from its words, written by
the memory layer) are kept with it, come back wherever the episode does, are replaced by a
rewrite and go with the episode (every backend)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from omoide.domain import Scope
from omoide.errors import InvalidInput, NotFound
from omoide.store.base import EpisodeFilter, ReplyReads
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import at, episode, turn, unit

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
KEPT = '["1/2/15.0.0", "likes", false, "", "game 롤", "\\"나 롤 게임\\""]'
"""Any text: the store keeps it as given and never reads it."""


async def test_readings_come_back_with_every_read_of_the_episode(store: MemoryBackend) -> None:
    kept = replace(episode(VIEWER, "e1", "나 롤 게임 좋아해", recorded_at=at(1)), readings=KEPT)
    bare = episode(VIEWER, "e2", "게임 하러 간다", recorded_at=at(2))
    await store.write_turns("haru", [turn(kept, unit(0)), turn(bare, unit(1))])

    assert (await store.get_episode(VIEWER, "e1")).readings == KEPT
    assert (await store.get_episode(VIEWER, "e2")).readings is None
    listed = await store.list_episodes(VIEWER, where=EpisodeFilter(), limit=10)
    assert {item.id: item.readings for item in listed} == {"e1": KEPT, "e2": None}
    found = await store.read_for_reply(
        VIEWER, ReplyReads(EpisodeFilter(), 5, 5, vector=unit(0), words="게임")
    )
    by_meaning = {hit.item.id: hit.item.readings for hit in found.episode_vector}
    by_words = {hit.item.id: hit.item.readings for hit in found.episode_keyword}
    assert by_meaning == by_words == {"e1": KEPT, "e2": None}


async def test_readings_are_not_part_of_the_episode_value(store: MemoryBackend) -> None:
    written = replace(episode(VIEWER, "e1", "hello"), readings=KEPT)
    await store.write_turns("haru", [turn(written)])
    read = await store.get_episode(VIEWER, "e1")
    assert read == replace(written, readings=None)  # derived from the words: not compared
    assert KEPT not in repr(read)


async def test_a_rewrite_replaces_the_readings(store: MemoryBackend) -> None:
    written = replace(episode(VIEWER, "e1", "나 민준이야"), readings=KEPT)
    await store.write_turns("haru", [turn(written, unit(0))])

    redacted = replace(written, user_message="나 ***이야", readings=None)
    await store.rewrite_episode(VIEWER, redacted, vector=unit(1))
    assert (await store.get_episode(VIEWER, "e1")).readings is None  # none given: none kept

    renewed = replace(written, user_message="나 ***이야", readings=KEPT.replace("롤", "***"))
    await store.rewrite_episode(VIEWER, renewed, vector=unit(1))
    assert (await store.get_episode(VIEWER, "e1")).readings == renewed.readings


async def test_readings_go_with_their_episode(store: MemoryBackend) -> None:
    written = replace(episode(VIEWER, "e1", "나 롤 게임 좋아해"), readings=KEPT)
    await store.write_turns("haru", [turn(written, unit(0))])
    await store.delete_episode(VIEWER, "e1", reason="asked", at=at(5))
    with pytest.raises(NotFound):
        await store.get_episode(VIEWER, "e1")
    exported = await store.export_scope(VIEWER)
    assert exported.episodes == ()


async def test_readings_that_are_not_text_are_refused(store: MemoryBackend) -> None:
    written = replace(episode(VIEWER, "e1"), readings=["not", "text"])  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="readings"):
        await store.write_turns("haru", [turn(written)])


async def test_readings_are_replaced_only_while_they_are_the_ones_read(
    store: MemoryBackend,
) -> None:
    old = replace(episode(VIEWER, "e1", "나 롤 게임 좋아해", recorded_at=at(1)), readings=KEPT)
    bare = episode(VIEWER, "e2", "게임 하러 간다", recorded_at=at(2))
    await store.write_turns("haru", [turn(old, unit(0)), turn(bare, unit(1))])

    replaced = await store.replace_episode_readings(
        VIEWER, {"e1": (KEPT, '["new e1"]'), "e2": (None, '["new e2"]'), "e9": (None, "x")}
    )
    assert replaced == 2  # an unknown id replaces nothing
    assert (await store.get_episode(VIEWER, "e1")).readings == '["new e1"]'
    assert (await store.get_episode(VIEWER, "e2")).readings == '["new e2"]'

    stale = await store.replace_episode_readings(VIEWER, {"e1": (KEPT, '["late"]')})
    assert stale == 0  # rewritten since it was read: what is there now stays
    assert (await store.get_episode(VIEWER, "e1")).readings == '["new e1"]'


async def test_readings_are_replaced_in_their_own_scope_only(store: MemoryBackend) -> None:
    other = Scope("haru", "jun")
    await store.write_turns("haru", [turn(episode(other, "e1", "나 롤 게임 좋아해"), unit(0))])
    await store.write_turns("haru", [turn(episode(VIEWER, "e2", "게임"), unit(1))])
    assert await store.replace_episode_readings(VIEWER, {"e1": (None, '["x"]')}) == 0
    assert (await store.get_episode(other, "e1")).readings is None
    assert await store.replace_episode_readings(Scope("haru", "nobody"), {"e1": (None, "x")}) == 0


async def test_replacing_readings_refuses_what_is_not_text(store: MemoryBackend) -> None:
    with pytest.raises(InvalidInput, match="readings"):
        await store.replace_episode_readings(VIEWER, {"e1": (None, 7)})  # type: ignore[dict-item]
    with pytest.raises(InvalidInput, match="readings"):
        await store.replace_episode_readings(VIEWER, {"e1": (7, "x")})  # type: ignore[dict-item]
