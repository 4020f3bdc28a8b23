"""The quality report: ``quality-<profile>.json`` (every number), ``.md`` (the tables a
person reads) and PNG plots, written together into the results folder.

Nothing from the datasets is written but ids of questions' categories and numbers: no
question, answer or dialogue text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.provenance import commit, machine
from benchmarks.quality.evaluate import DatasetRun
from benchmarks.quality.markdown import render_markdown
from benchmarks.quality.metrics import by_category
from benchmarks.quality.plots import write_plots
from benchmarks.quality.split import SPLITS
from benchmarks.quality.summary import (
    choose_config,
    choose_embedder,
    in_split,
    included,
    overall,
    probe_set,
    restrict,
    split_means,
    targets,
)
from benchmarks.quality.systems import default_name


def embedders_in(runs: Sequence[DatasetRun]) -> list[str]:
    return list(dict.fromkeys(name for run in runs for name in run.embeddings))


def headline_names(run: DatasetRun, recommended: Mapping[str, str | None]) -> list[str]:
    """BM25, then per embedder vector search, today's defaults and the configuration
    chosen on the dev half: the systems every table shows."""
    names = ["bm25"]
    for embedder in run.embeddings:
        names += [f"vector:{embedder}", default_name(embedder)]
        chosen = recommended.get(embedder)
        if chosen:
            names.append(chosen)
    return [name for name in dict.fromkeys(names) if name in run.rows]


def subsets(run: DatasetRun, names: Sequence[str]) -> list[dict[str, Any]]:
    """Tables restricted to the questions of each smaller probe set among ``names``."""
    full = probe_set(run.rows["bm25"])
    found: list[dict[str, Any]] = []
    for probes in dict.fromkeys(probe_set(run.rows[name]) for name in names):
        if probes == full or not probes:
            continue
        owners = [name for name in names if probe_set(run.rows[name]) == probes]
        embedders = sorted({name.split(" ")[0].split(":")[-1].split("+")[0] for name in owners})
        found.append(
            {
                "label": f"questions answered under {', '.join(embedders)} ({len(probes)})",
                "questions": len(probes),
                "systems": {name: overall(restrict(run.rows[name], probes)) for name in names},
            }
        )
    return found


def split_document(run: DatasetRun, names: Sequence[str]) -> dict[str, Any]:
    """Per half: how many questions, and each headline system's headline metrics."""
    return {
        split: {
            "questions": sum(1 for half in run.splits.values() if half == split),
            "systems": {name: split_means(run, name, split) for name in names},
        }
        for split in SPLITS
    }


def dataset_document(run: DatasetRun, recommended: Mapping[str, str | None]) -> dict[str, Any]:
    names = headline_names(run, recommended)
    return {
        "haystacks": len(run.dataset.haystacks),
        "units": run.dataset.unit_count,
        "probes": run.dataset.probe_count,
        "skipped_probes": run.skipped_probes,
        "selection_metric": run.selection_metric,
        "notes": list(run.dataset.notes),
        "embedders": {
            name: {"timings": dict(phase.timings), "counts": dict(phase.counts)}
            for name, phase in run.embeddings.items()
        },
        "headline": names,
        "systems": {
            name: {
                "all": overall(rows),
                "session_all": overall(run.session_rows[name]) if run.session_rows[name] else None,
                **{split: overall(in_split(run, rows, split)) for split in SPLITS},
            }
            for name, rows in run.rows.items()
        },
        "categories": {name: by_category(run.rows[name], include=included) for name in names},
        "session_categories": {
            name: by_category(run.session_rows[name], include=included)
            for name in names
            if run.session_rows[name]
        },
        "subsets": subsets(run, names),
        "splits": split_document(run, names),
    }


def decide(by_name: Mapping[str, DatasetRun], embedders: Sequence[str]) -> dict[str, Any]:
    """The configuration per embedder, and the embedder, chosen on the dev half only."""
    configs = {embedder: choose_config(by_name, embedder) for embedder in embedders}
    return {"embedder": choose_embedder(by_name, embedders, configs), "configs": configs}


def build_document(
    runs: Sequence[DatasetRun], *, profile: str, seconds: float, command: str
) -> dict[str, Any]:
    by_name = {run.dataset.name: run for run in runs}
    embedders = embedders_in(runs)
    decision = decide(by_name, embedders)
    recommended = {name: config["chosen"] for name, config in decision["configs"].items()}
    chosen = recommended[decision["embedder"]["chosen"]]
    target_systems = [
        name
        for embedder in embedders
        for name in (default_name(embedder), recommended[embedder])
        if name
    ]
    return {
        "profile": profile,
        "command": command,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit(),
        "machine": machine(),
        "seconds": seconds,
        "datasets": {run.dataset.name: dataset_document(run, recommended) for run in runs},
        "decision": decision,
        "recommended": chosen,
        "targets": targets(by_name, target_systems),
    }


def rounded(value: Any, digits: int = 4) -> Any:
    """``value`` with every float rounded (a metric's fourth decimal is already noise)."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {key: rounded(item, digits) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(item, digits) for item in value]
    return value


def write_report(
    runs: Sequence[DatasetRun],
    *,
    profile: str,
    results_dir: Path,
    seconds: float,
    command: str,
    ingest_costs: Sequence[Mapping[str, Any]] = (),
    note: str | None = None,
) -> dict[str, Any]:
    results_dir.mkdir(parents=True, exist_ok=True)
    document = build_document(runs, profile=profile, seconds=seconds, command=command)
    document["note"] = note
    document["ingest_cost"] = [dict(cost) for cost in ingest_costs]
    plots = write_plots(document, results_dir, prefix=f"quality-{profile}")
    document["plots"] = [path.name for path in plots]
    json_path = results_dir / f"quality-{profile}.json"
    json_path.write_text(json.dumps(rounded(document), indent=1, sort_keys=True), encoding="utf-8")
    markdown_path = results_dir / f"quality-{profile}.md"
    markdown_path.write_text(render_markdown(document), encoding="utf-8")
    return document
