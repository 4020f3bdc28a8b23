"""Long texts embedded in chunks that fit the model, pooled back to one vector per text.

A model sees a bounded input: one that truncates never sees the end of a long paste, one
that errors refuses it, and one that reads everything (USE) spends memory in proportion
to its length in one forward pass (~900 MB for 100,000 characters). A text longer than
the embedder's ``max_chars`` is therefore cut into chunks of at most ``max_chars``, after
a sentence end where there is one, else a line break, else a space, else anywhere; all
chunks of a call are embedded together (the backend's own batching still applies) and a
long text's vector is the normalised mean of its chunk vectors weighted by their lengths.

A text that fits is embedded exactly as before, in the same call: its vector is the
model's row, untouched. One vector per text is what the stores keep today; a pasted text
whose one relevant sentence should be found by meaning needs a vector per chunk (a later
store change). The mean makes every part of the text count instead of only its start.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from omoide.domain import Matrix
from omoide.embed.batching import EmbedBatch
from omoide.embed.vectors import empty_matrix
from omoide.errors import BackendError, ConfigError

_BREAKS = (
    re.compile(r"[.!?…][\"'”’)\]]*\s+|[。！？][」』】”’)]*\s*"),  # a sentence end
    re.compile(r"\n+"),  # a line break
    re.compile(r"\s+"),  # a space
)


def check_max_chars(max_chars: int | None, *, owner: str) -> int | None:
    """None (the model reads any length) or a positive number of characters."""
    if max_chars is None:
        return None
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
        raise ConfigError(f"{owner} max_input_chars must be a positive integer (got {max_chars!r})")
    return max_chars


def split_text(text: str, max_chars: int) -> list[str]:
    """``text`` in order as chunks of at most ``max_chars`` characters that join back to it.

    A text that fits is its own single chunk. Otherwise each chunk ends at the last break
    of the strongest kind (sentence end, line break, space) in its second half, or is cut
    at ``max_chars`` when there is none (an unbroken run of Chinese, a long URL).
    """
    chunks: list[str] = []
    start = 0
    while len(text) - start > max_chars:
        end = _cut(text, start, start + max_chars)
        chunks.append(text[start:end])
        start = end
    chunks.append(text[start:])
    return chunks


def _cut(text: str, start: int, limit: int) -> int:
    """Where the chunk beginning at ``start`` ends, at most at ``limit``."""
    floor = start + (limit - start) // 2
    for pattern in _BREAKS:
        ends = [match.end() for match in pattern.finditer(text, floor, limit)]
        if ends:
            return ends[-1]
    return limit


def pool(rows: Matrix, weights: Sequence[int]) -> Matrix:
    """The unit-length mean of ``rows`` weighted by ``weights`` (one row, float32)."""
    weighted = np.asarray(weights, dtype=np.float64)[:, None] * rows.astype(np.float64)
    total = weighted.sum(axis=0)
    norm = float(np.linalg.norm(total))
    if norm == 0.0 or not np.isfinite(norm):
        raise BackendError("the chunk vectors of a long text cancel out; it has no direction")
    return np.ascontiguousarray(total / norm, dtype=np.float32)[None, :]


async def embed_chunked(
    embed: EmbedBatch, texts: list[str], *, max_chars: int | None, dimensions: int
) -> Matrix:
    """Embed ``texts`` with ``embed``, each text longer than ``max_chars`` as its chunks.

    ``embed`` receives one list: the texts that fit as they are and the chunks of the long
    ones, in order. Without a long text it receives ``texts`` itself, unchanged.
    """
    if max_chars is None or all(len(text) <= max_chars for text in texts):
        return await embed(texts) if texts else empty_matrix(dimensions)
    pieces = [split_text(text, max_chars) for text in texts]
    matrix = await embed([chunk for chunks in pieces for chunk in chunks])
    rows: list[Matrix] = []
    start = 0
    for chunks in pieces:
        part = matrix[start : start + len(chunks)]
        start += len(chunks)
        rows.append(part if len(chunks) == 1 else pool(part, [len(c) for c in chunks]))
    return np.ascontiguousarray(np.concatenate(rows, axis=0), dtype=np.float32)
