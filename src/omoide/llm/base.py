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
    max_tokens: int = 512
    temperature: float = 0.7
    json_mode: bool = False


class ChatModel(Protocol):
    """A chat model, streaming or not. Backends translate vendor errors into ours."""

    @property
    def name(self) -> str: ...

    async def complete(self, messages: Sequence[ChatMessage], options: ChatOptions) -> str: ...

    def stream(
        self, messages: Sequence[ChatMessage], options: ChatOptions
    ) -> AsyncIterator[str]: ...
