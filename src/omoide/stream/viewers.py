"""Per-viewer model work, batched: one call per viewer per batch of comments, off the stream.

Comments with signal wait in the stream log per viewer. A viewer's batch is due when
``viewer_batch_size`` comments wait, or the oldest has waited ``viewer_idle_seconds``.
:meth:`ViewerWorker.flush_due` takes one batch from each due viewer and, with a model,
asks it ONCE for the batch's facts and a rewritten rolling summary; facts go through the
same :class:`~omoide.memory.facts.FactKeeper` as every other write (near-duplicates
merge, updates supersede) and cite the batch's newest kept comment; when none of its
comments was kept, the batch is stored as one episode (``kind: viewer_batch``) for them
to cite, so no fact is without its source. Without a model (or when the model fails) the summary is
structured from the viewer's facts and topics, and says so.

When a character's stream ends (:meth:`ViewerWorker.stream_ended`), its viewers' waiting
comments are due at the next flush: nobody adds to them in that stream, so their summary
need not wait ``viewer_idle_seconds``. (Best effort: only viewers among the first
``viewers_per_flush`` with comments waiting are found; the rest stay due by idle time.)

A batch smaller than ``viewer_min_llm_comments`` (only possible after idle time) skips the
model. Model calls are counted as ``stream.llm_calls`` (retries included); a failed batch
as ``stream.viewer_batch_failures``. A failed batch is not retried: the rule facts of its
comments are already stored, and the next batch rewrites the summary.

A batch is claimed from the log before it is worked on, so when several instances run a
worker, each viewer's batch goes to one of them (see :mod:`omoide.stream.logs`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

import anyio

from omoide.clock import Clock
from omoide.domain import (
    MAX_MESSAGE_CHARS,
    Episode,
    Fact,
    ForgetReport,
    Scope,
    ScoringMethod,
    Vector,
    new_id,
)
from omoide.embed.base import Embedder
from omoide.errors import OmoideError
from omoide.llm.base import ChatModel, ChatOptions
from omoide.memory.episode_readings import with_readings
from omoide.memory.extraction.values import FactDecision
from omoide.memory.facts.keeper import FactKeeper
from omoide.memory.llm_reply import ask_json
from omoide.memory.turns import FactChange
from omoide.metrics import Metrics
from omoide.store.base import FactFilter, TurnWrite
from omoide.store.records.stream import LearnedFact, ViewerBatch, ViewerSummaryRecord
from omoide.stream.config import StreamConfig
from omoide.stream.logs import ViewerWorkLog
from omoide.stream.summaries import structured_viewer_summary
from omoide.stream.viewer_prompt import batch_text, parse_viewer_reply, viewer_batch_messages
from omoide.text_caches import forget_cached_texts

logger = logging.getLogger(__name__)

LLM_CALLS_METRIC = "stream.llm_calls"
BATCH_EPISODE_IMPORTANCE = 0.5
_OPTIONS = ChatOptions(max_tokens=1024, temperature=0.0, json_mode=True)


class ViewerMemory(Protocol):
    """What the viewer worker reads and writes (a memory store)."""

    async def list_facts(self, scope: Scope, *, where: FactFilter) -> list[Fact]: ...

    async def forget_viewer(self, scope: Scope, *, reason: str, at: datetime) -> ForgetReport: ...

    async def write_turns(self, character_id: str, turns: Sequence[TurnWrite]) -> None: ...


@dataclass(frozen=True, slots=True)
class ViewerFlush:
    """What one flush did: batches handled, comments they held, batches that fell back."""

    batches: int = 0
    comments: int = 0
    failures: int = 0


class _Decided:
    """A fact extractor that hands back decisions already made (for FactKeeper)."""

    def __init__(self, decisions: Sequence[FactDecision]) -> None:
        self._decisions = list(decisions)

    def may_hold_facts(self, user_message: str) -> bool:
        return bool(self._decisions)

    async def extract(
        self,
        user_message: str,
        bot_message: str,
        *,
        user_name: str | None,
        existing: Sequence[Fact],
    ) -> list[FactDecision]:
        return list(self._decisions)


def _stored_episode_id(batch: ViewerBatch) -> str | None:
    """The newest comment of the batch that was kept as an episode."""
    for comment in reversed(batch.comments):
        if comment.entry.episode_id is not None:
            return comment.entry.episode_id
    return None


class ViewerWorker:
    """Flushes due viewer batches; safe to call from one background task at a time."""

    def __init__(
        self,
        *,
        log: ViewerWorkLog,
        store: ViewerMemory,
        embedder: Embedder,
        facts: FactKeeper,
        llm: ChatModel | None,
        config: StreamConfig,
        clock: Clock,
        metrics: Metrics,
    ) -> None:
        self._log = log
        self._store = store
        self._embedder = embedder
        self._facts = facts
        self._llm = llm
        self._config = config
        self._clock = clock
        self._metrics = metrics
        self._in_flight: set[tuple[str, str]] = set()
        self._ended: set[str] = set()

    def stream_ended(self, character_id: str) -> None:
        """Make the character's viewers with comments waiting due at the next flush."""
        self._ended.add(character_id)

    async def _due(self, idle: datetime | None) -> list[tuple[str, str]]:
        """Viewers due by size or idle time, then waiting viewers of ended streams."""
        due = await self._log.due_viewers(
            batch_size=self._config.viewer_batch_size,
            idle_before=idle,
            limit=self._config.viewers_per_flush,
        )
        if not self._ended or idle is None:
            return due
        waiting = await self._log.due_viewers(
            batch_size=self._config.viewer_batch_size,
            idle_before=None,
            limit=self._config.viewers_per_flush,
        )
        ended = [key for key in waiting if key[0] in self._ended and key not in due]
        self._ended &= {character_id for character_id, _ in ended}
        return due + ended

    async def flush_due(
        self, now: datetime | None = None, *, everything: bool = False
    ) -> ViewerFlush:
        """One batch from each due viewer (``everything``: each viewer with any waiting)."""
        moment = now or self._clock.now()
        idle = None if everything else moment - timedelta(seconds=self._config.viewer_idle_seconds)
        due = await self._due(idle)
        results: list[tuple[int, bool]] = []
        limiter = anyio.CapacityLimiter(self._config.llm_concurrency)
        async with anyio.create_task_group() as group:
            for key in due:
                if key not in self._in_flight:
                    self._in_flight.add(key)
                    group.start_soon(self._run_one, key, limiter, moment, results)
        return ViewerFlush(
            batches=len(results),
            comments=sum(count for count, _ in results),
            failures=sum(1 for _, failed in results if failed),
        )

    async def _run_one(
        self,
        key: tuple[str, str],
        limiter: anyio.CapacityLimiter,
        moment: datetime,
        results: list[tuple[int, bool]],
    ) -> None:
        try:
            async with limiter:
                batch = await self._log.claim_viewer_batch(
                    *key, limit=self._config.viewer_batch_size
                )
                if batch is not None:
                    failed = await self._process(batch, moment)
                    results.append((len(batch.comments), failed))
        finally:
            self._in_flight.discard(key)

    async def _process(self, batch: ViewerBatch, moment: datetime) -> bool:
        scope = Scope(batch.character_id, batch.viewer_id)
        summary: str | None = None
        learned: list[LearnedFact] = []
        failed = False
        if self._llm is not None and len(batch.comments) >= self._config.viewer_min_llm_comments:
            try:
                summary, learned = await self._ask(self._llm, batch, scope)
            except OmoideError as exc:
                failed = True
                self._metrics.increment("stream.viewer_batch_failures")
                logger.warning("viewer batch for %s fell back to rules: %s", scope, exc)
        method = "llm"
        if summary is None:
            facts = await self._store.list_facts(scope, where=FactFilter())
            summary, method = structured_viewer_summary(batch, facts), "structured"
        record = ViewerSummaryRecord(
            batch.character_id,
            batch.viewer_id,
            batch.display_name,
            summary,
            method,
            batch.messages_seen,
            moment,
        )
        if not await self._log.finish_viewer_batch(batch, summary=record, learned=learned):
            await self._forget_again(scope)
        self._metrics.increment("stream.viewer_batches")
        return failed

    async def _forget_again(self, scope: Scope) -> None:
        """The viewer was forgotten while the model read their batch: what the batch wrote
        to memory since (its facts, its source episode) is forgotten too."""
        logger.info("viewer %s was forgotten during a batch; forgetting its writes", scope)
        reason = "forgotten while being summarised"
        await self._store.forget_viewer(scope, reason=reason, at=self._clock.now())
        forget_cached_texts()

    async def _ask(
        self, llm: ChatModel, batch: ViewerBatch, scope: Scope
    ) -> tuple[str | None, list[LearnedFact]]:
        text = batch_text(batch)[:MAX_MESSAGE_CHARS]
        vector = (await self._embedder.embed_documents([text]))[0]
        existing = await self._facts.related_facts(scope, vector, text)
        known = frozenset(fact.id for fact in existing)
        reply = await ask_json(
            llm,
            viewer_batch_messages(batch, existing),
            parse=lambda value: parse_viewer_reply(value, known_ids=known),
            options=_OPTIONS,
            metrics=self._metrics,
            calls_metric=LLM_CALLS_METRIC,
        )
        changes: list[FactChange] = []
        if reply.decisions:
            episode = await self._source(batch, scope, text, vector)
            changes = await self._facts.learn_from(
                episode,
                user_name=batch.display_name,
                episode_vector=vector,
                extractor=_Decided(reply.decisions),
            )
        summary = reply.summary or (batch.previous.text if batch.previous else None)
        return summary, [_learned(batch, change) for change in changes]

    async def _source(self, batch: ViewerBatch, scope: Scope, text: str, vector: Vector) -> Episode:
        """The episode the batch's facts cite: its newest kept comment, or, when none was
        kept, the batch itself, stored now as one episode (facts never cite nothing)."""
        kept = _stored_episode_id(batch)
        episode = Episode(
            id=kept or new_id(),
            scope=scope,
            user_message=text,
            bot_message="",
            recorded_at=batch.comments[-1].entry.time,
            importance=BATCH_EPISODE_IMPORTANCE,
            scoring=ScoringMethod.LLM,
            metadata={
                "source": "stream",
                "kind": "viewer_batch",
                "stream_id": batch.comments[-1].stream_id,
            },
        )
        if kept is None:
            stored = with_readings(episode)
            await self._store.write_turns(
                batch.character_id, [TurnWrite(scope, stored, vector, None)]
            )
        return episode


def _learned(batch: ViewerBatch, change: FactChange) -> LearnedFact:
    return LearnedFact(
        batch.viewer_id, batch.display_name, change.action, change.fact_id, change.text
    )
