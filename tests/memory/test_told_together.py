"""Facts read from one sentence, moves told by the time since arriving, and corrections
said as "the one before was wrong": each replaces what it should, and only that."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Episode, Fact, FactCategory, Scope, TrustState
from omoide.memory.extraction.decisions import decide
from omoide.memory.extraction.rules import find_facts
from omoide.memory.extraction.values import FactCandidate, FactDecision
from omoide.memory.facts.batch import BatchTurn, decide_batch
from omoide.memory.facts.text import typed_apart
from omoide.memory.facts.updates import new_fact
from omoide.memory.reply_finding import outdated_sources
from omoide.store.base import CurrentFacts
from omoide.wiring import build

SCOPE = Scope("haru", "jiho")
START = datetime(2025, 3, 1, 20, tzinfo=UTC)


def facts_of(message: str, day: int) -> list[Fact]:
    """Every fact the rules read in ``message``, as stored ``day`` days after START."""
    at = START + timedelta(days=day)
    return [new_fact(SCOPE, candidate, (), at) for candidate in find_facts(message)]


def ended_or_updated(decisions: list[FactDecision]) -> set[str]:
    return {
        decision.target_fact_id
        for decision in decisions
        if decision.action in {"update", "end"} and decision.target_fact_id is not None
    }


def test_a_correction_ends_every_fact_read_from_the_words_it_corrects() -> None:
    told = facts_of("아 그리고 내 생일 7월 3일임ㅋㅋ 기억해줘야돼", 0)
    assert len(told) == 2  # a birthday and the plan of it, from the same words
    home = facts_of("인천 살아요", 1)
    correction = find_facts("헐 잠깐만 나 저번에 생일 잘못 말했어 8월 3일이야!!")
    assert ended_or_updated(decide(correction, [*told, *home])) == {fact.id for fact in told}


def test_a_plan_that_changes_leaves_the_birthday_it_is_for() -> None:
    told = facts_of("my birthday is july 3rd", 0)
    assert sorted(fact.slot or "" for fact in told) == ["birthday", "plan:birthday"]
    moved = find_facts("my birthday party got moved to july 5th")
    (birthday,) = [fact for fact in told if fact.slot == "birthday"]
    assert birthday.id not in ended_or_updated(decide(moved, told))


def test_a_home_and_a_job_read_from_one_sentence_are_two_facts_a_move_ends_both() -> None:
    both = facts_of("대전 사는 직장인입니다", 0)
    assert sorted(fact.slot or "" for fact in both) == ["home", "job"]
    assert typed_apart("home", "job") and not typed_apart("home", "home")
    assert not typed_apart("told_said:a", "home") and not typed_apart(None, "job")
    sister = facts_of("여동생이 대전에서 결혼해요", 2)
    move = find_facts("광주 와서 첫주ㅋㅋ 상무지구 근처 원룸 잡았는데 아직 박스도 다 못풀었어요")
    (home,) = [fact for fact in both if fact.slot == "home"]
    decisions = decide(move, [*both, *sister])
    assert [d.action for d in decisions if d.target_fact_id == home.id] == ["update"]
    # the job fact names the city left, so it is of the old home; the sister's is hers
    assert ended_or_updated(decisions) == {fact.id for fact in both}


@pytest.mark.parametrize(
    ("message", "place"),
    [
        ("광주 와서 첫주ㅋㅋ 상무지구 근처 원룸 잡았는데", "광주"),
        ("부산 내려온 지 한 달 됐는데 아직 길을 모름", "부산"),
        ("福岡来て一週間！博多駅でかすぎて迷子ww", "福岡"),
        ("来成都一个月了，火锅吃到胃疼", "成都"),
        ("first week in portland. i bought a raincoat", "portland"),
        ("first few months in glasgow have been grey", "glasgow"),
    ],
)
def test_the_time_since_arriving_tells_where_the_viewer_lives(message: str, place: str) -> None:
    homes = [fact for fact in find_facts(message) if fact.slot == "home"]
    assert [fact.terms for fact in homes] == [(place,)]


@pytest.mark.parametrize(
    "message",
    [
        "제주 와서 첫날 너무 좋다",  # a first day somewhere: a trip as often as a move
        "집에 와서 첫주는 잠만 잤다",
        "会社に来て一週間、まだ慣れない",
        "来公司一周了，同事都挺好",
        "first night in tokyo!!",
        "first week in the new office is done",
        "first month in ranked and i'm hardstuck",
        "출장 와서 2주째 호텔 생활",
        "여행 와서 일주일째 너무 좋다",
        "出張に来て一週間、もう帰りたい",
        "来北京出差一周了，好想回家",
        "来三亚玩一周了",
        "first week in rehab, it's hard",
        "first month in diamond lets go",
    ],
)
def test_arriving_at_work_home_or_for_a_night_is_no_new_home(message: str) -> None:
    assert [fact for fact in find_facts(message) if fact.slot == "home"] == []


def test_saying_the_one_before_was_a_mistake_corrects_it() -> None:
    exam = facts_of("来月TOEIC受けるんだけどリスニング無理すぎる", 0)
    correction = find_facts("あ、ごめんさっきの間違い！受けるの英検の準1級だったw")
    assert [candidate.corrects for candidate in correction] == [True]
    assert ended_or_updated(decide(correction, exam)) == {fact.id for fact in exam}
    for message in (
        "英検の準1級受けるのは間違いない",
        "さっきのは間違いじゃないよ、来月TOEIC受ける",
        "名前の間違いが多い仕事で疲れた、最近ギター始めた",
        "この前の間違い電話、実は元彼からだった",
    ):
        assert not any(candidate.corrects for candidate in find_facts(message)), message


def test_the_batch_path_keeps_two_facts_typed_apart_whose_words_are_alike() -> None:
    home, job = (
        FactCandidate("대전 사는 직장인", FactCategory.PERSONAL, 0.75, 0.7, TrustState.STATED, slot)
        for slot in ("home", "job")
    )
    vector = np.full(4, 0.5, dtype=np.float32)
    turn = BatchTurn(
        Episode("e1", SCOPE, "대전 사는 직장인", "", START, 0.8),
        (home, job),
        {"대전 사는 직장인": vector},
    )
    empty = CurrentFacts((), np.zeros((0, 4), dtype=np.float32))
    decided = decide_batch([turn], {SCOPE: empty}, duplicate_threshold=0.99)
    assert [[change.action for change in changes] for changes in decided.changes] == [
        ["add", "add"]
    ]


@pytest.mark.anyio
async def test_a_stored_sentence_keeps_its_home_and_its_job(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="hashing")
    app = await build(settings, clock=FixedClock(START + timedelta(days=1)))
    try:
        await app.memory.store_interaction(
            SCOPE, "대전 사는 직장인입니다", "반가워요!", timestamp=START
        )
        facts = await app.memory.list_facts(SCOPE)
        assert sorted(fact.slot or "" for fact in facts) == ["home", "job"]
    finally:
        await app.aclose()


def stored(fact_id: str, text: str, sources: tuple[str, ...], **changes: object) -> Fact:
    fact = Fact(
        fact_id, SCOPE, text, FactCategory.PERSONAL, 0.75, 0.7, START, START,
        source_episode_ids=sources,
    )  # fmt: skip
    return replace(fact, **changes)  # type: ignore[arg-type]


def test_an_exchange_that_told_something_replaced_is_not_offered_beside_what_holds() -> None:
    facts = [
        stored("home", "lives in Denver", ("e1",), superseded_at=START + timedelta(days=9)),
        stored("dog", "has a dog named Max", ("e1",)),  # still holds: the profile keeps it
        stored("austin", "moved to Austin", ("e2",), supersedes="home"),
        stored("cat", "likes cats", ("e3",)),
    ]
    assert outdated_sources(facts) == frozenset({"e1"})


def test_an_exchange_that_only_said_a_replaced_fact_again_is_still_offered() -> None:
    # "my grandma passed away, I work at Starbucks so I couldn't leave early": the job was
    # confirmed there, told first elsewhere; the grief is what the exchange is about
    facts = [
        stored("job", "works at Starbucks", ("e1", "e2"), superseded_at=START + timedelta(days=9)),
        stored("bakery", "works at a bakery", ("e3",), supersedes="job"),
    ]
    assert outdated_sources(facts) == frozenset({"e1"})


def test_an_exchange_whose_fact_a_person_reworded_is_still_offered() -> None:
    old = stored("old", "works at a bakery", ("e1",), superseded_at=START + timedelta(days=2))
    reworded = stored("new", "works at the Rye & Co bakery", ("e1",), supersedes="old")
    assert outdated_sources([old, reworded]) == frozenset()


def test_what_is_told_before_a_word_about_the_stream_in_mid_sentence_is_read() -> None:
    (fact,) = find_facts("PC방 야간 알바 중인데 손님 없어서 방송 보는 중 ㅋㅋ 사장님한텐 비밀")
    assert fact.text.startswith("PC방 야간 알바") and "방송" not in fact.text
    # the longest run in characters, not the first clause
    assert [f.text for f in find_facts("배고파, 방송 보는 중, 나 어제 이사했어")] == [
        "나 어제 이사했어"
    ]
