from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.character import CharacterProfile, EmotionEngine, EmotionTagFilter
from omoide.character.emotion_tags import ScanOutcome, scan_tag


@pytest.fixture
def engine(profile: CharacterProfile) -> EmotionEngine:
    return EmotionEngine(profile)


@pytest.mark.parametrize(
    ("reply", "clean", "emotion"),
    [
        ("[EMOTION:happy] Hello there!", "Hello there!", "happy"),
        ("[emotion:HAPPY]Hi", "Hi", "happy"),
        ("[ EMOTION : happy ] spaced out", "spaced out", "happy"),
        ("［EMOTION:sad］ full width", "full width", "sad"),
        ("【EMOTION：shy】えへへ", "えへへ", "shy"),
        ("[Emotion: Surprised] what?!", "what?!", "surprised"),
        ("No tag at all.", "No tag at all.", None),
        ("wow [EMOTION:excited] nice", "wow nice", "excited"),
        ("すごい[EMOTION:happy]ね", "すごいね", "happy"),
        ("end of line [EMOTION:calm]", "end of line", "calm"),
        ("[EMOTION:happy][EMOTION:sad] two tags", "two tags", "happy"),
        ("[EMOTION:happy] a [EMOTION:sad] b", "a b", "happy"),
        ("first\n[EMOTION:tired]\nsecond", "first\n\nsecond", "tired"),
        ("  \n [EMOTION:calm]   leading space  \n", "leading space", "calm"),
        ("[laughs] not a tag", "[laughs] not a tag", None),
        ("[EMOTIONAL damage] stays", "[EMOTIONAL damage] stays", None),
        ("[EMOTION:] empty label", "empty label", None),
        ("unfinished [EMOTION:hap", "unfinished [EMOTION:hap", None),
        ("[EMOTION:happy\n] broken across lines", "[EMOTION:happy\n] broken across lines", None),
        ("[EMOTION:happy]", "", "happy"),
        ("", "", None),
    ],
)
def test_parse_strips_tags_and_finds_the_emotion(
    engine: EmotionEngine, reply: str, clean: str, emotion: str | None
) -> None:
    parsed = engine.parse(reply)
    assert parsed.clean_text == clean
    assert parsed.emotion == emotion


def test_unknown_label_maps_through_synonyms(engine: EmotionEngine) -> None:
    assert engine.parse("[EMOTION:joyful] yay").emotion == "happy"
    assert engine.parse("[EMOTION:embarrassed] ah").emotion == "shy"
    assert engine.parse("[EMOTION:嬉しい] やった").emotion == "happy"


def test_unmappable_label_is_ignored_and_the_next_valid_tag_wins(engine: EmotionEngine) -> None:
    parsed = engine.parse("[EMOTION:zorblax] [EMOTION:sad] oh no")
    assert parsed.clean_text == "oh no"
    assert parsed.emotion == "sad"
    assert parsed.labels == ("zorblax", "sad")


def test_unmappable_label_alone_gives_no_emotion_but_is_still_removed(
    engine: EmotionEngine,
) -> None:
    parsed = engine.parse("[EMOTION:zorblax] hello")
    assert parsed == type(parsed)("hello", None, ("zorblax",))


def test_synonyms_fall_back_to_what_a_small_character_has() -> None:
    small = CharacterProfile(id="small", name="S", emotions=("neutral", "happy", "sad"))
    engine = EmotionEngine(small)
    assert engine.parse("[EMOTION:excited] wow").emotion == "happy"
    assert engine.parse("[EMOTION:lonely] hm").emotion == "sad"
    assert engine.parse("[EMOTION:angry] grr").emotion == "sad"
    assert engine.parse("[EMOTION:surprised] oh").emotion is None


def test_custom_labels_are_matched_case_insensitively() -> None:
    custom = CharacterProfile(
        id="custom", name="C", emotions=("neutral", "smug face"), default_emotion="neutral"
    )
    assert EmotionEngine(custom).parse("[EMOTION:Smug Face] heh").emotion == "smug_face"


def test_scan_distinguishes_tags_prefixes_and_text() -> None:
    assert scan_tag("[EMOTION:happy]", 0).outcome is ScanOutcome.TAG
    assert scan_tag("[EMOTION:hap", 0).outcome is ScanOutcome.PARTIAL
    assert scan_tag("[EMO", 0).outcome is ScanOutcome.PARTIAL
    assert scan_tag("[", 0).outcome is ScanOutcome.PARTIAL
    assert scan_tag("[x", 0).outcome is ScanOutcome.TEXT
    assert scan_tag("[EMOTION:" + "a" * 41 + "]", 0).outcome is ScanOutcome.TEXT
    assert scan_tag("[EMOTION:" + "a" * 41, 0).outcome is ScanOutcome.TEXT


SAMPLES = [
    "[EMOTION:happy] hi there, 민준!",
    "Hello [ EMOTION : excited ] world [EMOTION:sad] again",
    "［EMOTION：shy］えっと…[EMOTION:happy]ありがとう",
    "[laughs] [EMOTION:playful] gotcha [EMOTION",
    "line one\n[EMOTION:calm]\nline two  ",
]


def stream(engine: EmotionEngine, chunks: list[str]) -> tuple[str, str | None]:
    tag_filter = engine.stream_filter()
    shown = "".join(tag_filter.feed(chunk) for chunk in chunks) + tag_filter.finish()
    return shown, tag_filter.emotion


@pytest.mark.parametrize("sample", SAMPLES)
def test_stream_filter_matches_parse_at_every_split_point(
    engine: EmotionEngine, sample: str
) -> None:
    expected = engine.parse(sample)
    for split in range(len(sample) + 1):
        shown, emotion = stream(engine, [sample[:split], sample[split:]])
        assert (shown, emotion) == (expected.clean_text, expected.emotion), split


@pytest.mark.parametrize("sample", SAMPLES)
def test_stream_filter_matches_parse_fed_one_character_at_a_time(
    engine: EmotionEngine, sample: str
) -> None:
    expected = engine.parse(sample)
    assert stream(engine, list(sample)) == (expected.clean_text, expected.emotion)


def test_split_tag_never_reaches_viewers(engine: EmotionEngine) -> None:
    tag_filter = engine.stream_filter()
    shown = [tag_filter.feed("[EMO"), tag_filter.feed("TION:happy] hi"), tag_filter.finish()]
    assert shown == ["", "hi", ""]
    assert tag_filter.emotion == "happy"


def test_stream_filter_releases_plain_text_without_waiting(engine: EmotionEngine) -> None:
    tag_filter = engine.stream_filter()
    assert tag_filter.feed("Hello") == "Hello"
    assert tag_filter.feed(", world") == ", world"
    assert tag_filter.feed(" [not a tag") == " [not a tag"


def test_stream_filter_reports_the_emotion_as_soon_as_the_tag_has_passed(
    engine: EmotionEngine,
) -> None:
    tag_filter = engine.stream_filter()
    tag_filter.feed("[EMOTION:surprised]")
    assert tag_filter.emotion == "surprised"


def test_filter_without_resolver_keeps_raw_labels() -> None:
    tag_filter = EmotionTagFilter()
    assert tag_filter.feed("[EMOTION:anything] ok") == "ok"
    assert tag_filter.emotion == "anything"


chunk_text = st.text(
    alphabet=st.sampled_from(list("ab [］]【:：EMOTIONemotion\n 　x")), max_size=60
)


@settings(max_examples=300, deadline=None)
@given(text=chunk_text, cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=6))
def test_any_chunking_shows_the_same_text(text: str, cuts: list[int]) -> None:
    engine = EmotionEngine(CharacterProfile(id="p", name="P"))
    points = sorted({min(cut, len(text)) for cut in cuts})
    chunks = [
        text[start:end] for start, end in zip([0, *points], [*points, len(text)], strict=True)
    ]
    expected = engine.parse(text)
    assert stream(engine, chunks) == (expected.clean_text, expected.emotion)


@settings(max_examples=200, deadline=None)
@given(
    before=st.text(alphabet=st.characters(exclude_characters="[［【:："), max_size=20),
    label=st.sampled_from(["happy", "Sad", " calm ", "SHY"]),
    after=st.text(alphabet=st.characters(exclude_characters="[［【:："), max_size=20),
)
def test_tags_never_survive_and_the_label_is_found(before: str, label: str, after: str) -> None:
    engine = EmotionEngine(CharacterProfile(id="p", name="P"))
    parsed = engine.parse(f"{before}[EMOTION:{label}]{after}")
    assert "EMOTION:" not in parsed.clean_text
    assert parsed.emotion == label.strip().lower()
