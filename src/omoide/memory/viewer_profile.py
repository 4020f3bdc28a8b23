"""The viewer profile: what a viewer has told about themselves, always in the prompt.

A view over the viewer's current facts, not a second store (Ash's typed memory, seed
003). Every current fact has a *weight* — salience x confidence x how often it was
confirmed — and, for the message being answered, a *relevance*. The profile keeps the
best of them by ``(1 - relevance_share) * weight + relevance_share * relevance``, at most
``per_facet`` per group (:class:`~omoide.memory.facets.Facet`) unless the message bears on
a fact, and at most ``max_entries`` in all: a regular with hundreds of disclosures gets a
bounded, well-chosen profile, and the allergy is there when food comes up even if it was
said long ago and the message shares no word with it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from omoide.domain import Fact, Scope
from omoide.errors import InvalidInput
from omoide.memory.facets import FACET_ORDER, Facet, facet_of

PROFILE_SHARE = 0.45
"""The profile's default share of the memory section's token budget."""
CONFIRMATION_FLOOR = 0.7
"""A fact said once counts 0.7 of one confirmed three times or more."""


@dataclass(frozen=True, slots=True)
class ProfileConfig:
    """How large the profile may be and how much the message steers it."""

    share: float = PROFILE_SHARE
    """Of the memory section's token budget; what the profile leaves goes to the rest."""
    max_entries: int = 10
    per_facet: int = 3
    relevance_share: float = 0.5
    relevant_at: float = 0.5
    """A fact at least this relevant to the message is kept whatever its group holds
    (above the lift a cued group gets, so a cue alone never floods the profile)."""

    def __post_init__(self) -> None:
        for name, value in (
            ("share", self.share),
            ("relevance_share", self.relevance_share),
            ("relevant_at", self.relevant_at),
        ):
            if isinstance(value, bool) or not 0.0 <= value <= 1.0:
                raise InvalidInput(f"profile {name} must be in [0, 1] (got {value!r})")
        for name, count in (("max_entries", self.max_entries), ("per_facet", self.per_facet)):
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise InvalidInput(f"profile {name} must be a non-negative integer")


@dataclass(frozen=True, slots=True)
class ProfileEntry:
    """One fact of the profile, the group it shows in, and why it was chosen."""

    fact: Fact
    facet: Facet
    weight: float
    relevance: float
    score: float


@dataclass(frozen=True, slots=True)
class ViewerProfile:
    """The chosen facts, best first, and how many current facts they were chosen from."""

    scope: Scope
    entries: tuple[ProfileEntry, ...]
    total_facts: int
    reserve: tuple[ProfileEntry, ...] = ()
    """The next best facts (as many as the profile holds at most, past its group limits):
    the prompt shows them only in budget nothing else wanted, so an unused budget still
    brings what the viewer told."""

    @property
    def fact_ids(self) -> tuple[str, ...]:
        return tuple(entry.fact.id for entry in self.entries)

    def by_facet(self) -> dict[Facet, list[ProfileEntry]]:
        """The entries grouped in the profile's reading order (empty groups left out)."""
        grouped: dict[Facet, list[ProfileEntry]] = {}
        for facet in FACET_ORDER:
            members = [entry for entry in self.entries if entry.facet is facet]
            if members:
                grouped[facet] = members
        return grouped


def fact_weight(fact: Fact) -> float:
    """Salience x confidence x confirmation, in [0, 1]."""
    confirmations = max(1, fact.confirmation_count)
    confirmed = min(1.0, CONFIRMATION_FLOOR + (1 - CONFIRMATION_FLOOR) * math.log2(confirmations))
    return fact.salience * fact.confidence * confirmed


def build_profile(
    scope: Scope,
    facts: Sequence[Fact],
    *,
    relevance: Mapping[str, float],
    config: ProfileConfig,
) -> ViewerProfile:
    """The profile of ``scope`` from its current ``facts``; ``relevance`` maps fact ids to
    their relevance to the message (absent: 0)."""
    current = [fact for fact in facts if fact.is_current and fact.scope == scope]
    share = config.relevance_share
    candidates = sorted(
        (_entry(fact, relevance.get(fact.id, 0.0), share) for fact in current),
        key=lambda entry: (-entry.score, -entry.fact.recorded_at.timestamp(), entry.fact.id),
    )
    chosen: list[ProfileEntry] = []
    reserve: list[ProfileEntry] = []
    per_facet: Counter[Facet] = Counter()
    said: set[str] = set()
    for entry in candidates:
        full = len(chosen) >= config.max_entries
        if full and len(reserve) >= config.max_entries:
            break
        text = _said(entry)
        if text in said:  # one sentence holding two facts ("a limit", "a dislike") shows once
            continue
        if full or (per_facet[entry.facet] >= config.per_facet and not _bears_on(entry, config)):
            if len(reserve) < config.max_entries:
                reserve.append(entry)
            continue
        chosen.append(entry)
        said.add(text)
        per_facet[entry.facet] += 1
    spare = _unsaid(reserve, said)
    return ViewerProfile(scope, tuple(chosen), len(current), reserve=spare)


def _said(entry: ProfileEntry) -> str:
    return " ".join(entry.fact.text.split()).casefold()


def _bears_on(entry: ProfileEntry, config: ProfileConfig) -> bool:
    return entry.relevance >= config.relevant_at


def _unsaid(entries: Sequence[ProfileEntry], said: set[str]) -> tuple[ProfileEntry, ...]:
    """``entries`` without those saying what a chosen (or earlier) entry says."""
    kept = []
    for entry in entries:
        text = _said(entry)
        if text not in said:
            kept.append(entry)
            said.add(text)
    return tuple(kept)


def _entry(fact: Fact, relevance: float, share: float) -> ProfileEntry:
    weight = fact_weight(fact)
    bounded = min(1.0, max(0.0, relevance))
    score = (1 - share) * weight + share * bounded
    return ProfileEntry(fact, facet_of(fact), weight, bounded, score)
