"""The one check every store applies to a vector it is handed, before encoding it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.errors import Conflict, InvalidInput

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from omoide.domain import Vector


def checked_vector(vector: Vector, *, model_name: str, dimensions: int) -> NDArray[np.float32]:
    """``vector`` as float32, refused unless it is 1-d, finite, not all zeros, and has the
    dimensions of the store's model (a different size means a different model: Conflict)."""
    import numpy as np

    try:
        array = np.asarray(vector, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise InvalidInput("a vector must be a 1-d array of numbers") from exc
    if array.ndim != 1:
        raise InvalidInput(f"a vector must be 1-d (got shape {array.shape})")
    if array.shape[0] != dimensions:
        raise Conflict(
            f"a vector has {array.shape[0]} dimensions, but the store's embedding model "
            f"{model_name!r} makes {dimensions}-dimensional vectors"
        )
    if not np.all(np.isfinite(array)):
        raise InvalidInput("a vector must contain only finite numbers")
    if not np.any(array):
        raise InvalidInput("a vector must not be all zeros (it has no direction)")
    return array
