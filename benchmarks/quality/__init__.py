"""Retrieval-quality benchmarks: LoCoMo, LongMemEval and MemoryBank, with baselines.

``await run_quality("quick" | "full", results_dir)`` runs them and writes the report.
The datasets are read in place from ``$OMOIDE_BENCH_DATA`` (default
``<repo>/../shared/data``) and never copied into the repository.
"""

from __future__ import annotations

from benchmarks.quality.runner import PROFILES, run_quality

__all__ = ["PROFILES", "run_quality"]
