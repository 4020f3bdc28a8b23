"""LongMemEval (Wu et al., ICLR 2025), S set: one haystack of ~50 sessions per question.

The official retrieval evaluation (xiaowu0162/LongMemEval, ``src/retrieval/run_retrieval.py``
and ``eval_utils.py``) is followed:

* turn granularity indexes **user turns only**; a turn's id is ``<session id>_<turn index
  + 1>`` where the index counts every turn (user and assistant);
* evidence turns are the user turns marked ``has_answer`` in answer sessions;
* abstention questions (ids ending ``_abs``) are left out of retrieval metrics;
* session metrics come from the turn ranking: sessions in order of their first retrieved
  turn (``evaluate_retrieval_turn2session``); here evidence sessions are
  ``answer_session_ids``.

Each haystack is stamped with its session dates; a question is asked at its
``question_date``. A user turn longer than omoide accepts (8,000 characters) is cut to
that length; empty turns are skipped. Both are counted in the dataset notes.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.quality.dataset import Dataset, Haystack, Probe, Unit
from omoide.domain import MAX_MESSAGE_CHARS
from omoide.text_rules import without_refused

CHARACTER_ID = "longmemeval"
ABSTENTION_SUFFIX = "_abs"
_TIME_FORMAT = "%Y/%m/%d (%a) %H:%M"


def parse_time(text: str) -> datetime:
    """``"2023/05/30 (Tue) 10:18"`` -> 2023-05-30 10:18 UTC."""
    return datetime.strptime(text.strip(), _TIME_FORMAT).replace(tzinfo=UTC)


def is_abstention(question_id: str) -> bool:
    return question_id.endswith(ABSTENTION_SUFFIX)


def turn_unit_id(session_id: str, turn_index: int) -> str:
    """The official turn id: the 1-based position among all turns of the session."""
    return f"{session_id}_{turn_index + 1}"


def session_units(
    session_id: str, started: datetime, turns: Sequence[Mapping[str, Any]]
) -> tuple[list[Unit], set[str], dict[str, int]]:
    """User turns as units (turn ``i`` stamped ``i`` seconds after the session starts),
    the ids of its evidence turns, and counts of repaired turns. Control characters omoide
    refuses (``omoide.text_rules``: a few turns past the first 40 questions hold U+0002)
    are dropped."""
    units: list[Unit] = []
    evidence: set[str] = set()
    repairs = {"cut": 0, "empty": 0}
    for index, turn in enumerate(turns):
        if turn.get("role") != "user":
            continue
        text = without_refused(str(turn.get("content", "")))
        if not text.strip():
            repairs["empty"] += 1
            continue
        if len(text) > MAX_MESSAGE_CHARS:
            repairs["cut"] += 1
            text = text[:MAX_MESSAGE_CHARS]
        unit_id = turn_unit_id(session_id, index)
        units.append(Unit(unit_id, text, started + timedelta(seconds=index), session_id))
        if turn.get("has_answer") is True and "answer" in session_id:
            evidence.add(unit_id)
    return units, evidence, repairs


def parse_item(item: Mapping[str, Any]) -> tuple[Haystack, dict[str, int]]:
    """One question and its haystack; units in chronological session order."""
    sessions = sorted(
        zip(
            item["haystack_session_ids"],
            item["haystack_dates"],
            item["haystack_sessions"],
            strict=True,
        ),
        key=lambda session: parse_time(session[1]),
    )
    units: list[Unit] = []
    evidence: set[str] = set()
    totals: dict[str, int] = defaultdict(int)
    for session_id, date, turns in sessions:
        found, answers, repairs = session_units(str(session_id), parse_time(date), turns)
        units.extend(found)
        evidence |= answers
        for name, count in repairs.items():
            totals[name] += count
    question_id = str(item["question_id"])
    probe = Probe(
        probe_id=question_id,
        question=str(item["question"]),
        now=parse_time(item["question_date"]),
        evidence=frozenset(evidence),
        category=str(item["question_type"]),
        evidence_groups=frozenset(str(session) for session in item["answer_session_ids"]),
    )
    return Haystack(question_id, "en", tuple(units), (probe,)), dict(totals)


def stratified_order(items: Sequence[Mapping[str, Any]]) -> list[str]:
    """Question ids interleaved by question type (file order within a type), so any prefix
    of the list is a sample in which every type is represented about equally."""
    by_type: dict[str, list[str]] = defaultdict(list)
    for item in items:
        by_type[str(item["question_type"])].append(str(item["question_id"]))
    queues = [by_type[name] for name in sorted(by_type)]
    ordered: list[str] = []
    while any(queues):
        for queue in queues:
            if queue:
                ordered.append(queue.pop(0))
    return ordered


def parse_longmemeval(items: Sequence[Mapping[str, Any]], *, limit: int | None) -> Dataset:
    """Non-abstention questions, the first ``limit`` of :func:`stratified_order`."""
    answerable = [item for item in items if not is_abstention(str(item["question_id"]))]
    chosen = stratified_order(answerable)
    if limit is not None:
        chosen = chosen[:limit]
    by_id = {str(item["question_id"]): item for item in answerable}
    haystacks, totals = [], {"cut": 0, "empty": 0}
    for question_id in chosen:
        haystack, repairs = parse_item(by_id[question_id])
        haystacks.append(haystack)
        for name, count in repairs.items():
            totals[name] += count
    notes = (
        f"{len(items) - len(answerable)} abstention questions left out (official protocol)",
        f"{totals['cut']} user turns cut to {MAX_MESSAGE_CHARS} characters",
        f"{totals['empty']} empty user turns skipped",
    )
    return Dataset("longmemeval", tuple(haystacks), notes)


def load_longmemeval(
    path: Path, *, limit: int | None, question_ids: Sequence[str] | None = None
) -> Dataset:
    """Read the gzip (or plain) JSON list; ``question_ids`` keeps only those questions."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        items: list[Mapping[str, Any]] = json.load(handle)
    if question_ids is not None:
        wanted = set(question_ids)
        items = [item for item in items if str(item["question_id"]) in wanted]
    return parse_longmemeval(items, limit=limit)


def read_split(path: Path) -> list[str]:
    """Question ids of a split file, one per line."""
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
