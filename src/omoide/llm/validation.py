"""Checks every chat model applies to a request before it is sent."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import get_args

from omoide.errors import InvalidInput
from omoide.llm.base import ChatMessage, ChatOptions, Role

_ROLES = frozenset(get_args(Role))
MAX_STOP_SEQUENCES = 4


def check_chat_request(messages: Sequence[ChatMessage], options: ChatOptions) -> None:
    """Refuse requests no backend could answer: no messages, bad roles, bad options."""
    if not messages:
        raise InvalidInput("messages must not be empty")
    for position, message in enumerate(messages):
        if message.role not in _ROLES:
            raise InvalidInput(f"messages[{position}].role must be one of {sorted(_ROLES)}")
        if not isinstance(message.content, str):
            raise InvalidInput(f"messages[{position}].content must be a string")
    max_tokens = options.max_tokens
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise InvalidInput(f"max_tokens must be a positive integer (got {max_tokens!r})")
    temperature = options.temperature
    if isinstance(temperature, bool) or not isinstance(temperature, int | float):
        raise InvalidInput("temperature must be a number")
    if not math.isfinite(temperature) or temperature < 0:
        raise InvalidInput(f"temperature must be a finite number >= 0 (got {temperature})")
    _check_sampling(options)


def _check_sampling(options: ChatOptions) -> None:
    top_p = options.top_p
    if top_p is not None and not (isinstance(top_p, int | float) and 0 <= top_p <= 1):
        raise InvalidInput(f"top_p must be a number in [0, 1] (got {top_p!r})")
    if len(options.stop) > MAX_STOP_SEQUENCES:
        raise InvalidInput(f"stop takes at most {MAX_STOP_SEQUENCES} sequences")
    if any(not isinstance(stop, str) or not stop for stop in options.stop):
        raise InvalidInput("stop sequences must be non-empty strings")
    seed = options.seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidInput(f"seed must be an integer (got {seed!r})")
