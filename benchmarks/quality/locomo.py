"""LoCoMo (Maharana et al., ACL 2024): every dialogue turn is one episode; questions name
the turns (``dia_id``) that answer them.

Question categories, as the official code defines them (snap-research/locomo,
``task_eval/evaluate_gpts.py``: category 2 is asked "Use DATE of CONVERSATION to answer with
an approximate date", category 5 is offered "Not mentioned in the conversation";
``task_eval/evaluation.py``: category 1 is scored as a comma-separated list of answers,
category 3 answers carry a ';'-separated rationale; ``task_eval/evaluation_stats.py`` prints
categories in the order 4, 1, 2, 3, 5, the paper's column order single-hop, multi-hop,
temporal, open-domain, adversarial). Category 5 has no true answer; it is reported apart.

Evidence ids are repaired the way the official code does (parentheses dropped) and a little
further: ``"D8:6; D9:17"`` is split, ``"D:11:26"`` read as ``D11:26``. Ids that name no turn
are dropped and counted in the dataset notes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.quality.dataset import Dataset, Haystack, Probe, Unit

CHARACTER_ID = "locomo"
CATEGORY_NAMES: Mapping[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
ADVERSARIAL = CATEGORY_NAMES[5]
QUESTION_DELAY = timedelta(hours=1)
"""Questions are asked this long after the last turn of the conversation."""

_SESSION_KEY = re.compile(r"^session_(\d+)$")
_TIME = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}


def parse_session_time(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` -> 2023-05-08 13:56 UTC (the data has no time zone)."""
    match = _TIME.match(text)
    if match is None:
        raise ValueError(f"unrecognised LoCoMo session time {text!r}")
    hour, minute, half, day, month_name, year = match.groups()
    month = _MONTHS.get(month_name.casefold())
    if month is None:
        raise ValueError(f"unrecognised month in LoCoMo session time {text!r}")
    if not 1 <= int(hour) <= 12 or int(minute) > 59:
        raise ValueError(f"impossible clock time in LoCoMo session time {text!r}")
    hour_of_day = int(hour) % 12 + (12 if half.casefold() == "p" else 0)
    return datetime(int(year), month, int(day), hour_of_day, int(minute), tzinfo=UTC)


def evidence_ids(raw: Sequence[str]) -> list[str]:
    """Every ``D<session>:<turn>`` named in the raw evidence strings, in order, once."""
    found: list[str] = []
    for entry in raw:
        for session, turn in _EVIDENCE.findall(str(entry)):
            found.append(f"D{int(session)}:{int(turn)}")
    return list(dict.fromkeys(found))


def turn_text(turn: Mapping[str, Any]) -> str:
    """What is stored for a turn: the speaker's name, the text, and any shared photo."""
    text = f"{turn['speaker']}: {str(turn.get('text', '')).strip()}"
    caption = str(turn.get("blip_caption") or "").strip()
    if caption:
        text += f" [shares a photo: {caption}]"
    return text


def _sessions(conversation: Mapping[str, Any]) -> list[tuple[int, datetime, list[Any]]]:
    sessions = []
    for key, turns in conversation.items():
        match = _SESSION_KEY.match(key)
        if match is None or not isinstance(turns, list) or not turns:
            continue
        started = parse_session_time(str(conversation[f"{key}_date_time"]))
        sessions.append((int(match.group(1)), started, turns))
    return sorted(sessions, key=lambda session: session[0])


def conversation_units(conversation: Mapping[str, Any]) -> list[Unit]:
    """Every turn in order; turn ``i`` of a session is stamped ``i`` seconds after it starts."""
    units = []
    for number, started, turns in _sessions(conversation):
        for index, turn in enumerate(turns):
            units.append(
                Unit(
                    unit_id=str(turn["dia_id"]),
                    text=turn_text(turn),
                    at=started + timedelta(seconds=index),
                    group=f"S{number}",
                )
            )
    return units


def _probes(
    sample_id: str, questions: Sequence[Mapping[str, Any]], units: Sequence[Unit]
) -> tuple[list[Probe], list[str]]:
    known = {unit.unit_id for unit in units}
    now = max(unit.at for unit in units) + QUESTION_DELAY
    probes, notes = [], []
    for index, question in enumerate(questions):
        named = evidence_ids(question.get("evidence", []))
        evidence = frozenset(item for item in named if item in known)
        for missing in [item for item in named if item not in known]:
            notes.append(f"{sample_id} q{index}: evidence {missing} names no turn (dropped)")
        category = CATEGORY_NAMES.get(int(question["category"]), f"category {question['category']}")
        probes.append(
            Probe(
                probe_id=f"{sample_id}#{index}",
                question=str(question["question"]),
                now=now,
                evidence=evidence,
                category=category,
            )
        )
    return probes, notes


def parse_locomo(samples: Sequence[Mapping[str, Any]]) -> Dataset:
    haystacks, notes = [], []
    for sample in samples:
        sample_id = str(sample["sample_id"])
        units = conversation_units(sample["conversation"])
        probes, sample_notes = _probes(sample_id, sample["qa"], units)
        notes.extend(sample_notes)
        haystacks.append(Haystack(sample_id, "en", tuple(units), tuple(probes)))
    return Dataset("locomo", tuple(haystacks), tuple(notes))


def load_locomo(path: Path) -> Dataset:
    with path.open(encoding="utf-8") as handle:
        samples = json.load(handle)
    return parse_locomo(samples)
