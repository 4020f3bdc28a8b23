"""Two embedders read as one: each text's vectors side by side, weighted.

USE and multilingual-e5 see different things: USE places chat by what it is about across
languages, e5 answers a question with the sentence that holds its answer (LoCoMo's
vector-only recall@10: e5 0.548, USE 0.318; ``docs/benchmarks.md``). A fused vector is
every part's unit vector scaled by the square root of its weight, the weights summing to
one, laid end to end: it is unit length again, and the dot product of two fused vectors is
the weighted mean of the parts' cosines, ``sum_i w_i cos_i``. So a store that ranks by one
dot product over one vector per episode ranks by the fused similarity, with no second
index and no change to the stores; only the vectors are longer (USE 512 + e5 384 = 896).

Queries are embedded by the parts at the same time (each part's model runs in its own
worker thread); documents one part after the other, each in its own batches. The fused
model name names every part and weight, so a store of fused vectors refuses any other
embedder, and every calibration cached by model name (relevance floors, the duplicate
threshold) is computed for the fused space.

What reads one part's space keeps doing so: a part's chat centroid and the sentence
models trained on its vectors are laid into the fused space by :meth:`FusedEmbedder.lift`
(the part's slice, scaled back, the other slices zero), so a linear reading over the fused
vector equals the part's own reading of its own vector.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import anyio
import numpy as np

from omoide.domain import Matrix, Vector
from omoide.embed.base import Embedder
from omoide.errors import BackendError, ConfigError


@dataclass(frozen=True, slots=True)
class FusedPart:
    """One embedder of a fusion, its weight, and where its slice starts."""

    embedder: Embedder
    weight: float
    start: int

    @property
    def stop(self) -> int:
        return self.start + self.embedder.dimensions

    @property
    def scale(self) -> float:
        """What the part's unit vector is multiplied by in the fused vector."""
        return math.sqrt(self.weight)


def _checked_weights(weights: Sequence[float]) -> list[float]:
    if len(weights) < 2:
        raise ConfigError("a fused embedder needs at least two embedders")
    if not all(math.isfinite(weight) and weight > 0 for weight in weights):
        raise ConfigError(f"fused embedder weights must be positive numbers (got {weights})")
    total = math.fsum(weights)
    return [weight / total for weight in weights]


class FusedEmbedder:
    """``parts`` (embedder, weight) as one embedder; weights are normalised to sum to one.

    The parts belong to the fused embedder: :meth:`aclose` closes them."""

    def __init__(self, parts: Sequence[tuple[Embedder, float]]) -> None:
        weights = _checked_weights([weight for _, weight in parts])
        laid: list[FusedPart] = []
        start = 0
        for (embedder, _), weight in zip(parts, weights, strict=True):
            laid.append(FusedPart(embedder, weight, start))
            start += embedder.dimensions
        self._parts = tuple(laid)
        self._dimensions = start
        self._model_name = (
            "fused("
            + "+".join(f"{part.weight:.3g}*{part.embedder.model_name}" for part in laid)
            + ")"
        )

    @property
    def parts(self) -> tuple[FusedPart, ...]:
        return self._parts

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def dimensions(self) -> int:
        return self._dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        matrices = [await part.embedder.embed_documents(texts) for part in self._parts]
        return self._joined(matrices, rows=len(matrices[0]))

    async def embed_query(self, text: str) -> Vector:
        vectors: list[Vector | None] = [None] * len(self._parts)

        async def embed(index: int) -> None:
            vectors[index] = await self._parts[index].embedder.embed_query(text)

        async with anyio.create_task_group() as group:
            for index in range(len(self._parts)):
                group.start_soon(embed, index)
        rows = [np.asarray(vector, dtype=np.float32).reshape(1, -1) for vector in vectors]
        joined: Vector = self._joined(rows, rows=1)[0]
        return joined

    async def aclose(self) -> None:
        for part in self._parts:
            await part.embedder.aclose()

    def lift(self, part: FusedPart, vector: np.ndarray) -> np.ndarray:
        """A linear reading of ``part``'s space (weights or a direction over its unit
        vectors) as the same reading of the fused space: ``lift(w) . fused(t)`` equals
        ``w . part(t)``."""
        if vector.shape != (part.embedder.dimensions,):
            raise ConfigError(
                f"a reading of {part.embedder.model_name} needs {part.embedder.dimensions} "
                f"numbers, got {vector.shape}"
            )
        lifted = np.zeros(self._dimensions, dtype=np.float32)
        lifted[part.start : part.stop] = vector / part.scale
        return lifted

    def _joined(self, matrices: Sequence[np.ndarray], *, rows: int) -> Matrix:
        for part, matrix in zip(self._parts, matrices, strict=True):
            if matrix.shape != (rows, part.embedder.dimensions):
                raise BackendError(
                    f"{part.embedder.model_name} returned an array of shape {matrix.shape}, "
                    f"expected ({rows}, {part.embedder.dimensions})"
                )
        scaled = [
            np.asarray(matrix, dtype=np.float32) * part.scale
            for part, matrix in zip(self._parts, matrices, strict=True)
        ]
        return np.ascontiguousarray(np.concatenate(scaled, axis=1), dtype=np.float32)
