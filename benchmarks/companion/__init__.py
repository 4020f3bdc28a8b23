"""The companion suite: ``python -m benchmarks.companion --profile quick|full``.

72 hand-written cases (Korean, Japanese, Chinese, English and across languages), each one
viewer's weeks of talk with a character and one thing a friend would remember; a probe
later where a friend would bring it up. Every case runs on a fresh embedded omoide (no
LLM); the memory section is judged for the remembered thing, for other scopes' markers and
for the token budget, next to BM25-only and vector-only rankings of the same episodes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["run_companion"]


async def run_companion(profile: str, results_dir: Path) -> dict[str, Any]:
    """Run ``profile`` ("quick": USE; "full": USE and e5) on every case; write
    ``companion-<profile>.json`` and ``.md`` to ``results_dir``; return the document."""
    from benchmarks.companion.suite import run_benchmark

    return await run_benchmark(profile, results_dir)
