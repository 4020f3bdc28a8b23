"""Splitting a long list of texts into bounded batches, embedded one after another."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import numpy as np

from omoide.domain import Matrix
from omoide.embed.vectors import empty_matrix
from omoide.errors import ConfigError

EmbedBatch = Callable[[list[str]], Awaitable[Matrix]]


def check_batch_size(batch_size: int, *, owner: str) -> int:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ConfigError(f"{owner} batch_size must be a positive integer (got {batch_size!r})")
    return batch_size


async def embed_in_batches(
    embed_batch: EmbedBatch, texts: Sequence[str], *, batch_size: int, dimensions: int
) -> Matrix:
    """Embed ``texts`` in slices of at most ``batch_size``, stacking the rows in order.

    Batches run sequentially: each is a cancellation point, and a remote backend sees at
    most one request per embedder call at a time.
    """
    batch = list(texts)
    if not batch:
        return empty_matrix(dimensions)
    parts = [
        await embed_batch(batch[start : start + batch_size])
        for start in range(0, len(batch), batch_size)
    ]
    if len(parts) == 1:
        return parts[0]
    return np.ascontiguousarray(np.concatenate(parts, axis=0), dtype=np.float32)
