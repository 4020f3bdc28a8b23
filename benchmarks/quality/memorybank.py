"""MemoryBank (Zhong et al., AAAI 2024): ten days of one user talking to an AI companion,
in English and Chinese, and probing questions asked afterwards.

Each exchange (the user's ``query`` and the companion's ``response``) is one episode.
The probing questions come with no answers and no evidence, so evidence is a lexical
proxy: the exchanges that share the most of the question's content words (omoide's own
keyword analysis, so Chinese is compared by character bigrams; question words and the
language's function words are left out), restricted to the day the question names when it
names one ("On May 4th", "5月4日"). At least half the content words must be shared; when
no exchange shares that many, a question naming a day takes that whole day as evidence, and
any other question has none and is left out (counted).
A proxy built from shared words favours keyword search, so this dataset is a smoke test
of ingestion and retrieval in two languages, not a fair ranking of the systems.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from benchmarks.quality.dataset import Dataset, Haystack, Probe, Unit
from omoide.store.keywords import analyze_document, analyze_query, normalize

CHARACTER_ID = "memorybank"
LANGUAGES = ("en", "cn")
MIN_SHARED_FRACTION = 0.5
EVENING = time(20, 0)
"""Each day's exchanges start at this hour, one minute apart."""

_ENGLISH_STOP_WORDS = frozenset(
    """a an the and or but of to in on at for with about from by as into over after before
    i me my mine you your yours we us our it its is are was were be been am do does did
    have has had will would can could should what which who whom whose when where why how
    that this these those there here some any ever once recently before then again right
    not no yes so very just also too than name names called kind type types some few days
    ago remember remembered recall mention mentioned mentions tell told say said share
    shared talk talked ask asked like""".split()  # noqa: SIM905 (a word block reads better)
)
_CHINESE_STOP_PHRASES = (
    "我曾经",
    "曾经",
    "你还记得",
    "还记得",
    "记得",
    "我们",
    "你给我",
    "给我",
    "和你",
    "跟你",
    "你",
    "我",
    "他",
    "她",
    "它",
    "的",
    "了",
    "过",
    "是",
    "吗",
    "呢",
    "吧",
    "啊",
    "什么",
    "哪些",
    "哪个",
    "哪里",
    "怎么",
    "为什么",
    "名字",
    "这天",
    "那天",
    "当时",
    "一些",
    "一部",
    "一本",
    "一个",
    "一档",
    "有",
    "在",
    "这",
    "那",
    "最近",
    "对吗",
    "提到",
    "分享",
    "告诉",
)
_ENGLISH_MONTHS = {
    name: number
    for number, name in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}
_ENGLISH_DATE = re.compile(
    r"\b(" + "|".join(_ENGLISH_MONTHS) + r")\s+(\d{1,2})(?:st|nd|rd|th)?\b", re.IGNORECASE
)
_CHINESE_DATE = re.compile(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")


def content_tokens(text: str, language: str) -> frozenset[str]:
    """The words that carry a question's content, in omoide's keyword analysis without
    stemming: the evidence stays what it was before omoide stemmed English words, so
    it does not move with the system under test."""
    if language == "cn":
        cleaned = normalize(text)
        for phrase in _CHINESE_STOP_PHRASES:
            cleaned = cleaned.replace(phrase, " ")
        return frozenset(analyze_query(cleaned, stem_words=False))
    return frozenset(
        token for token in analyze_query(text, stem_words=False) if token not in _ENGLISH_STOP_WORDS
    )


def named_day(question: str, year: int) -> date | None:
    """The day a question names ("On May 4th", "在5月4日"), if any."""
    english = _ENGLISH_DATE.search(question)
    if english is not None:
        return date(year, _ENGLISH_MONTHS[english.group(1).casefold()], int(english.group(2)))
    chinese = _CHINESE_DATE.search(question)
    if chinese is not None:
        return date(year, int(chinese.group(1)), int(chinese.group(2)))
    return None


def proxy_evidence(question: str, units: Sequence[Unit], language: str) -> frozenset[str]:
    """Units sharing the most content words with ``question`` (at least half of them)."""
    wanted = content_tokens(question, language)
    if not wanted or not units:
        return frozenset()
    day = named_day(question, units[0].at.year)
    pool = [unit for unit in units if day is None or unit.at.date() == day]
    shared = {
        unit.unit_id: len(
            wanted & set(analyze_document(f"{unit.text}\n{unit.reply}", stem_words=False))
        )
        for unit in pool
    }
    best = max(shared.values(), default=0)
    if best > 0 and best >= MIN_SHARED_FRACTION * len(wanted):
        return frozenset(unit_id for unit_id, count in shared.items() if count == best)
    if day is not None:
        return frozenset(unit.unit_id for unit in pool)  # the day named is the evidence
    return frozenset()


def history_units(history: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[Unit]:
    units = []
    for day_text in sorted(history):
        day = date.fromisoformat(day_text)
        start = datetime.combine(day, EVENING, tzinfo=UTC)
        for index, exchange in enumerate(history[day_text]):
            units.append(
                Unit(
                    unit_id=f"{day_text}#{index}",
                    text=str(exchange.get("query", "")).strip(),
                    reply=str(exchange.get("response", "")).strip(),
                    at=start + timedelta(minutes=index),
                    group=day_text,
                )
            )
    return [unit for unit in units if unit.text]


def parse_memorybank(
    users: Mapping[str, Mapping[str, Any]],
    questions: Mapping[str, Sequence[str]],
    language: str,
) -> Dataset:
    by_name = {name.strip(): user for name, user in users.items()}
    haystacks: list[Haystack] = []
    notes: list[str] = []
    for name, asked in questions.items():
        key = f"{language}-{len(haystacks)}"
        user = by_name.get(name.strip())
        if user is None:
            notes.append(f"{key}: a user of the probing questions has no history")
            continue
        units = history_units(user.get("history", {}))
        now = max(unit.at for unit in units) + timedelta(days=1)
        probes = []
        for index, question in enumerate(asked):
            evidence = proxy_evidence(question, units, language)
            if not evidence:
                notes.append(f"{key} q{index}: no lexical evidence (left out)")
            probes.append(Probe(f"{key}#{index}", question, now, evidence, language))
        haystacks.append(Haystack(key, language, tuple(units), tuple(probes)))
    return Dataset(f"memorybank-{language}", tuple(haystacks), tuple(notes))


def read_questions(path: Path) -> dict[str, list[str]]:
    """``{"name": [question, ...]}`` objects, one per line, merged."""
    merged: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            for name, asked in json.loads(line).items():
                merged.setdefault(str(name), []).extend(str(question) for question in asked)
    return merged


def load_memorybank(folder: Path, language: str) -> Dataset:
    with (folder / f"memory_bank_{language}.json").open(encoding="utf-8") as handle:
        users = json.load(handle)
    questions = read_questions(folder / f"probing_questions_{language}.jsonl")
    return parse_memorybank(users, questions, language)
