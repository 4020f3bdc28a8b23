"""Retrieval metrics over one ranked list of unit ids and the set of evidence ids.

* ``recall@k``: the fraction of evidence units in the top k (LoCoMo's official
  ``recall_acc``, which is the same fraction over the retrieved context);
* ``hit@k`` (``recall_any@k`` in LongMemEval): 1 if any evidence unit is in the top k;
* ``all@k`` (``recall_all@k``): 1 if every evidence unit is in the top k;
* ``mrr``: 1 / rank of the first evidence unit, 0 when none was retrieved;
* ``ndcg@k``: binary relevance, ``DCG = rel_1 + sum_{i>=2} rel_i / log2(i)`` as in
  LongMemEval's ``eval_utils.dcg``, divided by the DCG of the ideal list (all evidence
  first).

Every function takes the ranking as a sequence that may hold ids more than once and
counts each id at its first position only.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

K_VALUES = (1, 3, 5, 10)


def distinct(ranking: Iterable[str]) -> list[str]:
    """Ids in order of their first appearance."""
    return list(dict.fromkeys(ranking))


def _check(evidence: frozenset[str] | set[str], k: int) -> None:
    if not evidence:
        raise ValueError("a metric needs at least one evidence id")
    if k < 1:
        raise ValueError(f"k must be at least 1 (got {k})")


def recall_at(ranking: Sequence[str], evidence: frozenset[str], k: int) -> float:
    _check(evidence, k)
    return len(evidence.intersection(distinct(ranking)[:k])) / len(evidence)


def hit_at(ranking: Sequence[str], evidence: frozenset[str], k: int) -> float:
    _check(evidence, k)
    return 1.0 if evidence.intersection(distinct(ranking)[:k]) else 0.0


def all_at(ranking: Sequence[str], evidence: frozenset[str], k: int) -> float:
    _check(evidence, k)
    return 1.0 if evidence.issubset(distinct(ranking)[:k]) else 0.0


def reciprocal_rank(ranking: Sequence[str], evidence: frozenset[str]) -> float:
    _check(evidence, 1)
    for position, unit_id in enumerate(distinct(ranking), start=1):
        if unit_id in evidence:
            return 1.0 / position
    return 0.0


def _dcg(relevances: Sequence[float]) -> float:
    if not relevances:
        return 0.0
    return relevances[0] + sum(
        value / math.log2(position) for position, value in enumerate(relevances[1:], start=2)
    )


def ndcg_at(ranking: Sequence[str], evidence: frozenset[str], k: int) -> float:
    _check(evidence, k)
    relevances = [1.0 if unit_id in evidence else 0.0 for unit_id in distinct(ranking)[:k]]
    ideal = [1.0] * min(len(evidence), k)
    return _dcg(relevances) / _dcg(ideal)


def to_groups(ranking: Sequence[str], group_of: Mapping[str, str]) -> list[str]:
    """A unit ranking as a ranking of their groups (sessions), by first appearance:
    LongMemEval's ``evaluate_retrieval_turn2session`` widens k until k distinct sessions
    are in it, which is the top k of this list."""
    return distinct(group_of[unit_id] for unit_id in ranking)


def score_ranking(
    ranking: Sequence[str], evidence: frozenset[str], ks: Sequence[int] = K_VALUES
) -> dict[str, float]:
    """Every metric of one question, keyed ``recall@5``, ``hit@1``, ``mrr``, ..."""
    scores = {"mrr": reciprocal_rank(ranking, evidence)}
    for k in ks:
        scores[f"recall@{k}"] = recall_at(ranking, evidence, k)
        scores[f"hit@{k}"] = hit_at(ranking, evidence, k)
        scores[f"all@{k}"] = all_at(ranking, evidence, k)
        scores[f"ndcg@{k}"] = ndcg_at(ranking, evidence, k)
    return scores


@dataclass(frozen=True, slots=True)
class QuestionScore:
    """One question's metrics under one system."""

    probe_id: str
    category: str
    scores: Mapping[str, float]


def mean_scores(rows: Sequence[QuestionScore]) -> dict[str, float]:
    """The mean of every metric over ``rows`` (which must share their metric names)."""
    if not rows:
        return {}
    names = list(rows[0].scores)
    return {name: sum(row.scores[name] for row in rows) / len(rows) for name in names}


def by_category(
    rows: Sequence[QuestionScore], *, include: Callable[[str], bool] = lambda _: True
) -> dict[str, dict[str, float]]:
    """Means per category, plus ``"all"`` over the categories ``include`` accepts;
    each entry also carries the question count as ``n``."""
    groups: dict[str, list[QuestionScore]] = defaultdict(list)
    for row in rows:
        groups[row.category].append(row)
    table = {category: mean_scores(members) for category, members in sorted(groups.items())}
    kept = [row for row in rows if include(row.category)]
    table["all"] = mean_scores(kept)
    for category, members in [*groups.items(), ("all", kept)]:
        table[category]["n"] = float(len(members))
    return table
