"""The stream benchmark: ``python -m benchmarks.stream --profile quick|full``.

A synthetic live stream (Korean, Japanese, Chinese and English comments from thousands of
viewers) goes through the stream ingestor with the default embedder, while the background
worker does the batched model work (a scripted model stands in for the LLM) and a sampler
asks for reply-time memory context. Reports messages per second, model calls per 1,000
messages and ``retrieve_context`` latency under that load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["run_stream"]


async def run_stream(profile: str, results_dir: Path) -> dict[str, Any]:
    """Run the ``profile`` ("quick" or "full"); write ``stream-<profile>.json`` and ``.md``
    to ``results_dir``; return the results."""
    from benchmarks.stream.runner import run_stream_benchmark

    return await run_stream_benchmark(profile, results_dir)
