"""Checks every backend's output passes through: float32, finite, one unit-length row per text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from omoide.domain import Matrix
from omoide.errors import BackendError, InvalidInput


def check_texts(texts: Sequence[str]) -> list[str]:
    """The texts as a list, refusing a bare string and text that is not valid Unicode.

    A bare ``str`` is a sequence of characters: embedding it would silently embed each
    character, so it is refused. Lone surrogates cannot be encoded as UTF-8 for a model.
    """
    if isinstance(texts, str | bytes):
        raise InvalidInput("texts must be a sequence of strings, not a single string")
    batch = list(texts)
    for index, text in enumerate(batch):
        check_text(text, name=f"texts[{index}]")
    return batch


def check_text(text: str, *, name: str = "text") -> str:
    """Refuse a non-string or a string that cannot be encoded as UTF-8."""
    if not isinstance(text, str):
        raise InvalidInput(f"{name} must be a string (got {type(text).__name__})")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(f"{name} is not valid Unicode: {exc.reason}") from exc
    return text


def empty_matrix(dimensions: int) -> Matrix:
    """The embedding of no texts: a (0, dimensions) float32 matrix."""
    return np.zeros((0, dimensions), dtype=np.float32)


def unit_rows(raw: NDArray[Any], *, rows: int, dimensions: int, source: str) -> Matrix:
    """Return ``raw`` as a C-contiguous float32 matrix whose rows have length 1.

    ``source`` names the backend and model in the :class:`BackendError` raised when the
    shape is not ``(rows, dimensions)`` or a row is not finite or is all zeros.
    """
    matrix = np.asarray(raw, dtype=np.float32)
    if matrix.shape != (rows, dimensions):
        raise BackendError(
            f"{source} returned an array of shape {matrix.shape}, expected ({rows}, {dimensions})"
        )
    if not np.isfinite(matrix).all():
        raise BackendError(f"{source} returned a vector with NaN or infinite values")
    wide = matrix.astype(np.float64)
    norms = np.linalg.norm(wide, axis=1, keepdims=True)
    if (norms == 0).any():
        raise BackendError(f"{source} returned an all-zero vector")
    return np.ascontiguousarray(wide / norms, dtype=np.float32)
