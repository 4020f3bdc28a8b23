"""The companion report: ``companion-<profile>.json`` (every number and per-case outcome)
and ``.md`` (the tables a person reads), built from the same document."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks.provenance import commit as commit
from benchmarks.provenance import machine as machine

SUMMARY_HEADER = (
    "language",
    "split",
    "n",
    "omoide %",
    "leaks",
    "stale",
    "over budget",
    "bm25-only %",
    "vector-only %",
    "target stored",
)
CASE_HEADER = ("case", "kind", "split", "omoide", "leak", "tokens", "bm25-only", "vector-only")


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return [*lines, ""]


def _mark(value: bool) -> str:
    return "yes" if value else "no"


def header_section(document: Mapping[str, Any]) -> list[str]:
    machine = document["machine"]
    return [
        f"# Companion suite ({document['profile']} profile)",
        "",
        f"- command: `{document['command']}`",
        f"- date: {document['date']}",
        f"- commit: `{document['commit']}`",
        f"- machine: {machine['nproc']} cores (nproc), {machine['processor']}, "
        f"Python {machine['python']}, load average {machine['load_average'][0]} at the start",
        f"- wall time: {document['seconds'] / 60:.1f} min",
        "",
        "Each case is one viewer's weeks of talk with a character, stored turn by turn in a "
        "fresh embedded omoide (no LLM), then a probe where a friend would bring one thing "
        "up. `omoide`: an expected key is in the memory section `retrieve_context` renders; "
        "`leaks`: sections holding another viewer's or character's marker (isolation cases); "
        "`stale`: sections showing a value the viewer later replaced or corrected (update and "
        "correction cases); `over budget`: sections over the token budget. Baselines rank the same "
        "stored episodes of the viewer by the store's keyword search alone (`bm25-only`) or "
        "vector search alone (`vector-only`) and count a key in the top-5 user messages. "
        "`target stored`: cases whose key is in some stored episode. Tune on `dev`; report "
        "`heldout`.",
        "",
    ]


def summary_rows(summary: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> list[list[Any]]:
    return [
        [
            file,
            split,
            row["n"],
            row["omoide %"],
            row["leaks"],
            row.get("stale", "-"),
            row["over budget"],
            row["bm25-only %"],
            row["vector-only %"],
            row["target stored"],
        ]
        for file, splits in summary.items()
        for split, row in splits.items()
    ]


def case_rows(cases: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    return [
        [
            case["id"],
            case["kind"],
            case["split"],
            "recalled" if case["recalled"] else "**missed**",
            ", ".join(case["leaked"]) or "-",
            f"{case['tokens']}/{case['budget']}",
            _mark(case["bm25_only"]),
            _mark(case["vector_only"]),
        ]
        for case in cases
    ]


def miss_lines(cases: Sequence[Mapping[str, Any]]) -> list[str]:
    lines: list[str] = []
    for case in cases:
        if case["recalled"] and not case["leaked"]:
            continue
        stored = "" if case["target_stored"] else " (the target turn was not stored)"
        lines.append(f"- `{case['id']}`{stored}:")
        head = case["section_head"] or ["(empty section)"]
        lines += [f"    - {line.lstrip('- ')}" for line in head]
    return [*lines, ""]


def reason_rows(summary: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> list[list[Any]]:
    """Per language and split, how many misses each reason explains."""
    return [
        [file, split, reason, count]
        for file, splits in summary.items()
        for split, row in splits.items()
        if split != "all"
        for reason, count in row.get("missed, why", {}).items()
    ]


def embedder_section(name: str, run: Mapping[str, Any]) -> list[str]:
    return [
        f"## Embedder `{name}`",
        "",
        *table(SUMMARY_HEADER, summary_rows(run["summary"])),
        "### Why the misses were missed",
        "",
        "After the probe, each missed case is inspected: a current fact of the viewer holds "
        "the key (the profile and fact ranking left it out); only a replaced fact holds it; "
        "an episode holding it is among the ranked candidates (below the relevance floor, or "
        "above it and not chosen); or nothing found holds it.",
        "",
        *table(("language", "split", "reason", "cases"), reason_rows(run["summary"])),
        "### Cases",
        "",
        *table(CASE_HEADER, case_rows(run["cases"])),
        "### Misses and leaks: the section's first lines",
        "",
        *miss_lines(run["cases"]),
    ]


def render_markdown(document: Mapping[str, Any]) -> str:
    lines = header_section(document)
    for name, run in document["embedders"].items():
        lines += embedder_section(name, run)
    return "\n".join(lines)


def write_reports(document: Mapping[str, Any], results_dir: Path) -> None:
    results_dir.mkdir(parents=True, exist_ok=True)
    stem = results_dir / f"companion-{document['profile']}"
    text = json.dumps(document, ensure_ascii=False, indent=2)
    stem.with_suffix(".json").write_text(text + "\n", encoding="utf-8")
    stem.with_suffix(".md").write_text(render_markdown(document), encoding="utf-8")
