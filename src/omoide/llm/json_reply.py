"""Asking a model for JSON and getting back a validated value, or a loud failure.

Models wrap JSON in code fences, put prose before it, think aloud in ``<think>`` blocks, or
answer in the wrong shape. :func:`complete_json` asks in JSON mode, digs the JSON out with
:func:`extract_json`, validates it with the caller's ``parse`` function and, when that
fails, asks once more with a message saying what was wrong. If that fails too it raises
:class:`~omoide.errors.ParseFailure` carrying the raw reply: it never substitutes a default,
because a silent default (say, importance 3 for every memory) degrades ranking unnoticed.

Metrics (when a :class:`~omoide.metrics.Metrics` is given):
``llm.calls`` one per model call, ``llm.parse_retries`` one per corrective retry,
``llm.parse_failures`` one per request that ended in ``ParseFailure``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from omoide.errors import InvalidInput, ParseFailure
from omoide.llm.base import ChatMessage, ChatModel, ChatOptions
from omoide.metrics import Metrics

Parsed = TypeVar("Parsed")

DEFAULT_JSON_OPTIONS = ChatOptions(max_tokens=512, temperature=0.0, json_mode=True)
SHAPE_ERRORS: tuple[type[Exception], ...] = (
    InvalidInput,
    ValueError,
    TypeError,
    KeyError,
    IndexError,
)
"""Exceptions a ``parse`` function may raise to reject a value (besides ParseFailure)."""

_THINKING = re.compile(r"<(think|thinking)>.*?(?:</\1>|\Z)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[^\S\n]*(?:json5?|javascript|js)?[^\S\n]*\n?(.*?)```", re.DOTALL | re.I)
_OPENERS = re.compile(r"[\[{]")
_MAX_EMBEDDED_STARTS = 64
_ECHO_LIMIT = 2000
_CORRECTION = (
    "Your previous reply could not be used: {reason}. Reply again with only the JSON "
    "that was asked for, in exactly the requested shape: no prose, no code fences."
)


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def _decode_whole(text: str) -> object:
    value, end = _DECODER.raw_decode(text)
    if text[end:].strip():
        raise ValueError("extra text after the JSON value")
    return value


def _decode_embedded(text: str) -> tuple[bool, object]:
    """The first object or array that decodes, starting at some ``{`` or ``[`` in ``text``."""
    for count, opener in enumerate(_OPENERS.finditer(text)):
        if count >= _MAX_EMBEDDED_STARTS:
            break
        try:
            value, _ = _DECODER.raw_decode(text, opener.start())
        except ValueError:
            continue
        return True, value
    return False, None


def extract_json(text: str) -> object:
    """The JSON value in a model's reply: the whole reply, a fenced block, or embedded.

    Raises :class:`~omoide.errors.ParseFailure` (with the reply as ``raw``) if none is found.
    ``NaN`` and ``Infinity`` are refused, as they are not JSON.
    """
    cleaned = _THINKING.sub("", text).strip()
    if not cleaned:
        raise ParseFailure("the reply was empty", raw=text)
    candidates = [cleaned, *(block.strip() for block in _FENCE.findall(cleaned))]
    for candidate in candidates:
        try:
            return _decode_whole(candidate)
        except ValueError:
            continue
    found, value = _decode_embedded(cleaned)
    if not found:
        raise ParseFailure("no JSON object or array found in the reply", raw=text)
    return value


def parse_reply(raw: str, parse: Callable[[object], Parsed]) -> Parsed:
    """Extract and validate; every rejection becomes a ParseFailure carrying ``raw``."""
    value = extract_json(raw)
    try:
        return parse(value)
    except ParseFailure as exc:
        raise ParseFailure(str(exc), raw=raw) from exc
    except SHAPE_ERRORS as exc:
        raise ParseFailure(f"the JSON has the wrong shape ({exc})", raw=raw) from exc


def _count(metrics: Metrics | None, name: str) -> None:
    if metrics is not None:
        metrics.increment(name)


def _correction(messages: Sequence[ChatMessage], raw: str, reason: str) -> list[ChatMessage]:
    return [
        *messages,
        ChatMessage(role="assistant", content=raw[:_ECHO_LIMIT]),
        ChatMessage(role="user", content=_CORRECTION.format(reason=reason)),
    ]


async def complete_json(
    model: ChatModel,
    messages: Sequence[ChatMessage],
    *,
    parse: Callable[[object], Parsed],
    options: ChatOptions = DEFAULT_JSON_OPTIONS,
    metrics: Metrics | None = None,
    attempts: int = 2,
) -> Parsed:
    """Ask ``model`` for JSON (``json_mode`` forced on) and return ``parse`` of it.

    ``parse`` receives the decoded JSON and raises ParseFailure, InvalidInput, ValueError,
    TypeError, KeyError or IndexError to reject it. After ``attempts`` rejected replies
    (each retry told what was wrong) this raises ParseFailure with the last raw reply.
    Backend errors propagate unchanged and are not retried here.
    """
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
        raise InvalidInput(f"attempts must be a positive integer (got {attempts!r})")
    asked = replace(options, json_mode=True)
    conversation = list(messages)
    failure = ParseFailure("no reply", raw="")
    for attempt in range(attempts):
        if attempt:
            _count(metrics, "llm.parse_retries")
        _count(metrics, "llm.calls")
        raw = await model.complete(conversation, asked)
        try:
            return parse_reply(raw, parse)
        except ParseFailure as exc:
            failure = exc
        conversation = _correction(messages, raw, str(failure))
    _count(metrics, "llm.parse_failures")
    message = f"{model.name} gave no usable JSON in {attempts} attempt(s): {failure}"
    raise ParseFailure(message, raw=failure.raw) from failure
