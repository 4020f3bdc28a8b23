"""Bounded retries with exponential backoff and jitter, shared by every HTTP backend.

Only :class:`~omoide.errors.BackendUnavailable` is retried (refused connections, timeouts,
429 and 5xx answers, streams cut short); any other :class:`~omoide.errors.BackendError`
(a 4xx answer, a malformed reply) fails at once, because asking again cannot help.

A stream is retried only until its first token has reached the consumer: after that a
retry would repeat text the consumer already has, so the failure is raised instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass
from typing import TypeVar

import anyio

from omoide.errors import BackendUnavailable, InvalidInput

Result = TypeVar("Result")

_MAX_EXPONENT = 60


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently to retry a backend that may come back.

    The n-th retry (counting from 0) waits ``min(max_delay, base_delay * 2**n)`` seconds,
    shortened by a random fraction of up to ``jitter`` so that clients which failed
    together do not retry together.
    """

    max_retries: int = 2
    base_delay_seconds: float = 0.5
    max_delay_seconds: float = 8.0
    jitter: float = 0.5

    def __post_init__(self) -> None:
        if isinstance(self.max_retries, bool) or not isinstance(self.max_retries, int):
            raise InvalidInput("max_retries must be an integer")
        if self.max_retries < 0:
            raise InvalidInput(f"max_retries must be >= 0 (got {self.max_retries})")
        for name in ("base_delay_seconds", "max_delay_seconds"):
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0:
                raise InvalidInput(f"{name} must be a finite number >= 0 (got {value})")
        if not 0.0 <= self.jitter <= 1.0:
            raise InvalidInput(f"jitter must be in [0, 1] (got {self.jitter})")

    def delay_seconds(self, retry_number: int, random_fraction: float) -> float:
        """The wait before retry ``retry_number``; ``random_fraction`` lies in [0, 1)."""
        exponent = min(max(retry_number, 0), _MAX_EXPONENT)
        ceiling = min(self.max_delay_seconds, self.base_delay_seconds * 2.0**exponent)
        return ceiling * (1.0 - self.jitter * random_fraction)


DEFAULT_RETRY = RetryPolicy()
NO_RETRIES = RetryPolicy(max_retries=0)


async def _back_off(policy: RetryPolicy, retry_number: int) -> None:
    await anyio.sleep(policy.delay_seconds(retry_number, random.random()))


def _gave_up(error: BackendUnavailable, attempts: int) -> BackendUnavailable:
    return BackendUnavailable(f"{error} (gave up after {attempts} attempts)")


async def call_with_retries(
    attempt: Callable[[], Awaitable[Result]], policy: RetryPolicy
) -> Result:
    """Await ``attempt()``, calling it again after a backoff while it is unavailable."""
    retry_number = 0
    while True:
        try:
            return await attempt()
        except BackendUnavailable as exc:
            if retry_number >= policy.max_retries:
                if retry_number == 0:
                    raise
                raise _gave_up(exc, retry_number + 1) from exc
        await _back_off(policy, retry_number)
        retry_number += 1


async def stream_with_retries(
    open_stream: Callable[[], AsyncGenerator[str, None]], policy: RetryPolicy
) -> AsyncGenerator[str, None]:
    """Yield the tokens of ``open_stream()``, reopening it only before the first token."""
    retry_number = 0
    while True:
        yielded = False
        try:
            async with aclosing(open_stream()) as tokens:
                async for token in tokens:
                    yielded = True
                    yield token
            return
        except BackendUnavailable as exc:
            if yielded:
                raise
            if retry_number >= policy.max_retries:
                if retry_number == 0:
                    raise
                raise _gave_up(exc, retry_number + 1) from exc
        await _back_off(policy, retry_number)
        retry_number += 1
