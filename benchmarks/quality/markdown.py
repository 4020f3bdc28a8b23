"""The Markdown form of a quality report (built from the JSON document only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

TURN_COLUMNS = ("recall@1", "recall@5", "recall@10", "hit@1", "hit@5", "hit@10", "mrr")
LONGMEMEVAL_COLUMNS = ("all@5", "all@10", "hit@5", "hit@10", "ndcg@5", "ndcg@10", "mrr")
CATEGORY_COLUMNS = ("recall@10", "hit@1", "hit@10", "mrr")


def number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(number(cell) for cell in row) + " |" for row in rows]
    return [*lines, ""]


def columns_for(dataset: str) -> tuple[str, ...]:
    return LONGMEMEVAL_COLUMNS if dataset == "longmemeval" else TURN_COLUMNS


def system_rows(
    systems: Mapping[str, Mapping[str, float]], names: Sequence[str], columns: Sequence[str]
) -> list[list[Any]]:
    return [
        [f"`{name}`", int(systems[name].get("n", 0)), *(systems[name].get(c, 0.0) for c in columns)]
        for name in names
        if name in systems
    ]


def header_section(document: Mapping[str, Any]) -> list[str]:
    machine = document["machine"]
    return [
        f"# Retrieval quality ({document['profile']} profile)",
        "",
        f"- command: `{document['command']}`",
        f"- date: {document['date']}",
        f"- commit: `{document['commit']}`",
        f"- machine: {machine['nproc']} cores (nproc), {machine['processor']}, "
        f"Python {machine['python']}",
        f"- wall time: {document['seconds'] / 60:.1f} min",
        *([f"- note: {document['note']}"] if document.get("note") else []),
        "",
        "Rankings are of single turns (LoCoMo, LongMemEval) or exchanges (MemoryBank); each "
        "system ranks the same store hits (as many by vector and by BM25 as the recall path "
        "takes, recorded no later than the question). `omoide:<embedder> <config>` is "
        "omoide's ranking as `MemoryManager.search` computes it: relevance on absolute "
        "scales (the cosine on the embedder's calibrated scale, BM25 per query term "
        "saturated at `h`), fused as the stronger of the two plus `a` times the weaker, "
        "times a bounded factor of recency and importance (weights `rel`/`rec`/`imp`), then "
        "the answers to the best asking episodes joined.",
        "",
        "Every dataset is split before anything is scored: LoCoMo by conversation and "
        "MemoryBank by user (alternating), LongMemEval by a hash of the question id. The "
        "recommended configuration is chosen on the dev half only; the held-out half is "
        "the honest number.",
        "",
    ]


def targets_section(document: Mapping[str, Any]) -> list[str]:
    rows = [
        [
            entry["target"],
            f"`{entry['system']}`",
            entry["split"],
            entry["value"],
            entry["goal"],
            "yes" if entry["met"] else "no",
            entry["gap"],
        ]
        for entry in document["targets"]
    ]
    return [
        "## Targets",
        "",
        *table(("target", "system", "split", "value", "goal", "met", "short by"), rows),
    ]


def decision_section(document: Mapping[str, Any]) -> list[str]:
    decision = document["decision"]
    embedder = decision["embedder"]
    lines = ["## Decision (dev half only)", "", f"Recommended: `{document['recommended']}`", ""]
    rows = [
        [name, *embedder["per_dataset"][name].values(), embedder["mean_dev_score"][name]]
        for name in embedder["per_dataset"]
    ]
    datasets = [f"{name} dev ({count} q)" for name, count in embedder["questions"].items()]
    lines += ["The configuration chosen per embedder, on the dev questions both answered:", ""]
    lines += table(("embedder", *datasets, "mean per question"), rows)
    for name, config in decision["configs"].items():
        lines += config_table(name, config)
    return lines


def config_table(embedder: str, config: Mapping[str, Any]) -> list[str]:
    """The best configurations under one embedder: dev scores, held-out beside."""
    lines = [
        f"Top configurations under `{embedder}` of {config['candidates']}, by the mean dev "
        "selection metric (held-out shown, not used):",
        "",
    ]
    entries = [*config["top"]]
    if config["default"] is not None:
        entries.append({**config["default"], "system": f"default {config['default']['system']}"})
    top = [
        [
            f"`{entry['system']}`",
            *entry["scores"].values(),
            entry["mean"],
            *entry["heldout"].values(),
            entry["heldout_mean"],
        ]
        for entry in entries
    ]
    scores = list(config["top"][0]["scores"]) if config["top"] else []
    header = (
        "system",
        *(f"{score} dev" for score in scores),
        "dev mean",
        *(f"{score} held-out" for score in scores),
        "held-out mean",
    )
    return lines + table(header, top)


def split_section(data: Mapping[str, Any]) -> list[str]:
    """Dev next to held-out, for the headline systems."""
    halves = data["splits"]
    metrics = list(next(iter(halves["dev"]["systems"].values()), {}))
    if not metrics:
        return []
    header = ["system", *(f"{half} {metric}" for half in halves for metric in metrics)]
    rows = [
        [f"`{name}`", *(halves[half]["systems"][name][m] for half in halves for m in metrics)]
        for name in halves["dev"]["systems"]
    ]
    counts = ", ".join(f"{half} {values['questions']} questions" for half, values in halves.items())
    return [f"Dev and held-out ({counts}; `n` excludes adversarial):", "", *table(header, rows)]


def dataset_section(name: str, data: Mapping[str, Any]) -> list[str]:
    columns = columns_for(name)
    systems = {system: values["all"] for system, values in data["systems"].items()}
    lines = [
        f"## {name}",
        "",
        f"{data['haystacks']} haystacks, {data['units']} units, {data['probes']} questions "
        f"({data['skipped_probes']} without evidence skipped); selection metric "
        f"`{data['selection_metric']}`.",
        "",
        *split_section(data),
        "All questions:",
        "",
        *table(("system", "n", *columns), system_rows(systems, data["headline"], columns)),
    ]
    for subset in data["subsets"]:
        lines += [f"On the {subset['label']}:", ""]
        lines += table(
            ("system", "n", *columns), system_rows(subset["systems"], data["headline"], columns)
        )
    sessions = {
        system: values["session_all"]
        for system, values in data["systems"].items()
        if values["session_all"]
    }
    if sessions:
        lines += ["Session level (sessions ranked by their first retrieved turn):", ""]
        lines += table(
            ("system", "n", *LONGMEMEVAL_COLUMNS),
            system_rows(sessions, data["headline"], LONGMEMEVAL_COLUMNS),
        )
    return lines + category_section(data) + cost_section(data) + notes_section(data)


def category_section(data: Mapping[str, Any]) -> list[str]:
    lines = ["Per category (`all` excludes adversarial):", ""]
    rows = []
    for system, categories in data["categories"].items():
        for category, values in categories.items():
            rows.append(
                [
                    f"`{system}`",
                    category,
                    int(values.get("n", 0)),
                    *(values.get(column, 0.0) for column in CATEGORY_COLUMNS),
                ]
            )
    return lines + table(("system", "category", "n", *CATEGORY_COLUMNS), rows)


def cost_section(data: Mapping[str, Any]) -> list[str]:
    rows = []
    for name, phase in data["embedders"].items():
        timings, counts = phase["timings"], phase["counts"]
        units = counts.get("ingested_units", 0)
        rows.append(
            [
                name,
                counts.get("embedded_texts", 0),
                counts.get("cached_texts", 0),
                timings.get("embed_seconds", 0.0),
                units,
                timings.get("ingest_seconds", 0.0),
                1000 * timings.get("ingest_seconds", 0.0) / max(1, units),
                counts.get("fact_changes", 0),
                1000 * timings.get("search_seconds", 0.0) / max(1, counts.get("searches", 0)),
                f"{counts.get('recaller_agreed', 0)}/{counts.get('recaller_checked', 0)}",
                f"{counts.get('fast_agreed', 0)}/{counts.get('fast_checked', 0)}",
            ]
        )
    header = (
        "embedder",
        "embedded",
        "cached",
        "embed s",
        "units",
        "ingest s",
        "ms/unit",
        "fact changes",
        "ms/search",
        "= Recaller",
        "fast = rank",
    )
    return ["Cost and checks:", "", *table(header, rows)]


def notes_section(data: Mapping[str, Any]) -> list[str]:
    notes = data["notes"]
    if not notes:
        return []
    shown = notes[:12]
    more = [f"- ... and {len(notes) - len(shown)} more"] if len(notes) > len(shown) else []
    return ["Loader notes:", "", *(f"- {note}" for note in shown), *more, ""]


def ingest_section(costs: Sequence[Mapping[str, Any]]) -> list[str]:
    if not costs:
        return []
    rows = [
        [
            cost["dataset"],
            cost["units"],
            cost["ms_per_unit_with_facts"],
            cost["ms_per_unit_without_facts"],
            cost["fact_changes"],
        ]
        for cost in costs
    ]
    header = ("first haystack of", "units", "ms/turn with facts", "ms/turn without", "fact changes")
    return [
        "## Write path cost",
        "",
        "`store_interactions` in batches of 64 (one transaction each), embeddings from the "
        "cache; rule importance and rule fact extraction as without a language model:",
        "",
        *table(header, rows),
    ]


def render_markdown(document: Mapping[str, Any]) -> str:
    lines = header_section(document) + targets_section(document) + decision_section(document)
    lines += ingest_section(document.get("ingest_cost", []))
    for name, data in document["datasets"].items():
        lines += dataset_section(name, data)
    plots = document.get("plots", [])
    if plots:
        lines += ["## Plots", "", *(f"![{plot}]({plot})" for plot in plots), ""]
    return "\n".join(lines)
