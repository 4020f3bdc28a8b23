"""Embedding a batch's fact texts while the store works.

Rules phrase a turn's facts before anything is searched (``facts.foreseen_candidates``),
so the write path knows every fact text of a batch up front. :class:`FactTextPipeline`
embeds them in turn order, a few calls of at most ``texts_per_call`` distinct texts each,
while the batch's episodes are written and the facts of earlier turns are kept: fact
keeping for a turn waits only for the call that holds that turn's texts. A failed call
fails the fact keeping of the turns that need its texts, never the stored turns.

Fact texts repeat across viewers and streams ("likes 롤 게임", "lives in 東京"), so the
vectors of recent ones are kept in a bounded :class:`FactVectorCache` and not embedded
again (the same text and model give the same vector).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

import anyio

from omoide.domain import Vector
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput, OmoideError
from omoide.text_caches import holds_text

DEFAULT_TEXTS_PER_CALL = 32
DEFAULT_CACHED_FACT_TEXTS = 4096


class FactVectorCache:
    """The vectors of the most recently embedded fact texts (least recently used out)."""

    def __init__(self, max_entries: int = DEFAULT_CACHED_FACT_TEXTS) -> None:
        if max_entries < 0:
            raise InvalidInput(f"max_entries must be at least 0 (got {max_entries})")
        self._max_entries = max_entries
        self._vectors: OrderedDict[str, Vector] = OrderedDict()
        holds_text(self)

    def forget_texts(self) -> None:
        """Drop every kept vector (memory was forgotten: :mod:`omoide.text_caches`)."""
        self._vectors.clear()

    def texts_held(self) -> int:
        return len(self._vectors)

    def __len__(self) -> int:
        return len(self._vectors)

    def found(self, texts: Iterable[str]) -> dict[str, Vector]:
        """The cached vectors among ``texts``; each found text becomes the most recent."""
        hits = {}
        for text in texts:
            vector = self._vectors.get(text)
            if vector is not None:
                self._vectors.move_to_end(text)
                hits[text] = vector
        return hits

    def keep(self, vectors: Mapping[str, Vector]) -> None:
        for text, vector in vectors.items():
            self._vectors[text] = vector
            self._vectors.move_to_end(text)
        while len(self._vectors) > self._max_entries:
            self._vectors.popitem(last=False)


def plan_calls(
    texts_per_turn: Sequence[Sequence[str]], texts_per_call: int
) -> tuple[list[list[str]], list[int | None]]:
    """Distinct texts in first-seen order, cut into calls; for each turn, the index of the
    last call holding one of its texts (``None`` for a turn with no texts)."""
    if texts_per_call < 1:
        raise InvalidInput(f"texts_per_call must be at least 1 (got {texts_per_call})")
    call_of: dict[str, int] = {}
    calls: list[list[str]] = []
    last_call: list[int | None] = []
    for texts in texts_per_turn:
        for text in texts:
            if text in call_of:
                continue
            if not calls or len(calls[-1]) == texts_per_call:
                calls.append([])
            calls[-1].append(text)
            call_of[text] = len(calls) - 1
        last_call.append(max((call_of[text] for text in texts), default=None))
    return calls, last_call


class FactTextPipeline:
    """Embeds the fact texts of one batch; :meth:`run` in a task, :meth:`vectors_for` per turn."""

    def __init__(
        self,
        embedder: Embedder,
        texts_per_turn: Sequence[Sequence[str]],
        *,
        cache: FactVectorCache,
        texts_per_call: int = DEFAULT_TEXTS_PER_CALL,
    ) -> None:
        self._embedder = embedder
        self._cache = cache
        self._vectors = cache.found(text for texts in texts_per_turn for text in texts)
        missing = [
            [text for text in texts if text not in self._vectors] for texts in texts_per_turn
        ]
        self._calls, self._last_call = plan_calls(missing, texts_per_call)
        self._finished = [anyio.Event() for _ in self._calls]
        self._failure: OmoideError | None = None
        self._failed_call: int | None = None

    @property
    def calls(self) -> int:
        return len(self._calls)

    async def run(self) -> None:
        """Embed every call in order; a failure is kept for the turns that need it."""
        for index, texts in enumerate(self._calls):
            try:
                matrix = await self._embedder.embed_documents(texts)
            except OmoideError as exc:
                self._failure, self._failed_call = exc, index
                for finished in self._finished[index:]:
                    finished.set()
                return
            embedded = {text: matrix[row] for row, text in enumerate(texts)}
            self._vectors.update(embedded)
            self._cache.keep(embedded)
            self._finished[index].set()

    async def vectors_for(self, turn_index: int) -> Mapping[str, Vector]:
        """The vectors embedded so far, once those of turn ``turn_index`` are among them."""
        call = self._last_call[turn_index]
        if call is not None:
            await self._finished[call].wait()
            failed = self._failed_call
            if self._failure is not None and failed is not None and call >= failed:
                raise self._failure
        return MappingProxyType(self._vectors)
