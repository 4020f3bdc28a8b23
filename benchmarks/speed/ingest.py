"""Write-path throughput: ``store_interaction`` one at a time and ``store_interactions`` in
batches, against the embedder's own throughput on the same texts in the same batches.

Rounds alternate which of the two runs first. The baseline embeds exactly what the write
path embeds for its episodes: the stored turns' texts, per batch (rule scores decide what
is stored, as in the write path without a language model). Inside the write path, a
timing wrapper records how long embedding took and how many texts it embedded (episode
texts plus the texts of new facts).

Each batch size runs twice: "batch-N" calls ``store_interactions`` once per batch, and
"batch-N pipelined" hands all of a round's batches to ``store_interaction_batches`` (the
same transactions, in the same order, with the next batch embedded while the current one
is stored). The pipelined rows are the API a bulk importer should use, so the issue's
target is judged on them (:func:`benchmarks.speed.targets.ingest_targets`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.speed.corpus import CHARACTER_ID, DEFAULT_TIMELINE
from benchmarks.speed.embedders import TimedEmbedder
from benchmarks.speed.stats import Stopwatch, median, per_second
from benchmarks.speed.synthetic import ChatGenerator, SyntheticTurn
from omoide.config import Settings
from omoide.domain import Scope, TurnInput, TurnState
from omoide.embed.base import Embedder
from omoide.memory.importance import score_by_rules
from omoide.wiring import Omoide, build

logger = logging.getLogger(__name__)

INGEST_VIEWERS = 100
IN_PROCESS = "embedding in this process"
INGEST_SEED = 4242


@dataclass(frozen=True, slots=True)
class IngestRun:
    """One round of one mode: the write path and the embedder alone on the same turns."""

    turns: int
    stored: int
    predicted_stored: int
    ingest_seconds: float
    baseline_seconds: float
    embed_seconds_inside: float
    embed_calls_inside: int
    texts_embedded_inside: int

    @property
    def turns_per_second(self) -> float:
        return per_second(self.turns, self.ingest_seconds)

    @property
    def baseline_turns_per_second(self) -> float:
        return per_second(self.turns, self.baseline_seconds)


@dataclass(frozen=True, slots=True)
class IngestMode:
    """Medians over the rounds of one mode (``batch_size`` 1 is one call per turn)."""

    name: str
    batch_size: int
    pipelined: bool
    """All batches through ``store_interaction_batches`` rather than one call each."""
    turns_per_second: float
    baseline_turns_per_second: float
    ratio_to_embedder: float
    embedding_share_of_ingest: float
    texts_embedded_per_stored_turn: float
    runs: tuple[IngestRun, ...]
    metrics: dict[str, int]


@dataclass(frozen=True, slots=True)
class IngestResult:
    viewers: int
    modes: tuple[IngestMode, ...]


def to_inputs(turns: Sequence[SyntheticTurn]) -> list[TurnInput]:
    """Synthetic turns as the write path's input."""
    return [
        TurnInput(
            scope=Scope(CHARACTER_ID, ChatGenerator.viewer_id(turn.viewer_index)),
            user_message=turn.user_message,
            bot_message=turn.bot_message,
            state=TurnState(turn.emotion, turn.emotion_intensity, turn.topics),
            timestamp=turn.recorded_at,
        )
        for turn in turns
    ]


def stored_texts(turns: Sequence[SyntheticTurn]) -> list[str]:
    """The texts the write path embeds: those of turns the rules keep."""
    return [
        turn.searchable_text
        for turn in turns
        if score_by_rules(
            turn.user_message, turn.bot_message, emotion_intensity=turn.emotion_intensity
        ).worth_storing
    ]


def chunks(items: Sequence[TurnInput], size: int) -> list[list[TurnInput]]:
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


async def open_ingest_service(directory: Path, embedder: Embedder) -> Omoide:
    """A fresh default omoide (no LLM) in ``directory``; calibration files are kept."""
    for name in ("omoide.sqlite3", "queue.sqlite3", "states.sqlite3"):
        for path in directory.glob(f"{name}*"):
            path.unlink()
    directory.mkdir(parents=True, exist_ok=True)
    return await build(Settings(data_dir=directory, llm="none"), embedder=embedder)


async def measure_ingest(
    *,
    embedder: Embedder,
    write_embedder: Embedder | None = None,
    work_dir: Path,
    single_turns: int,
    batch_turns: int,
    batch_sizes: Sequence[int],
    rounds: int,
    pipelined: bool = True,
) -> IngestResult:
    """Single turns, then each batch size as a loop of calls and, with ``pipelined``,
    through ``store_interaction_batches``; a fresh store per mode.

    ``embedder`` is the model alone (the baseline, in this process); ``write_embedder`` is
    what the service writes with (the default configuration: large batches in a worker
    process). With both, the largest batch size also runs pipelined with ``embedder`` in
    the service, to show what the worker adds.
    """
    writer = write_embedder or embedder
    generator = ChatGenerator(seed=INGEST_SEED, viewers=INGEST_VIEWERS, timeline=DEFAULT_TIMELINE)
    plans = [("single", 1, single_turns, False, writer)]
    plans += [(f"batch-{size}", size, batch_turns, False, writer) for size in batch_sizes]
    if pipelined:
        plans += [
            (f"batch-{size} pipelined", size, batch_turns, True, writer) for size in batch_sizes
        ]
    if pipelined and writer is not embedder:
        size = max(batch_sizes)
        plans.append((f"batch-{size} pipelined, {IN_PROCESS}", size, batch_turns, True, embedder))
    await writer.embed_documents([f"warm up {index}" for index in range(64)])
    modes = []
    for name, batch_size, turn_count, through_batches, service_embedder in plans:
        logger.info("ingest: %s", name)
        runs, metrics = await _one_mode(
            work_dir / "ingest" / name.replace(" ", "-").replace(",", ""),
            service_embedder,
            embedder,
            [generator.turns(turn_count) for _ in range(rounds)],
            batch_size,
            through_batches,
        )
        modes.append(_summarise(name, batch_size, through_batches, runs, metrics))
    return IngestResult(viewers=INGEST_VIEWERS, modes=tuple(modes))


async def _one_mode(
    directory: Path,
    service_embedder: Embedder,
    baseline: Embedder,
    rounds: Sequence[Sequence[SyntheticTurn]],
    batch_size: int,
    pipelined: bool,
) -> tuple[list[IngestRun], dict[str, int]]:
    timed = TimedEmbedder(service_embedder)
    service = await open_ingest_service(directory, timed)
    try:
        runs = [
            await _one_round(service, timed, baseline, turns, batch_size, number, pipelined)
            for number, turns in enumerate(rounds)
        ]
        return runs, service.metrics.snapshot()
    finally:
        await service.aclose()


async def _one_round(
    service: Omoide,
    timed: TimedEmbedder,
    embedder: Embedder,
    turns: Sequence[SyntheticTurn],
    batch_size: int,
    round_number: int,
    pipelined: bool,
) -> IngestRun:
    inputs = to_inputs(turns)
    groups = chunks(inputs, batch_size)
    texts = [
        stored_texts(turns[start : start + batch_size])
        for start in range(0, len(turns), batch_size)
    ]
    if round_number % 2 == 0:
        ingest_seconds, stored = await _ingest(service, timed, groups, batch_size, pipelined)
        baseline_seconds = await _baseline(embedder, texts)
    else:
        baseline_seconds = await _baseline(embedder, texts)
        ingest_seconds, stored = await _ingest(service, timed, groups, batch_size, pipelined)
    return IngestRun(
        turns=len(inputs),
        stored=stored,
        predicted_stored=sum(len(group) for group in texts),
        ingest_seconds=ingest_seconds,
        baseline_seconds=baseline_seconds,
        embed_seconds_inside=timed.seconds,
        embed_calls_inside=len(timed.calls),
        texts_embedded_inside=timed.texts,
    )


async def _ingest(
    service: Omoide,
    timed: TimedEmbedder,
    groups: Sequence[Sequence[TurnInput]],
    batch_size: int,
    pipelined: bool,
) -> tuple[float, int]:
    timed.reset()
    memory = service.memory
    stored = 0
    watch = Stopwatch()
    if pipelined and batch_size > 1:
        batches = await memory.store_interaction_batches(CHARACTER_ID, groups)
        stored = sum(1 for outcomes in batches for outcome in outcomes if outcome.stored)
        return watch.elapsed(), stored
    for group in groups:
        if batch_size == 1:
            turn = group[0]
            outcome = await memory.store_interaction(
                turn.scope,
                turn.user_message,
                turn.bot_message,
                turn.state,
                timestamp=turn.timestamp,
            )
            stored += int(outcome.stored)
        else:
            outcomes = await memory.store_interactions(CHARACTER_ID, group)
            stored += sum(1 for outcome in outcomes if outcome.stored)
    return watch.elapsed(), stored


async def _baseline(embedder: Embedder, texts_per_group: Sequence[Sequence[str]]) -> float:
    watch = Stopwatch()
    for texts in texts_per_group:
        if texts:
            await embedder.embed_documents(texts)
    return watch.elapsed()


def _summarise(
    name: str,
    batch_size: int,
    pipelined: bool,
    runs: Sequence[IngestRun],
    metrics: dict[str, int],
) -> IngestMode:
    stored = sum(run.stored for run in runs)
    return IngestMode(
        name=name,
        batch_size=batch_size,
        pipelined=pipelined,
        turns_per_second=median([run.turns_per_second for run in runs]),
        baseline_turns_per_second=median([run.baseline_turns_per_second for run in runs]),
        ratio_to_embedder=median([run.baseline_seconds / run.ingest_seconds for run in runs]),
        embedding_share_of_ingest=median(
            [run.embed_seconds_inside / run.ingest_seconds for run in runs]
        ),
        texts_embedded_per_stored_turn=(
            sum(run.texts_embedded_inside for run in runs) / stored if stored else 0.0
        ),
        runs=tuple(runs),
        metrics={key: value for key, value in sorted(metrics.items())},
    )
