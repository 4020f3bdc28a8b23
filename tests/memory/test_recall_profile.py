"""The viewer profile, repeats and the relevance gate on the reply path (real SQLite)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Episode, Fact, FactCategory, Scope
from omoide.memory.context import PROFILE_HEADER
from omoide.memory.diversity import collapse_repeats
from omoide.memory.facet_cues import cued_facets
from omoide.memory.facets import Facet
from omoide.memory.ranking import Ranked, ScoreComponents
from omoide.memory.viewer_profile import ProfileConfig, build_profile, fact_weight
from omoide.wiring import Omoide, build

START = datetime(2025, 3, 1, 12, tzinfo=UTC)
MINA = Scope("haru", "mina")
OTHER = Scope("haru", "jun")


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Omoide]:
    built = await build(Settings(data_dir=tmp_path, embedder="hashing"), clock=FixedClock(START))
    try:
        yield built
    finally:
        await built.aclose()


# --- repeats --------------------------------------------------------------------------------


def ranked_episode(text: str, day: int, total: float) -> Ranked[Episode]:
    episode = Episode(
        id=f"e{day}-{text[:4]}",
        scope=MINA,
        user_message=text,
        bot_message="",
        recorded_at=START + timedelta(days=day),
        importance=0.4,
    )
    parts = ScoreComponents(total, 1.0, 0.4, total, total, 1.0, 0.4)
    return Ranked(item=episode, components=parts)


def test_the_same_words_said_on_five_days_collapse_into_one_line_with_count_and_dates() -> None:
    ranked = [ranked_episode("오늘도 비 오네요", day, 0.5 - day / 100) for day in range(5)]
    ranked.insert(2, ranked_episode("I adopted a cat named Mochi", 9, 0.45))
    ranked.append(ranked_episode("오늘도 비 오네요!!", 7, 0.1))

    kept, repeats = collapse_repeats(ranked)

    assert [entry.item.user_message for entry in kept] == [
        "오늘도 비 오네요",
        "I adopted a cat named Mochi",
    ]
    counted = repeats[kept[0].item.id]
    assert (counted.count, counted.first, counted.last) == (
        6,
        START,
        START + timedelta(days=7),
    )
    assert kept[1].item.id not in repeats


def test_different_sentences_sharing_a_few_words_are_not_collapsed() -> None:
    ranked = [
        ranked_episode("I love playing Hollow Knight at night", 0, 0.5),
        ranked_episode("I hate playing horror games at night", 1, 0.4),
    ]

    kept, repeats = collapse_repeats(ranked)

    assert len(kept) == 2 and repeats == {}


# --- cues -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "facet"),
    [
        ("what should we order for dinner tonight?", Facet.HEALTH),
        ("오늘 저녁 뭐 먹지", Facet.HEALTH),
        ("晩ご飯どうしよう", Facet.HEALTH),
        ("晚饭吃什么好呢", Facet.HEALTH),
        ("heading out for a walk in the park", Facet.PEOPLE),
        ("산책 다녀왔어요", Facet.PEOPLE),
        ("さっき散歩してきた", Facet.PEOPLE),
        ("刚去公园散步了", Facet.PEOPLE),
        ("this week is going to be brutal", Facet.PLANS),
        ("이번 주 진짜 바쁘다", Facet.PLANS),
        ("来週から忙しくなる", Facet.PLANS),
        ("这周好忙", Facet.PLANS),
    ],
)
def test_messages_cue_the_profile_group_a_friend_would_think_of(message: str, facet: Facet) -> None:
    assert facet in cued_facets(message)


def test_a_plain_greeting_cues_nothing() -> None:
    assert cued_facets("hi hi") == frozenset()
    assert cued_facets("ㅎㅇㅎㅇ") == frozenset()


# --- the profile as a view --------------------------------------------------------------------


def fact(text: str, category: FactCategory, *, salience: float, scope: Scope = MINA) -> Fact:
    return Fact(
        id=f"f-{scope.user_id}-{text[:12]}",
        scope=scope,
        text=text,
        category=category,
        confidence=0.8,
        salience=salience,
        recorded_at=START,
        valid_from=START,
    )


def test_a_regular_with_hundreds_of_disclosures_gets_a_bounded_varied_profile() -> None:
    many = [
        fact(f"likes band number {index}", FactCategory.PREFERENCE, salience=0.9)
        for index in range(300)
    ]
    many.append(fact("allergic to shrimp", FactCategory.PERSONAL, salience=0.5))
    config = ProfileConfig(max_entries=6, per_facet=3)

    profile = build_profile(MINA, many, relevance={}, config=config)

    assert len(profile.entries) == 4  # three likes (the cap), then the only other group
    assert profile.total_facts == 301
    assert sum(entry.facet is Facet.LIKES for entry in profile.entries) == 3
    assert "allergic to shrimp" in [entry.fact.text for entry in profile.entries]


def test_the_next_best_facts_wait_in_reserve_past_the_profiles_limits() -> None:
    likes = [
        fact(f"likes band {n}", FactCategory.PREFERENCE, salience=0.9 - n / 100) for n in range(6)
    ]
    other = fact("allergic to shrimp", FactCategory.PERSONAL, salience=0.3)
    config = ProfileConfig(max_entries=3, per_facet=2)

    profile = build_profile(MINA, [*likes, other], relevance={}, config=config)

    assert [e.fact.text for e in profile.entries] == [
        "likes band 0",
        "likes band 1",
        "allergic to shrimp",
    ]
    # the next best, as many as the profile holds, past the group limit, none twice
    assert [e.fact.text for e in profile.reserve] == [
        "likes band 2",
        "likes band 3",
        "likes band 4",
    ]


def test_one_sentence_holding_two_facts_takes_one_line_of_the_profile() -> None:
    said = "辛いの苦手で甘口カレーしか食べられない"
    limit = replace(fact(said, FactCategory.PERSONAL, salience=0.75), id="limit", slot="limit:辛い")
    dislike = replace(fact(said, FactCategory.PREFERENCE, salience=0.5), id="dislike")
    other = fact("兄が二人いる末っ子です", FactCategory.PERSONAL, salience=0.7)
    config = ProfileConfig(max_entries=3, per_facet=3)

    profile = build_profile(MINA, [limit, dislike, other], relevance={}, config=config)

    assert profile.fact_ids == ("limit", other.id)


def test_relevance_to_the_message_wins_over_salience_when_the_profile_must_choose() -> None:
    facts = [fact(f"thing {index}", FactCategory.PREFERENCE, salience=0.9) for index in range(5)]
    quiet = fact("afraid of thunder", FactCategory.EMOTION, salience=0.2)
    config = ProfileConfig(max_entries=2, per_facet=5)

    plain = build_profile(MINA, [*facts, quiet], relevance={}, config=config)
    steered = build_profile(MINA, [*facts, quiet], relevance={quiet.id: 0.9}, config=config)

    assert quiet.id not in plain.fact_ids
    assert steered.fact_ids[0] == quiet.id


def test_only_current_facts_of_the_scope_enter_the_profile() -> None:
    current = fact("lives in Busan", FactCategory.PERSONAL, salience=0.7)
    superseded = replace(
        fact("lives in Seoul", FactCategory.PERSONAL, salience=0.9), superseded_at=START
    )
    elsewhere = fact("lives in Osaka", FactCategory.PERSONAL, salience=0.9, scope=OTHER)

    profile = build_profile(
        MINA, [current, superseded, elsewhere], relevance={}, config=ProfileConfig()
    )

    assert profile.fact_ids == (current.id,)


def test_confirmations_raise_a_facts_weight_up_to_a_bound() -> None:
    once = fact("plays the cello", FactCategory.HABIT, salience=0.6)
    thrice = replace(once, confirmation_count=3)
    often = replace(once, confirmation_count=40)

    assert fact_weight(once) < fact_weight(thrice) <= fact_weight(often)
    assert fact_weight(often) == pytest.approx(0.6 * 0.8)


# --- on the reply path ------------------------------------------------------------------------


@pytest.mark.anyio
async def test_the_profile_is_in_the_section_when_the_message_shares_nothing_with_it(
    app: Omoide,
) -> None:
    allergy = await app.memory.add_fact(
        MINA, "땅콩 알레르기 있어요", FactCategory.PERSONAL, at=START - timedelta(days=40)
    )
    await app.memory.add_fact(OTHER, "새우 알레르기", FactCategory.PERSONAL, at=START)

    recollection = await app.memory.retrieve_context(MINA, "오늘 저녁 뭐 먹을까?")

    text = recollection.rendered.text
    assert PROFILE_HEADER in text and "땅콩 알레르기 있어요" in text
    assert "새우" not in text
    assert allergy.id in recollection.rendered.fact_ids
    assert recollection.rendered.tokens <= app.settings.context_token_budget


@pytest.mark.anyio
async def test_the_profile_keeps_to_its_share_of_the_budget(app: Omoide) -> None:
    for index in range(30):
        await app.memory.add_fact(
            MINA,
            f"collects vintage item number {index} from flea markets every month",
            FactCategory.PREFERENCE,
            at=START,
        )

    recollection = await app.memory.retrieve_context(MINA, "hello there", token_budget=200)

    profile_lines = [
        line for line in recollection.rendered.text.splitlines() if "flea markets" in line
    ]
    assert 1 <= len(profile_lines) < 10
    assert recollection.rendered.tokens <= 200


@pytest.mark.anyio
async def test_small_talk_said_five_times_shows_once_with_how_often(app: Omoide) -> None:
    for day in range(5):
        await app.memory.store_interaction(
            MINA,
            "It's raining again in my town today",
            "Stay dry!",
            timestamp=START - timedelta(days=10 - day),
            force_store=True,
        )

    recollection = await app.memory.retrieve_context(MINA, "raining again in my town")

    lines = [line for line in recollection.rendered.text.splitlines() if "raining" in line]
    assert len(lines) == 1
    assert "said 5 times" in lines[0]


@pytest.mark.anyio
async def test_low_signal_turns_never_reach_the_section_even_when_forced_into_the_store(
    app: Omoide,
) -> None:
    await app.memory.store_interaction(
        MINA, "ㅋㅋㅋㅋ", "ㅎㅎ", timestamp=START - timedelta(hours=1), force_store=True
    )

    recollection = await app.memory.retrieve_context(MINA, "ㅋㅋㅋㅋ 진짜 웃기다")

    assert "ㅋㅋㅋㅋ" not in recollection.rendered.text


@pytest.mark.anyio
async def test_an_unrelated_pool_is_not_shown(app: Omoide) -> None:
    for index, text in enumerate(
        [
            "My brother repairs old motorcycles",
            "The bakery near the station closed",
            "I finished a thousand-piece puzzle",
        ]
    ):
        await app.memory.store_interaction(
            MINA, text, "wow", timestamp=START - timedelta(days=index + 1), force_store=True
        )

    search = await app.memory.search(MINA, "quantum chromodynamics lecture notes")
    recollection = await app.memory.retrieve_context(MINA, "quantum chromodynamics lecture notes")

    assert all(entry.components.relevance < 0.2 for entry in search.episodes)
    assert recollection.rendered.episode_ids == ()


@pytest.mark.anyio
async def test_the_profile_use_case_chooses_by_weight_or_by_message(app: Omoide) -> None:
    await app.memory.add_fact(MINA, "has a corgi named Toast", FactCategory.PERSONAL, at=START)

    plain = await app.memory.profile(MINA)
    steered = await app.memory.profile(MINA, "going for a walk")

    assert [entry.fact.text for entry in plain.entries] == ["has a corgi named Toast"]
    assert steered.entries[0].relevance > plain.entries[0].relevance


# --- the character's name ---------------------------------------------------------------------


def test_the_characters_names_are_taken_out_of_the_keyword_query() -> None:
    from omoide.memory.addressing import without_names

    names = ("haru", "하루 (Haru)", "하루", "Haru")
    assert without_names("Haru, do you remember my game?", names) == ", do you remember my game?"
    assert without_names("하루 안녕~ 오늘도 왔어요", names) == "안녕~ 오늘도 왔어요"
    assert without_names("harukaze is a song", names) == "harukaze is a song"
    assert without_names("hi a", ("a",)) == "hi a"


@pytest.mark.anyio
async def test_greetings_by_name_do_not_outrank_what_the_viewer_asks_about(app: Omoide) -> None:
    for day in range(6):
        await app.memory.store_interaction(
            MINA, "하루 안녕~ 오늘도 왔어요", "어서 와!", timestamp=START - timedelta(days=20 - day)
        )
    await app.memory.store_interaction(
        MINA, "제 최애 게임은 스타듀밸리예요", "좋은 게임!", timestamp=START - timedelta(days=9)
    )

    search = await app.memory.search(MINA, "하루 내 최애 게임 기억나?")

    assert "스타듀밸리" in search.episodes[0].item.user_message
    greetings = [entry for entry in search.episodes if "안녕" in entry.item.user_message]
    assert all(entry.components.bm25 is None for entry in greetings)
    assert await app.characters.names_of("haru") == ("haru", "하루 (Haru)", "하루", "Haru")


def test_recall_reads_a_long_pastes_beginning_and_end() -> None:
    from omoide.memory.recall import RECALL_QUERY_CHARS, bounded_query

    paste = "A" * 5000 + "what do you think of my cat?"
    bounded = bounded_query(paste)

    assert len(bounded) <= RECALL_QUERY_CHARS + 1
    assert bounded.startswith("AAA") and bounded.endswith("what do you think of my cat?")
    assert bounded_query("short") == "short"


def test_a_cued_group_alone_does_not_flood_the_profile() -> None:
    likes = [
        fact(f"likes hobby {index}", FactCategory.PREFERENCE, salience=0.9) for index in range(6)
    ]
    pet = fact("has a parrot named Kiwi", FactCategory.PERSONAL, salience=0.3)
    cue_lift = {entry.id: 0.4 for entry in likes}

    profile = build_profile(MINA, [*likes, pet], relevance=cue_lift, config=ProfileConfig())

    assert sum(entry.facet is Facet.LIKES for entry in profile.entries) == 3
    assert pet.id in profile.fact_ids


@pytest.mark.anyio
async def test_an_episode_the_profile_already_says_in_the_same_words_is_not_shown_twice(
    app: Omoide,
) -> None:
    stored = await app.memory.store_interaction(
        MINA, "I adopted a corgi named Toast", "cute!", timestamp=START - timedelta(days=3)
    )
    facts = await app.memory.list_facts(MINA)
    assert any(stored.episode_id in fact.source_episode_ids for fact in facts)

    recollection = await app.memory.retrieve_context(MINA, "my corgi Toast is sleeping")

    lines = [line for line in recollection.rendered.text.splitlines() if "Toast" in line]
    assert len(lines) == 1 and lines[0].startswith('- "I adopted a corgi named Toast"')
    assert stored.episode_id not in recollection.rendered.episode_ids
    assert recollection.rendered.fact_ids


@pytest.mark.anyio
async def test_what_the_viewer_said_before_moving_or_correcting_themselves_is_not_shown(
    app: Omoide,
) -> None:
    before = START - timedelta(days=9)
    moved = await app.memory.store_interaction(MINA, "I live in Seoul", "nice", timestamp=before)
    await app.memory.store_interaction(
        MINA, "I moved to Busan last week", "big change!", timestamp=before + timedelta(days=1)
    )
    told = await app.memory.store_interaction(
        MINA, "my dad's retirement party is in Incheon next month", "fun", timestamp=before
    )
    await app.memory.store_interaction(
        MINA,
        "my bad, the party is in Suwon, I mixed it up",
        "got it",
        timestamp=before + timedelta(days=2),
    )
    current = " ".join(fact.text for fact in await app.memory.list_facts(MINA))
    assert "Busan" in current and "Suwon" in current
    assert "Seoul" not in current and "Incheon" not in current

    recollection = await app.memory.retrieve_context(MINA, "Seoul Incheon party where do I live")

    assert moved.episode_id not in recollection.rendered.episode_ids
    assert told.episode_id not in recollection.rendered.episode_ids
    assert "Seoul" not in recollection.rendered.text and "Incheon" not in recollection.rendered.text


@pytest.mark.anyio
async def test_small_talk_needs_a_clearer_match_than_a_disclosure_to_reach_the_prompt(
    tmp_path: Path,
) -> None:
    settings = Settings(
        data_dir=tmp_path, embedder="hashing", min_relevance=0.0, small_talk_relevance=1.0
    )
    built = await build(settings, clock=FixedClock(START))
    try:
        for importance, text in (
            (0.32, "rainy bus ride again"),
            (0.7, "rainy bus ride to my exam"),
        ):
            await built.memory.store_interaction(
                MINA, text, "oh", timestamp=START - timedelta(days=1), importance=importance
            )
        recollection = await built.memory.retrieve_context(MINA, "a bus to the lake")
        shown = recollection.rendered.text
        assert "rainy bus ride to my exam" in shown  # a weak match, told: shown
        assert "rainy bus ride again" not in shown  # as weak, small talk: not
    finally:
        await built.aclose()
