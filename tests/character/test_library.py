from __future__ import annotations

import os
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

import pytest
import yaml

from omoide.character import (
    CharacterLibrary,
    CharacterProfile,
    builtin_characters_dir,
    initial_state,
)
from omoide.errors import ConfigError, InvalidInput, NotFound

NOW = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)
SIMPLE_TEMPLATE = "I am {{ character.name }}, talking to {{ viewer_name }}."


def write_character(
    root: Path,
    character_id: str,
    profile: dict[str, object] | str,
    template: str | None = SIMPLE_TEMPLATE,
) -> Path:
    folder = root / character_id
    folder.mkdir(parents=True, exist_ok=True)
    text = profile if isinstance(profile, str) else yaml.safe_dump(profile, allow_unicode=True)
    (folder / "profile.yaml").write_text(text, encoding="utf-8")
    if template is not None:
        (folder / "system_prompt.j2").write_text(template, encoding="utf-8")
    return folder


@pytest.mark.anyio
async def test_builtin_haru_loads_with_her_protected_core() -> None:
    haru = await CharacterLibrary([]).load("haru")
    profile = haru.profile
    assert haru.id == "haru"
    assert "하루" in profile.name and "Haru" in profile.name
    assert profile.replies_in_viewer_language
    assert profile.home_language == "Korean"
    assert profile.default_emotion in profile.emotions
    assert {"happy", "playful", "tired", "affectionate"} <= set(profile.emotions)
    assert profile.core_values and profile.safety_rules and profile.personality
    assert haru.directory == builtin_characters_dir() / "haru"


def test_builtin_files_ship_inside_the_package() -> None:
    folder = resources.files("omoide.character") / "builtin" / "haru"
    assert (folder / "profile.yaml").is_file()
    assert (folder / "system_prompt.j2").is_file()


@pytest.mark.anyio
async def test_list_includes_builtin_and_custom_characters(tmp_path: Path) -> None:
    write_character(tmp_path, "ash", {"name": "Ash"})
    (tmp_path / "not-a-character").mkdir()
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "profile.yaml").write_text("name: Hidden\n")
    library = CharacterLibrary([tmp_path / "does-not-exist", tmp_path])
    assert await library.list_ids() == ["ash", "haru"]
    assert await CharacterLibrary([tmp_path], include_builtin=False).list_ids() == ["ash"]


@pytest.mark.anyio
async def test_a_custom_folder_overrides_builtin_haru(tmp_path: Path) -> None:
    write_character(tmp_path, "haru", {"id": "haru", "name": "My Haru"}, "Custom {{ viewer_name }}")
    haru = await CharacterLibrary([tmp_path]).load("haru")
    assert haru.profile.name == "My Haru"
    prompt = haru.prompt.build_system_prompt(
        haru.profile, initial_state(haru.profile), user_name="Yuki", memory_section="", now=NOW
    )
    assert prompt == 'Custom "Yuki"'  # the name is quoted as data


@pytest.mark.anyio
async def test_first_directory_wins(tmp_path: Path) -> None:
    write_character(tmp_path / "first", "ash", {"name": "First Ash"})
    write_character(tmp_path / "second", "ash", {"name": "Second Ash"})
    library = CharacterLibrary([tmp_path / "first", tmp_path / "second"])
    assert (await library.load("ash")).profile.name == "First Ash"


@pytest.mark.anyio
async def test_id_defaults_to_the_folder_and_must_match_it(tmp_path: Path) -> None:
    write_character(tmp_path, "ash", {"name": "Ash"})
    write_character(tmp_path, "mismatch", {"id": "other", "name": "X"})
    library = CharacterLibrary([tmp_path])
    assert (await library.load("ash")).profile.id == "ash"
    with pytest.raises(ConfigError, match=r"mismatch.*profile\.yaml.*'id'"):
        await library.load("mismatch")


@pytest.mark.anyio
async def test_unknown_character_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="nobody"):
        await CharacterLibrary([tmp_path]).load("nobody")
    with pytest.raises(NotFound):
        await CharacterLibrary([tmp_path], include_builtin=False).load("haru")


@pytest.mark.anyio
@pytest.mark.parametrize(
    "character_id",
    [
        "../haru",
        "..",
        ".",
        "a/b",
        "a\\b",
        "/etc",
        "C:evil",
        " haru",
        "",
        "x\x00y",
        "x\ny",
        "x" * 65,
    ],
)
async def test_unsafe_ids_are_refused_before_touching_the_disk(
    tmp_path: Path, character_id: str
) -> None:
    secret = tmp_path / "secret"
    write_character(secret, "x", {"name": "X"})
    library = CharacterLibrary([tmp_path / "characters"])
    with pytest.raises(InvalidInput):
        await library.load(character_id)


@pytest.mark.anyio
async def test_traversal_to_a_real_character_outside_is_refused(tmp_path: Path) -> None:
    write_character(tmp_path, "outside", {"name": "Outside"})
    inner = tmp_path / "characters"
    inner.mkdir()
    with pytest.raises(InvalidInput):
        await CharacterLibrary([inner]).load("../outside")


@pytest.mark.anyio
async def test_malformed_yaml_names_the_file_and_line(tmp_path: Path) -> None:
    write_character(tmp_path, "broken", "name: Broken\npersonality: [unclosed\n")
    with pytest.raises(ConfigError, match=r"broken.profile\.yaml: malformed YAML at line \d+"):
        await CharacterLibrary([tmp_path]).load("broken")


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("profile", "field"),
    [
        ({"name": "X", "favourite_colour": "blue"}, "favourite_colour"),
        ({"name": 42}, "name"),
        ({"personality": ["ok"]}, "name"),
        ({"name": "X", "likes": "pizza"}, "likes"),
        ({"name": "X", "emotions": ["happy", "Happy"]}, "emotions"),
        ({"name": "X", "emotions": ["happy"], "default_emotion": "sad"}, "default_emotion"),
        ({"name": "X", "emotions": ["[bad]"], "default_emotion": "[bad]"}, "emotions.0"),
    ],
)
async def test_schema_errors_name_the_file_and_field(
    tmp_path: Path, profile: dict[str, object], field: str
) -> None:
    write_character(tmp_path, "bad", profile)
    with pytest.raises(ConfigError, match=r"bad.profile\.yaml") as raised:
        await CharacterLibrary([tmp_path]).load("bad")
    assert field in str(raised.value)


@pytest.mark.anyio
@pytest.mark.parametrize("content", ["", "- just\n- a list\n", "plain text\n"])
async def test_a_profile_that_is_not_a_mapping_is_a_config_error(
    tmp_path: Path, content: str
) -> None:
    write_character(tmp_path, "odd", content)
    with pytest.raises(ConfigError, match="must be a mapping"):
        await CharacterLibrary([tmp_path]).load("odd")


@pytest.mark.anyio
async def test_missing_template_is_a_config_error(tmp_path: Path) -> None:
    write_character(tmp_path, "mute", {"name": "Mute"}, template=None)
    with pytest.raises(ConfigError, match=r"system_prompt\.j2: missing"):
        await CharacterLibrary([tmp_path]).load("mute")


@pytest.mark.anyio
async def test_template_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    write_character(tmp_path, "typo", {"name": "T"}, "line one\n{% if %}\n")
    with pytest.raises(ConfigError, match=r"system_prompt\.j2: template error at line 2"):
        await CharacterLibrary([tmp_path]).load("typo")


@pytest.mark.anyio
async def test_undefined_template_variable_fails_at_load(tmp_path: Path) -> None:
    template = "{{ character.name }}{% if memory_section %}{{ memroy_section }}{% endif %}"
    write_character(tmp_path, "strict", {"name": "S"}, template)
    with pytest.raises(ConfigError, match="memroy_section"):
        await CharacterLibrary([tmp_path]).load("strict")


@pytest.mark.anyio
async def test_invalid_utf8_is_a_config_error(tmp_path: Path) -> None:
    folder = write_character(tmp_path, "bytes", {"name": "B"})
    (folder / "profile.yaml").write_bytes(b"name: \xff\xfe\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        await CharacterLibrary([tmp_path]).load("bytes")


@pytest.mark.anyio
async def test_loads_are_cached_until_a_file_changes(tmp_path: Path) -> None:
    folder = write_character(tmp_path, "ash", {"name": "Ash"})
    library = CharacterLibrary([tmp_path])
    first = await library.load("ash")
    assert await library.load("ash") is first
    profile_path = folder / "profile.yaml"
    profile_path.write_text(yaml.safe_dump({"name": "Ash, grown up"}), encoding="utf-8")
    stat = profile_path.stat()
    os.utime(profile_path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    reloaded = await library.load("ash")
    assert reloaded.profile.name == "Ash, grown up"


@pytest.mark.anyio
async def test_a_new_override_is_picked_up_without_a_restart(tmp_path: Path) -> None:
    library = CharacterLibrary([tmp_path])
    assert "하루" in (await library.load("haru")).profile.name
    write_character(tmp_path, "haru", {"name": "Override"})
    assert (await library.load("haru")).profile.name == "Override"


def test_haru_profile_round_trips_through_model_dump() -> None:
    text = (builtin_characters_dir() / "haru" / "profile.yaml").read_text(encoding="utf-8")
    profile = CharacterProfile.model_validate(yaml.safe_load(text))
    assert CharacterProfile.model_validate(profile.model_dump()) == profile
    assert CharacterProfile.model_validate(profile.model_dump(mode="json")) == profile
