"""Disclosures a message calls up by association, not by resemblance.

A friend hears "heading out for a walk" and asks after the dog; hears "what should I
order tonight" and remembers the shellfish allergy. The message shares no word and little
meaning with what the viewer told weeks ago, so the told thing ranks below the relevance
floor among the searched candidates. The viewer profile catches such a thing when it was
learned as a fact (:mod:`omoide.memory.facet_cues`); when it was not (a shape no rule
reads), the exchange itself is still there. Here a candidate exchange is lifted to a
modest relevance when

* the viewer disclosed something in it (its importance is at least ``min_importance``:
  small talk scores about 0.3, disclosures about 0.6, docs/benchmarks.md);
* it is about a part of the profile the message cues: the message's cue words
  (:func:`cued_facets`) meet the exchange's own (its cue words, or a word naming a pet, a
  relative, a health limit, work, an event, ... :func:`told_kinds`; read when it was
  stored, :mod:`.episode_readings`);
* it is not already more relevant than the lift;
* it is the latest told exchange about what it is mainly about (its first group in the
  profile's order), cued or not: what was said last about a job, a trip or a date holds,
  not the plan or the slip it replaced.

At most ``limit`` exchanges are lifted, the most relevant first (then the closest in
meaning, then the latest: never by id), and the lift stays low,
so whatever the message really matches ranks above them: they fill room the section
would otherwise leave empty. Nothing is lifted for a message that cues nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from omoide.domain import Episode
from omoide.memory.episode_readings import told_facets
from omoide.memory.facets import FACET_ORDER, Facet
from omoide.memory.ranking import Relevance


@dataclass(frozen=True, slots=True)
class AssociationConfig:
    """How many exchanges may be lifted, to what relevance, and which count as told."""

    limit: int = 2
    relevance: float = 0.2
    """Twice the prompt's default relevance floor: in, below anything matched."""
    min_importance: float = 0.5


def lift_associated(
    relevance: Mapping[str, Relevance],
    episodes: Mapping[str, Episode],
    cued: frozenset[Facet],
    *,
    config: AssociationConfig,
) -> dict[str, Relevance]:
    """``relevance`` with at most ``config.limit`` told exchanges of a cued group lifted to
    ``config.relevance`` (marked ``associated``); every other entry unchanged."""
    lifted = dict(relevance)
    if not cued or config.limit <= 0:
        return lifted
    latest: dict[Facet, tuple[str, Episode, frozenset[Facet]]] = {}
    for item_id in relevance:  # the latest told exchange about each group, whatever is cued
        episode = episodes.get(item_id)
        if episode is None or episode.importance < config.min_importance:
            continue
        about = told_facets(episode)
        if not about:
            continue
        facet = min(about, key=FACET_ORDER.index)
        held = latest.get(facet)
        if held is None or episode.recorded_at > held[1].recorded_at:
            latest[facet] = (item_id, episode, about)
    chosen = {
        item_id
        for item_id, _episode, about in latest.values()
        if relevance[item_id].value < config.relevance and cued & about
    }

    def closeness(item_id: str) -> tuple[float, float, float, float]:
        score = relevance[item_id]
        moment = episodes[item_id].recorded_at.timestamp()
        return (-score.value, -(score.cosine or 0.0), -(score.bm25 or 0.0), -moment)

    for item_id in sorted(chosen, key=closeness)[: config.limit]:
        lifted[item_id] = replace(relevance[item_id], value=config.relevance, associated=True)
    return lifted
