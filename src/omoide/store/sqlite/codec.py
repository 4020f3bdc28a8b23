"""Column encodings: UTC microseconds for times, JSON for metadata and string lists.

Every query that returns a record selects one of the column lists of
:mod:`omoide.store.rows`, in order, and decodes it with :data:`ROW_DECODER`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from omoide.domain import Fact, as_utc
from omoide.errors import InvalidInput
from omoide.metadata import MetadataValue, check_metadata
from omoide.store.record_fields import FieldEncoding
from omoide.store.rows import FACT_SOURCE_IDS, RowDecoder, fact_columns
from omoide.text_caches import remembers_text

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE_MICROSECOND = timedelta(microseconds=1)

FACT_COLUMNS = fact_columns(
    f"(SELECT json_group_array(source.id) FROM ({FACT_SOURCE_IDS}) AS source)"
)


def to_micros(moment: datetime, *, name: str = "timestamp") -> int:
    """A timezone-aware time as integer microseconds since the Unix epoch, UTC."""
    return (as_utc(moment, name=name) - EPOCH) // ONE_MICROSECOND


def optional_micros(moment: datetime | None, *, name: str = "timestamp") -> int | None:
    return None if moment is None else to_micros(moment, name=name)


def from_micros(value: int) -> datetime:
    return EPOCH + timedelta(microseconds=value)


def optional_datetime(value: int | None) -> datetime | None:
    return None if value is None else from_micros(value)


def encode_metadata(metadata: Mapping[str, object]) -> str:
    """Flat JSON object; keys keep their order and ints stay ints."""
    return json.dumps(check_metadata(metadata), ensure_ascii=False, allow_nan=False)


def decode_metadata(text: str) -> dict[str, MetadataValue]:
    if text == "{}":  # most records carry none: a new empty dict, as json.loads gives
        return {}
    decoded: dict[str, MetadataValue] = json.loads(text)
    return decoded


def encode_strings(values: Sequence[str], *, name: str) -> str:
    for value in values:
        if not isinstance(value, str):
            raise InvalidInput(f"{name} must contain only strings")
    return json.dumps(list(values), ensure_ascii=False)


STRINGS_DECODED = 4096
"""Lists of strings kept decoded per process: a search decodes an episode's topics on every
row it returns, and a few lists (``["food"]``, ``["job", "hobby"]``) recur over many
rows; a decoded list is a tuple, which no one can change."""


def decode_strings(text: str) -> tuple[str, ...]:
    if text == "[]":  # no topics, terms or sources: most rows, decoded on every search
        return ()
    return _decoded_strings(text)


@remembers_text
@lru_cache(maxsize=STRINGS_DECODED)
def _decoded_strings(text: str) -> tuple[str, ...]:
    return tuple(json.loads(text))


ROW_DECODER = RowDecoder(
    read_time=from_micros, read_strings=decode_strings, read_metadata=decode_metadata
)
episode_from_row = ROW_DECODER.episode

FACTS_DECODED = 4096
"""Facts kept decoded per process, by their row. A reply lists the viewer's facts and
finds most of them again by meaning, and the next reply of the viewer reads them again; a
row holds only immutable values and decodes to a frozen fact, so the same row is the same
fact, and a fact that changed comes back as a new row."""


@remembers_text
@lru_cache(maxsize=FACTS_DECODED)
def _decoded_fact(row: tuple[Any, ...]) -> Fact:
    return ROW_DECODER.fact(row)


def fact_from_row(row: Sequence[Any]) -> Fact:
    """The fact of a row of ``FACT_COLUMNS`` (nothing after them)."""
    return _decoded_fact(tuple(row))


emotion_from_row = ROW_DECODER.emotion
tombstone_from_row = ROW_DECODER.tombstone

FIELD_ENCODING = FieldEncoding(time=to_micros, strings=encode_strings, metadata=encode_metadata)
