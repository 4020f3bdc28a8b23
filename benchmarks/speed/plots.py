"""PNG plots of one run (matplotlib, drawn off-screen)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from benchmarks.speed.context_latency import ContextResult
from benchmarks.speed.ingest import IngestResult
from benchmarks.speed.profiling import ProfileResult
from benchmarks.speed.results import SpeedResults

CONTEXT_TARGETS = {100_000: 10.0, 1_000_000: 20.0}


def draw_plots(results: SpeedResults, directory: Path) -> list[str]:
    """Draw every plot the results allow; return the file names written."""
    stem = f"speed-{results.profile}"
    written = []
    if results.context and results.context.sizes:
        written.append(_save(_context_plot(results.context), directory, f"{stem}-context.png"))
    if results.ingest:
        written.append(_save(_ingest_plot(results.ingest), directory, f"{stem}-ingest.png"))
    if results.qdrant and results.context:
        figure = _baseline_plot(results)
        written.append(_save(figure, directory, f"{stem}-baseline.png"))
    if results.profiles:
        figure = _profiles_plot(results.profiles)
        written.append(_save(figure, directory, f"{stem}-profiles.png"))
    return written


def _save(figure: Figure, directory: Path, name: str) -> str:
    figure.tight_layout()
    figure.savefig(directory / name, dpi=110, bbox_inches="tight")
    plt.close(figure)
    return name


def _context_plot(context: ContextResult) -> Figure:
    figure, axes = plt.subplots(figsize=(7.5, 4.5))
    episodes = [size.episodes for size in context.sizes]
    styles = {
        "with_embedding": "tab:red",
        "precomputed_query": "tab:blue",
        "embed_query_alone": "tab:gray",
    }
    for mode, colour in styles.items():
        for percentile, line in (("p50_ms", "-"), ("p95_ms", "--")):
            values = [getattr(size.latency[mode], percentile) for size in context.sizes]
            label = f"{mode.replace('_', ' ')} {percentile[:3]}"
            axes.plot(episodes, values, line, marker="o", color=colour, label=label)
    for size, limit in CONTEXT_TARGETS.items():
        axes.scatter([size], [limit], marker="_", s=600, color="black", zorder=5)
    axes.set_xscale("log")
    axes.set_xlabel("stored episodes (1,000 viewers)")
    axes.set_ylabel("milliseconds")
    axes.set_title("retrieve_context latency (black bars: p95 targets)")
    axes.legend(fontsize=7)
    axes.grid(True, alpha=0.3)
    return figure


def _ingest_plot(ingest: IngestResult) -> Figure:
    figure, axes = plt.subplots(figsize=(7.0, 4.0))
    names = [mode.name for mode in ingest.modes]
    positions = range(len(names))
    axes.bar(
        [p - 0.2 for p in positions],
        [m.turns_per_second for m in ingest.modes],
        0.4,
        label="omoide ingest",
    )
    axes.bar(
        [p + 0.2 for p in positions],
        [m.baseline_turns_per_second for m in ingest.modes],
        0.4,
        label="embedder alone, same texts",
    )
    axes.set_xticks(list(positions), names)
    axes.set_ylabel("turns per second")
    axes.set_title("ingest throughput against the embedder's own")
    axes.legend()
    return figure


def _baseline_plot(results: SpeedResults) -> Figure:
    assert results.qdrant is not None and results.context is not None
    figure, (latency, ingest) = plt.subplots(1, 2, figsize=(10.0, 4.2))
    ours = {size.episodes: size for size in results.context.sizes}
    sizes = [size for size in results.qdrant.sizes if size.episodes in ours]
    labels = [f"{size.episodes:,}" for size in sizes]
    our_p95 = [ours[size.episodes].latency["with_embedding"].p95_ms for size in sizes]
    seed_p95 = [size.query_with_embedding.p95_ms for size in sizes]
    _bars(latency, labels, (our_p95, seed_p95),
          ("omoide: whole reply context", "seed: embed + filtered search"))  # fmt: skip
    latency.set_yscale("log")
    latency.set_ylabel("reply p95, ms (log)")
    modes = results.ingest.modes if results.ingest else ()
    batched = next((mode.turns_per_second for mode in modes if mode.batch_size == 256), 0.0)
    seed_rates = [size.per_call_turns_per_second for size in sizes]
    _bars(ingest, labels, ([batched] * len(sizes), seed_rates),
          ("omoide: batches of 256", "seed: embed + upsert per turn"))  # fmt: skip
    ingest.set_ylabel("ingest, turns/s")
    figure.suptitle("omoide (SQLite) against the seed's design (Qdrant local)")
    return figure


def _bars(
    axes: Axes,
    labels: list[str],
    values: tuple[list[float], list[float]],
    legend: tuple[str, str],
) -> None:
    positions = range(len(labels))
    axes.bar([p - 0.2 for p in positions], values[0], 0.4, label=legend[0])
    axes.bar([p + 0.2 for p in positions], values[1], 0.4, label=legend[1])
    axes.set_xticks(list(positions), labels)
    axes.set_xlabel("episodes")
    axes.legend(fontsize=8)


def _profiles_plot(profiles: tuple[ProfileResult, ...]) -> Figure:
    figure, all_axes = plt.subplots(len(profiles), 1, figsize=(10.0, 3.6 * len(profiles)))
    axes_list = list(all_axes) if len(profiles) > 1 else [all_axes]
    for axes, profile in zip(axes_list, profiles, strict=True):
        stages = list(reversed(profile.stages))
        names = [textwrap.shorten(stage.stage, width=48, placeholder="...") for stage in stages]
        axes.barh(names, [stage.share * 100 for stage in stages])
        axes.set_xlabel("% of busy samples")
        axes.set_title(f"where the time goes: {profile.workload}")
        axes.tick_params(axis="y", labelsize=7)
    return figure
