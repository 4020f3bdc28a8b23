"""Rapport grows with the conversation, and the prompt's relationship line follows it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from omoide.character import (
    Character,
    CharacterLibrary,
    CharacterState,
    EmotionEngine,
    initial_state,
)

START = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)
JUST_MET = "You have only just met"


@pytest.fixture
async def haru() -> Character:
    return await CharacterLibrary([]).load("haru")


def exchanges(haru: Character, messages: list[str], *, hours_apart: float) -> CharacterState:
    engine, state = EmotionEngine(haru.profile), initial_state(haru.profile)
    for index, message in enumerate(messages):
        moment = START + timedelta(hours=hours_apart * index)
        state = engine.update(state, detected_emotion="happy", user_message=message, now=moment)
    return state


def relationship_line(haru: Character, state: CharacterState) -> str:
    prompt = haru.prompt.build_system_prompt(
        haru.profile, state, user_name="민준", memory_section="", now=START + timedelta(days=9)
    )
    return next(line for line in prompt.splitlines() if line.startswith('- You and "민준"'))


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("message", "count", "level"),
    [
        ("오늘 날씨 진짜 춥네요", 8, "new face"),
        ("오늘 날씨 진짜 춥네요", 10, "acquaintance"),
        ("오늘 날씨 진짜 춥네요", 25, "friend"),
        ("하루 고마워요!", 3, "new face"),
        ("하루 고마워요!", 4, "acquaintance"),
        ("thank you Haru!", 10, "friend"),
        ("谢谢你", 20, "close friend"),
    ],
)
async def test_the_relationship_moves_with_the_number_of_exchanges(
    haru: Character, message: str, count: int, level: str
) -> None:
    line = relationship_line(haru, exchanges(haru, [message] * count, hours_apart=0.1))
    assert f": {level} (rapport" in line, line
    assert (JUST_MET in line) == (level == "new face")


@pytest.mark.anyio
async def test_daily_small_talk_over_nine_days_makes_an_acquaintance(haru: Character) -> None:
    """The demo's scenario: eleven plain exchanges nineteen hours apart."""
    state = exchanges(haru, ["점심에 김치찌개 먹었어요"] * 11, hours_apart=19)
    line = relationship_line(haru, state)
    assert JUST_MET not in line and "acquaintance" in line
