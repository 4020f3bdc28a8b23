"""HTTP plumbing under :class:`~omoide.llm.http_chat.HttpChatModel`: functions, no state.

Every httpx failure is translated here, at the boundary:

* refused or dropped connections, timeouts, and answers 408, 425, 429 and 5xx become
  :class:`~omoide.errors.BackendUnavailable` (retrying may help);
* other 4xx answers, non-JSON bodies and unexpected shapes become
  :class:`~omoide.errors.BackendError`.

Messages name the backend, the model and the URL. Credentials sent in headers are masked
in any text quoted from the server, and headers themselves are never quoted.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field

import httpx

from omoide.errors import BackendError, BackendUnavailable, ConfigError

_RETRYABLE_STATUSES = frozenset({408, 425, 429})
_SECRET_HEADERS = frozenset({"authorization", "x-api-key", "api-key"})
_QUOTE_LIMIT = 300
_MASK = "***"


@dataclass(frozen=True, slots=True)
class HttpCall:
    """One request to a model server, with everything an error message needs to name."""

    backend: str
    model: str
    url: str
    body: Mapping[str, object]
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    timeout_seconds: float = 60.0

    @property
    def target(self) -> str:
        return f"{self.backend} model {self.model!r} at {self.url}"

    def redact(self, text: str) -> str:
        """``text`` with every credential sent in this call's headers masked."""
        for name, value in self.headers.items():
            if name.lower() not in _SECRET_HEADERS:
                continue
            secret = value.removeprefix("Bearer ").strip()
            if secret:
                text = text.replace(secret, _MASK)
        return text


def check_base_url(base_url: str, *, backend: str) -> str:
    """A base URL without its trailing slash; only http and https are accepted."""
    stripped = base_url.strip().rstrip("/")
    try:
        scheme = httpx.URL(stripped).scheme
    except httpx.InvalidURL as exc:
        raise ConfigError(f"{backend} base URL {base_url!r} is not a valid URL") from exc
    if scheme not in ("http", "https"):
        raise ConfigError(f"{backend} base URL {base_url!r} must start with http:// or https://")
    return stripped


def check_model_name(model: str, *, backend: str) -> str:
    if not isinstance(model, str) or not model.strip():
        raise ConfigError(f"{backend} needs a model name")
    return model


def check_timeout(timeout_seconds: float, *, backend: str) -> float:
    if not math.isfinite(timeout_seconds) or timeout_seconds <= 0:
        raise ConfigError(f"{backend} timeout must be a positive number of seconds")
    return float(timeout_seconds)


def lookup(value: object, *path: str | int) -> object:
    """Walk decoded JSON by keys and list positions; ``None`` where the path breaks."""
    for step in path:
        if isinstance(step, str) and isinstance(value, dict):
            value = value.get(step)
        elif isinstance(step, int) and isinstance(value, list) and -len(value) <= step < len(value):
            value = value[step]
        else:
            return None
    return value


def quote(call: HttpCall, text: str) -> str:
    """A short, credential-free excerpt of server text for an error message."""
    cleaned = call.redact(" ".join(text.split()))
    if len(cleaned) > _QUOTE_LIMIT:
        return cleaned[:_QUOTE_LIMIT] + "…"
    return cleaned


def vendor_detail(call: HttpCall, body: str) -> str:
    """The human message inside a vendor error body, whichever vendor's shape it has."""
    try:
        payload: object = json.loads(body)
    except ValueError:
        return quote(call, body)
    for path in (("error", "message"), ("error",), ("message",), ("detail",)):
        message = lookup(payload, *path)
        if isinstance(message, str) and message:
            return quote(call, message)
    return quote(call, body)


def status_failure(call: HttpCall, status: int, body: str) -> BackendError:
    detail = vendor_detail(call, body) or "(empty body)"
    message = f"{call.target} answered HTTP {status}: {detail}"
    if status in _RETRYABLE_STATUSES or status >= 500:
        return BackendUnavailable(message)
    return BackendError(message)


def malformed(call: HttpCall, problem: str) -> BackendError:
    return BackendError(f"{call.target} sent a malformed response: {problem}")


def reported_failure(call: HttpCall, detail: str, *, retryable: bool) -> BackendError:
    """An error the server wrote into a 200 answer or into the middle of a stream."""
    message = f"{call.target} reported an error: {quote(call, detail)}"
    return BackendUnavailable(message) if retryable else BackendError(message)


def truncated_stream(call: HttpCall) -> BackendUnavailable:
    return BackendUnavailable(f"{call.target} ended its stream before saying it was done")


def decode_json(call: HttpCall, text: str) -> object:
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except ValueError as exc:
        raise malformed(call, f"not JSON: {quote(call, text)!r}") from exc


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


def _transport_failure(call: HttpCall, exc: httpx.HTTPError) -> BackendError:
    kind = type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return BackendUnavailable(f"{call.target} timed out ({kind}, {call.timeout_seconds} s)")
    if isinstance(exc, httpx.ConnectError):
        return BackendUnavailable(f"{call.target} could not be reached ({kind}: {exc})")
    if isinstance(exc, httpx.TransportError):
        return BackendUnavailable(f"{call.target} broke off the connection ({kind}: {exc})")
    return BackendError(f"{call.target} failed ({kind}: {quote(call, str(exc))})")


async def post_json(client: httpx.AsyncClient, call: HttpCall) -> object:
    """One POST with a JSON body, answered with JSON: no retries here."""
    try:
        response = await client.post(
            call.url, json=dict(call.body), headers=dict(call.headers), timeout=call.timeout_seconds
        )
    except httpx.HTTPError as exc:
        raise _transport_failure(call, exc) from exc
    if not response.is_success:
        raise status_failure(call, response.status_code, response.text)
    return decode_json(call, response.text)


async def stream_lines(client: httpx.AsyncClient, call: HttpCall) -> AsyncGenerator[str, None]:
    """One streaming POST, yielding the body's lines as they arrive: no retries here."""
    request = client.build_request(
        "POST",
        call.url,
        json=dict(call.body),
        headers=dict(call.headers),
        timeout=call.timeout_seconds,
    )
    try:
        response = await client.send(request, stream=True)
    except httpx.HTTPError as exc:
        raise _transport_failure(call, exc) from exc
    try:
        if not response.is_success:
            body = await response.aread()
            raise status_failure(call, response.status_code, body.decode("utf-8", "replace"))
        async for line in response.aiter_lines():
            yield line
    except httpx.HTTPError as exc:
        raise _transport_failure(call, exc) from exc
    finally:
        await response.aclose()
