"""The seed's scenario, end to end, with the embedded defaults and no language model."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import FactCategory, Scope, TurnState
from omoide.wiring import Omoide, build

START = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)

KOREAN_SMALL_TALK = [
    ("오늘 날씨 진짜 춥네요", "따뜻하게 입고 다녀요!"),
    ("점심에 김치찌개 먹었어요", "맛있었겠다!"),
    ("회사 일이 너무 많아서 야근했어요", "고생 많았어요."),
    ("주말에 비 온대요", "우산 챙겨요~"),
    ("어제 잠을 잘 못 잤어요", "오늘은 푹 자요."),
    ("버스가 너무 늦게 와서 지각할 뻔했어요", "아슬아슬했네요!"),
    ("동생이 이번에 대학교 입학했어요", "축하해요!"),
    ("커피를 너무 많이 마신 것 같아요", "물도 많이 마셔요."),
    ("요즘 운동을 시작했어요 헬스장 다녀요", "멋지다!"),
    ("감기 기운이 있어요", "약 먹고 쉬어요."),
]

JAPANESE_SMALL_TALK = [
    ("今日はすごく寒いね", "暖かくしてね！"),
    ("昼ごはんにラーメン食べた", "いいなあ！"),
    ("仕事が忙しくて残業した", "お疲れさま。"),
    ("週末は雨らしい", "傘を忘れずに〜"),
    ("昨日あまり眠れなかった", "今日はゆっくり寝てね。"),
    ("電車が遅れて遅刻しそうだった", "危なかったね！"),
    ("疲れてる時によくここに来るんだ", "いつでも来てね。"),
    ("コーヒー飲みすぎたかも", "水も飲んでね。"),
    ("最近ジムに通い始めた", "すごい！"),
    ("風邪気味なんだ", "薬飲んで休んでね。"),
]

ENGLISH_SMALL_TALK = [
    ("It's freezing outside today", "Stay warm!"),
    ("I had ramen for lunch", "Sounds tasty!"),
    ("Work was brutal, I stayed late again", "You worked hard."),
    ("They say it will rain all weekend", "Take an umbrella!"),
    ("I couldn't sleep well last night", "Get some rest tonight."),
    ("The bus was so late I almost missed my shift", "That was close!"),
    ("My sister just started university", "Congratulations to her!"),
    ("I think I drank too much coffee", "Drink some water too."),
    ("I started going to the gym", "Nice!"),
    ("I feel like I'm catching a cold", "Take care of yourself."),
]


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    clock = FixedClock(START + timedelta(days=30))  # every turn below is in its past
    built = await build(Settings(data_dir=tmp_path), clock=clock)
    try:
        yield built
    finally:
        await built.aclose()


async def play(
    app: Omoide,
    scope: Scope,
    first: tuple[str, str],
    small_talk: list[tuple[str, str]],
    rounds: int = 3,
) -> None:
    memory = app.memory
    await memory.store_interaction(
        scope, first[0], first[1], TurnState("excited", 0.8), timestamp=START
    )
    moment = START
    for index in range(rounds * len(small_talk)):
        moment += timedelta(hours=5)
        user, bot = small_talk[index % len(small_talk)]
        await memory.store_interaction(scope, user, bot, TurnState("calm", 0.4), timestamp=moment)


@pytest.mark.anyio
async def test_korean_league_preference_is_remembered_days_later(app: Omoide) -> None:
    scope = Scope("haru", "민준")
    await play(app, scope, ("나 롤 게임 엄청 좋아해요!", "롤 재밌죠!"), KOREAN_SMALL_TALK)
    facts = await app.memory.list_facts(scope)
    assert any(f.category is FactCategory.PREFERENCE and "롤" in f.text for f in facts)

    later = START + timedelta(days=8)
    recollection = await app.memory.retrieve_context(scope, "요즘 뭐하면서 놀아요?", now=later)
    assert "롤" in recollection.rendered.text
    other = await app.memory.retrieve_context(
        Scope("haru", "서연"), "요즘 뭐하면서 놀아요?", now=later
    )
    assert "롤" not in other.rendered.text


@pytest.mark.anyio
async def test_japanese_deadlock_preference_is_recalled_by_topic(app: Omoide) -> None:
    scope = Scope("haru", "田中")
    await play(app, scope, ("Deadlock好き", "いいね！"), JAPANESE_SMALL_TALK)
    later = START + timedelta(days=6)
    recollection = await app.memory.retrieve_context(scope, "Deadlockのビルド教えて", now=later)
    assert "Deadlock" in recollection.rendered.text
    profile = recollection.context.profile
    assert profile is not None
    fact_texts = [entry.fact.text for entry in profile.entries]
    fact_texts += [ranked.item.text for ranked in recollection.context.facts]
    assert any("Deadlock" in text for text in fact_texts)
    assert "疲れ" not in recollection.rendered.text, "an unrelated memory reached the prompt"


@pytest.mark.anyio
async def test_english_preference_is_recalled(app: Omoide) -> None:
    scope = Scope("haru", "sam")
    await play(
        app, scope, ("I really love League of Legends!", "It's a great game!"), ENGLISH_SMALL_TALK
    )
    later = START + timedelta(days=8)
    recollection = await app.memory.retrieve_context(
        scope, "what do you do for fun these days?", now=later
    )
    assert "League of Legends" in recollection.rendered.text
    assert "sleep" not in recollection.rendered.text, "an unrelated memory reached the prompt"
