"""Shared pieces: retries, output checks, batching."""

from __future__ import annotations

import numpy as np
import pytest

from omoide.domain import Matrix
from omoide.embed.batching import embed_in_batches
from omoide.embed.http import RetryPolicy, call_with_retries
from omoide.embed.vectors import unit_rows
from omoide.errors import BackendError, BackendUnavailable, ConfigError

pytestmark = pytest.mark.anyio

QUICK = RetryPolicy(max_attempts=4, initial_delay_seconds=0.0, max_delay_seconds=0.0)


async def test_unavailable_is_retried_until_success() -> None:
    attempts: list[int] = []

    async def flaky() -> str:
        attempts.append(len(attempts))
        if len(attempts) < 3:
            raise BackendUnavailable("not yet")
        return "done"

    assert await call_with_retries(flaky, policy=QUICK) == "done"
    assert len(attempts) == 3


async def test_other_errors_are_not_retried() -> None:
    attempts: list[int] = []

    async def broken() -> str:
        attempts.append(1)
        raise BackendError("bad request")

    with pytest.raises(BackendError, match="bad request"):
        await call_with_retries(broken, policy=QUICK)
    assert len(attempts) == 1


async def test_attempts_are_bounded() -> None:
    attempts: list[int] = []

    async def down() -> str:
        attempts.append(1)
        raise BackendUnavailable(f"attempt {len(attempts)}")

    with pytest.raises(BackendUnavailable, match="attempt 4"):
        await call_with_retries(down, policy=QUICK)
    assert len(attempts) == 4


def test_backoff_grows_exponentially_up_to_the_cap() -> None:
    policy = RetryPolicy(initial_delay_seconds=0.5, multiplier=2.0, max_delay_seconds=3.0)
    delays = [policy.delay_before_retry(number) for number in range(1, 6)]
    assert delays == [0.5, 1.0, 2.0, 3.0, 3.0]


@pytest.mark.parametrize(
    "options",
    [
        {"max_attempts": 0},
        {"initial_delay_seconds": -1.0},
        {"max_delay_seconds": float("nan")},
        {"multiplier": 0.5},
    ],
)
def test_bad_retry_policies_are_config_errors(options: dict[str, float]) -> None:
    with pytest.raises(ConfigError):
        RetryPolicy(**options)  # type: ignore[arg-type]


def test_unit_rows_normalises_in_float32() -> None:
    matrix = unit_rows(np.asarray([[3.0, 4.0], [1e30, 0.0]]), rows=2, dimensions=2, source="s")
    assert matrix.dtype == np.float32
    np.testing.assert_allclose(matrix, [[0.6, 0.8], [1.0, 0.0]])


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([[1.0, 0.0, 0.0]], "shape"),
        ([[0.0, 0.0]], "all-zero"),
        ([[np.nan, 1.0]], "NaN"),
        ([[np.inf, 1.0]], "NaN or infinite"),
    ],
)
def test_unit_rows_refuses_bad_output(raw: list[list[float]], message: str) -> None:
    with pytest.raises(BackendError, match=message) as caught:
        unit_rows(np.asarray(raw), rows=1, dimensions=2, source="model-x")
    assert "model-x" in str(caught.value)


async def test_batches_are_stacked_in_order() -> None:
    seen: list[list[str]] = []

    async def embed_batch(batch: list[str]) -> Matrix:
        seen.append(batch)
        return np.asarray([[float(text), 1.0] for text in batch], dtype=np.float32)

    texts = [str(number) for number in range(7)]
    matrix = await embed_in_batches(embed_batch, texts, batch_size=3, dimensions=2)
    assert seen == [["0", "1", "2"], ["3", "4", "5"], ["6"]]
    assert matrix[:, 0].tolist() == list(range(7))
    assert matrix.dtype == np.float32
