from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.character import (
    CharacterProfile,
    CharacterState,
    TopicEntry,
    TopicTracker,
)
from omoide.errors import InvalidInput

NOW = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)


@pytest.fixture
def tracker() -> TopicTracker:
    haru = CharacterProfile(id="haru", name="하루 (Haru)")
    return TopicTracker.for_profile(haru)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # Korean
        ("나 롤 게임 엄청 좋아해요!", ("League of Legends", "games")),
        ("어제 마크에서 집 지었어", ("Minecraft", "games")),
        ("발로란트 랭크 올렸어요", ("Valorant", "games")),
        ("회사 일이 너무 많아서 야근했어요", ("work",)),
        ("비가 와서 점심에 라면 먹었어", ("weather", "food")),
        ("우리 집 고양이가 아파요", ("pets", "health")),
        # Japanese
        ("Deadlockのビルド教えて", ("Deadlock", "games")),
        ("マイクラで城を作った", ("Minecraft", "games")),
        ("昨日あまり眠れなかった", ("sleep",)),
        ("仕事が忙しくて残業した", ("work",)),
        ("今日はすごく寒いね", ("weather",)),
        # Chinese
        ("我最近在玩我的世界", ("Minecraft", "games")),
        ("今天加班到很晚，好累", ("work",)),
        ("我家的猫好可爱", ("pets",)),
        ("我喜欢听音乐和看动漫", ("music", "anime")),
        # English
        ("I love playing LoL with friends", ("League of Legends", "games")),
        ("Valorant ranked was rough tonight", ("Valorant", "games")),
        ("I had ramen for lunch", ("food",)),
        ("My sister just started university", ("family", "study")),
        ("I couldn't sleep well last night", ("sleep",)),
    ],
)
def test_dictionary_topics_in_four_languages(
    tracker: TopicTracker, message: str, expected: tuple[str, ...]
) -> None:
    assert tracker.extract(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "lol that was funny",
        "롤러코스터 탔어",
        "컨트롤이 어려워",
        "비밀이야",
        "잠깐만 기다려",
        "ok ok thanks",
    ],
)
def test_lookalikes_are_not_topics(tracker: TopicTracker, message: str) -> None:
    assert tracker.extract(message) == ()


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I finally beat Hollow Knight yesterday", ("Hollow Knight",)),
        ("Hades is fun. Have you tried Persona 5?", ("Persona 5",)),
        ("오늘 hades 했어 ㅋㅋ", ("hades",)),
        ("Slay the Spireが好き", ("Slay", "Spire")),
        ("Today Minjun and I went to Busan", ("Minjun", "Busan")),
        ("check https://Example.com/Page and @SomeUser", ()),
    ],
)
def test_proper_nouns_are_the_fallback(
    tracker: TopicTracker, message: str, expected: tuple[str, ...]
) -> None:
    assert tracker.extract(message) == expected


def test_character_and_viewer_names_are_not_topics(tracker: TopicTracker) -> None:
    message = "Minjun here, did Haru play Deadlock with Sora?"
    assert tracker.extract(message, viewer_name="Minjun") == ("Deadlock", "games", "Sora")
    reply = "Haru missed you, Minjun! Did you play Deadlock?"
    assert tracker.extract("", reply, viewer_name="Minjun") == ("Deadlock", "games")


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("점심에 떡볶이 먹었어", "I love Valorant too"),
        ("오늘 날씨 진짜 좋네요", "Ehehe, 날씨 좋으면 롤 하기 딱 좋죠! That makes me happy"),
        ("今天好累啊", "Ehehe 辛苦了，要不要玩会儿原神？"),
        ("今日は雨だね", "えへへ、マイクラでもする？ Ehehe"),
        ("I had pizza for lunch", "Nice! Maybe some Overwatch after? Hehe, Ahaha"),
        ("ㅋㅋㅋ", "Ehehe, Minecraft makes everything better"),
    ],
)
def test_the_reply_adds_no_topic_the_viewer_did_not_raise(
    tracker: TopicTracker, message: str, reply: str
) -> None:
    assert tracker.extract(message, reply) == tracker.extract(message)


def test_the_reply_may_name_what_the_viewer_raised(tracker: TopicTracker) -> None:
    assert tracker.extract("I played a game all night", "Was it Minecraft? Ehehe") == (
        "games",
        "Minecraft",
    )
    assert tracker.extract("게임 했어", "롤 했어? 에헤헤") == ("games", "League of Legends")


def test_a_reply_on_its_own_gives_its_dictionary_topics_only(tracker: TopicTracker) -> None:
    reply = "Ehehe, we talked about Elden Ring and ramen, Minjun makes great calls"
    assert tracker.extract("", reply) == ("Elden Ring", "food", "games")


@pytest.mark.parametrize(
    "message",
    [
        "Ehehe", "Ahahaha that makes sense", "오늘 진짜 tired 해서 그냥 쉬었어", "草 www wwww",
        "ㅋㅋㅋㅋ ㅎㅎ", "哈哈哈 笑死", "Hehe Lmaooo", "Good Morning Everyone", "uwu OwO",
        "그냥 Okay 했어요", "今日 Really Tired", "Thanks Guys, See You Tomorrow",
    ],
)  # fmt: skip
def test_interjections_and_common_words_are_not_free_topics(
    tracker: TopicTracker, message: str
) -> None:
    assert tracker.extract(message) == ()


def test_names_that_look_like_words_with_endings_survive(tracker: TopicTracker) -> None:
    assert tracker.extract("나 요즘 Hades 해") == ("Hades",)
    assert tracker.extract("I visited Ohio with Heidi") == ("Ohio", "Heidi")


def test_update_keeps_the_most_recent_first_without_duplicates() -> None:
    tracker = TopicTracker(keep=3)
    state = CharacterState("neutral", recent_topics=("music", "food"), last_interaction_at=NOW)
    state = tracker.update(state, user_message="I played Minecraft", reply="")
    assert state.recent_topics == ("Minecraft", "games", "music")
    state = tracker.update(state, user_message="more MUSIC please", reply="")
    assert state.recent_topics == ("music", "Minecraft", "games")
    unchanged = tracker.update(state, user_message="hmm", reply="ok")
    assert unchanged == state


def test_custom_vocabulary_replaces_the_default() -> None:
    vocabulary = (TopicEntry("baking", ("bake~", "케이크", "パン")),)
    tracker = TopicTracker(vocabulary=vocabulary)
    assert tracker.extract("I baked bread") == ("baking",)
    assert tracker.extract("케이크도 굽고 パンも") == ("baking",)
    assert tracker.extract("I played Minecraft") == ("Minecraft",)  # proper noun fallback


def test_exact_case_keywords_only_count_as_written() -> None:
    tracker = TopicTracker(vocabulary=(TopicEntry("TFT", ("teamfight",), exact_case=("TFT",)),))
    assert tracker.extract("TFT tonight") == ("TFT",)
    assert tracker.extract("tft tonight") == ()


@pytest.mark.parametrize("keep", [0, -1, 33, True])
def test_keep_is_validated(keep: int) -> None:
    with pytest.raises(InvalidInput):
        TopicTracker(keep=keep)


@given(
    messages=st.lists(
        st.sampled_from(
            ["롤 하자", "ramen time", "マイクラ", "我的世界", "I saw Dune", "ㅋㅋ", "雨だ", "猫!"]
        ),
        max_size=20,
    ),
    keep=st.integers(min_value=1, max_value=8),
)
def test_recent_topics_stay_bounded_and_unique(messages: list[str], keep: int) -> None:
    tracker = TopicTracker(keep=keep)
    state = CharacterState("neutral")
    for message in messages:
        state = tracker.update(state, user_message=message, reply="")
        folded = [topic.casefold() for topic in state.recent_topics]
        assert len(folded) == len(set(folded)) <= keep
        newest = tracker.extract(message)
        assert state.recent_topics[: len(newest)] == newest[:keep]


def test_a_long_paste_is_read_for_topics_from_its_beginning(tracker: TopicTracker) -> None:
    from omoide.character.topics import TOPIC_TEXT_CHARS

    opening = "I played Minecraft with Jonathan all weekend. "
    paste = opening + "Filler words about Nothingburg. " * 4000

    assert tracker.extract(paste) == tracker.extract(paste[:TOPIC_TEXT_CHARS])
    assert "Minecraft" in tracker.extract(paste)
