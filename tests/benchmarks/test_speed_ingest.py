"""The ingest section: which rows the issue's target is judged on."""

from __future__ import annotations

from benchmarks.speed.ingest import IngestMode, IngestResult
from benchmarks.speed.targets import MISSED, NOT_MEASURED, ingest_targets


def _mode(name: str, batch_size: int, *, pipelined: bool, ratio: float) -> IngestMode:
    return IngestMode(
        name=name,
        batch_size=batch_size,
        pipelined=pipelined,
        turns_per_second=100.0,
        baseline_turns_per_second=200.0,
        ratio_to_embedder=ratio,
        embedding_share_of_ingest=0.5,
        texts_embedded_per_stored_turn=1.0,
        runs=(),
        metrics={},
    )


def test_the_target_is_judged_on_the_pipelined_rows_when_they_were_measured() -> None:
    modes = (
        _mode("single", 1, pipelined=False, ratio=0.3),
        _mode("batch-64", 64, pipelined=False, ratio=0.9),
        _mode("batch-64 pipelined", 64, pipelined=True, ratio=0.5),
    )
    checks = ingest_targets(IngestResult(viewers=3, modes=modes))
    assert [(check.measured, check.status) for check in checks] == [(0.5, MISSED)]
    assert "store_interaction_batches" in checks[0].name


def test_without_pipelined_rows_the_loop_of_calls_is_judged() -> None:
    modes = (
        _mode("single", 1, pipelined=False, ratio=0.3),
        _mode("batch-64", 64, pipelined=False, ratio=0.7),
        _mode("batch-256", 256, pipelined=False, ratio=0.75),
    )
    checks = ingest_targets(IngestResult(viewers=3, modes=modes))
    assert [check.measured for check in checks] == [0.7, 0.75]
    assert all("store_interactions)" in check.name for check in checks)


def test_an_unmeasured_ingest_is_one_unmeasured_target() -> None:
    assert [check.status for check in ingest_targets(None)] == [NOT_MEASURED]
