"""PNG plots of a quality report (matplotlib, headless, when installed): recall@k curves
of the headline systems per dataset, and the fusion sweep (agreement vs the selection
metric on the dev half, one line per keyword half, recency and importance as default)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

from benchmarks.quality.metrics import K_VALUES
from omoide.memory.ranking import RankingWeights

_FUSION = re.compile(r"^omoide:(\S+) a([\d.]+) h([\d.]+) rel1 rec([\d.]+) imp([\d.]+)$")
_DEFAULT_WEIGHTS = RankingWeights()


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    return pyplot


def curve_metric(dataset: str) -> str:
    return "all" if dataset == "longmemeval" else "recall"


def plot_curves(name: str, data: dict[str, Any], path: Path) -> Path:
    """metric@k of the headline systems; proposed variants dashed."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(11, 5))
    metric = curve_metric(name)
    colours = pyplot.get_cmap("tab20").colors
    for index, system in enumerate(data["headline"]):
        means = data["systems"][system]["all"]
        variant = system.startswith("vector:")
        axes.plot(
            K_VALUES,
            [means.get(f"{metric}@{k}", 0.0) for k in K_VALUES],
            marker="o",
            linestyle="--" if variant else "-",
            color=colours[index % len(colours)],
            label=system,
        )
    axes.set_xlabel("k")
    axes.set_ylabel(f"{metric}@k")
    axes.set_xticks(K_VALUES)
    axes.set_ylim(0, 1)
    axes.set_title(f"{name}: {metric}@k (adversarial excluded)")
    axes.grid(alpha=0.3)
    axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)
    return path


def sweep_points(data: dict[str, Any]) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """(embedder, keyword half) -> [(agreement, dev selection metric)] under the
    default recency and importance weights."""
    metric = data["selection_metric"]
    wanted = (f"{_DEFAULT_WEIGHTS.recency:g}", f"{_DEFAULT_WEIGHTS.importance:g}")
    lines: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for system, values in data["systems"].items():
        match = _FUSION.match(system)
        if match is None:
            continue
        embedder, agreement, half, recency, importance = match.groups()
        if (recency, importance) != wanted:
            continue
        lines.setdefault((embedder, half), []).append(
            (float(agreement), values.get("dev", {}).get(metric, 0.0))
        )
    return {key: sorted(points) for key, points in lines.items()}


def plot_sweep(name: str, data: dict[str, Any], path: Path) -> Path | None:
    lines = sweep_points(data)
    if not lines:
        return None
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(7, 4.5))
    styles = ("-", "--", ":", "-.")
    embedders = sorted({embedder for embedder, _ in lines})
    for (embedder, half), points in sorted(lines.items()):
        axes.plot(
            [x for x, _ in points],
            [y for _, y in points],
            styles[embedders.index(embedder) % len(styles)],
            marker="o",
            label=f"{embedder} keyword half {half}",
        )
    if "bm25" in data["systems"]:
        axes.axhline(
            data["systems"]["bm25"].get("dev", {}).get(data["selection_metric"], 0.0),
            color="grey",
            linestyle=":",
            label="bm25",
        )
    axes.set_xlabel("agreement (what the weaker search adds to the stronger)")
    axes.set_ylabel(f"{data['selection_metric']} (dev half)")
    axes.set_title(f"{name}: fusion sweep")
    axes.grid(alpha=0.3)
    axes.legend(fontsize=6)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)
    return path


def can_plot() -> bool:
    """matplotlib is an optional benchmark dependency; without it no PNG is written."""
    return importlib.util.find_spec("matplotlib") is not None


def write_plots(document: dict[str, Any], folder: Path, *, prefix: str) -> list[Path]:
    written: list[Path] = []
    if not can_plot():
        return written
    for name, data in document["datasets"].items():
        written.append(plot_curves(name, data, folder / f"{prefix}-{name}-recall.png"))
        sweep = plot_sweep(name, data, folder / f"{prefix}-{name}-fusion.png")
        if sweep is not None:
            written.append(sweep)
    return written
