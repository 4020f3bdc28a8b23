"""Rule facts in the viewer's own words, typed by category, slot and terms, in four languages.

Each row: a message, the category, the slot's prefix (the part before ":"), and terms the
fact must carry. The fact's text must be the viewer's own words: it keeps the row's terms,
and a fact in Korean, Japanese or Chinese carries no English word the viewer did not say.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.domain import FactCategory, TrustState
from omoide.memory.extraction.clauses import asks_something
from omoide.memory.extraction.rules import RuleFactExtractor, find_facts
from omoide.memory.extraction.values import FactCandidate

PREF, PERS, HABIT = FactCategory.PREFERENCE, FactCategory.PERSONAL, FactCategory.HABIT
GOAL, FEEL = FactCategory.GOAL, FactCategory.EMOTION

Row = tuple[str, FactCategory, str, tuple[str, ...]]

KOREAN: list[Row] = [
    ("나 요즘 메이플 완전 좋아해", PREF, "like", ("메이플",)),
    ("오이는 진짜 싫어요", PREF, "dislike", ("오이",)),
    ("요즘 원신에 푹 빠져서 밤새 하고 있어요", PREF, "game_now", ("원신",)),
    ("오버워치 접었어요 이제", PREF, "quit", ("오버워치",)),
    ("제 취미는 뜨개질이에요", PREF, "hobby", ("뜨개질",)),
    ("제 이름은 서연이에요", PERS, "name", ("서연",)),
    ("그냥 연이라고 불러줘", PERS, "nickname", ("연",)),
    ("저는 스물다섯 간호사예요", PERS, "job", ("간호사",)),
    ("판교에서 일하고 있어요", PERS, "workplace", ("판교",)),
    ("한국대학교 다니고 있어요", PERS, "school", ("한국대학교",)),
    ("저 지금 대전에 살아요", PERS, "home", ("대전",)),
    ("원래 제주도 출신이에요", PERS, "hometown", ("제주도",)),
    ("저 고양이 두 마리 키워요", PERS, "pet", ("고양이",)),
    ("우리 강아지 이름은 보리예요", PERS, "pet", ("보리", "강아지")),
    ("우리 언니 이름은 지수야", PERS, "person", ("지수", "언니")),
    ("제 생일은 11월 3일이에요", PERS, "birthday", ("11월 3일",)),
    ("저 새우 알레르기 있어요", PERS, "allergy", ("새우",)),
    ("술은 못 마셔요", PERS, "limit", ("술",)),
    ("저 요즘 다이어트 중이에요", PERS, "diet", ("다이어트",)),
    ("허리가 요즘 계속 아파요", PERS, "health", ("허리",)),
    ("편하게 반말해도 돼", PERS, "style", ()),
    ("다음 주 금요일에 기말고사 있어요", GOAL, "plan", ("다음 주", "기말고사")),
    ("모레 제주도로 여행 가요!!", GOAL, "plan", ("모레", "여행")),
    ("성우가 되고 싶어요", GOAL, "goal", ("성우",)),
    ("매일 아침 조깅해요", HABIT, "habit", ("조깅해요",)),
    ("엄마가 아프셔서 너무 걱정돼요", FEEL, "care", ("엄마",)),
    ("야근 때문에 요즘 너무 피곤해요 ㅠㅠ", FEEL, "situation", ("야근",)),
    ("우리 집 포메 이름이 콩이거든요 오늘 미용했어요", PERS, "pet", ("콩", "포메")),
    ("동생 이름 Jacob이에요", PERS, "person", ("Jacob",)),
    ("아버지가 허리 수술 받으셔서 병원 다녀요", FEEL, "care", ("아버지",)),
    ("저 고소공포증 있어요", PERS, "fear", ("고소",)),
    ("남친이랑 결국 헤어졌어요", FEEL, "person", ("남친",)),
    ("수영 다시 시작했어요", HABIT, "habit", ("수영",)),
    ("금연 중이에요 벌써 열흘째", PREF, "quit", ("금연",)),
    ("이번에 광주로 발령 나서 이사했어요", PERS, "home", ("광주",)),
    ("스타듀밸리 500시간 했어요", PREF, "like", ("스타듀밸리",)),
]

JAPANESE: list[Row] = [
    ("私、抹茶のお菓子がめっちゃ好き", PREF, "like", ("抹茶のお菓子",)),
    ("セロリは苦手なんだよね", PREF, "dislike", ("セロリ",)),
    ("最近スプラにハマってて毎晩やってる", PREF, "game_now", ("スプラ",)),
    ("最近ボードゲームにハマってます", PREF, "game_now", ("ボードゲーム",)),
    ("趣味は御朱印集めです", PREF, "hobby", ("御朱印集め",)),
    ("名前はさくらです", PERS, "name", ("さくら",)),
    ("はるって呼んでね", PERS, "nickname", ("はる",)),
    ("仕事は看護師をしています", PERS, "job", ("看護師",)),
    ("渋谷の会社で働いてる", PERS, "workplace", ("渋谷の会社",)),
    ("北海道大学に通ってます", PERS, "school", ("北海道大学",)),
    ("今は福岡に住んでるよ", PERS, "home", ("福岡",)),
    ("出身は沖縄じゃなくて、広島出身です", PERS, "hometown", ("広島",)),
    ("うちでハムスターを飼ってます", PERS, "pet", ("ハムスター",)),
    ("犬の名前はポチです", PERS, "pet", ("ポチ", "犬")),
    ("妹が二人いるんだ", PERS, "person", ("妹",)),
    ("誕生日は7月21日です", PERS, "birthday", ("7月21日",)),
    ("そばアレルギーなんです", PERS, "allergy", ("そば",)),
    ("お酒は飲めないんです", PERS, "limit", ("お酒",)),
    ("実はベジタリアンなんです", PERS, "diet", ("ベジタリアン",)),
    ("最近ずっと腰が痛くて", PERS, "health", ("腰",)),
    ("タメ口でいいよ", PERS, "style", ()),
    ("来週の水曜日に面接があります", GOAL, "plan", ("来週の水曜日", "面接")),
    ("明日から京都に旅行に行く予定", GOAL, "plan", ("明日", "旅行")),
    ("将来は絵本作家になりたい", GOAL, "goal", ("絵本作家",)),
    ("毎朝コーヒーを淹れて飲んでる", HABIT, "habit", ()),
    ("母が入院してて、母のことがすごく心配", FEEL, "care", ("母",)),
    ("残業続きでもうクタクタ", FEEL, "situation", ("残業",)),
    ("実家の柴犬、こてつって言うんだけど可愛い", PERS, "pet", ("こてつ", "柴犬")),
    ("うちのハリネズミ、もなかって名前です", PERS, "pet", ("もなか",)),
    ("親父が脳梗塞で倒れて入院してる", FEEL, "care", ("親父",)),
    ("俺ガチの高所恐怖症", PERS, "fear", ("高所",)),
    ("彼氏と別れた", FEEL, "person", ()),
    ("最近筋トレ始めた", HABIT, "habit", ("筋トレ",)),
    ("禁煙中です", PREF, "quit", ("禁煙",)),
    ("神戸住み", PERS, "home", ("神戸",)),
]

CHINESE: list[Row] = [
    ("我特别喜欢吃麻辣烫", PREF, "like", ("麻辣烫",)),
    ("我不太喜欢看恐怖片", PREF, "dislike", ("恐怖片",)),
    ("最近迷上了原神，天天玩到半夜", PREF, "game_now", ("原神",)),
    ("王者荣耀我已经退坑了", PREF, "quit", ("王者荣耀",)),
    ("我的爱好是摄影", PREF, "hobby", ("摄影",)),
    ("我叫李明", PERS, "name", ("李明",)),
    ("叫我小明就行", PERS, "nickname", ("小明",)),
    ("我是一名程序员", PERS, "job", ("程序员",)),
    ("我在一家银行上班", PERS, "workplace", ("一家银行",)),
    ("我在复旦大学读书", PERS, "school", ("复旦大学",)),
    ("我现在住在杭州", PERS, "home", ("杭州",)),
    ("我老家在东北", PERS, "hometown", ("东北",)),
    ("我家养了两只猫", PERS, "pet", ("猫",)),
    ("我的狗狗叫旺财", PERS, "pet", ("旺财", "狗狗")),
    ("我姐姐叫小雨", PERS, "person", ("小雨", "姐姐")),
    ("我的生日是五月二十号", PERS, "birthday", ("五月二十号",)),
    ("我对芒果过敏", PERS, "allergy", ("芒果",)),
    ("我不喝酒", PERS, "limit", ("酒",)),
    ("我最近在减肥", PERS, "diet", ("减肥",)),
    ("我腰一直疼", PERS, "health", ("腰",)),
    ("说话随意一点就好", PERS, "style", ()),
    ("下周三我有个面试", GOAL, "plan", ("下周三", "面试")),
    ("明天要去成都旅游了", GOAL, "plan", ("明天", "旅游")),
    ("我想成为一名医生", GOAL, "goal", ("医生",)),
    ("我每天早上都跑步", HABIT, "habit", ("跑步",)),
    ("我很担心我奶奶的身体", FEEL, "situation", ()),
    ("最近加班太多，好累", FEEL, "situation", ()),
    ("我自己家那只黑猫叫煤球", PERS, "pet", ("煤球", "黑猫")),
    ("我家柯基叫阿福", PERS, "pet", ("阿福", "柯基")),
    ("我妈上个月住院了", FEEL, "care", ("妈",)),
    ("我这辈子最怕的就是蛇", PERS, "fear", ("蛇",)),
    ("我和男朋友分手了", FEEL, "person", ()),
    ("我最近开始学吉他", HABIT, "habit", ("吉他",)),
    ("我开始戒烟了", PREF, "quit", ("烟",)),
    ("住在天津", PERS, "home", ("天津",)),
]

ENGLISH: list[Row] = [
    ("I absolutely love spicy ramen", PREF, "like", ("spicy ramen",)),
    ("I can't stand country music tbh", PREF, "dislike", ("country music",)),
    ("I've been playing Stardew Valley a lot lately", PREF, "game_now", ("Stardew Valley",)),
    ("I'm hooked on Elden Ring, been grinding it all week", PREF, "game_now", ("Elden Ring",)),
    ("I quit Fortnite last month", PREF, "quit", ("Fortnite",)),
    ("My hobby is bouldering", PREF, "hobby", ("bouldering",)),
    ("My name is Priya", PERS, "name", ("Priya",)),
    ("just call me Sam", PERS, "nickname", ("Sam",)),
    ("I work as a paramedic", PERS, "job", ("paramedic",)),
    ("I work at a bakery downtown", PERS, "workplace", ("a bakery downtown",)),
    ("I go to Ohio State University", PERS, "school", ("Ohio State University",)),
    ("I live in Melbourne", PERS, "home", ("Melbourne",)),
    ("I grew up in Manila", PERS, "hometown", ("Manila",)),
    ("I have a rescue dog named Biscuit", PERS, "pet", ("Biscuit", "dog")),
    ("My little brother is named Theo", PERS, "person", ("Theo", "brother")),
    ("My birthday is on March 14th", PERS, "birthday", ("March 14th",)),
    ("I'm allergic to shellfish", PERS, "allergy", ("shellfish",)),
    ("I don't drink coffee", PERS, "limit", ("coffee",)),
    ("I'm vegan, btw", PERS, "diet", ("vegan",)),
    ("I have asthma", PERS, "health", ("asthma",)),
    ("You can talk to me casually", PERS, "style", ()),
    ("I have a job interview tomorrow", GOAL, "plan", ("tomorrow", "interview")),
    ("We're going on a trip to Lisbon next week", GOAL, "plan", ("next week", "trip")),
    ("I want to become a pilot", GOAL, "goal", ("pilot",)),
    ("I usually go for a run after work", HABIT, "habit", ()),
    ("I'm so worried about my dad's surgery results", FEEL, "situation", ()),
    ("I've been exhausted from all the overtime", FEEL, "situation", ()),
    ("my beagle Biscuit just ate an entire sock", PERS, "pet", ("Biscuit", "beagle")),
    ("my tortoise Sheldon is 40 years old", PERS, "pet", ("Sheldon",)),
    ("my mom is in the hospital again", FEEL, "care", ("mom",)),
    ("I'm honestly terrified of flying", PERS, "fear", ("flying",)),
    ("my girlfriend and I broke up last night", FEEL, "person", ("girlfriend",)),
    ("I just took up bouldering", HABIT, "habit", ("bouldering",)),
    ("uninstalled overwatch", PREF, "quit", ("overwatch",)),
    ("we moved to Seattle for my partner's new job", PERS, "home", ("Seattle",)),
    ("I have like 600 hours in Stardew Valley", PREF, "like", ("Stardew Valley",)),
]

_ASCII_WORD = re.compile(r"[A-Za-z]{2,}")


def _slot_prefix(candidate: FactCandidate) -> str:
    return (candidate.slot or "").partition(":")[0]


def _check(row: Row, *, cjk: bool) -> None:
    message, category, prefix, terms = row
    found = find_facts(message)
    assert found, f"no fact in {message!r}"
    fact = found[0]
    assert (fact.category, _slot_prefix(fact)) == (category, prefix), (message, fact)
    for term in terms:
        assert any(term in said for said in fact.terms), (message, fact.terms)
        assert term in fact.text, (message, fact.text)
    assert fact.trust is TrustState.STATED
    if cjk:
        added = set(_ASCII_WORD.findall(fact.text)) - set(_ASCII_WORD.findall(message))
        assert not added, f"English words {added} around {message!r}"
    assert fact.text in message or fact.text.replace("，", ",") in message.replace("，", ",")


@pytest.mark.parametrize("row", KOREAN, ids=[row[0] for row in KOREAN])
def test_korean_disclosures_keep_the_viewers_words(row: Row) -> None:
    _check(row, cjk=True)


@pytest.mark.parametrize("row", JAPANESE, ids=[row[0] for row in JAPANESE])
def test_japanese_disclosures_keep_the_viewers_words(row: Row) -> None:
    _check(row, cjk=True)


@pytest.mark.parametrize("row", CHINESE, ids=[row[0] for row in CHINESE])
def test_chinese_disclosures_keep_the_viewers_words(row: Row) -> None:
    _check(row, cjk=True)


@pytest.mark.parametrize("row", ENGLISH, ids=[row[0] for row in ENGLISH])
def test_english_disclosures_keep_the_viewers_words(row: Row) -> None:
    _check(row, cjk=False)


def test_every_table_covers_every_kind() -> None:
    kinds = {prefix for _m, _c, prefix, _t in KOREAN}
    for table in (JAPANESE, CHINESE, ENGLISH):
        assert len(table) >= 25
        assert {prefix for _m, _c, prefix, _t in table} >= kinds - {"quit"}


NOTHING = [
    # liking the stream, its music, the character or "this"
    "このBGMすき",
    "ひなちゃんの笑い声すき",
    "I love this part",
    "I love your voice",
    "하루님 목소리 너무 좋아",
    "이 노래 좋아해요",
    "我喜欢这首歌",
    "我喜欢主播的声音",
    # questions
    "너 고양이 좋아해?",
    "혹시 롤 해요?",
    "猫は好きですか？",
    "你喜欢吃火锅吗",
    "Do you like horror movies?",
    "where do you live",
    # someone else's facts, of no one the viewer names as theirs
    "他喜欢打篮球",
    "She lives in Boston",
    "My coworker hates Mondays",
    # hypotheticals and the past
    "만약 강아지 키우면 이름은 콩이로 할 거야",
    "もし猫を飼ったら名前はタマにする",
    "如果我有猫的话，我会叫它咪咪",
    "If I had a cat I would call her Luna",
    "I used to live in Denver",
    # greetings, laughter, small talk
    "안녕하세요 ㅎㅎ",
    "ㅋㅋㅋㅋㅋ",
    "오늘 비 와요",
    "おはよう〜",
    "草",
    "哈哈哈哈",
    "今天天气不错",
    "gn everyone",
    "lol same",
    "nice weather today",
]


@pytest.mark.parametrize(
    "message", ["동생이 고양이를 좋아해요", "친구는 서울에 살아", "彼氏はラーメンが大好き"]
)
def test_what_a_relative_or_friend_does_is_told_about_them_not_the_viewer(message: str) -> None:
    # the viewer's sibling likes cats: a fact about the people in their life, in their
    # words, never "likes cats" or "lives in Seoul" of the viewer
    (candidate,) = find_facts(message)
    assert candidate.text == message
    assert candidate.slot is not None and candidate.slot.startswith("told_people:")


@pytest.mark.parametrize("message", NOTHING)
def test_questions_others_hypotheticals_and_small_talk_are_not_facts(message: str) -> None:
    assert find_facts(message) == []


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("고양이는 좋아하는데 개는 싫어", ["like", "dislike"]),
        ("I live in Leeds, and I work as a teacher", ["home", "job"]),
        ("猫は好きだけど、犬は苦手", ["like", "dislike"]),
    ],
)
def test_one_sentence_stating_different_things_gives_one_fact_each(
    message: str, expected: list[str]
) -> None:
    found = find_facts(message)
    assert [_slot_prefix(fact) for fact in found] == expected
    assert all(fact.text in message for fact in found)


def test_fillers_laughter_and_emoji_are_trimmed_not_the_words() -> None:
    (fact,) = find_facts("음.. 저 요즘 떡볶이 진짜 좋아해요 ㅋㅋㅋ 😋")
    assert fact.text == "저 요즘 떡볶이 진짜 좋아해요"
    (fact,) = find_facts("哈哈哈 我养了一只兔子呀")
    assert fact.text == "我养了一只兔子"


def test_a_strong_like_is_more_confident() -> None:
    (plain,) = find_facts("I like jazz")
    (strong,) = find_facts("I really love jazz")
    assert strong.confidence > plain.confidence
    assert strong.salience > plain.salience


@pytest.mark.anyio
async def test_the_characters_reply_never_becomes_a_fact() -> None:
    decisions = await RuleFactExtractor().extract(
        "오늘도 와줬네",
        "저는 고양이를 정말 좋아해요! 제 이름은 하루예요",
        user_name=None,
        existing=[],
    )
    assert decisions == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_well_formed_facts(message: str) -> None:
    for fact in find_facts(message):
        assert fact.text.strip() and len(fact.text) <= 240
        assert all(term.strip() for term in fact.terms)


@pytest.mark.parametrize(
    ("message", "setup"),
    [
        ("왕관앵무 코코 6살인데 아침마다 내 이름 부름", "왕관앵무 코코"),
        ("대학 국악 동아리에서 해금 하는데 11월에 정기공연 있어", "해금"),
        ("4월에 하프 마라톤 나가려고 매일 뛰어요", "하프 마라톤"),  # a purpose
    ],
)
def test_a_korean_clause_that_sets_up_the_fact_is_part_of_it(message: str, setup: str) -> None:
    """ "X인데 / X하는데" gives the background of what follows: the very thing it is about."""
    (fact,) = find_facts(message)
    assert setup in fact.text
    (own,) = find_facts("동생이 학교 가는데 나는 매일 운동해")
    assert "동생" not in own.text


@pytest.mark.parametrize(
    ("message", "before"),
    [
        ("저 어릴 때부터 천둥 치면 이불 속에 숨어요... 아직도 무서워요", "천둥"),
        ("子供の頃エレベーターに閉じ込められた。今でも怖い", "エレベーター"),
    ],
)
def test_a_short_fact_going_on_from_the_sentence_before_holds_it(message: str, before: str) -> None:
    """ "아직도 무서워요" alone says nothing a friend could bring up; with its sentence it does."""
    assert any(before in fact.text for fact in find_facts(message))
    # a sentence telling its own fact keeps it; the "still" fact is not joined to it
    found = find_facts("저 고양이 키워요. 아직도 무서워요")
    assert all(not ("고양이" in fact.text and "무서워요" in fact.text) for fact in found)


@pytest.mark.parametrize(
    "message",
    ["my bad, the stream lagged for me", "I mean, 2 hours of stream is a lot"],
)
def test_saying_only_that_one_misspoke_corrects_nothing(message: str) -> None:
    assert not any(fact.corrects for fact in find_facts(message))


def test_a_short_still_fact_with_its_own_what_or_after_talk_to_the_stream_stays_alone() -> None:
    assert [f.text for f in find_facts("오늘 비 온다던데. 지금도 서울 살아요")] == [
        "지금도 서울 살아요"
    ]
    assert [f.text for f in find_facts("방송 왜 이렇게 늦게 켰어. 아직도 무서워요")] == [
        "아직도 무서워요"
    ]


def test_an_emoji_inside_a_fact_keeps_its_value() -> None:
    assert any("3월 8일" in fact.text for fact in find_facts("제 생일은 🎂 3월 8일이에요"))


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("can u call me Wren? it's my middle name", "Wren"),
        ("could you call me Bea from now on?", "Bea"),
        ("저 민지라고 불러줄래요?", "민지"),
        ("ミオって呼んでくれる？", "ミオ"),
        ("你能叫我小北吗？", "小北"),
    ],
)
def test_asking_to_be_called_a_name_tells_the_name(message: str, name: str) -> None:
    """A request asked as a question tells the viewer's name; asking for a call back does
    not, and stays a question."""
    nicknames = [fact for fact in find_facts(message) if fact.slot == "nickname"]
    assert len(nicknames) == 1 and name in nicknames[0].text
    assert asks_something("can you call me back later?")
    assert not find_facts("can you call me when you're free?")


@pytest.mark.parametrize(
    ("message", "told"),
    [
        ("转行了，现在在宠物店上班，每天给狗洗澡", "宠物店"),
        ("이직했어요 지금은 꽃집에서 일함 ㅋㅋ 매일 아침 7시에 출근", "꽃집"),
    ],
)
def test_what_the_clauses_before_a_rules_fact_tell_in_passing_is_kept(
    message: str, told: str
) -> None:
    """A habit the rules read in the last clause; the change of work told before it is a
    fact of its own, and a change."""
    found = find_facts(message)
    (work,) = [fact for fact in found if told in fact.text]
    assert work.changes and work.slot is not None and work.slot.startswith("told_work:")
    assert any(fact.slot is not None and fact.slot.startswith("habit:") for fact in found)


def test_a_clause_setting_something_aside_is_not_told() -> None:
    assert [fact.text for fact in find_facts("出身は沖縄じゃなくて、広島出身です")] == [
        "広島出身です"
    ]


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("你喜欢什么游戏", True),
        ("周末去哪玩", True),
        ("被问做什么工作，我说在殡仪馆上班", False),
        ("今天不知道吃什么", False),
        ("我问他哪天有空", False),
        ("你还记得我养的猫叫什么", True),
        ("我想问你喜欢什么颜色", True),
        ("想问问主播喜欢什么", True),
    ],
)
def test_a_question_word_after_asking_or_knowing_is_a_question_told(
    message: str, asked: bool
) -> None:
    """ "被问做什么工作" tells that someone asked; the viewer asks nothing, and what the
    same sentence states stays readable."""
    assert asks_something(message) is asked


def test_a_statement_after_a_question_told_is_read() -> None:
    (fact,) = find_facts("被问做什么工作，我说在殡仪馆上班")
    assert "殡仪馆" in fact.text
