"""A turn's metadata: a flat JSON object of labels and ids, checked at every door.

String keys, scalar values (string, number, bool or null), at most
:data:`MAX_METADATA_KEYS` keys and :data:`MAX_METADATA_CHARS` characters of keys and
string values together; the text rules of :mod:`omoide.text_rules` apply to both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from omoide.errors import InvalidInput
from omoide.text_rules import text_problem

MetadataValue = str | int | float | bool | None
MAX_METADATA_KEYS = 64
MAX_METADATA_CHARS = 16_384
"""Keys and string values of one turn's metadata together: labels and ids, not documents."""
Metadata = Mapping[str, MetadataValue]


def check_metadata(metadata: Mapping[str, object]) -> dict[str, MetadataValue]:
    """Metadata is a flat JSON object: string keys, scalar values."""
    if len(metadata) > MAX_METADATA_KEYS:
        raise InvalidInput(f"metadata has more than {MAX_METADATA_KEYS} keys")
    flat: dict[str, MetadataValue] = {}
    size = 0
    for key, value in metadata.items():
        if not isinstance(key, str) or not key:
            raise InvalidInput("metadata keys must be non-empty strings")
        problem = text_problem(key, one_line=True) or (
            text_problem(value) if isinstance(value, str) else None
        )
        if problem is not None:
            raise InvalidInput(f"metadata {key[:40]!r}: text {problem}")
        size += len(key) + (len(value) if isinstance(value, str) else 0)
        if size > MAX_METADATA_CHARS:
            raise InvalidInput(f"metadata holds more than {MAX_METADATA_CHARS:,} characters")
        if value is not None and not isinstance(value, str | int | float | bool):
            raise InvalidInput(f"metadata value for {key!r} must be a string, number, bool or null")
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput(f"metadata value for {key!r} must be finite")
        flat[key] = value
    return flat
