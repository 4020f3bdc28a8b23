"""The loaders on small synthetic inputs written by the tests (never the licensed data)."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from benchmarks.quality.context import context_dataset
from benchmarks.quality.dataset import DATA_ENVIRONMENT_VARIABLE, REPOSITORY_ROOT, data_root
from benchmarks.quality.locomo import (
    evidence_ids,
    load_locomo,
    parse_locomo,
    parse_session_time,
    turn_text,
)
from benchmarks.quality.longmemeval import (
    load_longmemeval,
    parse_longmemeval,
    parse_time,
    read_split,
    stratified_order,
)
from omoide.domain import MAX_MESSAGE_CHARS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("12:21 am on 27 June, 2023", datetime(2023, 6, 27, 0, 21, tzinfo=UTC)),
        ("12:05 pm on 1 January 2024", datetime(2024, 1, 1, 12, 5, tzinfo=UTC)),
        ("9:00 AM on 30 Sept, 2022", datetime(2022, 9, 30, 9, 0, tzinfo=UTC)),
    ],
)
def test_locomo_session_times_parse_to_utc(text: str, expected: datetime) -> None:
    assert parse_session_time(text) == expected


@pytest.mark.parametrize("text", ["yesterday", "25:00 pm on 1 May, 2023", "1:00 pm on 1 Mai, 2023"])
def test_locomo_refuses_unknown_times(text: str) -> None:
    with pytest.raises(ValueError):
        parse_session_time(text)


def test_locomo_evidence_ids_are_repaired_and_deduplicated() -> None:
    raw = ["D8:6; D9:17", "(D1:3)", "D:11:26", "D1:3", "D", "D02:4"]
    assert evidence_ids(raw) == ["D8:6", "D9:17", "D1:3", "D11:26", "D2:4"]


def test_locomo_turn_text_names_the_speaker_and_the_photo() -> None:
    assert turn_text({"speaker": "Ana", "text": " Hi! "}) == "Ana: Hi!"
    shown = turn_text({"speaker": "Bo", "text": "Look", "blip_caption": "a red kite"})
    assert shown == "Bo: Look [shares a photo: a red kite]"


def locomo_sample(sample_id: str = "conv-x") -> dict[str, Any]:
    return {
        "sample_id": sample_id,
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Bo",
            "session_2_date_time": "10:00 am on 3 March, 2023",
            "session_2": [{"speaker": "Ana", "dia_id": "D2:1", "text": "Later chat"}],
            "session_1_date_time": "9:30 pm on 1 March, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat"},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Nice", "blip_caption": "a cat"},
            ],
            "session_3_date_time": "1:00 pm on 4 March, 2023",
            "session_3": [],
        },
        "qa": [
            {
                "question": "What did Ana adopt?",
                "answer": "a cat",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {"question": "When?", "answer": "1 March", "evidence": ["D1:1", "D7:7"], "category": 2},
            {"question": "Trick?", "adversarial_answer": "x", "evidence": ["D2:1"], "category": 5},
        ],
    }


def test_locomo_turns_are_units_in_session_order_with_rising_seconds() -> None:
    dataset = parse_locomo([locomo_sample()])
    (haystack,) = dataset.haystacks
    assert [unit.unit_id for unit in haystack.units] == ["D1:1", "D1:2", "D2:1"]
    first, second, third = haystack.units
    assert first.at == datetime(2023, 3, 1, 21, 30, tzinfo=UTC)
    assert second.at == first.at + timedelta(seconds=1)
    assert third.at == datetime(2023, 3, 3, 10, 0, tzinfo=UTC)
    assert [unit.group for unit in haystack.units] == ["S1", "S1", "S2"]
    assert second.text == "Bo: Nice [shares a photo: a cat]"


def test_locomo_questions_keep_known_evidence_and_name_categories() -> None:
    dataset = parse_locomo([locomo_sample()])
    probes = dataset.haystacks[0].probes
    assert [probe.category for probe in probes] == ["single-hop", "temporal", "adversarial"]
    assert probes[1].evidence == frozenset({"D1:1"})
    assert any("D7:7" in note for note in dataset.notes)
    assert all(probe.now > datetime(2023, 3, 3, 10, 0, tzinfo=UTC) for probe in probes)


def test_locomo_loads_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([locomo_sample("a"), locomo_sample("b")]), encoding="utf-8")
    dataset = load_locomo(path)
    assert [haystack.key for haystack in dataset.haystacks] == ["a", "b"]
    assert dataset.unit_count == 6 and dataset.probe_count == 6


def lme_item(question_id: str, question_type: str = "single-session-user") -> dict[str, Any]:
    return {
        "question_id": question_id,
        "question_type": question_type,
        "question": "Where did I go?",
        "answer": "Kyoto",
        "question_date": "2023/05/30 (Tue) 10:18",
        "haystack_session_ids": ["answer_s1", "s0"],
        "haystack_dates": ["2023/05/20 (Sat) 07:47", "2023/05/01 (Mon) 08:00"],
        "answer_session_ids": ["answer_s1"],
        "haystack_sessions": [
            [
                {"role": "user", "content": "I went to Kyoto", "has_answer": True},
                {"role": "assistant", "content": "Lovely!", "has_answer": True},
                {"role": "user", "content": "x" * (MAX_MESSAGE_CHARS + 5), "has_answer": False},
            ],
            [
                {"role": "user", "content": "   "},
                {"role": "assistant", "content": "Hello"},
                {"role": "user", "content": "Unrelated", "has_answer": True},
            ],
        ],
    }


def test_longmemeval_indexes_user_turns_with_official_ids() -> None:
    dataset = parse_longmemeval([lme_item("q1")], limit=None)
    (haystack,) = dataset.haystacks
    assert [unit.unit_id for unit in haystack.units] == ["s0_3", "answer_s1_1", "answer_s1_3"]
    assert len(haystack.units[-1].text) == MAX_MESSAGE_CHARS
    (probe,) = haystack.probes
    assert probe.evidence == frozenset({"answer_s1_1"})
    assert probe.evidence_groups == frozenset({"answer_s1"})
    assert probe.now == parse_time("2023/05/30 (Tue) 10:18")
    assert haystack.units[1].at == datetime(2023, 5, 20, 7, 47, tzinfo=UTC)
    assert haystack.units[2].at == datetime(2023, 5, 20, 7, 47, 2, tzinfo=UTC)
    assert f"1 user turns cut to {MAX_MESSAGE_CHARS} characters" in dataset.notes
    assert "1 empty user turns skipped" in dataset.notes


def test_longmemeval_leaves_out_abstention_and_samples_by_type() -> None:
    items = [
        lme_item("a1", "temporal"),
        lme_item("a2", "temporal"),
        lme_item("b1", "multi"),
        lme_item("x_abs", "multi"),
        lme_item("c1", "update"),
    ]
    assert stratified_order([item for item in items if item["question_id"] != "x_abs"]) == [
        "b1",
        "a1",
        "c1",
        "a2",
    ]
    dataset = parse_longmemeval(items, limit=3)
    assert [haystack.key for haystack in dataset.haystacks] == ["b1", "a1", "c1"]
    assert dataset.notes[0].startswith("1 abstention")


def test_longmemeval_reads_gzip_and_the_split(tmp_path: Path) -> None:
    path = tmp_path / "lme.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump([lme_item("q1"), lme_item("q2")], handle)
    split = tmp_path / "split.txt"
    split.write_text("q2\n\n", encoding="utf-8")
    dataset = load_longmemeval(path, limit=None, question_ids=read_split(split))
    assert [haystack.key for haystack in dataset.haystacks] == ["q2"]


def test_data_root_prefers_the_environment(tmp_path: Path) -> None:
    assert data_root({DATA_ENVIRONMENT_VARIABLE: str(tmp_path)}) == tmp_path
    assert data_root({}) == REPOSITORY_ROOT.parent / "shared" / "data"


def test_context_pairs_each_turn_with_the_previous_turn_of_its_session() -> None:
    dataset = context_dataset(parse_locomo([locomo_sample()]))
    assert dataset.name == "locomo-context"
    first, second, third = dataset.haystacks[0].units
    assert (first.reply, second.reply, third.reply) == ("", first.text, "")
    assert second.unit_id == "D1:2"


def test_longmemeval_drops_control_characters_omoide_refuses() -> None:
    item = lme_item("q1")
    item["haystack_sessions"][0][0]["content"] = "I went\x02 to Kyoto"
    (haystack,) = parse_longmemeval([item], limit=None).haystacks
    assert haystack.units[1].text == "I went to Kyoto"
