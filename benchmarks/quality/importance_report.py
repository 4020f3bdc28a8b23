"""How importance separates what a viewer tells about themselves from small talk.

``python -m benchmarks.quality.importance_report`` scores, as the write path does (the
viewer's emotion read from their words, then :func:`score_by_rules`):

* the labelled lines of ``tests/memory/importance_texts.py`` (disclosures and small talk in
  ko/ja/zh/en), the half the rules were tuned on and the held-out half separately;
* MemoryBank (en, cn; MIT, read in place): the user's messages that a later probing
  question asks about (the loader's lexical evidence) against all the others. MemoryBank's
  users talk to an assistant about themselves nearly all the time, so both of its groups
  are mostly disclosures: the point is that they score as such, not that they separate.

It prints a Markdown table: count, mean, p10, p50, p90 per group and the share stored at
the default threshold (0.3).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence

from benchmarks.quality.dataset import data_root
from benchmarks.quality.memorybank import load_memorybank
from omoide.character.emotion_reading import read_emotion
from omoide.memory.importance import score_by_rules
from tests.memory.importance_texts import (
    DISCLOSURES,
    LANGUAGES,
    SMALL_TALK,
    held_out_half,
    tuning_half,
)

STORE_THRESHOLD = 0.3


def score(text: str) -> float:
    """The rule importance of a viewer's message, its feeling read as the write path does."""
    reading = read_emotion(text)
    intensity = reading.intensity if reading is not None else 0.0
    return score_by_rules(text, "", emotion_intensity=intensity).score


def row(name: str, texts: Sequence[str]) -> str:
    scores = sorted(score(text) for text in texts)
    deciles = statistics.quantiles(scores, n=10, method="inclusive")
    stored = sum(1 for value in scores if value >= STORE_THRESHOLD) / len(scores)
    numbers = [statistics.fmean(scores), deciles[0], statistics.median(scores), deciles[-1]]
    cells = " | ".join(f"{value:.2f}" for value in numbers)
    return f"| {name} | {len(scores)} | {cells} | {stored:.0%} |"


def labelled_rows() -> Iterable[str]:
    for label, half in (("tuning", tuning_half), ("held-out", held_out_half)):
        for language in LANGUAGES:
            yield row(f"{language} disclosures ({label})", half(DISCLOSURES[language]))
            yield row(f"{language} small talk ({label})", half(SMALL_TALK[language]))


def memorybank_rows() -> Iterable[str]:
    folder = data_root() / "memorybank"
    if not folder.is_dir():
        yield f"| MemoryBank not found in {folder} | | | | | | |"
        return
    for language in ("en", "cn"):
        dataset = load_memorybank(folder, language)
        asked: list[str] = []
        other: list[str] = []
        for haystack in dataset.haystacks:
            evidence = {unit for probe in haystack.probes for unit in probe.evidence}
            for unit in haystack.units:
                (asked if unit.unit_id in evidence else other).append(unit.text)
        yield row(f"MemoryBank {language}: asked about later", asked)
        yield row(f"MemoryBank {language}: the other messages", other)


def report() -> str:
    header = [
        "| group | n | mean | p10 | p50 | p90 | stored |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    return "\n".join([*header, *labelled_rows(), *memorybank_rows()])


if __name__ == "__main__":
    print(report())
