"""Forgetting: an Ebbinghaus retention curve whose stability grows with use.

``retention = exp(-t / stability)``, with ``t`` the days since the memory was last
reinforced (its last recall, else when it was recorded), counted from an injected ``now``.

Stability, in days, grows with importance and with every reinforcement::

    stability = (1 + 10 * importance) * (1 + (count - 1) * 4 / 19)

where ``count`` is how many times the memory was encoded or reinforced: 1 + recalls for an
episode, confirmations + recalls for a fact (a new fact has one confirmation). This matches
the seed's examples importance 0.3 / count 1 -> 4 days, 0.7 / 1 -> 8 days and 0.9 / 20 -> 50
days exactly. Its fourth example, 0.9 / 5 -> 20 days, comes out 18.4 here: the four examples
are not consistent with one another. A sum ``a + b*importance + c*count`` fitted to them needs
a = -1 (from the first three) and a = +1 (from the 0.9 pair); a product of linear functions
``(1 + 10*importance) * (1 + k*(count - 1))`` needs k = 1/4 for count 5 and k = 4/19 for
count 20. The seed's own code (``1 + 10*importance + 2*count``) yields none of the four.
We keep the product form, fitted to the three consistent examples: reinforcement multiplies
the stability importance gives, so important memories gain more from each recall.

The pure part of the decay run lives here; the store-driven loop is
:func:`omoide.memory.decay.run_decay`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from omoide.domain import Episode, Fact, as_utc, check_unit_interval
from omoide.errors import InvalidInput

SECONDS_PER_DAY = 86_400.0
DAYS_PER_IMPORTANCE = 10.0
GROWTH_PER_REINFORCEMENT = 4.0 / 19.0
_SMALLEST_RETENTION = math.ulp(0.0)
"""exp(-t/s) underflows to 0.0 after ~745 stabilities; it is never truly zero."""


def stability_days(importance: float, reinforcements: int) -> float:
    """Days for retention to fall to 1/e; ``reinforcements`` counts the first encoding."""
    check_unit_interval(importance, name="importance")
    if isinstance(reinforcements, bool) or not isinstance(reinforcements, int):
        raise InvalidInput(f"reinforcements must be an integer (got {reinforcements!r})")
    if reinforcements < 1:
        raise InvalidInput(f"reinforcements must be at least 1 (got {reinforcements})")
    by_importance = 1.0 + DAYS_PER_IMPORTANCE * importance
    return by_importance * (1.0 + (reinforcements - 1) * GROWTH_PER_REINFORCEMENT)


def retention(
    *, importance: float, reinforcements: int, last_reinforced_at: datetime, now: datetime
) -> float:
    """Remaining strength in (0, 1]: 1.0 at the moment of reinforcement (or before it)."""
    elapsed = as_utc(now, name="now") - as_utc(last_reinforced_at, name="last_reinforced_at")
    days = max(0.0, elapsed.total_seconds() / SECONDS_PER_DAY)
    strength = math.exp(-days / stability_days(importance, reinforcements))
    return max(_SMALLEST_RETENTION, strength)


def last_reinforced_at(memory: Episode | Fact) -> datetime:
    """When forgetting (and ranking recency) counts from: the last recall, else recording."""
    recalled = memory.last_recalled_at
    if recalled is None:
        return memory.recorded_at
    return max(as_utc(recalled, name="last_recalled_at"), as_utc(memory.recorded_at))


def reinforcements_of(memory: Episode | Fact) -> int:
    """1 + recalls for an episode; confirmations + recalls for a fact (at least 1)."""
    if isinstance(memory, Fact):
        return max(1, memory.confirmation_count) + max(0, memory.recall_count)
    return 1 + max(0, memory.recall_count)


def retention_of(memory: Episode | Fact, now: datetime) -> float:
    """Retention of a stored memory; a fact's importance is its salience."""
    importance = memory.salience if isinstance(memory, Fact) else memory.importance
    return retention(
        importance=importance,
        reinforcements=reinforcements_of(memory),
        last_reinforced_at=last_reinforced_at(memory),
        now=now,
    )


@dataclass(frozen=True, slots=True)
class DecayPolicy:
    """When the decay run archives an episode.

    ``archive_below``: retention under this is archived (the seed's 0.05: about three
    stabilities without a recall). ``keep_importance_at_least``: episodes this important
    are never archived, whatever their retention (``None``: no exemption).
    Archived episodes leave retrieval but stay stored until a purge.
    """

    archive_below: float = 0.05
    keep_importance_at_least: float | None = None

    def __post_init__(self) -> None:
        check_unit_interval(self.archive_below, name="archive_below")
        if self.keep_importance_at_least is not None:
            check_unit_interval(self.keep_importance_at_least, name="keep_importance_at_least")

    def exempts(self, episode: Episode) -> bool:
        floor = self.keep_importance_at_least
        return floor is not None and episode.importance >= floor


def select_for_archive(
    episodes: Sequence[Episode], *, policy: DecayPolicy, now: datetime
) -> list[str]:
    """Ids of the unarchived episodes whose retention at ``now`` is below the threshold.

    Already archived episodes are skipped, and so are those the policy exempts. Order
    follows ``episodes``.
    """
    moment = as_utc(now, name="now")
    return [
        episode.id
        for episode in episodes
        if episode.archived_at is None
        and not policy.exempts(episode)
        and retention_of(episode, moment) < policy.archive_below
    ]
