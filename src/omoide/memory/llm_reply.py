"""The memory passes' one way of asking a model for JSON, with per-pass call counting.

Extraction, validation and the single corrective retry are the shared
:func:`omoide.llm.json_reply.complete_json`; this module only adds a counter per pass
(``importance.llm_calls``, ``extraction.llm_calls``) for every model call, retries
included, on top of the shared ``llm.*`` counters.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TypeVar

from omoide.llm.base import ChatMessage, ChatModel, ChatOptions
from omoide.llm.json_reply import complete_json
from omoide.metrics import Metrics

Parsed = TypeVar("Parsed")


class _CountedModel:
    """A chat model that counts its calls under one metric name."""

    def __init__(self, model: ChatModel, *, metrics: Metrics, metric: str) -> None:
        self._model = model
        self._metrics = metrics
        self._metric = metric

    @property
    def name(self) -> str:
        return self._model.name

    async def complete(self, messages: Sequence[ChatMessage], options: ChatOptions) -> str:
        self._metrics.increment(self._metric)
        return await self._model.complete(messages, options)

    def stream(self, messages: Sequence[ChatMessage], options: ChatOptions) -> AsyncIterator[str]:
        self._metrics.increment(self._metric)
        return self._model.stream(messages, options)

    async def aclose(self) -> None:
        """Nothing of its own: the wrapped model stays its owner's to close."""


async def ask_json(
    model: ChatModel,
    messages: Sequence[ChatMessage],
    *,
    parse: Callable[[object], Parsed],
    options: ChatOptions,
    metrics: Metrics,
    calls_metric: str,
) -> Parsed:
    """``parse`` of the model's JSON reply; one corrective retry, then ParseFailure."""
    counted = _CountedModel(model, metrics=metrics, metric=calls_metric)
    return await complete_json(counted, messages, parse=parse, options=options, metrics=metrics)


def json_number(value: object, *, name: str) -> float:
    """A finite JSON number (or a numeric string); ValueError names the field otherwise."""
    if isinstance(value, bool):
        raise ValueError(f'"{name}" must be a number, not a boolean')
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise ValueError(f'"{name}" must be a number (got {value!r})') from None
    if not isinstance(value, int | float):
        raise ValueError(f'"{name}" must be a number (got {value!r})')
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f'"{name}" must be a finite number (got {value!r})')
    return number
