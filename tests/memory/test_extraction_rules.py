"""Rule-based fact extraction in Korean, Japanese, Chinese and English."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.domain import FactCategory, TrustState
from omoide.memory.extraction import FactCandidate, RuleFactExtractor, find_facts


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


PREFERENCE, PERSONAL = FactCategory.PREFERENCE, FactCategory.PERSONAL
HABIT, GOAL = FactCategory.HABIT, FactCategory.GOAL

# (message, category, the fact's text must start with, and must contain)
STATED = [
    # likes
    ("나 롤 게임 엄청 좋아해요!", PREFERENCE, "really likes", "롤 게임"),
    ("고양이를 좋아해", PREFERENCE, "likes", "고양이"),
    ("요즘 발로란트 진짜 좋아함ㅋㅋ", PREFERENCE, "really likes", "발로란트"),
    ("롤이 제일 좋아", PREFERENCE, "really likes", "롤"),
    ("제일 좋아하는 음식은 피자예요", PREFERENCE, "really likes", "피자"),
    ("Deadlock好き", PREFERENCE, "likes", "Deadlock"),
    ("Deadlockが好きです", PREFERENCE, "likes", "Deadlock"),
    ("私はラーメンが大好き！", PREFERENCE, "really likes", "ラーメン"),
    ("好きな食べ物はラーメンです", PREFERENCE, "likes", "ラーメン"),
    ("最近カラオケにハマってる", PREFERENCE, "likes", "カラオケ"),
    ("我最喜欢吃火锅", PREFERENCE, "really likes", "火锅"),
    ("我也很喜欢打游戏", PREFERENCE, "likes", "打游戏"),
    ("我最喜欢的食物是饺子", PREFERENCE, "really likes", "饺子"),
    ("I really love League of Legends", PREFERENCE, "really likes", "League of Legends"),
    ("i like jazz", PREFERENCE, "likes", "jazz"),
    ("I'm a big fan of Hololive", PREFERENCE, "likes", "Hololive"),
    ("My favorite game is Minecraft", PREFERENCE, "really likes", "Minecraft"),
    ("Minecraft is my favourite game", PREFERENCE, "really likes", "Minecraft"),
    ("わたしはねこがすき", PREFERENCE, "likes", "ねこ"),
    # hobbies
    ("제 취미는 게임이에요", PREFERENCE, "hobby:", "게임"),
    ("趣味は読書です", PREFERENCE, "hobby:", "読書"),
    ("我的爱好是画画", PREFERENCE, "hobby:", "画画"),
    ("My hobby is drawing", PREFERENCE, "hobby:", "drawing"),
    # dislikes
    ("오이 싫어요", PREFERENCE, "dislikes", "오이"),
    ("공포 영화는 안 좋아해", PREFERENCE, "dislikes", "공포 영화"),
    ("ピーマンが苦手です", PREFERENCE, "dislikes", "ピーマン"),
    ("猫は好きじゃない", PREFERENCE, "dislikes", "猫"),
    ("虫が大嫌い", PREFERENCE, "really dislikes", "虫"),
    ("我不喜欢香菜", PREFERENCE, "dislikes", "香菜"),
    ("我讨厌下雨天", PREFERENCE, "dislikes", "下雨天"),
    ("I don't like horror movies", PREFERENCE, "dislikes", "horror movies"),
    ("I hate waking up early lol", PREFERENCE, "dislikes", "waking up early"),
    ("I'm not a fan of spicy food", PREFERENCE, "dislikes", "spicy food"),
    # names
    ("제 이름은 민준이에요", PERSONAL, "name:", "민준"),
    ("민준이라고 불러줘", PERSONAL, "wants to be called", "민준"),
    ("名前はハルです", PERSONAL, "name:", "ハル"),
    ("田中と申します", PERSONAL, "name:", "田中"),
    ("私のことはハルって呼んで", PERSONAL, "wants to be called", "ハル"),
    ("我叫小明", PERSONAL, "name:", "小明"),
    ("我的名字是李华", PERSONAL, "name:", "李华"),
    ("叫我小李就好", PERSONAL, "wants to be called", "小李"),
    ("My name is Mary Jane and I stream on weekends", PERSONAL, "name:", "Mary Jane"),
    ("you can call me Mochi", PERSONAL, "wants to be called", "Mochi"),
    ("저 요즘 원신에 빠졌어요", PREFERENCE, "likes", "원신"),
    ("I'm a huge Taylor Swift fan", PREFERENCE, "likes", "Taylor Swift"),
    # ages
    ("I'm 23 years old", PERSONAL, "age:", "23"),
    ("저 25살이에요", PERSONAL, "age:", "25"),
    ("私は22歳です", PERSONAL, "age:", "22"),
    ("我今年二十岁", PERSONAL, "age:", "二十"),
    # jobs
    ("직업은 간호사예요", PERSONAL, "job:", "간호사"),
    ("회사원이에요", PERSONAL, "job:", "회사원"),
    ("간호사로 일하고 있어요", PERSONAL, "job:", "간호사"),
    ("仕事はエンジニアです", PERSONAL, "job:", "エンジニア"),
    ("私は会社員です", PERSONAL, "job:", "会社員"),
    ("我是一名程序员", PERSONAL, "job:", "程序员"),
    ("我是学生", PERSONAL, "job:", "学生"),
    ("I work as a nurse", PERSONAL, "job:", "nurse"),
    ("I'm a software engineer", PERSONAL, "job:", "software engineer"),
    ("I work at Samsung", PERSONAL, "works at", "Samsung"),
    # where they live
    ("서울에 살아요", PERSONAL, "lives in", "서울"),
    ("저는 지금 부산에 살고 있어요", PERSONAL, "lives in", "부산"),
    ("東京に住んでいます", PERSONAL, "lives in", "東京"),
    ("大阪在住です", PERSONAL, "lives in", "大阪"),
    ("我住在上海", PERSONAL, "lives in", "上海"),
    ("I live in Seoul", PERSONAL, "lives in", "Seoul"),
    ("I'm from Busan", PERSONAL, "is from", "Busan"),
    ("我是北京人", PERSONAL, "is from", "北京"),
    # pets
    ("I have a cat named Mochi", PERSONAL, "has a pet", "cat named Mochi"),
    ("my dog's name is Max", PERSONAL, "has a pet", "dog named Max"),
    ("고양이 키워요", PERSONAL, "has a pet", "고양이"),
    ("우리 고양이 이름은 나비야", PERSONAL, "has a pet", "고양이 named 나비"),
    ("猫を飼っています", PERSONAL, "has a pet", "猫"),
    ("猫のミケを飼っています", PERSONAL, "has a pet", "猫 named ミケ"),
    ("我养了一只猫", PERSONAL, "has a pet", "猫"),
    ("我家狗叫旺财", PERSONAL, "has a pet", "狗 named 旺财"),
    # birthdays
    ("My birthday is March 5th", PERSONAL, "birthday:", "March 5th"),
    ("I was born on 12 December", PERSONAL, "birthday:", "12 December"),
    ("제 생일은 3월 5일이에요", PERSONAL, "birthday:", "3월 5일"),
    ("誕生日は3月5日です", PERSONAL, "birthday:", "3月5日"),
    ("我的生日是3月5日", PERSONAL, "birthday:", "3月5日"),
    ("我的生日是三月五号", PERSONAL, "birthday:", "三月五号"),
    # allergies
    ("I'm allergic to peanuts", PERSONAL, "is allergic to", "peanuts"),
    ("I have a shellfish allergy", PERSONAL, "is allergic to", "shellfish"),
    ("땅콩 알레르기 있어요", PERSONAL, "is allergic to", "땅콩"),
    ("卵アレルギーです", PERSONAL, "is allergic to", "卵"),
    ("我对花生过敏", PERSONAL, "is allergic to", "花生"),
    # goals
    ("I want to become a voice actor", GOAL, "wants to become", "voice actor"),
    ("My dream is to visit Japan", GOAL, "dream:", "visit Japan"),
    ("성우가 되고 싶어요", GOAL, "wants to become", "성우"),
    ("제 목표는 성우가 되는 거예요", GOAL, "goal:", "성우"),
    ("声優になりたい", GOAL, "wants to become", "声優"),
    ("夢は声優になることです", GOAL, "dream:", "声優"),
    ("我想成为一名医生", GOAL, "wants to become", "医生"),
    ("我的梦想是当歌手", GOAL, "dream:", "歌手"),
    # habits
    ("I always drink coffee before streaming", HABIT, "always:", "drink coffee"),
    ("I go running every morning", HABIT, "every morning:", "go running"),
    ("I never skip breakfast", HABIT, "never:", "skip breakfast"),
    ("매일 아침 운동해요", HABIT, "every morning:", "운동"),
    ("항상 밤에 게임해요", HABIT, "always:", "게임"),
    ("毎日ジョギングしています", HABIT, "every day:", "ジョギング"),
    ("いつも夜更かししてる", HABIT, "always:", "夜更かし"),
    ("我每天跑步", HABIT, "every day:", "跑步"),
    ("我经常熬夜", HABIT, "often:", "熬夜"),
]  # fmt: skip


def facts_of(message: str) -> list[FactCandidate]:
    return find_facts(message)


@pytest.mark.parametrize(("message", "category", "predicate", "words"), STATED)
def test_stated_facts_are_extracted(
    message: str, category: FactCategory, predicate: str, words: str
) -> None:
    matching = [
        fact
        for fact in facts_of(message)
        if fact.category is category and fact.text.startswith(predicate) and words in fact.text
    ]
    assert matching, f"{message!r} gave {[f.text for f in facts_of(message)]}"
    fact = matching[0]
    assert fact.trust is TrustState.STATED
    assert 0.7 <= fact.confidence <= 0.8


NOTHING_ABOUT_THE_VIEWER = [
    # questions
    "do you like cats?", "Do you like cats", "what do you like", "What's your name?",
    "좋아해요?", "고양이 좋아해요?", "롤 좋아하니", "이름이 뭐야?", "어디 살아?",
    "好きですか", "ラーメン好き？", "お名前は？", "どこに住んでるの？",
    "你喜欢猫吗", "你叫什么名字？", "你住在哪里",
    # someone else
    "My brother likes cats", "She lives in Tokyo", "동생이 고양이를 좋아해", "엄마는 서울에 살아요",
    "弟は猫が好き", "彼女は東京に住んでいる", "他喜欢猫", "我妈妈住在上海",
    # nothing to keep
    "I love you", "I like it", "I love it so much", "大好き！", "좋아해요", "ok lol", "ㅋㅋㅋ",
    "I'd like a coffee", "Please call me back later", "I'm a bit tired", "我是好人",
    "I'm not allergic to anything", "my son is 5 years old", "동생은 25살이에요", "弟は22歳です",
    "他今年二十岁", "땅콩 알레르기 없어요", "卵アレルギーはないです",
    "我对花生不过敏", "",
]  # fmt: skip


@pytest.mark.parametrize("message", NOTHING_ABOUT_THE_VIEWER)
def test_questions_other_people_and_empty_statements_give_no_facts(message: str) -> None:
    assert facts_of(message) == []


@pytest.mark.parametrize(
    ("message", "disliked"),
    [
        ("I don't like cats", "cats"),
        ("I do not really like cats", "cats"),
        ("I never liked cats", "cats"),
        ("猫は好きじゃない", "猫"),
        ("猫が好きではありません", "猫"),
        ("我不喜欢猫", "猫"),
        ("我不太喜欢猫", "猫"),
        ("고양이 안 좋아해", "고양이"),
        ("고양이 좋아하지 않아요", "고양이"),
    ],
)
def test_negated_likes_are_dislikes_and_never_likes(message: str, disliked: str) -> None:
    texts = [fact.text for fact in facts_of(message)]
    assert any(t.endswith(f"dislikes {disliked}") for t in texts), texts
    assert not any(t.startswith(("likes", "really likes")) for t in texts), texts


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I like cats but I don't like dogs", {"likes cats", "dislikes dogs"}),
        ("고양이는 좋아하는데 개는 싫어요", {"likes 고양이", "dislikes 개"}),
        ("猫は好きだけど犬は嫌い", {"likes 猫", "dislikes 犬"}),
        ("我喜欢猫但是不喜欢狗", {"likes 猫", "dislikes 狗"}),
        ("내 이름은 민준이고 서울에 살아", {"name: 민준", "lives in 서울"}),
        ("I'm from Busan and I work at Samsung", {"is from Busan", "works at Samsung"}),
    ],
)
def test_several_facts_in_one_message(message: str, expected: set[str]) -> None:
    assert {fact.text for fact in facts_of(message)} == expected


def test_a_pet_name_is_not_taken_for_the_viewer_name() -> None:
    texts = [fact.text for fact in facts_of("猫を飼っています。名前はミケです")]
    assert "has a pet 猫" in texts
    assert not any(text.startswith("name:") for text in texts)


def test_strong_statements_are_more_confident_and_salient() -> None:
    (plain,) = facts_of("고양이 좋아해")
    (strong,) = facts_of("고양이 엄청 좋아해")
    assert strong.confidence > plain.confidence
    assert strong.salience > plain.salience


@pytest.mark.parametrize(
    "message",
    ["I don't really like mint chocolate", "민트초코 별로 안 좋아해", "我不太喜欢薄荷巧克力"],
)
def test_softened_dislikes_are_not_strong(message: str) -> None:
    (fact,) = facts_of(message)
    assert fact.text.startswith("dislikes ")
    assert fact.confidence == 0.75


def test_very_long_messages_are_read_without_trouble() -> None:
    assert facts_of("a" * 20_000) == []
    assert facts_of("가" * 20_000) == []
    assert facts_of(" " * 20_000 + "x") == []
    assert [f.text for f in facts_of("I like cats. " + "blah " * 50)] == ["likes cats"]


def test_a_fact_said_twice_is_extracted_once() -> None:
    facts = facts_of("I like cats. I really like cats!")
    assert len(facts) == 1


@pytest.mark.anyio
async def test_only_the_viewer_message_is_read() -> None:
    extractor = RuleFactExtractor()
    decisions = await extractor.extract(
        "오늘 점심 먹었어",
        "나는 고양이를 정말 좋아해! 내 이름은 하루야. I love cats and I live in Tokyo.",
        user_name="민준",
        existing=[],
    )
    assert decisions == []


@pytest.mark.anyio
async def test_the_extractor_adds_new_facts() -> None:
    decisions = await RuleFactExtractor().extract(
        "나 롤 게임 엄청 좋아해요!", "오 나도!", user_name=None, existing=[]
    )
    assert [(d.action, d.target_fact_id) for d in decisions] == [("add", None)]
    candidate = decisions[0].candidate
    assert candidate is not None
    assert candidate.category is FactCategory.PREFERENCE
    assert "롤 게임" in candidate.text


@settings(max_examples=200, deadline=None)
@given(message=st.text(max_size=200))
def test_any_text_gives_valid_candidates(message: str) -> None:
    for fact in facts_of(message):
        assert fact.text.strip()
        assert 0.0 <= fact.confidence <= 1.0
        assert 0.0 <= fact.salience <= 1.0
        assert fact.trust is TrustState.STATED


FRAGMENTS = [
    "나", "롤", "게임", "좋아해", "싫어", "이름은", "민준", "서울에", "살아", "?", "!", ",", " ",
    "猫", "が", "好き", "じゃない", "名前は", "ハル", "東京に住んで", "我", "喜欢", "不", "吃",
    "火锅", "叫", "I", "like", "don't", "love", "cats", "my name is", "live in", "Seoul",
    "do you", "every day", "always", "allergic to", "peanuts", "ㅋㅋ", "www",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from(FRAGMENTS), max_size=12))
def test_fragment_soup_gives_valid_short_candidates(pieces: list[str]) -> None:
    message = " ".join(pieces)
    facts = facts_of(message)
    assert len({fact.text for fact in facts}) == len(facts)
    for fact in facts:
        assert len(fact.text) <= 120
        assert fact.category in set(FactCategory)
