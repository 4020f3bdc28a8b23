"""The shape every loader produces: haystacks of retrieval units and the probes asked of them.

A :class:`Haystack` is what one viewer told one character: it is ingested into its own
scope (and its own store file), then each :class:`Probe` is asked against it. A unit is
stored as one episode; ``unit_id`` travels in the episode's metadata, never as the
episode id, so no system can rank by the evaluation's own labels (LongMemEval's ids say
``answer_...``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

DATA_ENVIRONMENT_VARIABLE = "OMOIDE_BENCH_DATA"
REPOSITORY_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Unit:
    """One retrieval unit: stored as one episode, in order."""

    unit_id: str
    text: str
    at: datetime
    group: str
    """The session the unit belongs to (for session-level metrics)."""
    reply: str = ""
    """Stored as the episode's bot message (MemoryBank keeps the companion's answer)."""


@dataclass(frozen=True, slots=True)
class Probe:
    """One question and the units that answer it."""

    probe_id: str
    question: str
    now: datetime
    evidence: frozenset[str]
    category: str
    evidence_groups: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Haystack:
    key: str
    language: str
    units: tuple[Unit, ...]
    probes: tuple[Probe, ...]


@dataclass(frozen=True, slots=True)
class Dataset:
    """A loaded benchmark, with what the loader had to drop or repair, said in ``notes``."""

    name: str
    haystacks: tuple[Haystack, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def unit_count(self) -> int:
        return sum(len(haystack.units) for haystack in self.haystacks)

    @property
    def probe_count(self) -> int:
        return sum(len(haystack.probes) for haystack in self.haystacks)


def data_root(environment: Mapping[str, str] | None = None) -> Path:
    """Where the licensed data lives: ``$OMOIDE_BENCH_DATA`` or ``<repo>/../shared/data``.

    The data is read in place at run time and never copied into the repository.
    """
    variables: Mapping[str, str] = os.environ if environment is None else environment
    configured = variables.get(DATA_ENVIRONMENT_VARIABLE, "").strip()
    if configured:
        return Path(configured).expanduser()
    return REPOSITORY_ROOT.parent / "shared" / "data"
