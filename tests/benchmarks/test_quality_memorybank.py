"""MemoryBank's lexical evidence proxy, on synthetic histories in English and Chinese."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from benchmarks.quality.memorybank import (
    content_tokens,
    history_units,
    load_memorybank,
    named_day,
    proxy_evidence,
)

HISTORY_EN = {
    "2023-05-02": [
        {"query": "I watched a science fiction movie called Star Road", "response": "Cool!"},
        {"query": "I also cooked pasta", "response": "Yum"},
    ],
    "2023-05-01": [{"query": "Hello there", "response": "Hi, how are you?"}],
}
HISTORY_CN = {
    "2023-05-04": [
        {"query": "今天我去了博物馆看恐龙展览", "response": "真有趣"},
        {"query": "晚上吃了火锅", "response": "好吃吗"},
    ]
}


def test_content_tokens_drop_question_words() -> None:
    assert content_tokens("What science fiction movie did I mention?", "en") == {
        "science",
        "fiction",
        "movie",
    }
    tokens = content_tokens("我曾经去过什么博物馆？", "cn")
    assert "博物" in tokens and "物馆" in tokens
    assert not any("曾" in token or "什" in token for token in tokens)


def test_named_days_in_both_languages() -> None:
    assert named_day("On May 4th, what did I do?", 2023) == date(2023, 5, 4)
    assert named_day("我在5月4日做了什么？", 2023) == date(2023, 5, 4)
    assert named_day("我4月30号为什么难过？", 2023) == date(2023, 4, 30)
    assert named_day("What did I do?", 2023) is None


def test_evidence_is_the_best_lexical_match() -> None:
    units = history_units(HISTORY_EN)
    assert [unit.unit_id for unit in units] == ["2023-05-01#0", "2023-05-02#0", "2023-05-02#1"]
    found = proxy_evidence("Which science fiction movie did I watch?", units, "en")
    assert found == {"2023-05-02#0"}


def test_a_named_day_without_a_lexical_match_takes_the_whole_day() -> None:
    units = history_units(HISTORY_EN)
    assert proxy_evidence("On May 2nd, how was I feeling?", units, "en") == {
        "2023-05-02#0",
        "2023-05-02#1",
    }
    assert proxy_evidence("How was I feeling?", units, "en") == frozenset()


def test_chinese_evidence_by_bigrams() -> None:
    units = history_units(HISTORY_CN)
    assert proxy_evidence("我曾经在博物馆看了什么展览？", units, "cn") == {"2023-05-04#0"}


def test_load_matches_users_by_trimmed_name(tmp_path: Path) -> None:
    users = {" Ann ": {"name": "Ann", "history": HISTORY_EN}}
    (tmp_path / "memory_bank_en.json").write_text(json.dumps(users), encoding="utf-8")
    (tmp_path / "probing_questions_en.jsonl").write_text(
        json.dumps({"Ann": ["Which science fiction movie did I watch?", "Why?"]}) + "\n",
        encoding="utf-8",
    )
    dataset = load_memorybank(tmp_path, "en")
    (haystack,) = dataset.haystacks
    assert len(haystack.units) == 3
    assert [bool(probe.evidence) for probe in haystack.probes] == [True, False]
    assert len(dataset.notes) == 1
    assert all(probe.now.date() == date(2023, 5, 3) for probe in haystack.probes)
