"""The disclosure model (:mod:`omoide.memory.extraction.disclosure`): what the rules cannot
read becomes a fact in the viewer's words, small talk does not; the shipped model is the
one of the embedder, and no other embedder gets one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Scope
from omoide.errors import ConfigError
from omoide.memory.extraction.disclosure import (
    load_disclosure_model,
    told_readings,
    told_sentences,
)
from omoide.memory.extraction.rules import find_facts
from omoide.memory.extraction.sentence_models import (
    SentenceModel,
    model_document,
    model_from_document,
)
from omoide.stream.events import StreamEvent
from omoide.wiring import Omoide, build

START = datetime(2025, 5, 1, 20, tzinfo=UTC)
MINA = Scope("haru", "mina")

# Said in passing, in shapes the rules do not read (checked below): what a friend remembers.
TOLD = (
    "finally booked the bar exam for july, studying every night now",
    "올해 정보보안기사 필기 신청했어요",
    "下周三去拔智齿",
    "来月から名古屋勤務になる",
)
SMALL_TALK = (
    "that boss fight was insane lol",
    "오늘 방송 재밌네요",
    "这个BGM好好听",
    "今日のサムネかわいい",
)


def test_a_document_round_trips_and_a_malformed_one_is_refused() -> None:
    model = SentenceModel(
        embedder="test:model", weights=np.ones(3, np.float32), bias=-1.0, threshold=0.5
    )
    again = model_from_document(model_document(model, note="x"))
    assert again.embedder == "test:model" and again.threshold == 0.5
    assert again.above_threshold(np.asarray([[1, 1, 0], [0, 0, 1]], np.float32)) == [True, False]
    with pytest.raises(ConfigError):
        model_from_document({"embedder": "x", "bias": 0.0})
    with pytest.raises(ConfigError):
        model.logits(np.ones((1, 4), np.float32))


def test_the_default_embedder_has_a_model_and_others_have_none() -> None:
    model = load_disclosure_model("use:multilingual-v3@0.2.1")
    assert model is not None and model.weights.shape == (512,)
    assert load_disclosure_model("use:multilingual-v3@9.9.9") is not None  # any version
    assert load_disclosure_model("hashing:256") is None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("registered for the NCLEX today", ["registered for the NCLEX today"]),
        ("did you eat yet?", []),
        ("you should play Elden Ring", []),
        ("Faker was cracked", []),
        ("3년째 야간 편의점 알바 중", ["3년째 야간 편의점 알바 중"]),
        # a sentence's lead-in or tail about the stream is not the viewer's (the rest is)
        ("기타 샀음, 방송 재밌다", ["기타 샀음"]),
        (
            "texting him through your stream sorry, Vancouver is 8 hours behind us",
            ["Vancouver is 8 hours behind us"],
        ),
        ("아 방송 늦게 옴, 오늘도 야근이었음", ["오늘도 야근이었음"]),
        ("방송 늦게 옴, 하루 목소리 좋다", []),
        # the subject dropped before a doing: the speaker's
        ("training for a triathlon in june", ["training for a triathlon in june"]),
        # news told in short pieces with no word of the speaker: the run, read together
        (
            "so uh. Noor's pregnant. due in May. sitting in the car processing it with you lol",
            ["Noor's pregnant. due in May"],
        ),
        ("the boss has three phases", []),  # one such piece alone is a remark
        # a question the statement goes on to tells nothing of the speaker
        ("adopted a kitten, what should I name her?", ["adopted a kitten"]),
        ("oh wait, remember when I told you the date?", []),
        # laughter ends a clause: the question after it is not the statement before it
        (
            "어제 이사한 집 정리하느라 새벽 3시에 잠 ㅋㅋ 하루는 이사 해봤어?",
            ["어제 이사한 집 정리하느라 새벽 3시에 잠"],
        ),
        ("刚搬完家累死了哈哈哈 你们搬过家吗？", ["刚搬完家累死了"]),
        # a run-on sentence too long to be told in passing: read in windows of its clauses
        (
            "long shift at the clinic today, a patient's kid drew me a dinosaur, then my "
            "landlord called and said the building is being sold so I have to move out by the "
            "end of april, anyway dinner was instant noodles again and the cat judged me",
            [
                "long shift at the clinic today, a patient's kid drew me a dinosaur",
                "then my landlord called and said the building is being sold so I have to move "
                "out by the end of april",
                "dinner was instant noodles again and the cat judged me",
            ],
        ),
        (
            "my brother got a puppy. name's Kiwi. so tiny",
            ["my brother got a puppy", "name's Kiwi. so tiny"],
        ),
        (
            "CompTIA Security+, trying to get out of help desk",
            ["CompTIA Security+, trying to get out of help desk"],
        ),
    ],
)
def test_only_statements_about_the_viewer_reach_the_model(
    message: str, expected: list[str]
) -> None:
    assert told_sentences(message) == expected


async def _app(tmp_path: Path, *, disclosure_model: bool) -> Omoide:
    settings = Settings(
        data_dir=tmp_path,
        embedder="use",
        embedder_worker=False,
        llm="none",
        disclosure_model=disclosure_model,
    )
    return await build(settings, clock=FixedClock(START + timedelta(days=30)))


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    built = await _app(tmp_path, disclosure_model=True)
    try:
        yield built
    finally:
        await built.aclose()


async def _store(app: Omoide, messages: tuple[str, ...]) -> None:
    for day, message in enumerate(messages):
        await app.memory.store_interaction(
            MINA, message, "I see!", timestamp=START + timedelta(days=day)
        )


def test_the_examples_are_beyond_the_rules() -> None:
    assert not any(find_facts(message) for message in (*TOLD, *SMALL_TALK))


@pytest.mark.anyio
async def test_what_the_rules_miss_becomes_a_fact_in_the_viewers_words(app: Omoide) -> None:
    await _store(app, TOLD + SMALL_TALK)
    texts = {fact.text for fact in await app.memory.list_facts(MINA)}
    assert set(TOLD) <= texts
    assert not texts & set(SMALL_TALK)
    episodes = (await app.memory.list_episodes(MINA, limit=50)).episodes
    importance = {episode.user_message: episode.importance for episode in episodes}
    assert min(importance[message] for message in TOLD) > max(
        importance[message] for message in SMALL_TALK
    )


@pytest.mark.anyio
async def test_turned_off_the_rules_alone_read_facts(tmp_path: Path) -> None:
    app = await _app(tmp_path, disclosure_model=False)
    try:
        await _store(app, TOLD)
        assert await app.memory.list_facts(MINA) == []
    finally:
        await app.aclose()


@pytest.mark.anyio
async def test_a_stream_comment_the_rules_would_drop_is_kept_with_its_fact(app: Omoide) -> None:
    """Unanswered stream comments below the stream's store threshold are let go; one the
    model reads as a disclosure is kept, with its fact, and small talk still goes by."""
    told, chatter = "올해 정보보안기사 필기 신청했어요", "오늘 방송 재밌네요"
    events = [
        StreamEvent("mina", "Mina", text, START + timedelta(seconds=second), "twitch")
        for second, text in enumerate((told, chatter))
    ]
    await app.streams.ingest("haru", "s1", events)
    episodes = (await app.memory.list_episodes(MINA, limit=10)).episodes
    assert [episode.user_message for episode in episodes] == [told]
    assert [fact.text for fact in await app.memory.list_facts(MINA)] == [told]


TWO_THINGS = (
    "우리 집 강아지 이름은 콩이에요. 요즘 바리스타 자격증 따려고 학원 다녀요",
    "うちの猫はミルって名前。あと来月から夜間の簿記講座に通う",
    "my dog is called Pepper. signed up for a pottery course in march",
)


def test_a_long_sentence_is_also_read_in_parts_of_two_clauses() -> None:
    (reading,) = told_readings(
        "오늘도 야근각이었고 집 오니까 레오파드 게코 단테가 허물 껴있어서 온욕시키느라"
    )
    assert reading.parts == (
        "오늘도 야근각이었고 집 오니까",
        "집 오니까 레오파드 게코 단테가 허물 껴있어서",
        "레오파드 게코 단테가 허물 껴있어서 온욕시키느라",
    )
    assert told_readings("3년째 야간 편의점 알바 중")[0].parts == ()


@pytest.mark.anyio
async def test_a_told_part_of_a_long_sentence_becomes_the_fact(app: Omoide) -> None:
    """Read whole, the model does not take this sentence (checked); its part it does. No
    rule reads it (a gecko, a pet, would be read by the rules: checked too)."""
    message = "오늘도 야근각이었고 집 오니까 베란다 다육이들이 얼어 있어서 다 들여놓느라"
    assert not find_facts(message)
    model = load_disclosure_model("use:multilingual-v3")
    assert model is not None
    (whole,) = await app.embedder.embed_documents([message])
    assert not model.above_threshold(whole[None, :])[0]
    await _store(app, (message,))
    (fact,) = await app.memory.list_facts(MINA)
    assert "다육이" in fact.text and fact.text in message and fact.text != message


@pytest.mark.anyio
async def test_a_sentence_beside_one_the_rules_read_is_read_by_the_model(app: Omoide) -> None:
    """A message telling two things, one in a shape the rules read: both become facts."""
    await _store(app, TWO_THINGS)
    texts = " | ".join(fact.text for fact in await app.memory.list_facts(MINA))
    for told in ("콩", "바리스타", "ミル", "簿記", "Pepper", "pottery"):
        assert told in texts


BESIDE_A_RULE = (
    "うちの猫はミルって名前なんだけど、来月から夜間の簿記講座に通うから寂しがりそう",
    "我对花生过敏 但是我男朋友下个月要带我去泰国玩",
    "my cat is called Biscuit but my landlord says no pets after june so we are moving in "
    "with my sister in Leeds",
)


@pytest.mark.anyio
async def test_the_rest_of_a_sentence_a_rule_read_a_part_of_is_read_by_the_model(
    app: Omoide,
) -> None:
    """The rules take a fact from one clause of a sentence ("my cat is called Biscuit");
    what the sentence says besides it is read by the model, and becomes a fact of its own."""
    for message in BESIDE_A_RULE:
        assert all(fact.text != message for fact in find_facts(message))
    await _store(app, BESIDE_A_RULE)
    texts = [fact.text for fact in await app.memory.list_facts(MINA)]
    for told in ("簿記", "泰国", "Leeds"):
        assert any(told in text and len(text) < 90 for text in texts), (told, texts)
