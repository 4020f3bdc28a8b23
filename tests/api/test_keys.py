"""omoide.keys: the key file, OMOIDE_API_KEYS, and the ring that checks presented secrets."""

from __future__ import annotations

import json
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import SecretStr

from omoide.config import Settings
from omoide.errors import AccessDenied, ConfigError, InvalidInput, NotFound
from omoide.keys import KeyRing, authorize, environment_keys, parse_key_spec
from omoide.store.records.keys import ALL_CHARACTERS, ApiKey, check_characters, hash_secret
from omoide.store.sqlite.key_file import KeyFile, read_key_file

pytestmark = pytest.mark.anyio
NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)


async def test_created_keys_are_stored_as_hashes_only(tmp_path: Path) -> None:
    key_file = KeyFile(tmp_path / "data" / "keys.json")
    created = await key_file.create(["haru", "ash"], now=NOW)
    text = key_file.path.read_text(encoding="utf-8")
    assert created.secret not in text
    assert hash_secret(created.secret) in text
    assert stat.S_IMODE(key_file.path.stat().st_mode) == 0o600
    (loaded,) = await key_file.load()
    assert loaded == created.key
    assert loaded.characters == frozenset({"haru", "ash"})
    assert loaded.created_at == NOW


async def test_each_key_gets_its_own_id_and_secret(tmp_path: Path) -> None:
    key_file = KeyFile(tmp_path / "keys.json")
    first = await key_file.create(["haru"], now=NOW)
    second = await key_file.create([ALL_CHARACTERS], now=NOW)
    assert first.key.key_id != second.key.key_id
    assert first.secret != second.secret
    assert [key.key_id for key in await key_file.load()] == [first.key.key_id, second.key.key_id]


async def test_revoking_removes_only_that_key(tmp_path: Path) -> None:
    key_file = KeyFile(tmp_path / "keys.json")
    kept = await key_file.create(["haru"], now=NOW)
    gone = await key_file.create(["ash"], now=NOW)
    assert (await key_file.revoke(gone.key.key_id)) == gone.key
    assert await key_file.load() == (kept.key,)
    with pytest.raises(NotFound, match="no API key"):
        await key_file.revoke(gone.key.key_id)
    with pytest.raises(NotFound, match="OMOIDE_API_KEYS"):
        await key_file.revoke("env-1")


async def test_a_missing_file_holds_no_keys(tmp_path: Path) -> None:
    assert await KeyFile(tmp_path / "absent.json").load() == ()
    assert await KeyFile(tmp_path / "absent.json").fingerprint() is None


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[]",
        '{"version": 2, "keys": []}',
        '{"version": 1, "keys": [{"id": "k"}]}',
        '{"version": 1, "keys": [{"id": "k", "sha256": "zz", "characters": ["haru"]}]}',
        '{"version": 1, "keys": [{"id": "k", "sha256": "' + "a" * 64 + '", "characters": []}]}',
    ],
)
def test_damaged_key_files_are_config_errors(tmp_path: Path, content: str) -> None:
    path = tmp_path / "keys.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"keys\.json"):
        read_key_file(path)


@pytest.mark.parametrize(
    ("characters", "problem"),
    [([], "at least one"), (["*", "haru"], "alone"), (["../x"], "dot"), (["a/b"], "separator")],
)
def test_character_sets_are_checked(characters: list[str], problem: str) -> None:
    with pytest.raises(InvalidInput, match=problem):
        check_characters(characters)


def test_the_environment_format() -> None:
    keys = parse_key_spec(" one:haru,ash ; two:* ;;")
    assert [key.key_id for key in keys] == ["env-1", "env-2"]
    assert keys[0].characters == frozenset({"haru", "ash"})
    assert keys[1].all_characters
    assert keys[0].secret_sha256 == hash_secret("one")
    (colon,) = parse_key_spec("with:colon:haru")
    assert colon.secret_sha256 == hash_secret("with:colon")


@pytest.mark.parametrize("spec", ["justasecret", ":haru", "secret:", "secret:*,haru"])
def test_malformed_environment_keys_never_echo_the_secret(spec: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_key_spec(spec)
    assert "OMOIDE_API_KEYS entry 1" in str(caught.value)
    secret = spec.partition(":")[0]
    if secret:
        assert secret not in str(caught.value)


def test_environment_keys_come_from_settings(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, api_keys=SecretStr("abc:haru"))
    (key,) = environment_keys(settings)
    assert key.allows("haru") and not key.allows("ash")
    assert environment_keys(Settings(data_dir=tmp_path)) == ()


def test_authorize_refuses_other_characters_as_authenticated() -> None:
    key = ApiKey("k1", hash_secret("s"), frozenset({"haru"}), NOW)
    authorize(key, "haru")
    with pytest.raises(AccessDenied) as caught:
        authorize(key, "ash")
    assert caught.value.authenticated is True


secrets_strategy = st.text(
    alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=40
)


@given(st.lists(secrets_strategy, min_size=1, max_size=6, unique=True), secrets_strategy)
def test_every_secret_finds_its_own_key_and_nothing_else_does(
    secrets: list[str], stranger: str
) -> None:
    ring = KeyRing(
        ApiKey(f"k{index}", hash_secret(secret), frozenset({ALL_CHARACTERS}), None)
        for index, secret in enumerate(secrets)
    )
    for index, secret in enumerate(secrets):
        assert ring.authenticate(secret).key_id == f"k{index}"
    if stranger not in secrets:
        with pytest.raises(AccessDenied) as caught:
            ring.authenticate(stranger)
        assert caught.value.authenticated is False


character_ids = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=12)


@given(st.sets(character_ids, min_size=1, max_size=5), character_ids)
def test_a_key_allows_exactly_its_characters(allowed: set[str], asked: str) -> None:
    (key,) = parse_key_spec("secret:" + ",".join(sorted(allowed)))
    assert key.allows(asked) is (asked in allowed)
    assert parse_key_spec("secret:*")[0].allows(asked)


def test_the_file_format_is_stable(tmp_path: Path) -> None:
    """Keys written by this version stay readable: the documented fields only."""
    path = tmp_path / "keys.json"
    entry = {
        "id": "k_1",
        "sha256": hash_secret("s"),
        "characters": ["haru"],
        "created_at": "2026-05-01T12:00:00+00:00",
    }
    path.write_text(json.dumps({"version": 1, "keys": [entry]}), encoding="utf-8")
    (key,) = read_key_file(path)
    assert key == ApiKey("k_1", hash_secret("s"), frozenset({"haru"}), NOW)
