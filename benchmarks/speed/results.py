"""Everything one run measured, and its JSON form."""

from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.speed.context_latency import ContextResult
from benchmarks.speed.environment import Environment
from benchmarks.speed.ingest import IngestResult
from benchmarks.speed.llm_cost import LLMCostResult
from benchmarks.speed.profiling import ProfileResult
from benchmarks.speed.store_open import OpenMeasurement
from benchmarks.speed.targets import TargetCheck

if TYPE_CHECKING:
    from benchmarks.speed.qdrant_baseline import QdrantResult
    from benchmarks.speed.server_latency import ServerResult

JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]


@dataclass(frozen=True, slots=True)
class SpeedResults:
    """One run of one profile; a section is None when it was not run (see ``skipped``)."""

    profile: str
    environment: Environment
    duration_seconds: float
    embedder: str
    context: ContextResult | None
    ingest: IngestResult | None
    opens: tuple[OpenMeasurement, ...]
    qdrant: QdrantResult | None
    llm: LLMCostResult | None
    profiles: tuple[ProfileResult, ...]
    targets: tuple[TargetCheck, ...]
    skipped: dict[str, str] = field(default_factory=dict)
    load_average_at_end: tuple[float, float, float] = (0.0, 0.0, 0.0)
    server: ServerResult | None = None
    """The reply path on the server profile (PostgreSQL + Qdrant)."""


def to_json(value: object) -> JsonValue:
    """Dataclasses as objects (with their status/margin for targets), paths and times as
    strings, non-finite floats as null."""
    if isinstance(value, TargetCheck):
        return {
            **{f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)},
            "status": value.status,
            "margin": value.margin,
        }
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)
