"""What the HTTP embedders share: one JSON POST with errors translated, and bounded retries.

Error mapping (the only place ``httpx`` errors are seen):

- refused or dropped connection, timeout, HTTP 5xx, HTTP 429 -> :class:`BackendUnavailable`
  (retried with exponential backoff, then raised);
- any other non-2xx answer, a body that is not JSON -> :class:`BackendError` (not retried).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

import anyio
import httpx
import numpy as np
from numpy.typing import NDArray

from omoide.errors import BackendError, BackendUnavailable, ConfigError

Result = TypeVar("Result")
logger = logging.getLogger(__name__)

_BODY_EXCERPT_CHARS = 300


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently to retry a call that failed with BackendUnavailable.

    ``max_attempts`` counts the first try; the n-th retry waits
    ``min(initial_delay_seconds * multiplier ** (n - 1), max_delay_seconds)``.
    """

    max_attempts: int = 3
    initial_delay_seconds: float = 0.5
    multiplier: float = 2.0
    max_delay_seconds: float = 8.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ConfigError(f"max_attempts must be at least 1 (got {self.max_attempts})")
        delays = (self.initial_delay_seconds, self.max_delay_seconds)
        if any(not math.isfinite(delay) or delay < 0 for delay in delays):
            raise ConfigError("retry delays must be finite and non-negative")
        if not math.isfinite(self.multiplier) or self.multiplier < 1:
            raise ConfigError(f"retry multiplier must be >= 1 (got {self.multiplier})")

    def delay_before_retry(self, retry_number: int) -> float:
        """Seconds to wait before retry ``retry_number`` (1 for the first retry)."""
        exponent = max(retry_number - 1, 0)
        delay = self.initial_delay_seconds * self.multiplier**exponent
        return min(delay, self.max_delay_seconds)


async def call_with_retries(
    call: Callable[[], Awaitable[Result]], *, policy: RetryPolicy
) -> Result:
    """Await ``call()``, retrying on :class:`BackendUnavailable` up to ``policy.max_attempts``.

    Any other error is raised at once; the last BackendUnavailable is raised when the
    attempts run out.
    """
    for attempt in range(1, policy.max_attempts):
        try:
            return await call()
        except BackendUnavailable as exc:
            delay = policy.delay_before_retry(attempt)
            logger.warning("attempt %d failed, retrying in %.2f s: %s", attempt, delay, exc)
            await anyio.sleep(delay)
    return await call()


@dataclass(frozen=True, slots=True)
class JsonEndpoint:
    """Where and how an HTTP embedder posts: the full URL, headers and retry policy.

    ``description`` names the backend and model in error messages, e.g.
    ``"ollama embedder (model 'bge-m3')"``.
    """

    url: str
    description: str
    headers: Mapping[str, str] = field(repr=False)  # may hold an API key
    retry: RetryPolicy


async def post_json_with_retries(
    client: httpx.AsyncClient, endpoint: JsonEndpoint, payload: Mapping[str, object]
) -> object:
    """:func:`post_json` under :func:`call_with_retries`."""

    async def attempt() -> object:
        return await post_json(
            client,
            endpoint.url,
            payload,
            description=endpoint.description,
            headers=endpoint.headers,
        )

    return await call_with_retries(attempt, policy=endpoint.retry)


def check_base_url(base_url: str, *, owner: str) -> str:
    """An absolute http(s) URL without a trailing slash; ConfigError otherwise."""
    try:
        url = httpx.URL(base_url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise ConfigError(f"{owner} base_url {base_url!r} is not a valid URL") from exc
    if url.scheme not in ("http", "https") or not url.host:
        raise ConfigError(f"{owner} base_url {base_url!r} must be an http(s) URL with a host")
    return base_url.rstrip("/")


def check_model(model: str, *, owner: str) -> str:
    if not isinstance(model, str) or not model.strip():
        raise ConfigError(f"{owner} model must be a non-empty name")
    return model


def check_dimensions(dimensions: int, *, owner: str) -> int:
    if isinstance(dimensions, bool) or not isinstance(dimensions, int) or dimensions < 1:
        raise ConfigError(f"{owner} dimensions must be a positive integer (got {dimensions!r})")
    return dimensions


def check_probe_dimensions(found: int, expected: int | None, *, source: str) -> int:
    """The dimension a probe found, refusing one that contradicts the configured one."""
    if expected is not None and expected != found:
        raise BackendError(f"{source} makes {found}-d vectors, not the {expected} configured")
    return found


def build_client(timeout_seconds: float, *, owner: str) -> httpx.AsyncClient:
    """An AsyncClient with one overall timeout per phase (connect, read, write, pool)."""
    if not math.isfinite(timeout_seconds) or timeout_seconds <= 0:
        raise ConfigError(f"{owner} timeout_seconds must be positive (got {timeout_seconds!r})")
    return httpx.AsyncClient(timeout=httpx.Timeout(timeout_seconds))


def matrix_from_json_rows(rows: object, *, count: int, source: str) -> NDArray[np.float64]:
    """``count`` equally long lists of JSON numbers as a float64 matrix; BackendError if not."""
    if not isinstance(rows, list) or len(rows) != count:
        got = f"{len(rows)} items" if isinstance(rows, list) else type(rows).__name__
        raise BackendError(f"{source} returned {got} where {count} embeddings were expected")
    try:
        matrix = np.array(rows)
    except (ValueError, TypeError) as exc:
        raise BackendError(f"{source} returned embeddings of unequal lengths") from exc
    if matrix.ndim != 2 or matrix.shape[1] == 0 or matrix.dtype.kind not in "iuf":
        raise BackendError(f"{source} returned embeddings that are not lists of numbers")
    return matrix.astype(np.float64)


async def post_json(
    client: httpx.AsyncClient,
    url: str,
    payload: Mapping[str, object],
    *,
    description: str,
    headers: Mapping[str, str] | None = None,
) -> object:
    """POST ``payload`` as JSON to ``url`` and return the decoded JSON answer.

    ``description`` names the backend and model in error messages (with the URL).
    """
    try:
        response = await client.post(url, json=payload, headers=headers)
    except httpx.TimeoutException as exc:
        raise BackendUnavailable(f"{description} at {url} timed out: {exc!r}") from exc
    except httpx.TransportError as exc:
        raise BackendUnavailable(f"{description} at {url} is unreachable: {exc!r}") from exc
    except httpx.HTTPError as exc:
        raise BackendError(f"{description} at {url} failed: {exc!r}") from exc
    _check_status(response, url=url, description=description)
    try:
        return json.loads(response.content)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        excerpt = _excerpt(response)
        raise BackendError(f"{description} at {url} answered with invalid JSON: {excerpt}") from exc


def _check_status(response: httpx.Response, *, url: str, description: str) -> None:
    status = response.status_code
    if 200 <= status < 300:
        return
    message = f"{description} at {url} answered HTTP {status}: {_excerpt(response)}"
    if status >= 500 or status == 429:
        raise BackendUnavailable(message)
    raise BackendError(message)


def _excerpt(response: httpx.Response) -> str:
    text = response.content.decode("utf-8", errors="replace").strip()
    if len(text) > _BODY_EXCERPT_CHARS:
        return text[:_BODY_EXCERPT_CHARS] + "..."
    return text or "(empty body)"
