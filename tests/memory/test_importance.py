"""The rule-based importance pass: low-signal detection, signal groups, length, scales."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.domain import ScoringMethod
from omoide.errors import InvalidInput
from omoide.memory.importance import (
    ImportanceResult,
    is_low_signal,
    score_by_rules,
    to_unit_interval,
)
from omoide.memory.patterns import english_equivalent_length
from tests.memory.importance_texts import (
    DISCLOSURES,
    LANGUAGES,
    SMALL_TALK,
    held_out_half,
    tuning_half,
)

LOW_SIGNAL = [
    # Korean
    "ㅋㅋ",
    "ㅋㅋㅋㅋㅋㅋ",
    "ㅎㅎ",
    "ㅠㅠ",
    "ㅜㅜ",
    "응",
    "네",
    "넹",
    "맞아",
    "맞아요",
    "그래",
    "그렇구나",
    "ㅇㅇ",
    "응ㅋㅋ",
    "ㅋㅋ 그래",
    "헐",
    "대박",
    "알겠어",
    # Japanese
    "www",
    "ｗｗｗ",
    "草",
    "笑",
    "はい",
    "うん",
    "うんうん",
    "はいはいｗ",
    "なるほど",
    "そっか",
    "それな",
    "草www",
    # Chinese
    "哈哈",
    "哈哈哈哈",
    "嗯",
    "嗯嗯",
    "好的",
    "好吧",
    "666",
    "2333",
    "真的吗?",
    "收到",
    # English
    "lol",
    "LOL",
    "lmao",
    "ok",
    "OK!",
    "okay",
    "Okay!!",
    "k",
    "yeah",
    "yes",
    "yesss",
    "no",
    "nooo",
    "nice",
    "haha",
    "hahaha",
    "ok lol",
    "yeah lmao",
    "hmm",
    "cool",
    # no words at all
    "",
    "   ",
    "!!!",
    "...",
    "?!",
    "👍",
    "😂😂😂",
    "❤️",
    ":)",
    "^^",
    "~~~",
    # one character repeated
    "aaaa",
    "zzzzz",
    "ㅇㅇㅇㅇ",
    # laughter elsewhere
    "jajaja",
    "mdr",
    "хахаха",
    "555",
    "kkkkk",
    "rsrs",
    # greetings, farewells and stream chat, alone and combined
    "gn",
    "gm",
    "ㅎㅇ",
    "ㅂㅂ",
    "ㅎㅇㅎㅇ ㅋㅋ",
    "안녕",
    "안녕하세요 ㅎㅎ",
    "잘 자요",
    "おつ",
    "おつおつ草",
    "お疲れ様です",
    "おはようございます",
    "こんばんは～",
    "晚安",
    "晚安哈哈",
    "大家好",
    "拜拜",
    "hello there",
    "hi hi lol",
    "good night everyone",
    "see you later",
    "gn chat",
    # see-you-tomorrows
    "see you tomorrow!",
    "gn, see you tomorrow",
    "잘자 내일 봐",
    "おやすみ〜また明日",
    "晚安 明天见",
    "me too",
    "I see",
    "hey guys",
    "ggwp",
    "ㅇㅈ",
    "ㄹㅇㅋㅋ",
    "👋😊",
    "!!!???",
]

CARRIES_SIGNAL = [
    "나 롤 게임 엄청 좋아해요!",
    "좋아해요",
    "고양이",
    "오늘 힘들었어",
    "그래서 뭐 했어?",
    "Deadlockが好き",
    "ありがとう",
    "猫",
    "今日は疲れた",
    "我最喜欢吃火锅",
    "好吃",
    "我很累",
    "I love cats",
    "know",
    "now",
    "thanks",
    "25",
    "no way, really?",
    "ok so my birthday is tomorrow",
    "hello, my name is Sam",
    "gn, my cat is sick",
    "안녕하세요 저는 민수예요",
    "ㅎㅇ 나 오늘 시험 붙었어",
    "おやすみ、明日面接なんだ",
    "晚安，明天要考试",
    "晚安 明天考试",
    "rip grandma",
    "hi from phoenix",
    "exam tomorrow",
    "내일 시험",
    "gn, exam tomorrow",
    "잘자 내일 면접ㅠ",
    "おはよう！合格！",
    "晚安，分手了",
    "gm, promoted!!",
]


@pytest.mark.parametrize("message", LOW_SIGNAL)
def test_low_signal_messages_are_recognised(message: str) -> None:
    assert is_low_signal(message)


@pytest.mark.parametrize("message", CARRIES_SIGNAL)
def test_messages_with_content_are_not_low_signal(message: str) -> None:
    assert not is_low_signal(message)


@pytest.mark.parametrize("run", ["ㅋ", "哈", "w", "はい", "응", "そうだね"])
def test_long_laughter_followed_by_content_is_not_low_signal(run: str) -> None:
    assert is_low_signal(run * 3000)
    assert not is_low_signal(run * 3000 + "가고양이")


@pytest.mark.parametrize("message", ["ㅋㅋ", "www", "哈哈", "lol", "👍", "응"])
def test_low_signal_turns_score_low_and_are_not_stored(message: str) -> None:
    result = score_by_rules(message, "에헤헤 고마워! I love you!", emotion_intensity=1.0)
    assert result == ImportanceResult(0.05, False, ("low_signal",), ScoringMethod.RULES)
    at_zero = score_by_rules(message, "", emotion_intensity=0.0, store_threshold=0.0)
    assert not at_zero.worth_storing, "only a forced store keeps a low-signal turn"


SIGNAL_EXAMPLES = [
    ("preference", "나 롤 게임 엄청 좋아해요"), ("preference", "Deadlockが好きです"),
    ("preference", "我喜欢猫"), ("preference", "I really like jazz"),
    ("preference", "my favourite food is pizza"),
    ("dislike", "오이 싫어"), ("dislike", "ピーマンが嫌い"), ("dislike", "我讨厌香菜"),
    ("dislike", "I hate mornings"), ("dislike", "I don't like horror movies"),
    ("date", "다음 주가 내 생일이야"), ("date", "明日は誕生日なんだ"), ("date", "下周是我的生日"),
    ("date", "my birthday is next week"), ("date", "our anniversary is on March 5"),
    ("date", "졸업식 끝났어"), ("date", "来月結婚します"), ("date", "我毕业了"),
    ("identity", "제 이름은 민준이에요"), ("identity", "名前はハルです"), ("identity", "我叫小明"),
    ("identity", "my name is Alex"), ("identity", "call me Mochi"),
    ("habit", "항상 밤에 게임해"), ("habit", "毎日走ってる"), ("habit", "我每天跑步"),
    ("habit", "I always stream at night"),
    ("unique", "처음으로 방송 봤어"), ("unique", "初めてコメントします"),
    ("unique", "第一次来直播间"), ("unique", "this is my first time here"),
    ("affection", "항상 고마워"), ("affection", "いつもありがとう"), ("affection", "谢谢你"),
    ("affection", "thank you so much"), ("affection", "보고 싶었어"),
    ("vulnerability", "요즘 너무 힘들어"), ("vulnerability", "외로워"),
    ("vulnerability", "寂しい"), ("vulnerability", "最近すごく辛い"), ("vulnerability", "我好难过"),
    ("vulnerability", "工作好累"), ("vulnerability", "I'm so lonely"),
    ("vulnerability", "I'm scared of tomorrow"),
]  # fmt: skip


@pytest.mark.parametrize(("signal", "message"), SIGNAL_EXAMPLES)
def test_each_signal_group_is_recognised_in_every_language(signal: str, message: str) -> None:
    result = score_by_rules(message, "", emotion_intensity=0.0)
    assert signal in result.signals


@pytest.mark.parametrize(
    "message",
    [
        "ok see you next week then",
        "they said it might snow tomorrow",
        "내일 비 온대",
        "明日も配信ある？",
        "明天又要下雨了",
        "next week already huh",
    ],
)
def test_a_time_to_come_alone_is_small_talk_not_a_plan(message: str) -> None:
    result = score_by_rules(message, "", emotion_intensity=0.0)
    assert "soon" in result.signals
    assert "plan" not in result.signals
    assert result.score < 0.4


@pytest.mark.parametrize(
    "message",
    ["내일 면접 보러 가요", "来週引っ越す予定", "下周要搬到杭州", "I'm flying to Lima tomorrow"],
)
def test_a_plan_with_its_time_is_still_a_plan(message: str) -> None:
    result = score_by_rules(message, "", emotion_intensity=0.0)
    assert {"soon", "plan"} <= set(result.signals) or "date" in result.signals
    assert result.score >= 0.6


@pytest.mark.parametrize(
    "message",
    ["I'd like a coffee", "오늘 날씨 좋네", "它在累计数据", "I love you", "不喜欢的话就算了"],
)
def test_look_alikes_are_not_preferences(message: str) -> None:
    assert "preference" not in score_by_rules(message, "", emotion_intensity=0.0).signals


def test_negated_likes_are_dislikes_not_preferences() -> None:
    for message in ["猫は好きじゃない", "我不喜欢香菜", "고양이 안 좋아해", "I don't like cats"]:
        signals = score_by_rules(message, "", emotion_intensity=0.0).signals
        assert "dislike" in signals, message
        assert "preference" not in signals, message


def test_the_score_follows_the_formula() -> None:
    plain = score_by_rules("오늘 점심 먹었어", "맛있었어?", emotion_intensity=0.0)
    assert plain.score == pytest.approx(0.32)
    assert plain.signals == ()
    assert plain.worth_storing
    assert plain.method is ScoringMethod.RULES

    one_group = score_by_rules("나 롤 좋아해", "", emotion_intensity=0.5)
    assert one_group.score == pytest.approx(0.32 + 0.3 + 0.1)

    two_groups = score_by_rules("I love cats but I hate dogs", "", emotion_intensity=0.0)
    assert two_groups.signals == ("preference", "dislike")
    assert two_groups.score == pytest.approx(0.32 + 0.3 + 0.06)

    weak_only = score_by_rules("처음 보는 맵이네", "", emotion_intensity=0.0)
    assert weak_only.signals == ("unique",)
    assert weak_only.score == pytest.approx(0.32 + 0.06)


def test_each_group_counts_once_however_often_it_matches() -> None:
    once = score_by_rules("I like cats", "", emotion_intensity=0.0)
    many = score_by_rules("I like cats, I like dogs, I love birds", "", emotion_intensity=0.0)
    assert once.score == many.score


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        ("하루는 뭐 좋아해?", "나는 떡볶이 좋아해"),
        ("ハルは何が好き？", "私は猫が好き"),
        ("你喜欢什么游戏？", "我喜欢玩原神"),
        ("Do you like horror movies?", "I like horror movies"),
    ],
)
def test_a_question_about_the_character_discloses_little(question: str, statement: str) -> None:
    asked = score_by_rules(question, "", emotion_intensity=0.0)
    told = score_by_rules(statement, "", emotion_intensity=0.0)
    assert asked.score <= 0.4 < 0.6 <= told.score


def test_only_the_viewers_words_count() -> None:
    result = score_by_rules("오늘 나 왔어", "생일 축하해! 고마워, 사랑해!", emotion_intensity=0.0)
    assert result.signals == ()
    alone = score_by_rules(
        "", "Happy birthday! You said your exam is tomorrow", emotion_intensity=0
    )
    assert "date" in alone.signals


def test_scores_are_clipped_to_one() -> None:
    message = (
        "제 이름은 민준이고 항상 롤 게임 좋아해요. 오이는 싫어. 내일이 생일인데 처음으로 "
        "혼자 보내서 너무 외로워. 고마워"
    )
    result = score_by_rules(message, "", emotion_intensity=1.0)
    assert len(result.signals) >= 7
    assert result.score == 1.0


def test_the_store_threshold_decides_worth_storing() -> None:
    turn = ("오늘 점심 먹었어", "")
    assert score_by_rules(*turn, emotion_intensity=0.0, store_threshold=0.32).worth_storing
    assert not score_by_rules(*turn, emotion_intensity=0.0, store_threshold=0.33).worth_storing


@pytest.mark.parametrize("intensity", [-0.1, 1.5, math.nan])
def test_emotion_intensity_outside_the_unit_interval_is_refused(intensity: float) -> None:
    with pytest.raises(InvalidInput, match="emotion_intensity"):
        score_by_rules("hello there", "", emotion_intensity=intensity)


# --- long messages, fairly across scripts --------------------------------------------

LONG = [
    "Yesterday I went to the park with my dog and we played until the sun went down",
    "어제 강아지랑 공원에 가서 해가 질 때까지 같이 놀았어요",
    "昨日は犬と公園に行って、日が暮れるまで一緒に遊んだ",
    "昨天我和我的狗去公园玩到太阳下山",
]
SHORT = ["I went to the park today", "오늘 공원에 갔어", "今日は公園に行った", "今天去了公园"]


@pytest.mark.parametrize("message", LONG)
def test_the_same_long_sentence_is_long_in_every_script(message: str) -> None:
    assert "long_message" in score_by_rules(message, "", emotion_intensity=0.0).signals


@pytest.mark.parametrize("message", SHORT)
def test_the_same_short_sentence_is_short_in_every_script(message: str) -> None:
    assert "long_message" not in score_by_rules(message, "", emotion_intensity=0.0).signals


def test_cjk_characters_weigh_more_than_latin_ones() -> None:
    assert english_equivalent_length("公园") > english_equivalent_length("ab")
    assert english_equivalent_length("공원") > english_equivalent_length("ab")
    assert english_equivalent_length("こうえん") > english_equivalent_length("abcd")


def test_repeated_characters_do_not_make_a_message_long() -> None:
    padded = "good game " + "!" * 80 + "ㅋ" * 80
    assert "long_message" not in score_by_rules(padded, "", emotion_intensity=0.0).signals


# --- other scales ------------------------------------------------------------------


def test_to_unit_interval_maps_and_clips() -> None:
    assert to_unit_interval(1, low=1, high=10) == 0.0
    assert to_unit_interval(10, low=1, high=10) == 1.0
    assert to_unit_interval(5.5, low=1, high=10) == pytest.approx(0.5)
    assert to_unit_interval(0, low=1, high=10) == 0.0
    assert to_unit_interval(42, low=1, high=10) == 1.0


@pytest.mark.parametrize(
    ("value", "low", "high"),
    [(math.nan, 1, 10), (5, math.nan, 10), (5, 10, 1), (5, 3, 3), (5, 1, math.inf)],
)
def test_to_unit_interval_refuses_nan_and_bad_scales(value: float, low: float, high: float) -> None:
    with pytest.raises(InvalidInput):
        to_unit_interval(value, low=low, high=high)


@given(
    value=st.floats(allow_nan=False),
    low=st.floats(-1e6, 1e6),
    width=st.floats(1e-3, 1e6),
)
def test_to_unit_interval_always_lands_in_the_unit_interval(
    value: float, low: float, width: float
) -> None:
    assert 0.0 <= to_unit_interval(value, low=low, high=low + width) <= 1.0


@given(first=st.floats(-100, 100), second=st.floats(-100, 100), low=st.floats(-10, 10))
def test_to_unit_interval_keeps_order(first: float, second: float, low: float) -> None:
    smaller, larger = sorted((first, second))
    scale = {"low": low, "high": low + 9}
    assert to_unit_interval(smaller, **scale) <= to_unit_interval(larger, **scale)


@given(
    user=st.text(max_size=300),
    bot=st.text(max_size=300),
    intensity=st.floats(0.0, 1.0),
    threshold=st.floats(0.0, 1.0),
)
def test_rule_scores_are_always_valid(
    user: str, bot: str, intensity: float, threshold: float
) -> None:
    result = score_by_rules(user, bot, emotion_intensity=intensity, store_threshold=threshold)
    assert 0.0 <= result.score <= 1.0
    low = result.signals == ("low_signal",)
    assert result.worth_storing == (not low and result.score >= threshold)
    assert len(set(result.signals)) == len(result.signals)


@given(user=st.text(max_size=200), intensity=st.floats(0.0, 0.9), extra=st.floats(0.0, 0.1))
def test_stronger_emotion_never_lowers_the_score(user: str, intensity: float, extra: float) -> None:
    calmer = score_by_rules(user, "", emotion_intensity=intensity)
    stronger = score_by_rules(user, "", emotion_intensity=intensity + extra)
    assert stronger.score >= calmer.score


@given(
    st.lists(
        st.sampled_from(["ㅋ", "ㅎ", "w", "ｗ", "草", "哈", "!", "?", "…", "👍", "😂", " ", "~"]),
        max_size=30,
    )
)
def test_laughter_and_symbols_alone_are_low_signal(pieces: list[str]) -> None:
    assert is_low_signal("".join(pieces))


# --- disclosures against small talk (tests/memory/importance_texts.py) -----------------


def _scores(lines: list[str]) -> list[float]:
    return sorted(score_by_rules(line, "", emotion_intensity=0.0).score for line in lines)


@pytest.mark.parametrize("half", [tuning_half, held_out_half])
@pytest.mark.parametrize("language", LANGUAGES)
def test_disclosures_score_well_above_small_talk(
    language: str, half: Callable[[Sequence[str]], list[str]]
) -> None:
    told = _scores(half(DISCLOSURES[language]))
    chat = _scores(half(SMALL_TALK[language]))
    assert statistics.median(told) >= 0.6
    assert sum(score >= 0.5 for score in told) >= 0.8 * len(told)
    assert chat[-(len(chat) // 10) - 1] <= 0.4, "p90 of small talk"
    kept = [score for score in chat if score != 0.05]
    assert all(score >= 0.3 for score in kept), "ordinary small talk is still stored"


_PADDING = st.lists(
    st.sampled_from(
        ["ㅋㅋ", "ㅎㅇ", "www", "草", "哈哈", "lol", "gn", "おつ", "안녕", "ok", "!", "👍", " "]
    ),
    max_size=6,
).map(" ".join)
_DISCLOSED = [line for lines in DISCLOSURES.values() for line in lines]


@given(before=_PADDING, line=st.sampled_from(_DISCLOSED), after=_PADDING)
def test_no_text_containing_a_disclosure_is_low_signal(before: str, line: str, after: str) -> None:
    assert not is_low_signal(f"{before} {line} {after}")
