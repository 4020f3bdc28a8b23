"""The language-model seam."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class ChatOptions:
    """How to sample a reply. ``top_p``, ``stop`` and ``seed`` are sent only when set;
    Anthropic has no seed, so its backend leaves ``seed`` out."""

    max_tokens: int = 512
    temperature: float = 0.7
    json_mode: bool = False
    top_p: float | None = None
    stop: tuple[str, ...] = ()
    seed: int | None = None


class ChatModel(Protocol):
    """A chat model, streaming or not. Backends translate vendor errors into ours."""

    @property
    def name(self) -> str: ...

    async def complete(self, messages: Sequence[ChatMessage], options: ChatOptions) -> str: ...

    def stream(
        self, messages: Sequence[ChatMessage], options: ChatOptions
    ) -> AsyncIterator[str]: ...

    async def aclose(self) -> None:
        """Release what the model holds (an HTTP client); nothing for in-process fakes."""
        ...
