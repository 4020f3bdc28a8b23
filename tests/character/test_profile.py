from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import omoide.character as character_package
from omoide.character import (
    DEFAULT_EMOTIONS,
    EVOLVABLE_FIELDS,
    PROTECTED_FIELDS,
    CharacterProfile,
    check_character_id,
    fold_emotion_label,
    parse_profile,
)
from omoide.errors import ConfigError, InvalidInput


def test_protected_fields_are_the_core_by_default() -> None:
    assert frozenset({"name", "core_values", "safety_rules"}) == PROTECTED_FIELDS
    assert set(PROTECTED_FIELDS) <= set(CharacterProfile.model_fields)


def test_evolvable_fields_are_everything_else_except_the_id() -> None:
    every_field = set(CharacterProfile.model_fields)
    assert set(EVOLVABLE_FIELDS) == every_field - PROTECTED_FIELDS - {"id"}
    assert {"background", "personality", "dislikes", "distance_to_viewers"} <= set(EVOLVABLE_FIELDS)


def test_profile_is_frozen() -> None:
    profile = CharacterProfile(id="p", name="P")
    with pytest.raises(ValidationError):
        profile.name = "Q"


def test_defaults_cover_the_usual_emotions() -> None:
    profile = CharacterProfile(id="p", name="P")
    assert profile.emotions == DEFAULT_EMOTIONS
    assert profile.default_emotion == "neutral"
    assert profile.replies_in_viewer_language


def test_labels_and_strings_are_normalised() -> None:
    profile = CharacterProfile(
        id="p",
        name="  Pia  ",
        emotions=(" Happy ", "Very Sad", "calm"),
        default_emotion="CALM",
        likes=(" games ",),
    )
    assert profile.name == "Pia"
    assert profile.emotions == ("happy", "very_sad", "calm")
    assert profile.default_emotion == "calm"
    assert profile.likes == ("games",)


@pytest.mark.parametrize(
    "fields",
    [
        {"name": ""},
        {"emotions": ()},
        {"emotions": ("happy", "HAPPY")},
        {"emotions": ("happy",), "default_emotion": "sad"},
        {"likes": ("",)},
        {"likes": ("x",) * 41},
        {"language": "x"},
        {"surprise": True},
    ],
)
def test_invalid_profiles_are_refused(fields: dict[str, object]) -> None:
    values: dict[str, object] = {"id": "p", "name": "P", **fields}
    with pytest.raises(ValidationError):
        CharacterProfile.model_validate(values)


def test_parse_profile_reports_source_and_field() -> None:
    with pytest.raises(ConfigError, match=r"chars/x\.yaml: field 'likes\.1'"):
        parse_profile({"id": "x", "name": "X", "likes": ["a", 3]}, source="chars/x.yaml")


@pytest.mark.parametrize("good", ["haru", "Haru-2", "ash_v1.5", "하루", "アッシュ"])
def test_character_ids_may_be_any_folder_safe_name(good: str) -> None:
    assert check_character_id(good) == good


@pytest.mark.parametrize(
    "bad", ["", " ", "../x", "..", ".", ".hidden", "a/b", "a\\b", "/abs", "c:x", "a\tb", "a*"]
)
def test_character_ids_that_could_escape_a_folder_are_refused(bad: str) -> None:
    with pytest.raises(InvalidInput):
        check_character_id(bad)


def test_fold_emotion_label() -> None:
    assert fold_emotion_label("  Happy ") == "happy"
    assert fold_emotion_label('"Very-Sad"') == "very_sad"
    assert fold_emotion_label("ＨＡＰＰＹ") == "happy"


text_list = st.lists(st.text(min_size=1, max_size=40).filter(str.strip), max_size=5).map(
    lambda items: tuple(item.strip() for item in items)
)


@given(
    background=st.text(max_size=200),
    personality=text_list,
    dislikes=text_list,
    home_language=st.none() | st.sampled_from(["Korean", "ja", "English"]),
)
def test_model_dump_round_trips_exactly(
    background: str,
    personality: tuple[str, ...],
    dislikes: tuple[str, ...],
    home_language: str | None,
) -> None:
    profile = CharacterProfile(
        id="p",
        name="P",
        background=background,
        personality=personality,
        dislikes=dislikes,
        home_language=home_language,
    )
    assert CharacterProfile.model_validate(profile.model_dump()) == profile
    assert CharacterProfile.model_validate(profile.model_dump(mode="json")) == profile


def test_package_all_is_pinned() -> None:
    exported = {
        name
        for name in dir(character_package)
        if not name.startswith("_")
        and (name[0].isupper() or callable(getattr(character_package, name)))
    }
    assert set(character_package.__all__) == exported
    assert all(getattr(character_package, name) is not None for name in character_package.__all__)
