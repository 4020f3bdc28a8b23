"""The viewer's emotion read from their text: labels, negation, intensifiers, look-alikes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.character.emotion import EmotionEngine
from omoide.character.emotion_lexicon import (
    ALL_CUES,
    LABELS,
    NEGATIVE_LABELS,
    POSITIVE_LABELS,
)
from omoide.character.emotion_reading import read_emotion
from omoide.memory.emotions import Valence, valence_of
from omoide.store.records.profile import CharacterProfile

READS = [
    # Korean
    ("요즘 회사 일 때문에 완전 지쳤어", "tired"), ("졸려 죽겠다", "tired"),
    ("주말인데 아무도 안 만나서 너무 외로워", "lonely"), ("강아지가 떠나서 슬퍼요", "sad"),
    ("시험 준비 때문에 스트레스 받아", "stressed"), ("내일 발표라 너무 떨려요", "anxious"),
    ("밤에 혼자 있으면 무서워", "scared"), ("동생이 내 게임기 부숴서 진짜 화났어", "angry"),
    ("감기 걸려서 목이 아파요", "sick"), ("드디어 합격했어요!!", "happy"),
    ("다음 주 콘서트 가는데 설레", "excited"), ("도와줘서 정말 고마워", "grateful"),
    # Japanese
    ("残業続きでもうヘトヘト", "tired"), ("友達が引っ越して寂しい", "lonely"),
    ("猫が亡くなって本当に悲しい", "sad"), ("明日の面接が不安で眠れない", "anxious"),
    ("上司にムカついた", "angry"), ("風邪で熱が出ちゃった", "sick"),
    ("推しに会えてめっちゃ嬉しい", "happy"), ("来週の旅行が楽しみ！", "excited"),
    ("いつも感謝してるよ", "grateful"), ("夜の墓地は怖い", "scared"),
    # Chinese
    ("今天好累啊", "tired"), ("加班到半夜，累死了", "tired"), ("一个人过年好孤独", "lonely"),
    ("分手了，很难过", "sad"), ("下周考试，我好焦虑", "anxious"), ("气死我了，又堵车", "angry"),
    ("我感冒了，头疼", "sick"), ("今天升职了，超开心", "happy"), ("好期待明天的演唱会", "excited"),
    ("谢谢你一直陪我", "grateful"), ("论文压力好大", "stressed"),
    # English
    ("I'm so exhausted after this week", "tired"), ("I feel really lonely tonight", "lonely"),
    ("My grandma passed away and I'm heartbroken", "sad"),
    ("Job interview tomorrow and I'm super nervous", "anxious"),
    ("My roommate ate my lunch again, I'm furious", "angry"),
    ("Got the flu, staying in bed", "sick"), ("I finally got the job, I'm so happy!", "happy"),
    ("Can't wait for the new season!", "excited"), ("Thank you for always listening", "grateful"),
    ("Deadlines everywhere, I'm overwhelmed", "stressed"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "label"), READS)
def test_feelings_are_read_in_four_languages(text: str, label: str) -> None:
    reading = read_emotion(text)
    assert reading is not None, text
    assert reading.emotion == label


@pytest.mark.parametrize(
    "text",
    [
        "오늘 날씨 진짜 좋네요", "아파트로 이사했어", "뭐 하고 있어요?", "今日は雨だね",
        "何のゲームしてるの？", "累计下载量破百万", "麻烦你帮我看一下", "我笑哭了哈哈",
        "What are you playing?", "The weather is nice today", "I had pasta for lunch", "",
        "ㅋㅋㅋㅋ", "www", "ok",
    ],
)  # fmt: skip
def test_small_talk_and_look_alikes_have_no_reading(text: str) -> None:
    assert read_emotion(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "안 힘들어", "하나도 안 피곤해", "외롭지 않아", "別に寂しくないよ", "疲れてないから大丈夫",
        "我不累", "一点也不紧张", "I'm not tired at all", "I don't feel lonely anymore",
        "not worried about it",
    ],
)  # fmt: skip
def test_negated_negative_feelings_are_not_read(text: str) -> None:
    assert read_emotion(text) is None


@pytest.mark.parametrize("text", ["행복하지 않아", "楽しくなかった", "不开心", "I'm not happy"])
def test_negated_happiness_reads_as_mild_sadness(text: str) -> None:
    reading = read_emotion(text)
    assert reading is not None
    assert (reading.emotion, reading.intensity) == ("sad", 0.4)


@pytest.mark.parametrize(
    ("mild", "strong"),
    [
        ("피곤해", "너무 피곤해"), ("좀 피곤해", "피곤해"), ("피곤해", "피곤해 죽겠어"),
        ("疲れた", "すごく疲れた"), ("ちょっと疲れた", "疲れた"), ("累", "好累"), ("累", "累死了"),
        ("有点累", "累"), ("tired", "so tired"), ("a bit tired", "tired"),
        ("tired", "really really tired"),
    ],
)  # fmt: skip
def test_intensifiers_raise_and_softeners_lower_the_intensity(mild: str, strong: str) -> None:
    weak, loud = read_emotion(mild), read_emotion(strong)
    assert weak is not None and loud is not None
    assert weak.emotion == loud.emotion
    assert weak.intensity < loud.intensity


def test_several_feelings_of_one_valence_read_stronger_than_one() -> None:
    both, one = read_emotion("너무 힘들고 외로워요"), read_emotion("외로워요")
    assert both is not None and one is not None
    assert both.emotion == "lonely"
    assert both.intensity > one.intensity


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("피곤하지만 행복해", "happy"), ("楽しかったけど疲れた", "tired"),
        ("虽然很累，但是很开心", "happy"), ("It was fun but I'm exhausted", "tired"),
    ],
)  # fmt: skip
def test_what_follows_a_contrast_wins(text: str, label: str) -> None:
    reading = read_emotion(text)
    assert reading is not None and reading.emotion == label


def test_every_label_has_a_valence_and_a_character_emotion() -> None:
    engine = EmotionEngine(CharacterProfile(id="haru", name="Haru"))
    assert {cue[0] for cue in ALL_CUES} == LABELS
    for label in LABELS:
        assert engine.resolve(label) is not None, label
    for label in NEGATIVE_LABELS:
        assert valence_of(label) is Valence.NEGATIVE, label
    for label in POSITIVE_LABELS:
        assert valence_of(label) is Valence.POSITIVE, label


def test_only_the_opening_of_a_long_text_is_read() -> None:
    assert read_emotion("a" * 10_000 + " I'm so sad") is None
    reading = read_emotion("I'm so sad. " + "a" * 100_000)
    assert reading is not None and reading.emotion == "sad"


@given(st.text(max_size=400))
def test_any_text_reads_as_a_known_label_in_the_unit_interval(text: str) -> None:
    reading = read_emotion(text)
    if reading is not None:
        assert reading.emotion in LABELS
        assert 0.0 < reading.intensity <= 1.0
        assert reading.cues
