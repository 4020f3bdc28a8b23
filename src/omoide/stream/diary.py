"""The character's diary: reflective entries about its streams, in its own memory.

An entry is written for each :class:`~omoide.store.records.stream.DiaryJob` (every
``diary_every`` comments of a stream, and when the stream ends), from the stream log
since the previous entry: by the model when there is one (the profile and a bounded
digest), else as a structured summary that says so. A model that fails twice to answer
usably gets the structured entry too, marked ``llm_failed``.

Entries are episodes in the character's own scope, ``Scope(character_id)``, with metadata
``{"kind": "diary", "stream_id": ..., ...}``: the same retrieval that finds what viewers
said finds what the character wrote. An entry's episode id is derived from its job, so a
job retried after a crash finds the entry already written instead of writing it twice.

Jobs are claimed from the log one at a time, just before each is written, so when several
instances run a worker each job is written by one of them, and a claim held while the
model writes is never older than one entry.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

import anyio

from omoide.character.identity import ProfileSource
from omoide.character.topics import TopicTracker
from omoide.clock import Clock
from omoide.domain import Episode, Scope, ScoringMethod
from omoide.embed.base import Embedder
from omoide.errors import NotFound, OmoideError
from omoide.llm.base import ChatModel, ChatOptions
from omoide.memory.episode_readings import with_readings
from omoide.memory.llm_reply import ask_json
from omoide.metadata import Metadata
from omoide.metrics import Metrics
from omoide.store.base import EpisodeFilter, TurnWrite
from omoide.store.records.stream import (
    CLAIM_SECONDS,
    DiaryJob,
    DiaryReason,
    DiaryWindow,
    diary_episode_id,
)
from omoide.stream.config import StreamConfig
from omoide.stream.diary_prompt import diary_messages, parse_diary_reply
from omoide.stream.logs import DiaryJobLog
from omoide.stream.summaries import structured_diary

logger = logging.getLogger(__name__)

DIARY_KIND = "diary"
DIARY_IMPORTANCE = 0.8
LEARNED_FACTS_IN_DIGEST = 20
TOP_COUNTS = 5
_OPTIONS = ChatOptions(max_tokens=1200, temperature=0.7, json_mode=True)
_PAGE = 200
WAIT_POLL_SECONDS = 0.2
WAIT_LIMIT_SECONDS = 2 * CLAIM_SECONDS
"""How long :meth:`DiaryWriter.written` waits for an entry: past any claim's lease."""


class DiaryMemory(Protocol):
    """What the diary reads and writes (a memory store): its entries are character-wide episodes."""

    async def get_episode(self, scope: Scope, episode_id: str) -> Episode: ...

    async def list_episodes(
        self, scope: Scope, *, where: EpisodeFilter, limit: int, offset: int = 0
    ) -> list[Episode]: ...

    async def write_turns(self, character_id: str, turns: Sequence[TurnWrite]) -> None: ...


@dataclass(frozen=True, slots=True)
class DiaryEntry:
    """One diary entry, as the character's memory holds it."""

    id: str
    character_id: str
    stream_id: str
    number: int
    reason: DiaryReason
    text: str
    method: str
    written_at: datetime
    from_comment: int
    to_comment: int
    comment_count: int
    viewer_count: int
    mood: str | None = None
    topics: tuple[str, ...] = ()
    llm_failed: bool = False
    model: str | None = None
    """The chat model that wrote it (its ``name``; ``scripted`` is the offline demo
    model), ``None`` for a structured entry."""


@dataclass(frozen=True, slots=True)
class _Written:
    """An entry's text and how it was written, before it is stored."""

    text: str
    method: str
    mood: str | None
    topics: tuple[str, ...]
    failed: bool = False
    model: str | None = None


def with_sample_topics(window: DiaryWindow, tracker: TopicTracker) -> DiaryWindow:
    """The window with topics of sampled comments that were not kept (and so carry none)
    counted in: the log has topics only for the comments stored as episodes."""
    counts = Counter(dict(window.stats.topics))
    for comment in window.sample:
        entry = comment.entry
        if not entry.topics:
            counts.update(tracker.extract(entry.text, viewer_name=entry.display_name)[:3])
    topics = tuple(counts.most_common(TOP_COUNTS))
    return replace(window, stats=replace(window.stats, topics=topics))


def _metadata(job: DiaryJob, window: DiaryWindow, written: _Written) -> dict[str, str | int | bool]:
    metadata: dict[str, str | int | bool] = {
        "kind": DIARY_KIND,
        "stream_id": job.stream_id,
        "entry_number": job.number,
        "reason": job.reason.value,
        "from_comment": job.from_seq,
        "to_comment": job.to_seq,
        "comments": window.stats.comments,
        "viewers": window.stats.viewers,
        "method": written.method,
        "llm_failed": written.failed,
    }
    if written.mood is not None:
        metadata["mood"] = written.mood
    if written.model is not None:
        metadata["model"] = written.model
    return metadata


def _int(metadata: Metadata, key: str) -> int:
    value = metadata.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def diary_entry_from_episode(episode: Episode) -> DiaryEntry | None:
    """The entry an episode holds, or ``None`` when it is not a diary entry."""
    meta = episode.metadata
    if meta.get("kind") != DIARY_KIND or episode.scope.user_id is not None:
        return None
    mood, model = meta.get("mood"), meta.get("model")
    return DiaryEntry(
        id=episode.id,
        character_id=episode.scope.character_id,
        stream_id=str(meta.get("stream_id", "")),
        number=_int(meta, "entry_number"),
        reason=DiaryReason(str(meta.get("reason", DiaryReason.THRESHOLD.value))),
        text=episode.user_message,
        method=str(meta.get("method", "structured")),
        written_at=episode.recorded_at,
        from_comment=_int(meta, "from_comment"),
        to_comment=_int(meta, "to_comment"),
        comment_count=_int(meta, "comments"),
        viewer_count=_int(meta, "viewers"),
        mood=mood if isinstance(mood, str) else None,
        topics=episode.topics,
        llm_failed=meta.get("llm_failed") is True,
        model=model if isinstance(model, str) else None,
    )


class DiaryWriter:
    """Writes queued diary entries, one job at a time, and lists a character's diary."""

    def __init__(
        self,
        *,
        log: DiaryJobLog,
        store: DiaryMemory,
        embedder: Embedder,
        profiles: ProfileSource,
        llm: ChatModel | None,
        config: StreamConfig,
        clock: Clock,
        metrics: Metrics,
    ) -> None:
        self._log = log
        self._store = store
        self._embedder = embedder
        self._profiles = profiles
        self._llm = llm
        self._config = config
        self._clock = clock
        self._metrics = metrics
        self._lock = anyio.Lock()

    async def write_pending(
        self, *, character_id: str | None = None, stream_id: str | None = None, limit: int = 32
    ) -> list[DiaryEntry]:
        """Write queued jobs no other instance holds, oldest first (``None`` filters
        nothing), claiming each just before it is written."""
        written: list[DiaryEntry] = []
        async with self._lock:
            while len(written) < limit:
                jobs = await self._log.claim_diary_jobs(
                    character_id=character_id, stream_id=stream_id, limit=1
                )
                if not jobs:
                    break
                written.append(await self._write(jobs[0]))
        return written

    async def written(self, job: DiaryJob) -> DiaryEntry:
        """The job's entry, waiting while another instance holds the job (and writing it
        here once that instance's claim runs out); NotFound if it never appears."""
        deadline = anyio.current_time() + WAIT_LIMIT_SECONDS
        while anyio.current_time() < deadline:
            try:
                return await self.entry_for(job)
            except NotFound:
                pass
            entries = await self.write_pending(
                character_id=job.character_id, stream_id=job.stream_id
            )
            mine = next((entry for entry in entries if entry.id == diary_episode_id(job)), None)
            if mine is not None:
                return mine
            await anyio.sleep(WAIT_POLL_SECONDS)
        raise NotFound(f"diary job {job.id} of {job.character_id!r} was never written")

    async def entry_for(self, job: DiaryJob) -> DiaryEntry:
        """The entry a job wrote (NotFound before it is written)."""
        return await self.entry(job.character_id, diary_episode_id(job))

    async def entry(self, character_id: str, entry_id: str) -> DiaryEntry:
        """One diary entry of a character (NotFound when there is no such entry)."""
        episode = await self._store.get_episode(Scope(character_id), entry_id)
        entry = diary_entry_from_episode(episode)
        if entry is None:
            raise NotFound(f"diary entry {episode.id} of {character_id!r} is not a diary entry")
        return entry

    async def find(self, character_id: str, entry_id: str | None) -> DiaryEntry | None:
        """One diary entry of a character, or ``None``."""
        if entry_id is None:
            return None
        try:
            return await self.entry(character_id, entry_id)
        except NotFound:
            return None

    async def entries(self, character_id: str, *, limit: int, offset: int = 0) -> list[DiaryEntry]:
        """Diary entries of a character, newest first."""
        found: list[DiaryEntry] = []
        page = 0
        while len(found) < offset + limit:
            episodes = await self._store.list_episodes(
                Scope(character_id),
                where=EpisodeFilter(include_archived=True),
                limit=_PAGE,
                offset=page * _PAGE,
            )
            found += [e for e in map(diary_entry_from_episode, episodes) if e is not None]
            if len(episodes) < _PAGE:
                break
            page += 1
        return found[offset : offset + limit]

    async def _write(self, job: DiaryJob) -> DiaryEntry:
        try:
            entry = await self.entry_for(job)
        except NotFound:
            entry = await self._compose(job)
        await self._log.finish_diary_job(job, episode_id=entry.id)
        self._metrics.increment("stream.diary_entries")
        return entry

    async def _compose(self, job: DiaryJob) -> DiaryEntry:
        window = await self._log.diary_window(
            job, sample=self._config.digest_comments, facts=LEARNED_FACTS_IN_DIGEST, top=TOP_COUNTS
        )
        profile = await self._profiles.current_profile(job.character_id)
        window = with_sample_topics(window, TopicTracker.for_profile(profile))
        text = structured_diary(window, character_name=profile.name)
        topics = tuple(topic for topic, _ in window.stats.topics)
        written = _Written(text, "structured", None, topics)
        if self._llm is not None and window.stats.comments:
            try:
                reply = await ask_json(
                    self._llm,
                    diary_messages(profile, window, max_chars=self._config.digest_characters),
                    parse=parse_diary_reply,
                    options=_OPTIONS,
                    metrics=self._metrics,
                    calls_metric="stream.llm_calls",
                )
                topics = reply.topics or topics
                written = _Written(reply.entry, "llm", reply.mood, topics, model=self._llm.name)
            except OmoideError as exc:
                written = replace(written, failed=True)
                self._metrics.increment("stream.diary_llm_failures")
                logger.warning("diary entry %s fell back to a structured one: %s", job.id, exc)
        return await self._store_entry(job, window, written)

    async def _store_entry(
        self, job: DiaryJob, window: DiaryWindow, written: _Written
    ) -> DiaryEntry:
        last = window.stats.last_time
        written_at = job.created_at
        if last is not None and (job.reason is DiaryReason.THRESHOLD or last > written_at):
            written_at = last
        metadata = _metadata(job, window, written)
        episode = with_readings(
            Episode(
                id=diary_episode_id(job),
                scope=Scope(job.character_id),
                user_message=written.text,
                bot_message="",
                recorded_at=written_at,
                importance=DIARY_IMPORTANCE,
                topics=written.topics,
                scoring=ScoringMethod.GIVEN,
                metadata=metadata,
            )
        )
        vector = (await self._embedder.embed_documents([episode.searchable_text]))[0]
        await self._store.write_turns(
            job.character_id, [TurnWrite(episode.scope, episode, vector, None)]
        )
        entry = diary_entry_from_episode(episode)
        assert entry is not None
        return entry
