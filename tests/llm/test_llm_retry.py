"""Retry policy and the retry loops, driven by real async functions and generators."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.errors import BackendError, BackendUnavailable, InvalidInput
from omoide.llm import RetryPolicy
from omoide.llm.retry import call_with_retries, stream_with_retries

FAST = RetryPolicy(max_retries=3, base_delay_seconds=0.0005, max_delay_seconds=0.002)


@given(
    st.floats(0, 5),
    st.floats(0, 60),
    st.floats(0, 1),
    st.integers(0, 200),
    st.floats(0, 1, exclude_max=True),
)
def test_delay_stays_within_its_bounds(
    base: float, cap: float, jitter: float, retry_number: int, fraction: float
) -> None:
    policy = RetryPolicy(base_delay_seconds=base, max_delay_seconds=cap, jitter=jitter)
    ceiling = min(cap, base * 2.0 ** min(retry_number, 60))
    delay = policy.delay_seconds(retry_number, fraction)
    assert ceiling * (1 - jitter) - 1e-9 <= delay <= ceiling + 1e-9


@given(st.integers(0, 20))
def test_delay_ceiling_doubles_until_capped(retry_number: int) -> None:
    policy = RetryPolicy(base_delay_seconds=0.25, max_delay_seconds=30.0, jitter=0.0)
    first, second = (policy.delay_seconds(n, 0.0) for n in (retry_number, retry_number + 1))
    assert second == min(30.0, first * 2)


@pytest.mark.parametrize(
    "settings",
    [
        {"max_retries": -1},
        {"max_retries": 1.5},
        {"base_delay_seconds": -0.1},
        {"max_delay_seconds": float("nan")},
        {"jitter": 1.5},
    ],
)
def test_bad_policies_are_refused(settings: dict[str, float]) -> None:
    with pytest.raises(InvalidInput):
        RetryPolicy(**settings)  # type: ignore[arg-type]


class Flaky:
    """Fails with the given errors, in order, then answers."""

    def __init__(self, *failures: BackendError) -> None:
        self.failures = list(failures)
        self.attempts = 0

    async def __call__(self) -> str:
        self.attempts += 1
        if self.failures:
            raise self.failures.pop(0)
        return "ok"


@pytest.mark.anyio
async def test_unavailable_is_retried_until_success() -> None:
    flaky = Flaky(BackendUnavailable("down"), BackendUnavailable("still down"))
    assert await call_with_retries(flaky, FAST) == "ok"
    assert flaky.attempts == 3


@pytest.mark.anyio
async def test_retries_are_bounded() -> None:
    flaky = Flaky(*(BackendUnavailable(f"down {n}") for n in range(10)))
    with pytest.raises(BackendUnavailable, match=r"down 3 \(gave up after 4 attempts\)"):
        await call_with_retries(flaky, FAST)
    assert flaky.attempts == 4


@pytest.mark.anyio
async def test_other_backend_errors_are_not_retried() -> None:
    flaky = Flaky(BackendError("bad request"))
    with pytest.raises(BackendError, match=r"^bad request$"):
        await call_with_retries(flaky, FAST)
    assert flaky.attempts == 1


@pytest.mark.anyio
async def test_no_retries_keeps_the_original_error() -> None:
    original = BackendUnavailable("down")
    with pytest.raises(BackendUnavailable) as caught:
        await call_with_retries(Flaky(original), RetryPolicy(max_retries=0))
    assert caught.value is original


class FlakyStream:
    """Opens streams; each attempt yields ``yields[n]`` tokens and then fails or ends."""

    def __init__(self, plan: list[tuple[list[str], BackendError | None]]) -> None:
        self.plan = plan
        self.opened = 0

    async def __call__(self) -> AsyncGenerator[str, None]:
        tokens, failure = self.plan[self.opened]
        self.opened += 1
        for token in tokens:
            yield token
        if failure is not None:
            raise failure


async def drain(stream: FlakyStream, into: list[str]) -> None:
    async for token in stream_with_retries(stream, FAST):
        into.append(token)


@pytest.mark.anyio
async def test_stream_reopens_only_before_the_first_token() -> None:
    stream = FlakyStream(
        [([], BackendUnavailable("a")), ([], BackendUnavailable("b")), (["x", "y"], None)]
    )
    received: list[str] = []
    await drain(stream, received)
    assert received == ["x", "y"]
    assert stream.opened == 3


@pytest.mark.anyio
async def test_stream_failure_after_a_token_is_raised_not_retried() -> None:
    stream = FlakyStream([(["x"], BackendUnavailable("cut")), (["x", "y"], None)])
    received: list[str] = []
    with pytest.raises(BackendUnavailable, match=r"^cut$"):
        await drain(stream, received)
    assert received == ["x"]
    assert stream.opened == 1


@pytest.mark.anyio
async def test_stream_retries_are_bounded() -> None:
    stream = FlakyStream([([], BackendUnavailable(f"down {n}")) for n in range(5)])
    with pytest.raises(BackendUnavailable, match="gave up after 4 attempts"):
        await drain(stream, [])
    assert stream.opened == 4
