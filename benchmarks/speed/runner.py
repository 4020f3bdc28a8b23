"""One benchmark run: every section in turn, then the JSON, Markdown and PNG reports.

A section that fails is recorded in the report (``Not run: ... failed: ...``) and the
others still run, so an hour of measurements is never lost to one broken part.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio.to_thread

from benchmarks.speed.context_latency import ContextResult, measure_context
from benchmarks.speed.corpus import (
    CorpusSpec,
    EmbeddedPool,
    build_corpus_store,
    embedded_pool,
    store_directory,
    store_path,
    viewer_scope,
)
from benchmarks.speed.environment import Environment, collect_environment
from benchmarks.speed.ingest import IngestResult, measure_ingest
from benchmarks.speed.llm_cost import LLMCostResult, measure_llm_cost
from benchmarks.speed.profiles import SpeedProfile, profile_named
from benchmarks.speed.profiling import (
    CONTEXT_STAGES,
    INGEST_STAGES,
    ProfileResult,
    profile_probe,
    py_spy_path,
)
from benchmarks.speed.report import render_report
from benchmarks.speed.results import SpeedResults, to_json
from benchmarks.speed.stats import Stopwatch
from benchmarks.speed.store_open import OpenMeasurement, measure_open, warm_page_cache
from benchmarks.speed.targets import (
    TargetCheck,
    context_targets,
    ingest_targets,
    llm_targets,
    open_targets,
)
from omoide.config import Settings
from omoide.embed.use import USEEmbedder
from omoide.errors import ConfigError, InvalidInput
from omoide.store.base import EmbeddingInfo
from omoide.wiring import build_embedder

if TYPE_CHECKING:
    from benchmarks.speed.qdrant_baseline import QdrantResult
    from benchmarks.speed.server_latency import ServerResult

logger = logging.getLogger(__name__)

REPOSITORY = Path(__file__).resolve().parents[2]
DEFAULT_WORK_DIR = REPOSITORY / "benchmarks" / "work"
SECTIONS = ("llm", "ingest", "context", "server", "open", "profile", "qdrant")
MILLION = 1_000_000
Result = TypeVar("Result")


def check_sections(sections: Sequence[str] | None) -> tuple[str, ...]:
    """The sections to run, in their fixed order; all of them when None."""
    if sections is None:
        return SECTIONS
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        raise InvalidInput(f"unknown sections {unknown} (known: {', '.join(SECTIONS)})")
    return tuple(section for section in SECTIONS if section in sections)


class _Run:
    """One run's shared state: the embedder, the pool, each section's results, what was
    skipped and why."""

    def __init__(
        self, profile: SpeedProfile, chosen: Sequence[str], work_dir: Path, rebuild: bool
    ) -> None:
        self.profile = profile
        self.chosen = tuple(chosen)
        self.work_dir = work_dir
        self.rebuild = rebuild
        self.embedder = USEEmbedder()
        self.watch = Stopwatch()
        self.done: set[str] = set()
        self.skipped: dict[str, str] = {
            section: "not selected" for section in SECTIONS if section not in chosen
        }
        self.llm: LLMCostResult | None = None
        self.ingest: IngestResult | None = None
        self.context: ContextResult | None = None
        self.opens: list[OpenMeasurement] = []
        self.profiles: list[ProfileResult] = []
        self.qdrant: QdrantResult | None = None
        self.server: ServerResult | None = None
        self._pool: EmbeddedPool | None = None

    def spec(self, episodes: int) -> CorpusSpec:
        return CorpusSpec(
            episodes=episodes, viewers=self.profile.viewers, pool_size=self.profile.pool_size
        )

    async def pool(self) -> EmbeddedPool:
        if self._pool is None:
            self._pool = await embedded_pool(self.embedder, self.spec(1), self.work_dir)
        return self._pool

    async def attempt(self, name: str, work: Callable[[], Awaitable[Result]]) -> Result | None:
        logger.info("section %s: starting", name)
        try:
            return await work()
        except ConfigError as exc:  # a missing optional dependency
            logger.warning("section %s skipped: %s", name, exc)
            self.skipped[name] = f"skipped: {exc}"
            return None
        except Exception as exc:  # a failed section is reported, the others still run
            logger.exception("section %s failed", name)
            self.skipped[name] = f"failed: {type(exc).__name__}: {exc}"
            return None
        finally:
            self.done.add(name)

    def results(self, environment: Environment) -> SpeedResults:
        """What has been measured so far; sections still to come are marked pending."""
        pending = {name: "pending" for name in self.chosen if name not in self.done}
        return SpeedResults(
            profile=self.profile.name,
            environment=environment,
            duration_seconds=self.watch.elapsed(),
            embedder=self.embedder.model_name,
            context=self.context,
            ingest=self.ingest,
            opens=tuple(self.opens),
            qdrant=self.qdrant,
            llm=self.llm,
            profiles=tuple(self.profiles),
            targets=_targets(self.profile, self.context, self.ingest, self.opens, self.llm),
            skipped={**self.skipped, **pending},
            load_average_at_end=os.getloadavg(),
            server=self.server,
        )


async def run_speed_benchmarks(
    profile_name: str,
    results_dir: Path,
    *,
    work_dir: Path | None = None,
    sections: Sequence[str] | None = None,
    rebuild: bool = False,
    command: str | None = None,
) -> dict[str, Any]:
    """Run the chosen sections of a profile and write ``speed-<profile>.{json,md,png}``,
    rewritten after every section so an interrupted run keeps what it measured."""
    profile = profile_named(profile_name)
    chosen = check_sections(sections)
    command = command or f"python -m benchmarks.speed --profile {profile_name}"
    environment = collect_environment(command, REPOSITORY)
    run = _Run(profile, chosen, work_dir or DEFAULT_WORK_DIR, rebuild)
    document: dict[str, Any] = {}
    for section in chosen:
        await _run_section(run, section)
        document = write_reports(run.results(environment), results_dir)
    return document or write_reports(run.results(environment), results_dir)


async def _run_section(run: _Run, section: str) -> None:
    match section:
        case "llm":
            run.llm = await run.attempt(section, lambda: _llm(run))
        case "ingest":
            run.ingest = await run.attempt(section, lambda: _ingest(run))
        case "context":
            run.context = await run.attempt(section, lambda: _context(run))
        case "server":
            run.server = await run.attempt(section, lambda: _server(run))
        case "open":
            run.opens = await run.attempt(section, lambda: _opens(run)) or []
        case "profile":
            run.profiles = await run.attempt(section, lambda: _profiles(run)) or []
        case "qdrant":
            run.qdrant = await run.attempt(section, lambda: _qdrant(run))


def _targets(
    profile: SpeedProfile,
    context: ContextResult | None,
    ingest: IngestResult | None,
    opens: Sequence[OpenMeasurement],
    llm: LLMCostResult | None,
) -> tuple[TargetCheck, ...]:
    largest = max(profile.context_sizes)
    checks = [*context_targets(context), *ingest_targets(ingest), *open_targets(opens, MILLION)]
    if largest != MILLION:
        checks += open_targets(opens, largest)
    return tuple([*checks, *llm_targets(llm)])


def write_reports(results: SpeedResults, results_dir: Path) -> dict[str, Any]:
    """Write the JSON, the plots and the Markdown; return the JSON form."""
    results_dir.mkdir(parents=True, exist_ok=True)
    stem = f"speed-{results.profile}"
    document = to_json(results)
    assert isinstance(document, dict)
    (results_dir / f"{stem}.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    try:
        from benchmarks.speed.plots import draw_plots
    except ModuleNotFoundError:
        logger.warning("matplotlib is not installed: no plots")
        plots: list[str] = []
    else:
        plots = draw_plots(results, results_dir)
    report = render_report(results, plots=plots)
    (results_dir / f"{stem}.md").write_text(report, encoding="utf-8")
    return document


async def _llm(run: _Run) -> LLMCostResult:
    return await measure_llm_cost(
        embedder=run.embedder,
        work_dir=run.work_dir,
        turns=run.profile.llm_turns,
        reply_queries=run.profile.llm_reply_queries,
    )


async def _ingest(run: _Run) -> IngestResult:
    """The service writes with the default embedder as the composition root builds it
    (large batches in a worker process); the baseline is the model alone, here."""
    profile = run.profile
    writer = await build_embedder(Settings(data_dir=run.work_dir))
    try:
        return await measure_ingest(
            embedder=run.embedder,
            write_embedder=writer,
            work_dir=run.work_dir,
            single_turns=profile.ingest_single_turns,
            batch_turns=profile.ingest_batch_turns,
            batch_sizes=profile.ingest_batch_sizes,
            rounds=profile.ingest_rounds,
        )
    finally:
        await writer.aclose()


async def _context(run: _Run) -> ContextResult:
    profile = run.profile
    return await measure_context(
        sizes=profile.context_sizes,
        spec_for=run.spec,
        pool=await run.pool(),
        embedder=run.embedder,
        work_dir=run.work_dir,
        queries=profile.context_queries,
        warmup=profile.warmup_queries,
        breakdown_queries=profile.breakdown_queries,
        rebuild=run.rebuild,
    )


async def _server(run: _Run) -> ServerResult:
    from benchmarks.speed.server_latency import measure_server

    profile = run.profile
    return await measure_server(
        sizes=profile.server_sizes,
        spec_for=run.spec,
        ready_store=lambda episodes: _ready_store(run, episodes),
        embedder=run.embedder,
        work_dir=run.work_dir,
        queries=profile.context_queries,
        warmup=profile.warmup_queries,
        breakdown_queries=profile.breakdown_queries,
        load_bound_seconds=profile.server_load_seconds,
    )


def _store_open_args(run: _Run, episodes: int) -> tuple[str, str]:
    """The viewer and query text the open probes use at one size."""
    generator = run.spec(episodes).generator()
    return viewer_scope(1).user_id or "", generator.query(1)


async def _ready_store(run: _Run, episodes: int) -> Path:
    """The directory of the store of ``episodes`` episodes, built if missing."""
    directory = store_directory(run.work_dir, episodes)
    info = EmbeddingInfo(run.embedder.model_name, run.embedder.dimensions)
    await build_corpus_store(run.spec(episodes), await run.pool(), directory, embedding=info)
    return directory


async def _opens(run: _Run) -> list[OpenMeasurement]:
    measured = []
    for episodes in run.profile.context_sizes:
        directory = await _ready_store(run, episodes)
        viewer, query = _store_open_args(run, episodes)
        now = run.spec(episodes).timeline.end.isoformat()
        common = ["--viewer", viewer, "--query", query, "--now", now]
        size = store_path(directory).stat().st_size
        store_args = [
            "open-store",
            "--database",
            str(store_path(directory)),
            "--model-name",
            run.embedder.model_name,
            "--dimensions",
            str(run.embedder.dimensions),
            *common,
        ]
        measured += await measure_open(
            "store", store_args, episodes=episodes, store_bytes=size, cwd=REPOSITORY
        )
        service_args = ["open-service", "--data-dir", str(directory), *common]
        measured += await measure_open(
            "service", service_args, episodes=episodes, store_bytes=size, cwd=REPOSITORY
        )
    return measured


async def _profiles(run: _Run) -> list[ProfileResult]:
    if py_spy_path() is None:
        raise ConfigError("the profiles need py-spy (pip install py-spy)")
    seconds = run.profile.profiler_seconds
    largest = max(run.profile.context_sizes)
    directory = await _ready_store(run, largest)
    await anyio.to_thread.run_sync(warm_page_cache, store_path(directory))
    folder = run.work_dir / "profiles"
    found = []
    context = await profile_probe(
        "context",
        ["context", "--data-dir", str(directory)],
        stages=CONTEXT_STAGES,
        seconds=seconds,
        output=folder / f"context-{largest}.txt",
        cwd=REPOSITORY,
    )
    ingest = await profile_probe(
        "ingest",
        ["ingest", "--data-dir", str(folder / "ingest-store"), "--batch-size", "256"],
        stages=INGEST_STAGES,
        seconds=seconds,
        output=folder / "ingest-256.txt",
        cwd=REPOSITORY,
    )
    for profile in (context, ingest):
        if profile is not None:
            found.append(profile)
    return found


async def _qdrant(run: _Run) -> QdrantResult:
    try:
        from benchmarks.speed.qdrant_baseline import QdrantBounds, measure_qdrant
    except ModuleNotFoundError as exc:
        raise ConfigError("the baseline needs qdrant-client (pip install qdrant-client)") from exc
    profile = run.profile
    return await measure_qdrant(
        sizes=profile.qdrant_sizes,
        spec_for=run.spec,
        pool=await run.pool(),
        embedder=run.embedder,
        work_dir=run.work_dir,
        bounds=QdrantBounds(
            profile.qdrant_ingest_seconds, profile.qdrant_queries, profile.qdrant_query_seconds
        ),
        cwd=REPOSITORY,
    )
