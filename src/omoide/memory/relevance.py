"""How similar a fact must be to a message to count as related, per embedding model.

The prompt should carry only facts that bear on the current message (talking about
Deadlock brings "likes Deadlock", not "comes when tired"). Cosine similarities sit on
model-specific ranges (USE puts unrelated text near 0.1, e5 near 0.8), so the floor is
calibrated: statements of the built-in calibration set are embedded, every statement is
compared as a query with the facts of *other* pairs (unrelated by construction), and the
floors are quantiles of those unrelated similarities. The result depends only on
the model and the set, so it is cached in a JSON file next to the store.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path

import anyio
import numpy as np

from omoide.embed.base import Embedder
from omoide.embed.calibration import CALIBRATION_SET_ID
from omoide.embed.calibration_pairs import DIFFERENT_FACT_PAIRS, PARAPHRASE_PAIRS
from omoide.memory.ranking import KEYWORD_HALF, RelevanceScale

logger = logging.getLogger(__name__)

FACT_QUANTILE = 0.5
EPISODE_QUANTILE = 0.9
SCALE_QUANTILE = 0.75
MINIMUM_SPREAD = 0.05
"""The related level stays at least this far above the floor (a degenerate model)."""
SCALE_VERSION = 3
"""Bumped when the cached entry's fields change (2: ``related``; 3: ``unrelated_high``)."""


@dataclass(frozen=True, slots=True)
class RelevanceFloor:
    """Similarity floors of one model.

    ``facts``: the median similarity of unrelated statements. Facts are few and short, and
    typed cues add more, so a permissive floor suits them. ``episodes``: the 90th
    percentile. A viewer has many episodes and the prompt has room for few, so only
    clearly related ones enter on meaning alone (shared words still admit any).
    """

    model_name: str
    facts: float
    episodes: float
    unrelated_mean: float
    unrelated_count: int
    related: float
    """The median similarity of paraphrases: where meaning says "the same thing"."""
    unrelated_high: float
    """The 75th percentile of unrelated similarities: where relevance starts."""

    def scale(self, *, keyword_half: float = KEYWORD_HALF) -> RelevanceScale:
        """The absolute relevance scale of this model: 0 at the 75th percentile of
        unrelated statements' similarities, 1 at the paraphrases' median (chosen on the
        dev halves of the quality benchmarks among the 50th, 75th and 90th)."""
        return RelevanceScale(
            cosine_unrelated=self.unrelated_high,
            cosine_related=self.related,
            keyword_half=keyword_half,
        )


async def calibrate_relevance_floor(embedder: Embedder) -> RelevanceFloor:
    pairs = [*PARAPHRASE_PAIRS, *DIFFERENT_FACT_PAIRS]
    queries = np.stack([await embedder.embed_query(first) for first, _ in pairs])
    facts = await embedder.embed_documents([second for _, second in pairs])
    similarities = queries @ facts.T
    unrelated = similarities[~np.eye(len(pairs), dtype=bool)].astype(np.float64)
    facts, high, episodes = np.quantile(
        unrelated, [FACT_QUANTILE, SCALE_QUANTILE, EPISODE_QUANTILE]
    )
    paraphrases = np.diagonal(similarities)[: len(PARAPHRASE_PAIRS)].astype(np.float64)
    return RelevanceFloor(
        model_name=embedder.model_name,
        facts=float(facts),
        episodes=float(episodes),
        unrelated_mean=float(unrelated.mean()),
        unrelated_count=int(unrelated.size),
        related=max(float(np.median(paraphrases)), float(episodes) + MINIMUM_SPREAD),
        unrelated_high=float(high),
    )


async def cached_relevance_floor(
    embedder: Embedder, path: Path, *, queries: str = "plain"
) -> RelevanceFloor:
    """The floor for ``embedder``, computed once per model, calibration set and kind of
    query vector (``queries``: "plain", or which centring: :mod:`omoide.embed.centring`)."""
    key = (
        f"{embedder.model_name}|{CALIBRATION_SET_ID}|q{FACT_QUANTILE}|q{EPISODE_QUANTILE}"
        f"|v{SCALE_VERSION}|{queries}"
    )
    entries = await anyio.to_thread.run_sync(_read, path)
    cached = entries.get(key)
    if isinstance(cached, dict):
        try:
            return RelevanceFloor(**cached)
        except TypeError:
            logger.warning("ignoring a malformed relevance floor entry in %s", path)
    result = await calibrate_relevance_floor(embedder)
    entries[key] = asdict(result)
    await anyio.to_thread.run_sync(_write, path, entries)
    return result


def _read(path: Path) -> dict[str, object]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        logger.warning("recomputing relevance floors: cannot read %s (%s)", path, exc)
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _write(path: Path, entries: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(entries, indent=2, sort_keys=True), encoding="utf-8")
    temporary.replace(path)
