"""Finding characters on disk: ``<directory>/<character_id>/profile.yaml`` + ``system_prompt.j2``.

Directories are searched in the order given and the first that has the character wins;
the shipped characters (:func:`builtin_characters_dir`, Haru among them) come last, so an
operator overrides Haru by giving a folder of the same id. Directories that do not exist
are skipped. A loaded character is cached and read again only when one of its two files
changes (modification time or size) or a folder earlier in the search order starts to
provide it, so edits show without a restart.

Every template is rendered once at load time with sample values, so a template that names
a variable that does not exist fails when the character is loaded, not mid-stream.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Final

import anyio.to_thread
import yaml

from omoide.character.prompt import PromptBuilder
from omoide.character.state import initial_state
from omoide.errors import ConfigError, InvalidInput, NotFound
from omoide.store.records.character_state import CharacterState
from omoide.store.records.profile import CharacterProfile, check_character_id, parse_profile

PROFILE_FILE: Final = "profile.yaml"
TEMPLATE_FILE: Final = "system_prompt.j2"
_SAMPLE_MOMENT: Final = datetime(2000, 1, 2, 3, 4, tzinfo=UTC)


_NAME_PARTS = re.compile(r"[()（）/,、·|]")
"""A profile name such as "하루 (Haru)" is called by each of its parts too."""


def builtin_characters_dir() -> Path:
    """The folder of characters shipped inside the package."""
    return Path(str(resources.files("omoide.character") / "builtin"))


@dataclass(frozen=True, slots=True)
class Character:
    """A loaded character: who it is and how its system prompt is written."""

    profile: CharacterProfile
    prompt: PromptBuilder
    directory: Path

    @property
    def id(self) -> str:
        return self.profile.id


@dataclass(frozen=True, slots=True)
class _Fingerprint:
    directory: Path
    profile: tuple[int, int]
    template: tuple[int, int]


class CharacterLibrary:
    """Loads characters by id from folders, first folder first, shipped ones last."""

    def __init__(self, directories: Sequence[Path], *, include_builtin: bool = True) -> None:
        folders = [Path(directory) for directory in directories]
        builtin = builtin_characters_dir()
        if include_builtin and builtin not in folders:
            folders.append(builtin)
        self._directories = tuple(folders)
        self._cache: dict[str, tuple[_Fingerprint, Character]] = {}

    @property
    def directories(self) -> tuple[Path, ...]:
        return self._directories

    async def list_ids(self) -> list[str]:
        """Every character id available, sorted."""
        return await anyio.to_thread.run_sync(self._scan_ids)

    async def load(self, character_id: str) -> Character:
        """The character ``character_id``: NotFound if no folder has it."""
        check_character_id(character_id)
        return await anyio.to_thread.run_sync(self._load_blocking, character_id)

    async def names_of(self, character_id: str) -> tuple[str, ...]:
        """What viewers call ``character_id``: its id and, when the library has its
        profile, its name (an unknown character is only its id)."""
        try:
            character = await self.load(character_id)
        except NotFound:
            return (character_id,)
        name = character.profile.name
        parts = (part.strip() for part in _NAME_PARTS.split(name))
        return tuple(dict.fromkeys((character_id, name, *(part for part in parts if part))))

    def _scan_ids(self) -> list[str]:
        found: set[str] = set()
        for directory in self._directories:
            if not directory.is_dir():
                continue
            try:
                children = list(directory.iterdir())
            except OSError as exc:
                raise ConfigError(f"{directory}: cannot list characters: {exc.strerror}") from exc
            found.update(
                child.name
                for child in children
                if _is_valid_id(child.name) and (child / PROFILE_FILE).is_file()
            )
        return sorted(found)

    def _find(self, character_id: str) -> Path:
        for directory in self._directories:
            folder = directory / character_id
            if (folder / PROFILE_FILE).is_file():
                return folder
        searched = ", ".join(str(directory) for directory in self._directories)
        raise NotFound(f"character {character_id!r} not found (searched {searched})")

    def _load_blocking(self, character_id: str) -> Character:
        folder = self._find(character_id)
        fingerprint = _fingerprint(folder)
        cached = self._cache.get(character_id)
        if cached is not None and cached[0] == fingerprint:
            return cached[1]
        character = read_character(folder, character_id)
        self._cache[character_id] = (fingerprint, character)
        return character


def _is_valid_id(name: str) -> bool:
    try:
        check_character_id(name)
    except InvalidInput:
        return False
    return True


def _stat(path: Path) -> tuple[int, int]:
    try:
        status = os.stat(path)
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: missing (a character folder needs {path.name})") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from exc
    return status.st_mtime_ns, status.st_size


def _fingerprint(folder: Path) -> _Fingerprint:
    return _Fingerprint(folder, _stat(folder / PROFILE_FILE), _stat(folder / TEMPLATE_FILE))


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: missing (a character folder needs {path.name})") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid UTF-8 at byte {exc.start}") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from exc


def _read_yaml(path: Path) -> object:
    try:
        return yaml.safe_load(_read_text(path))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(f"{path}: malformed YAML{where}: {exc.problem}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: malformed YAML: {exc}") from exc


def read_profile(path: Path, *, character_id: str) -> CharacterProfile:
    """Read and validate one ``profile.yaml``; its ``id`` defaults to the folder's name."""
    data = _read_yaml(path)
    if isinstance(data, dict) and "id" not in data:
        data = {"id": character_id, **data}
    profile = parse_profile(data, source=str(path))
    if profile.id != character_id:
        raise ConfigError(
            f"{path}: field 'id': {profile.id!r} does not match its folder {character_id!r}"
        )
    return profile


def read_character(folder: Path, character_id: str) -> Character:
    """Read a character folder without caching, checking that its template renders."""
    profile = read_profile(folder / PROFILE_FILE, character_id=character_id)
    template_path = folder / TEMPLATE_FILE
    prompt = PromptBuilder(_read_text(template_path), source=str(template_path))
    _try_render(prompt, profile)
    return Character(profile, prompt, folder)


def _try_render(prompt: PromptBuilder, profile: CharacterProfile) -> None:
    """Render with a new and a well-known viewer, so every branch meets its variables."""
    regular = CharacterState(
        emotion=profile.default_emotion,
        emotion_intensity=0.8,
        intimacy=0.7,
        recent_topics=("games", "music"),
        turn_count=40,
        last_interaction_at=_SAMPLE_MOMENT,
    )
    for state, memory_section in ((initial_state(profile), ""), (regular, "(memories)")):
        prompt.build_system_prompt(
            profile, state, user_name="viewer", memory_section=memory_section, now=_SAMPLE_MOMENT
        )
