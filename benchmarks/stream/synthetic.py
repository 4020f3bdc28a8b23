"""A synthetic live stream: viewers with a home language, a favourite game and a food, and
varied comments from templates in Korean, Japanese, Chinese and English.

Activity is skewed like real chat (a few regulars write most comments), about a third of
comments are laughter and short reactions, and every tenth comment or so is answered.
Everything is drawn from one seeded generator, so a profile always replays the same stream.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from omoide.stream.events import StreamEvent

START: Final = datetime(2026, 3, 2, 19, 0, tzinfo=UTC)
LANGUAGES: Final = ("ko", "ja", "zh", "en")
GAMES: Final = (
    "Deadlock", "Valorant", "Minecraft", "League of Legends", "Apex Legends", "Elden Ring",
    "Stardew Valley", "Overwatch", "Genshin Impact", "Monster Hunter", "Tetris", "Zelda",
)  # fmt: skip
FOODS: Final = {
    "ko": ("떡볶이", "라면", "김치찌개", "치킨", "삼겹살"),
    "ja": ("ラーメン", "寿司", "カレー", "たこ焼き", "うどん"),
    "zh": ("火锅", "饺子", "小笼包", "麻辣烫", "烤鸭"),
    "en": ("pizza", "tacos", "ramen", "burgers", "pancakes"),
}
REACTIONS: Final = {
    "ko": ("ㅋㅋㅋㅋ", "ㅋㅋ", "ㅎㅎ", "ㅠㅠ", "ㄷㄷ", "와", "헐"),
    "ja": ("www", "草", "ｗｗｗ", "それな", "わかる", "８８８８"),
    "zh": ("哈哈哈", "666", "233333", "哈哈", "好的", "牛"),
    "en": ("lol", "LMAO", "gg", "W", "pog", "lmao", "nice"),
}
STATEMENTS: Final = {
    "ko": (
        "나 {game} 진짜 좋아해요", "오늘 점심에 {food} 먹었어요", "내일 시험이라 너무 힘들어요",
        "{game} 새 패치 어때요?", "하루야 오늘도 방송 고마워", "다음 주 토요일이 내 생일이에요",
        "퇴근하고 바로 왔어요 피곤하다", "{food} 먹으면서 보는 중", "처음 왔어요 반가워요",
        "요즘 {game} 랭크 올리는 중이에요", "매일 밤 방송 보는 게 낙이에요",
    ),
    "ja": (
        "{game}が大好き！", "今日は{food}を食べた", "疲れてる時によくここに来るんだ",
        "{game}のビルド教えて", "初見です！", "明日は面接なんだ、緊張する",
        "いつも配信ありがとう", "{food}食べながら見てる", "毎日{game}やってる",
        "仕事終わった〜疲れた", "来週誕生日なんだ",
    ),
    "zh": (
        "我很喜欢{game}", "今天吃了{food}", "明天要考试了好紧张", "{game}新版本好玩吗",
        "谢谢主播每天直播", "第一次来直播间", "我每天都玩{game}", "下班了好累",
        "边吃{food}边看直播", "下周是我的生日",
    ),
    "en": (
        "I really love {game}!", "just had {food} for dinner", "exams tomorrow, so stressed",
        "what do you think of the new {game} patch?", "thanks for streaming every night",
        "first time here, hi everyone!", "I play {game} every day after work",
        "my birthday is next Saturday", "eating {food} while watching",
        "honestly {game} is my favourite game of all time", "so tired after work today",
    ),
}  # fmt: skip
QUESTIONS: Final = {
    "ko": ("요즘 뭐하면서 놀아요?", "{game} 얘기 해줘", "오늘 뭐 먹을까?"),
    "ja": ("{game}のビルド教えて", "最近何して遊んでる？", "今日何食べよう？"),
    "zh": ("最近玩什么游戏？", "{game}怎么玩", "今天吃什么好？"),
    "en": ("what should I play tonight?", "any {game} tips?", "what should I eat?"),
}
REPLIES: Final = ("Thanks for coming!", "반가워요~", "ありがとう！", "谢谢你！")


@dataclass(frozen=True, slots=True)
class Viewer:
    viewer_id: str
    name: str
    language: str
    game: str
    food: str


def make_viewers(count: int, generator: random.Random) -> list[Viewer]:
    viewers = []
    for index in range(count):
        language = generator.choice(LANGUAGES)
        viewers.append(
            Viewer(
                viewer_id=f"viewer-{index:05d}",
                name=f"{language}-fan-{index}",
                language=language,
                game=generator.choice(GAMES),
                food=generator.choice(FOODS[language]),
            )
        )
    return viewers


def comment_text(viewer: Viewer, generator: random.Random) -> str:
    if generator.random() < 0.33:
        return generator.choice(REACTIONS[viewer.language])
    template = generator.choice(STATEMENTS[viewer.language])
    return template.format(game=viewer.game, food=viewer.food)


def question(viewer: Viewer, generator: random.Random) -> str:
    template = generator.choice(QUESTIONS[viewer.language])
    return template.format(game=viewer.game)


def stream_events(
    viewers: list[Viewer], count: int, *, spacing_seconds: float, generator: random.Random
) -> Iterator[StreamEvent]:
    """``count`` comments; viewer ``i`` is picked with weight ``1 / (i + 1) ** 0.8``."""
    weights = [1.0 / (index + 1) ** 0.8 for index in range(len(viewers))]
    chosen = generator.choices(viewers, weights=weights, k=count)
    for index, viewer in enumerate(chosen):
        reply = generator.choice(REPLIES) if generator.random() < 0.1 else None
        yield StreamEvent(
            viewer_id=viewer.viewer_id,
            display_name=viewer.name,
            text=comment_text(viewer, generator),
            time=START + timedelta(seconds=index * spacing_seconds),
            platform="twitch",
            reply=reply,
        )
