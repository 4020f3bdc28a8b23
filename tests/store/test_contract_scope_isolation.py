"""Property: random interleaved operations never reach across scopes.

Hypothesis draws a sequence of writes, searches, listings, recalls, archives, deletes and
forgets over five scopes: two viewers of one character, the same user_id under a second
character, and both characters' own (character-wide) scopes. A plain in-memory model says
what each scope must contain; after every operation every scope of the store is compared
with it, so an operation that returns, counts, changes or deletes anything of another scope
fails at the step that did it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omoide.domain import Scope, Vector
from omoide.errors import NotFound
from omoide.store.base import EpisodeFilter, FactFilter
from omoide.wiring.storage import MemoryBackend
from tests.store.builders import (
    add_facts,
    at,
    blend,
    emotion,
    episode,
    fact,
    fact_write,
    turn,
    unit,
)
from tests.store.conftest import StoreFactory

pytestmark = pytest.mark.anyio

SCOPES = (
    Scope("haru", "viewer-a"),
    Scope("haru", "viewer-b"),
    Scope("aoi", "viewer-a"),
    Scope("haru"),
    Scope("aoi"),
)
CHARACTERS = ("haru", "aoi")
WORDS = ("apple", "火锅", "게임", "ゲーム", "deadlock", "猫")
DIRECTIONS = (unit(0), unit(1), unit(2), blend(1, 1), blend(1, 0, 1), blend(-1, 1))


@dataclass
class Stored:
    """The model of one stored episode or fact."""

    scope: Scope
    text: str
    direction: int
    archived: bool = False
    recalls: int = 0
    sources: list[str] = field(default_factory=list)


@dataclass
class Model:
    episodes: dict[str, Stored] = field(default_factory=dict)
    facts: dict[str, Stored] = field(default_factory=dict)
    emotions: dict[str, tuple[Scope, str | None]] = field(default_factory=dict)
    owners: dict[str, Scope] = field(default_factory=dict)
    """Every id ever written (deleted ones too) and its scope."""
    counter: itertools.count[int] = field(default_factory=itertools.count)

    def in_scope(self, items: dict[str, Stored], scope: Scope) -> dict[str, Stored]:
        return {key: item for key, item in items.items() if item.scope == scope}

    def pick(self, prefix: str, scope: Scope, index: int, *, foreign: bool) -> str:
        """An id ever written with ``prefix``: another scope's if ``foreign``, else ``scope``'s."""
        candidates = [
            key
            for key, owner in self.owners.items()
            if key.startswith(prefix) and (owner != scope) == foreign
        ]
        return candidates[index % len(candidates)] if candidates else "never-stored"


# --- operations ------------------------------------------------------------------------
@dataclass(frozen=True)
class WriteTurn:
    scope: int
    words: tuple[int, ...]
    direction: int
    with_emotion: bool


@dataclass(frozen=True)
class AddFact:
    scope: int
    words: tuple[int, ...]
    direction: int
    cite: bool


@dataclass(frozen=True)
class Search:
    scope: int
    facts: bool
    by_vector: bool
    probe: int
    limit: int


@dataclass(frozen=True)
class Delete:
    scope: int
    facts: bool
    foreign: bool
    pick: int


@dataclass(frozen=True)
class Touch:
    """Record recalls (or archive) of picked ids, some of them in other scopes."""

    scope: int
    archive: bool
    picks: tuple[tuple[bool, int], ...]


@dataclass(frozen=True)
class Forget:
    scope: int


@dataclass(frozen=True)
class ListViewers:
    character: int


scope_index = st.integers(0, len(SCOPES) - 1)
words = st.lists(st.integers(0, len(WORDS) - 1), min_size=1, max_size=3).map(tuple)
direction = st.integers(0, len(DIRECTIONS) - 1)
pick = st.tuples(st.booleans(), st.integers(0, 50))
write_turns = st.builds(WriteTurn, scope_index, words, direction, st.booleans())
fact_adds = st.builds(AddFact, scope_index, words, direction, st.booleans())
searches = st.builds(
    Search, scope_index, st.booleans(), st.booleans(), st.integers(0, 5), st.integers(1, 4)
)
deletes = st.builds(Delete, scope_index, st.booleans(), st.booleans(), st.integers(0, 50))
touches = st.builds(Touch, scope_index, st.booleans(), st.lists(pick, max_size=4).map(tuple))
operations = st.one_of(  # repeated strategies are drawn more often
    write_turns,
    write_turns,
    write_turns,
    fact_adds,
    fact_adds,
    searches,
    searches,
    deletes,
    deletes,
    touches,
    touches,
    st.builds(Forget, scope_index),
    st.builds(ListViewers, st.integers(0, 1)),
)


# --- applying an operation to the store and the model ----------------------------------
async def write_turn(store: MemoryBackend, model: Model, op: WriteTurn) -> None:
    scope, number = SCOPES[op.scope], next(model.counter)
    text = " ".join(WORDS[word] for word in op.words)
    stored = episode(scope, f"ep{number}", text, recorded_at=at(number))
    feeling = emotion(scope, f"em{number}", recorded_at=at(number), episode_id=stored.id)
    chosen = feeling if op.with_emotion else None
    await store.write_turns(
        scope.character_id, [turn(stored, DIRECTIONS[op.direction], feeling=chosen)]
    )
    model.episodes[stored.id] = Stored(scope, text, op.direction)
    model.owners[stored.id] = scope
    if op.with_emotion:
        model.emotions[feeling.id] = (scope, stored.id)


async def add_fact(store: MemoryBackend, model: Model, op: AddFact) -> None:
    scope, number = SCOPES[op.scope], next(model.counter)
    own = list(model.in_scope(model.episodes, scope))
    sources = own[-1:] if op.cite else []
    text = " ".join(WORDS[word] for word in op.words)
    item = fact(scope, f"fa{number}", text, recorded_at=at(number), sources=tuple(sources))
    await add_facts(store, scope, [fact_write(item, DIRECTIONS[op.direction])])
    model.facts[item.id] = Stored(scope, text, op.direction, sources=sources)
    model.owners[item.id] = scope


def cosine(left: Vector, right: Vector) -> float:
    return float(np.dot(left, right) / (np.linalg.norm(left) * np.linalg.norm(right)))


async def found_by_vector(store: MemoryBackend, scope: Scope, op: Search) -> dict[str, float]:
    query = DIRECTIONS[op.probe % len(DIRECTIONS)]
    if op.facts:
        facts = await store.search_fact_vectors(scope, query, where=FactFilter(), limit=op.limit)
        return {hit.item.id: hit.score for hit in facts}
    episodes = await store.search_episode_vectors(
        scope, query, where=EpisodeFilter(), limit=op.limit
    )
    return {hit.item.id: hit.score for hit in episodes}


async def found_by_keyword(store: MemoryBackend, scope: Scope, op: Search) -> dict[str, float]:
    word = WORDS[op.probe % len(WORDS)]
    if op.facts:
        facts = await store.search_fact_keywords(scope, word, where=FactFilter(), limit=op.limit)
        return {hit.item.id: hit.score for hit in facts}
    episodes = await store.search_episode_keywords(
        scope, word, where=EpisodeFilter(), limit=op.limit
    )
    return {hit.item.id: hit.score for hit in episodes}


async def search(store: MemoryBackend, model: Model, op: Search) -> None:
    scope = SCOPES[op.scope]
    items = model.in_scope(model.facts if op.facts else model.episodes, scope)
    eligible = {key: item for key, item in items.items() if not item.archived}
    if op.by_vector:
        found = await found_by_vector(store, scope, op)
        query = DIRECTIONS[op.probe % len(DIRECTIONS)]
        expected = {
            key: cosine(query, DIRECTIONS[item.direction]) for key, item in eligible.items()
        }
    else:
        found = await found_by_keyword(store, scope, op)
        word = WORDS[op.probe % len(WORDS)]
        expected = {key: 0.0 for key, item in eligible.items() if word in item.text.split()}
    assert set(found) <= set(expected), f"{set(found) - set(expected)} leaked into {scope}"
    assert len(found) == min(op.limit, len(expected))
    if op.by_vector:
        for key, score in found.items():
            assert score == pytest.approx(expected[key], abs=1e-4)
        left_out = [score for key, score in expected.items() if key not in found]
        assert all(min(found.values()) >= score - 1e-4 for score in left_out)  # exact top-k


async def delete(store: MemoryBackend, model: Model, op: Delete) -> None:
    scope = SCOPES[op.scope]
    items = model.facts if op.facts else model.episodes
    target = model.pick("fa" if op.facts else "ep", scope, op.pick, foreign=op.foreign)
    deleting = store.delete_fact if op.facts else store.delete_episode
    if target in items and items[target].scope == scope:
        tombstone = await deleting(scope, target, reason="test", at=at(0))
        assert (tombstone.memory_id, tombstone.scope) == (target, scope)
        del items[target]
        for item in model.facts.values():
            item.sources = [source for source in item.sources if source != target]
        model.emotions = {
            k: (s, None if e == target else e) for k, (s, e) in model.emotions.items()
        }
    else:
        with pytest.raises(NotFound):
            await deleting(scope, target, reason="test", at=at(0))


async def touch(store: MemoryBackend, model: Model, op: Touch) -> None:
    scope = SCOPES[op.scope]
    episode_ids = list({model.pick("ep", scope, i, foreign=foreign) for foreign, i in op.picks})
    fact_ids = list({model.pick("fa", scope, i, foreign=foreign) for foreign, i in op.picks})
    mine = model.in_scope(model.episodes, scope)
    if op.archive:
        archived = await store.archive_episodes(scope, episode_ids, at=at(0))
        newly = [key for key in episode_ids if key in mine and not mine[key].archived]
        assert archived == len(newly)
        for key in newly:
            mine[key].archived = True
        return
    await store.record_recalls(scope, episode_ids=episode_ids, fact_ids=fact_ids, at=at(0))
    own_facts = model.in_scope(model.facts, scope)
    for key in episode_ids:
        if key in mine:
            mine[key].recalls += 1
    for key in fact_ids:
        if key in own_facts:
            own_facts[key].recalls += 1


async def forget(store: MemoryBackend, model: Model, op: Forget) -> None:
    scope = SCOPES[op.scope]
    gone = {scope}
    counts = (
        sum(item.scope in gone for item in model.episodes.values()),
        sum(item.scope in gone for item in model.facts.values()),
        sum(owner in gone for owner, _ in model.emotions.values()),
    )
    report = await store.forget_viewer(scope, reason="test", at=at(0))
    assert (report.episodes, report.facts, report.emotions) == counts
    model.episodes = {k: v for k, v in model.episodes.items() if v.scope not in gone}
    model.facts = {k: v for k, v in model.facts.items() if v.scope not in gone}
    model.emotions = {k: v for k, v in model.emotions.items() if v[0] not in gone}


async def list_viewers(store: MemoryBackend, model: Model, op: ListViewers) -> None:
    character = CHARACTERS[op.character]
    listed = await store.list_viewers(character, search=None, limit=50)
    expected = {}
    for scope in SCOPES:
        if scope.character_id != character or scope.user_id is None:
            continue
        episodes, facts = model.in_scope(model.episodes, scope), model.in_scope(model.facts, scope)
        emotions = [key for key, (owner, _) in model.emotions.items() if owner == scope]
        if episodes or facts or emotions:
            archived = sum(1 for key in episodes if model.episodes[key].archived)
            expected[scope] = (len(episodes) - archived, archived, len(facts))
    counts = {v.scope: (v.episode_count, v.archived_episode_count, v.fact_count) for v in listed}
    assert counts == expected


async def check_every_scope(store: MemoryBackend, model: Model) -> None:
    for scope in SCOPES:
        export = await store.export_scope(scope)
        episodes, facts = model.in_scope(model.episodes, scope), model.in_scope(model.facts, scope)
        assert {
            e.id: (e.scope, e.recall_count, e.archived_at is not None) for e in export.episodes
        } == {key: (scope, item.recalls, item.archived) for key, item in episodes.items()}
        assert {
            f.id: (f.scope, f.recall_count, list(f.source_episode_ids)) for f in export.facts
        } == {key: (scope, item.recalls, item.sources) for key, item in facts.items()}
        assert {m.id: (m.scope, m.episode_id) for m in export.emotions} == {
            key: value for key, value in model.emotions.items() if value[0] == scope
        }
        unarchived = sum(not item.archived for item in episodes.values())
        assert await store.count_episodes(scope, where=EpisodeFilter()) == unarchived
        assert all(tombstone.scope == scope for tombstone in export.tombstones)


APPLY = {
    WriteTurn: write_turn,
    AddFact: add_fact,
    Search: search,
    Delete: delete,
    Touch: touch,
    Forget: forget,
    ListViewers: list_viewers,
}
examples = itertools.count()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(operations, min_size=8, max_size=30))
async def test_operations_never_cross_scopes(
    store_factory: StoreFactory, steps: list[object]
) -> None:
    store = await store_factory(name=f"example{next(examples)}")
    model = Model()
    try:
        for step in steps:
            await APPLY[type(step)](store, model, step)  # type: ignore[operator]
            await check_every_scope(store, model)
    finally:
        await store.close()
