"""Facts told in passing (``memory.extraction.mentions``) and corrections of what was told.

The sentences here are written for these tests (not taken from the disclosure sets that
measure generalisation): each names one thing of a profile group in a shape the rules do
not read, or looks like it does and must give nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from omoide.domain import Fact, FactCategory, Scope, TrustState
from omoide.memory.extraction.clauses import split_sentences
from omoide.memory.extraction.decisions import decide
from omoide.memory.extraction.mentions import about_work, correcting_clause, told_kinds
from omoide.memory.extraction.misspeaking import says_misspoke
from omoide.memory.extraction.rules import find_facts
from omoide.memory.extraction.speaker import tells_of_the_viewer
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facet_cues import cued_facets
from omoide.memory.facets import Facet, facet_of
from omoide.memory.lexicon import Lexicon

SCOPE = Scope("haru", "viewer")
START = datetime(2025, 3, 1, tzinfo=UTC)

TOLD = [
    # (message, group, a word the fact's text keeps)
    ("우리 집 햄스터 호두가 케이지 탈출함 ㅋㅋ", Facet.PEOPLE, "호두"),
    ("うちのインコのピーちゃん朝からうるさいw", Facet.PEOPLE, "ピーちゃん"),
    ("我家仓鼠团子今天又越狱了", Facet.PEOPLE, "团子"),
    ("my grandma turned 90 and still beats me at cards", Facet.PEOPLE, "grandma"),
    ("복숭아 알러지 있어서 여름이 슬퍼요", Facet.HEALTH, "복숭아"),
    ("そば食べるとじんましん出るアレルギー体質", Facet.HEALTH, "そば"),
    ("芒果过敏，一吃嘴就肿", Facet.HEALTH, "芒果"),
    ("sesame allergy, so no bagels for me", Facet.HEALTH, "sesame"),
    ("다음 주에 운전면허 시험 봐요", Facet.PLANS, "운전면허"),
    ("来月姉の結婚式で京都行く", Facet.PLANS, "京都"),
    ("下周三答辩，紧张死了", Facet.PLANS, "答辩"),
    ("got my citizenship interview next tuesday", Facet.PLANS, "citizenship"),
    ("薬剤師やってます、今日は夜勤明け", Facet.IDENTITY, "薬剤師"),
    ("护士，三班倒", Facet.IDENTITY, "护士"),
    ("retired mailman here, 40 years on the route", Facet.IDENTITY, "mailman"),
    ("最近ポケカにどハマりしてる", Facet.LIKES, "ポケカ"),
    ("I'm obsessed with sourdough baking right now", Facet.LIKES, "sourdough"),
]

NOTHING = [
    "ㄹㅇ 개웃기네",  # 개-: "so", not a dog
    "냄새 미쳤다 ㅋㅋ",  # the 새 of 냄새 is no bird
    "아이돌 무대 봤어?",  # a question, and 아이 inside 아이돌
    "I had a hot dog at the game lol",
    "is your cat okay?",  # a question to someone else
    "your sister sings so well",  # about the one addressed
    "小雨是夜猫子吧",  # 夜猫子: a night owl
    "最近日が短くなったね",  # 短く of the days, not of replies
    "the fish tacos here slap",
]


@pytest.mark.parametrize(("message", "facet", "word"), TOLD)
def test_a_thing_told_in_passing_is_a_fact_in_its_group(
    message: str, facet: Facet, word: str
) -> None:
    found = find_facts(message)
    assert found, message
    assert any(_facet(c) is facet and word.casefold() in c.text.casefold() for c in found)


@pytest.mark.parametrize("message", NOTHING)
def test_words_that_only_look_like_a_group_give_no_fact(message: str) -> None:
    assert find_facts(message) == []


def test_the_same_sentence_told_again_confirms_it() -> None:
    (candidate,) = find_facts("우리 집 햄스터 호두가 케이지 탈출함")
    (again,) = decide(find_facts("우리 집 햄스터 호두가 케이지 탈출함!!"), [_fact("f1", candidate)])
    assert (again.action, again.target_fact_id) == ("confirm", "f1")


@pytest.mark.parametrize(
    ("told", "correction", "kept"),
    [
        (
            "my son's graduation is in Denver next month",
            "wait my bad, the graduation is in Boulder, I keep mixing it up",
            "Boulder",
        ),
        ("第一志望は北大の理学部です", "ごめん間違えた、正しくは九大の理学部です", "九大"),
        ("下个月去成都出差", "说错了，是去重庆出差", "重庆"),
        ("저 고3이에요", "아 정정할게요 재수생이에요", "재수생"),
    ],
)
def test_a_viewer_saying_they_misspoke_replaces_what_they_told_last(
    told: str, correction: str, kept: str
) -> None:
    (first,) = find_facts(told)
    older = _fact("older", find_facts("고양이 두 마리 키워요")[0], at=START)
    latest = _fact("latest", first, at=START + timedelta(days=1))
    (decision,) = decide(find_facts(correction), [latest, older])
    assert (decision.action, decision.target_fact_id) == ("update", "latest")
    assert decision.candidate is not None and kept in decision.candidate.text
    assert _facet(decision.candidate) is facet_of(latest)


@pytest.mark.parametrize(
    "message",
    [
        "아 잘못 씀 ㅋㅋ 목요일",
        "잠깐 내가 잘못 말함",
        "오타남 목요일임",
        "my phone autocorrected her name",
        "typo lol",
        "刚才写错了",
        "誤字った",
    ],
)
def test_chat_ways_of_saying_one_misspoke_are_read(message: str) -> None:
    assert says_misspoke(message)


def test_a_correction_with_nothing_told_before_is_added() -> None:
    (decision,) = decide(find_facts("my bad, the wedding is in Santa Barbara"), [])
    assert decision.action == "add"


def test_a_lexicon_matches_latin_words_whole_and_short_korean_words_as_words() -> None:
    lexicon = Lexicon(["cat", "개", "아이", "고양이", "猫"])
    assert lexicon.find("my cat") == "cat"
    assert lexicon.find("concatenate") is None
    assert lexicon.find("우리 개가") == "개"
    assert lexicon.find("개웃기네") is None
    assert lexicon.find("아이돌") is None
    assert lexicon.find("아이랑 놀았어") == "아이"
    assert lexicon.find("우리집고양이") == "고양이"
    assert lexicon.find("うちの猫") == "猫"
    assert sorted(lexicon) == sorted(["cat", "개", "아이", "고양이", "猫"])


def test_a_one_syllable_korean_word_takes_only_case_particles() -> None:
    """ "새해" (New Year) and "새로" (newly) are no bird; "새가", "뱀을" are."""
    lexicon = Lexicon(["새", "뱀", "아이"])
    assert lexicon.find("새해 복 많이 받으세요") is None
    assert lexicon.find("키보드 새로 샀어") is None
    assert lexicon.find("우리 새가 노래해") == "새"
    assert lexicon.find("뱀을 키워요") == "뱀"
    assert lexicon.find("아이로 태어나") == "아이"  # two syllables keep every particle


def _facet(candidate: FactCandidate) -> Facet:
    return facet_of(_fact("probe", candidate))


def _fact(fact_id: str, candidate: FactCandidate, *, at: datetime = START) -> Fact:
    return Fact(
        fact_id,
        SCOPE,
        candidate.text,
        candidate.category if candidate.category else FactCategory.PERSONAL,
        candidate.confidence,
        candidate.salience,
        at,
        at,
        slot=candidate.slot,
        terms=candidate.terms,
    )


def test_a_message_saying_it_misspoke_corrects_with_the_fact_it_states() -> None:
    # the fact and "I had it wrong" in two sentences of one message
    found = find_facts("동생한테 물어보니 제가 알러지 있는 건 키위래요;; 완전 잘못 알고 있었네요")
    assert [c.corrects for c in found] == [True]
    assert "키위" in found[0].text
    told = _fact("told", find_facts("키위 말고 딸기 알러지 있어요")[0])
    (decision,) = decide(found, [told])
    assert (decision.action, decision.target_fact_id) == ("update", "told")


def test_saying_one_was_wrong_corrects_the_fact_it_names_a_new_value_for() -> None:
    """ "I was wrong" (or mistaken) and then what holds: a correction, which replaces the
    fact it is most like, not a fact beside the one it corrects."""
    found = find_facts(
        "hold on, remember the concert date I gave you? I was wrong, read the ticket again, "
        "it's Friday the 9th at 8pm. my boyfriend laughed at me"
    )
    (correcting,) = [candidate for candidate in found if candidate.corrects]
    assert "Friday the 9th" in correcting.text
    concert = _fact("concert", find_facts("my first concert ever is Thursday the 8th at 8pm")[0])
    other = _fact("other", find_facts("I live in Leeds")[0], at=START + timedelta(days=1))
    decisions = decide(found, [concert, other])
    assert ("update", "concert") in {(d.action, d.target_fact_id) for d in decisions}
    assert not any(c.corrects for c in find_facts("I was mistaken about him, he's lovely"))


@pytest.mark.parametrize(
    ("message", "value"),
    [("my bad, it's Lisbon not Porto", "Lisbon"), ("잘못 말함 ㅋㅋ 3월 8일", "8")],
)
def test_saying_one_misspoke_then_the_value_in_the_next_clause_is_the_correction(
    message: str, value: str
) -> None:
    correction = correcting_clause(split_sentences(message))
    assert correction is not None and value in correction.text


def test_one_message_corrects_one_fact() -> None:
    found = find_facts("my bad, my sister lives in Austin. and my cat is called Pickles")
    assert sum(c.corrects for c in found) == 1


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("편의점 야간 알바 뛰어요", "드디어 취업했어요!! 은행 창구 직원"),
        ("在电子厂上班，天天加班", "我辞职了，现在在老家开了个面馆"),
        ("I'm a cashier at a grocery store", "finally got a job at the library, starting monday"),
        ("I'm a cashier at a grocery store", "first week at the bike shop done!! smell of grease"),
        ("在快递站上班，天天搬箱子", "我现在在一家花店上班啦"),
        ("居酒屋でバイトしてる", "古本屋でバイト始めた！静かで最高"),
        ("I'm a cashier at a grocery store", "first month done at the print shop, i run the press"),
        # where they work these days
        ("편의점 야간 알바 뛰어요", "요즘 볼링장에서 일하는데 신발 소독이 제일 귀찮아"),
        ("居酒屋でバイトしてる", "最近本屋で働いてるんだけど静かで最高"),
        ("I'm a cashier at a grocery store", "working at the garden centre now, my hands hurt"),
        ("居酒屋でバイトしてる", "花屋で働きはじめて2週間、手が荒れる"),
    ],
)
def test_a_viewer_saying_their_work_changed_replaces_what_they_did(before: str, after: str) -> None:
    (old,) = find_facts(before)
    home = _fact("home", find_facts("I live in Leeds")[0], at=START + timedelta(days=2))
    known = [_fact("work", old, at=START), home]
    (decision,) = decide(find_facts(after), known)
    assert (decision.action, decision.target_fact_id) == ("update", "work")


def test_more_work_told_without_a_change_is_added_beside_it() -> None:
    (old,) = find_facts("편의점 야간 알바 뛰어요")
    (decision,) = decide(find_facts("주말엔 카페 알바도 해요"), [_fact("work", old)])
    assert decision.action == "add"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("we got a kitten last week, calling her Mochi", "renamed the kitten, she's Turnip now"),
        ("우리 집 고양이 이름은 나비였는데", "고양이 이름을 호떡으로 바꿨어요"),
        ("我家的猫叫年糕，特别胖", "猫改名了，现在叫汤圆"),
    ],
)
def test_a_viewer_saying_a_told_thing_changed_replaces_the_fact_holding_its_word(
    before: str, after: str
) -> None:
    (old,) = find_facts(before)
    brother = _fact("brother", find_facts("my brother plays bass in a band")[0])
    known = [_fact("pet", old, at=START + timedelta(days=1)), brother]
    (decision,) = decide(find_facts(after), known)
    assert (decision.action, decision.target_fact_id) == ("update", "pet")


def test_news_about_a_told_thing_without_a_change_word_is_added_beside_it() -> None:
    (old,) = find_facts("we got a kitten last week, calling her Mochi")
    (decision,) = decide(find_facts("my kitten is sick now, vet tomorrow"), [_fact("pet", old)])
    assert decision.action == "add"


def test_a_change_naming_another_thing_of_the_group_replaces_nothing() -> None:
    (old,) = find_facts("we got a kitten last week, calling her Mochi")
    (decision,) = decide(find_facts("my sister renamed her dog to Pudding"), [_fact("pet", old)])
    assert decision.action == "add"


@pytest.mark.parametrize(
    "message",
    [
        "亡くなったばあちゃんの指輪、ずっと着けてる",
        "お父さんの車で免許の練習してる",
        "할머님의 김치 레시피 배우는 중",
        "兄さんの結婚式で司会やることになった",
    ],
)
def test_a_relatives_honorific_is_about_the_viewer_not_the_stream(message: str) -> None:
    """ "ちゃんの" / "님의" after a streamer's name is about the stream; after a relative
    ("ばあちゃんの", "할머님의") it is the viewer's own family."""
    sentence = split_sentences(message)[0]
    assert tells_of_the_viewer(sentence) is not None
    assert tells_of_the_viewer(split_sentences("はるちゃんの声すき")[0]) is None
    assert tells_of_the_viewer(split_sentences("하루님의 노래 최고")[0]) is None


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("我家的猫叫年糕，特别胖", "给猫换了个新猫砂盆，它好像挺满意"),
        ("we got a kitten last week, calling her Mochi", "switched my kitten to wet food"),
    ],
)
def test_news_of_a_pet_with_a_change_word_but_no_new_name_replaces_nothing(
    before: str, after: str
) -> None:
    (old,) = find_facts(before)
    decisions = decide(find_facts(after), [_fact("pet", old)])
    assert decisions and all(decision.action == "add" for decision in decisions)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("ピアノ講師してて毎晩レッスンで遅い", "転職した！来月から図書館で働く"),
        ("在奶茶店兼职，周末最忙", "换工作了，现在在书店上班"),
        ("카페 알바 하는데 손목 아파", "알바 바꿈 이제 편의점"),
    ],
)
def test_a_work_change_replaces_any_fact_naming_the_viewers_work(before: str, after: str) -> None:
    """What they did may have been read as a habit or a told thing, not as work: a fact
    naming their job still is what a change of work replaces."""
    old = find_facts(before)[0]
    known = [_fact("before", old, at=START)]
    decisions = decide(find_facts(after), known)
    assert ("update", "before") in {(d.action, d.target_fact_id) for d in decisions}


@pytest.mark.parametrize(
    ("first", "second", "after"),
    [
        ("영화관 알바 해요", "영화관 마감조라 맨날 늦게 끝남", "알바 옮김!! 이제 볼링장에서 일함"),
        ("塾講師やってます", "残業ばっかりで毎晩遅い", "転職決まった！来月から市役所で働きます"),
        (
            "I work at a cinema downtown",
            "I have closing shifts every night",
            "finally got a job at the library",
        ),
    ],
)
def test_a_work_change_ends_what_else_was_told_of_the_work_left(
    first: str, second: str, after: str
) -> None:
    """The job replaced and its shifts both told before: the change replaces one and ends
    the other (not contradicted: it held until then); a relative's work is not the viewer's."""
    sister = _fact("sister", find_facts("my sister works at a hospital")[0])
    known = [
        _fact("job", find_facts(first)[0]),
        _fact("shift", find_facts(second)[0], at=START + timedelta(days=1)),
        sister,
    ]
    decisions = decide(find_facts(after), known)
    done = {(d.target_fact_id, d.action) for d in decisions if d.target_fact_id}
    assert {target for target, _action in done} == {"job", "shift"}
    assert "end" in {action for _target, action in done}


@pytest.mark.parametrize("weighing", ["転職考え中", "이직 고민 중이에요", "想辞职了"])
def test_weighing_a_change_of_work_is_no_change(weighing: str) -> None:
    found = find_facts(weighing)
    assert found and not any(candidate.changes for candidate in found)
    assert find_facts("転職した")[0].changes


@pytest.mark.parametrize(
    ("message", "now"),
    [
        ("알바 옮김!! 이제 동네 볼링장에서 일함 ㅋㅋ", "볼링장"),
        ("バイト変えた！今は駅前の本屋で働いてる", "本屋"),
        ("终于辞职了。现在在一家咖啡店打工", "咖啡店"),
    ],
)
def test_a_change_told_in_a_few_words_holds_the_next_sentence(message: str, now: str) -> None:
    changes = [candidate for candidate in find_facts(message) if candidate.changes]
    assert changes and now in changes[0].text
    assert "방송" not in find_facts("알바 옮김!! 오늘 방송 뭐 해요?")[0].text


@pytest.mark.parametrize(
    ("message", "right"),
    [
        ("아 내가 본캐 잘못 말함 ㅋㅋ 헷갈렸네. 본캐는 메르시임", "메르시"),
        ("my phone autocorrected her name lol. it is Xochitl, with an X", "Xochitl"),
    ],
)
def test_a_correction_holds_the_right_value_told_in_the_next_sentence(
    message: str, right: str
) -> None:
    """ "I misspoke" in one sentence, the right value in the next (which tells no fact of its
    own): the correction is the pair, so what holds now is remembered."""
    (correction,) = find_facts(message)
    assert correction.corrects and right in correction.text
    # a next sentence telling a fact of its own is that fact, corrected
    (own,) = find_facts("ごめん、さっき打ち間違えた。妹の名前はミサキ")
    assert own.corrects and own.text == "妹の名前はミサキ"


def test_a_correction_naming_what_holds_is_the_correction_not_a_fact_beside_it() -> None:
    """ "school name, I said it wrong: it's Leiden" beside a habit in the same sentence: the
    correction is what names Leiden, and it replaces the fact it is most like."""
    message = "아 아까 학교 이름 잘못 말함 ㅋㅋ it's Leiden, 둘이 맨날 헷갈려 서류에 다 써있는데"
    correcting = [candidate for candidate in find_facts(message) if candidate.corrects]
    assert [candidate.text for candidate in correcting] == ["아까 학교 이름 잘못 말함 it's Leiden"]
    school = _fact("school", find_facts("Utrecht 대학교로 확정됨 교환학생 가")[0])
    other = _fact("other", find_facts("주말엔 편의점 알바 함")[0])
    decisions = decide(find_facts(message), [school, other])
    assert ("update", "school") in {(d.action, d.target_fact_id) for d in decisions}
    # saying only that one misspoke names nothing: the fact beside it corrects
    (only,) = [c for c in find_facts("Sorry, I had it wrong. The party is on Friday") if c.corrects]
    assert "Friday" in only.text


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("来月の旅行、京都に決めた", "やっぱり旅行先、金沢に変更した"),
        ("다음 달 여행은 부산으로 정했어요", "여행지 강릉으로 바꿨어요"),
    ],
)
def test_a_changed_plan_replaces_the_plan_without_saying_its_date_again(
    before: str, after: str
) -> None:
    (old,) = find_facts(before)
    decisions = decide(find_facts(after), [_fact("trip", old)])
    assert ("update", "trip") in {(d.action, d.target_fact_id) for d in decisions}


@pytest.mark.parametrize(
    "message",
    [
        "我恐高特别严重 站在三楼阳台往下看腿都软 小时候从滑梯上摔下来过",
        "乳糖不耐症で牛乳飲むとお腹がすぐ壊れる アイスも一口ならいける",
        "うちのクサガメのトト、今年で十歳なんよ、長生きすぎん？",
        "i nearly drowned in a lake when i was 9, deep water still scares me",
        "说出来你别笑 我对芒果过敏 吃一口就起疹子",
        "给你看看我家的鹦鹉小绿 三岁了",
    ],
)
def test_a_sentence_that_states_a_thing_before_its_story_or_question_may_tell_it(
    message: str,
) -> None:
    """Chat tells a thing, then its story, its exception or a question about it; a
    formulaic "don't laugh" or "let me show you" says nothing to the streamer."""
    assert tells_of_the_viewer(split_sentences(message)[0]) is not None


@pytest.mark.parametrize(
    "message",
    ["如果我有钱我就买车", "If I had a dog I would walk it", "when I was a kid I had a dog"],
)
def test_a_sentence_hypothetical_or_past_from_its_start_tells_nothing(message: str) -> None:
    assert tells_of_the_viewer(split_sentences(message)[0]) is None
    assert tells_of_the_viewer(split_sentences("我喜欢你的声音")[0]) is None


@pytest.mark.parametrize(
    ("message", "tells"),
    [
        ("今日帰ったらインコが肩に飛んできて、疲れ全部消えた", True),
        ("行ったら楽しかった", True),
        ("もし宝くじ当たったら家買う", False),
        ("合格したらお祝いしたいな", False),
    ],
)
def test_a_japanese_tara_told_in_the_past_is_a_moment_not_a_condition(
    message: str, tells: bool
) -> None:
    assert (tells_of_the_viewer(split_sentences(message)[0]) is not None) is tells


def test_a_japanese_place_starting_with_a_chinese_demonstrative_is_no_this_or_that() -> None:
    assert tells_of_the_viewer(split_sentences("那覇のアパート、窓開けたらヤモリいた")[0])
    assert tells_of_the_viewer(split_sentences("那首歌我超喜欢")[0]) is None


def test_starting_a_class_or_renting_a_flat_is_no_change_of_work() -> None:
    """ "アパート" holds no part-time job, and a class started ("三線教室通い始めた") with a
    teacher in it is no new job: neither replaces what the viewer does for a living."""
    job = _fact("job", find_facts("在宅でWebデザイナーやってます")[0])
    said = FactCandidate(
        "那覇のアパート、窓開けたらヤモリいた", FactCategory.PERSONAL, 0.6, 0.5, TrustState.STATED
    )
    flat = _fact("flat", said)
    decisions = decide(find_facts("三線教室通い始めた、先生80歳で超元気"), [job, flat])
    assert all(d.action == "add" for d in decisions)
    assert about_work("スーパーでパートしてる")


@pytest.mark.parametrize(
    ("message", "told"),
    [
        ("who puts mushrooms in a lasagne. my mum. my mum does", False),
        ("my dad lol", False),
        ("우리 엄마", False),
        ("うちの母", False),
        ("我妈", False),
        ("my mum is a nurse", True),
        ("우리 엄마 간호사야", True),
        ("うちの母が入院した", True),
        ("我妈做饭", True),
    ],
)
def test_naming_a_person_without_telling_anything_of_them_is_no_fact(
    message: str, told: bool
) -> None:
    assert bool(find_facts(message)) is told


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        # a less common pet is a pet in every language
        ("집 오니까 레오파드 게코가 허물 벗는 중", "told_people"),
        ("うちのヤモリ、今日もじっとしてる", "told_people"),
        ("我养的守宫今天蜕皮了", "told_people"),
        ("my guppies had babies again", "told_people"),
        ("우리집 구피 새끼 낳았어", "told_people"),
        # working at a place tells work
        ("요즘 아쿠아리움 매표소에서 일해", "told_work"),
        ("working at the garden centre now", "told_work"),
        ("我在一家书店工作", "told_work"),
        ("駅前のカフェで勤務してる", "told_work"),
    ],
)
def test_a_pet_or_work_is_read_in_every_language(message: str, kind: str) -> None:
    assert kind in told_kinds(message)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        # a word that names a pet elsewhere is no pet here
        ("베타 테스트 당첨됨", "told_people"),
        ("我在斗鱼开播了", "told_people"),
        ("a beta key finally", "told_people"),
        # working on something is not work
        ("working on my essay all night", "told_work"),
    ],
)
def test_a_word_of_a_pet_or_work_elsewhere_is_neither(message: str, kind: str) -> None:
    assert kind not in told_kinds(message)


@pytest.mark.parametrize(
    "message", ["주말 출근 진짜 싫다", "バイト終わった", "打工好累", "알바 끝"]
)
def test_going_to_work_cues_who_the_viewer_is(message: str) -> None:
    """A job (who the viewer is) comes up when the viewer talks of going to work."""
    assert Facet.IDENTITY in cued_facets(message)
