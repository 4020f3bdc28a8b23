"""Column encodings for the server store: times, metadata, string lists and vectors.

Every query that returns a record selects one of the column lists of
:mod:`omoide.store.rows`, in order, and decodes it with :data:`ROW_DECODER`. Times are
``timestamptz`` (microseconds, like the embedded store) and come back in UTC whatever the
session's time zone. Metadata is ``json`` text, so key order and the difference between
``1`` and ``1.0`` survive. Vectors are little-endian float32 bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from omoide.domain import as_utc
from omoide.errors import BackendError, InvalidInput
from omoide.metadata import MetadataValue, check_metadata
from omoide.store.record_fields import FieldEncoding
from omoide.store.rows import FACT_SOURCE_IDS, RowDecoder, fact_columns

if TYPE_CHECKING:
    from omoide.domain import Vector

VECTOR_DTYPE = np.dtype("<f4")

FACT_COLUMNS = fact_columns(f"ARRAY({FACT_SOURCE_IDS})")


def utc(moment: datetime, *, name: str = "timestamp") -> datetime:
    """A timezone-aware time in UTC, ready to bind; naive times are refused."""
    return as_utc(moment, name=name)


def optional_utc(moment: datetime | None, *, name: str = "timestamp") -> datetime | None:
    return None if moment is None else utc(moment, name=name)


def _read_time(value: datetime) -> datetime:
    return value.astimezone(UTC)


def encode_metadata(metadata: Mapping[str, object]) -> str:
    """Flat JSON object text; keys keep their order and ints stay ints."""
    return json.dumps(check_metadata(metadata), ensure_ascii=False, allow_nan=False)


def decode_metadata(value: Any) -> dict[str, MetadataValue]:
    """``json`` columns arrive parsed by psycopg (``json.loads``); text is parsed here."""
    decoded: dict[str, MetadataValue] = json.loads(value) if isinstance(value, str) else value
    return decoded


def encode_strings(values: Sequence[str], *, name: str) -> list[str]:
    for value in values:
        if not isinstance(value, str):
            raise InvalidInput(f"{name} must contain only strings")
    return list(values)


def encode_vector(vector: Vector) -> bytes:
    return np.asarray(vector, dtype=VECTOR_DTYPE).tobytes()


def decode_vector(data: bytes | memoryview, dimensions: int) -> Vector:
    array = np.frombuffer(bytes(data), dtype=VECTOR_DTYPE).astype(np.float32)
    if array.shape != (dimensions,):
        raise BackendError(
            f"a stored vector has {array.shape[0]} dimensions, the store's model makes {dimensions}"
        )
    return array


ROW_DECODER = RowDecoder(read_time=_read_time, read_strings=tuple, read_metadata=decode_metadata)
episode_from_row = ROW_DECODER.episode
fact_from_row = ROW_DECODER.fact
emotion_from_row = ROW_DECODER.emotion
tombstone_from_row = ROW_DECODER.tombstone

FIELD_ENCODING = FieldEncoding(time=utc, strings=encode_strings, metadata=encode_metadata)
