"""API keys at the HTTP boundary: 401, 403, reload on change, open mode only on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from omoide.api.app import create_app
from omoide.api.auth import is_loopback
from omoide.cli import app as cli_app
from omoide.errors import ConfigError
from omoide.store.sqlite.key_file import KeyFile, key_file_path
from tests.api.harness import Api, make_characters_dir, make_settings, running_api, viewer_path

pytestmark = pytest.mark.anyio

ALL_SECRET = "env-secret-for-everything"
HARU_SECRET = "env-secret-for-haru"
CHAT = {
    "user_id": "minjun",
    "user_name": "Minjun",
    "session_id": "s1",
    "message": "I love League of Legends!",
}


@dataclass
class Keyed:
    api: Api
    key_file: KeyFile
    ash_secret: str


@pytest.fixture(scope="module")
async def keyed(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Keyed]:
    root = tmp_path_factory.mktemp("keyed")
    key_file = KeyFile(key_file_path(root / "data"))
    ash = await key_file.create(["ash"], now=datetime(2026, 5, 1, tzinfo=UTC))
    settings = make_settings(
        root / "data",
        characters_dirs=[make_characters_dir(root, "ash")],
        api_keys=SecretStr(f"{ALL_SECRET}:*;{HARU_SECRET}:haru"),
    )
    async with running_api(settings) as running:
        yield Keyed(running, key_file, ash.secret)


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


async def test_health_needs_no_key(keyed: Keyed) -> None:
    assert (await keyed.api.client.get("/health")).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {},
        bearer("not-a-key"),
        {"X-API-Key": "not-a-key"},
        {"Authorization": f"Basic {HARU_SECRET}"},
        bearer(HARU_SECRET[:-1]),
        bearer(HARU_SECRET.upper()),
    ],
)
async def test_missing_or_wrong_keys_are_401(keyed: Keyed, headers: dict[str, str]) -> None:
    client = keyed.api.client
    for method, path in (
        ("GET", "/v1/metrics"),
        ("GET", "/v1/characters"),
        ("GET", viewer_path("haru", "minjun") + "/export"),
        ("GET", viewer_path("haru", "minjun") + "/profile"),
        ("POST", "/v1/chat/stream"),
    ):
        body = {"character_id": "haru", **CHAT} if path.endswith("stream") else None
        response = await client.request(method, path, headers=headers, json=body)
        assert response.status_code == 401, (path, response.text)
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["error"]["type"] == "AccessDenied"


async def test_a_key_works_on_its_characters_in_either_header(keyed: Keyed) -> None:
    client = keyed.api.client
    path = viewer_path("haru", "minjun") + "/export"
    assert (await client.get(path, headers=bearer(HARU_SECRET))).status_code == 200
    assert (await client.get(path, headers={"X-API-Key": HARU_SECRET})).status_code == 200
    assert (await client.get(path, headers=bearer(ALL_SECRET))).status_code == 200
    ash_path = viewer_path("ash", "minjun") + "/export"
    assert (await client.get(ash_path, headers=bearer(keyed.ash_secret))).status_code == 200


async def test_a_key_on_another_character_is_403(keyed: Keyed) -> None:
    client = keyed.api.client
    response = await client.post(
        viewer_path("ash", "minjun") + "/turns",
        headers=bearer(HARU_SECRET),
        json={"user_message": "I love League of Legends"},
    )
    assert response.status_code == 403
    assert "ash" in response.json()["error"]["message"]
    forbidden = await client.get(
        viewer_path("haru", "minjun") + "/export", headers=bearer(keyed.ash_secret)
    )
    assert forbidden.status_code == 403
    profile = await client.get(
        viewer_path("haru", "minjun") + "/profile", headers=bearer(keyed.ash_secret)
    )
    assert profile.status_code == 403
    allowed = await client.get(
        viewer_path("haru", "minjun") + "/profile", headers={"X-API-Key": HARU_SECRET}
    )
    assert allowed.status_code == 200
    nothing = await client.get(viewer_path("ash", "minjun") + "/export", headers=bearer(ALL_SECRET))
    assert nothing.json()["episodes"] == []


async def test_403_comes_before_404_so_characters_cannot_be_probed(keyed: Keyed) -> None:
    response = await keyed.api.client.get(
        viewer_path("nobody", "minjun") + "/facts", headers=bearer(HARU_SECRET)
    )
    assert response.status_code == 403
    allowed = await keyed.api.client.get(
        viewer_path("nobody", "minjun") + "/facts", headers=bearer(ALL_SECRET)
    )
    assert allowed.status_code == 404


async def test_chat_checks_the_character_in_the_body(keyed: Keyed) -> None:
    client = keyed.api.client
    response = await client.post(
        "/v1/chat/stream", headers=bearer(HARU_SECRET), json={"character_id": "ash", **CHAT}
    )
    assert response.status_code == 403
    allowed = await client.post(
        "/v1/chat/stream", headers=bearer(HARU_SECRET), json={"character_id": "haru", **CHAT}
    )
    assert allowed.status_code == 200
    assert '"type":"done"' in allowed.text


async def test_decay_checks_the_character_in_the_body(keyed: Keyed) -> None:
    response = await keyed.api.client.post(
        "/v1/maintenance/decay", headers=bearer(HARU_SECRET), json={"character_id": "ash"}
    )
    assert response.status_code == 403


async def test_character_list_shows_only_what_the_key_may_use(keyed: Keyed) -> None:
    client = keyed.api.client
    haru = await client.get("/v1/characters", headers=bearer(HARU_SECRET))
    assert haru.json()["characters"] == ["haru"]
    everything = await client.get("/v1/characters", headers=bearer(ALL_SECRET))
    assert {"haru", "ash"} <= set(everything.json()["characters"])


async def test_keys_created_or_revoked_while_running_apply_at_once(keyed: Keyed) -> None:
    client = keyed.api.client
    path = viewer_path("haru", "minjun") + "/facts"
    created = await keyed.key_file.create(["haru"], now=datetime(2026, 5, 2, tzinfo=UTC))
    assert (await client.get(path, headers=bearer(created.secret))).status_code == 200
    await keyed.key_file.revoke(created.key.key_id)
    assert (await client.get(path, headers=bearer(created.secret))).status_code == 401
    assert (await client.get(path, headers=bearer(HARU_SECRET))).status_code == 200


async def test_without_keys_only_loopback_callers_are_served(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    async with running_api(settings) as local:
        assert (await local.client.get("/v1/metrics")).status_code == 200
    async with running_api(settings, client_address=("203.0.113.9", 40000)) as remote:
        response = await remote.client.get("/v1/metrics")
        assert response.status_code == 401
        assert "omoide keys create" in response.json()["error"]["message"]
        assert (await remote.client.get("/health")).status_code == 200


def test_no_keys_refuses_a_public_host(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="without API keys"):
        create_app(make_settings(tmp_path, host="0.0.0.0"))
    create_app(make_settings(tmp_path, host="127.0.0.1"))
    create_app(make_settings(tmp_path, host="0.0.0.0", api_keys=SecretStr("s3cret:*")))


def test_serve_on_a_public_host_without_keys_fails_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OMOIDE_API_KEYS", raising=False)
    result = CliRunner().invoke(
        cli_app, ["serve", "--host", "0.0.0.0", "--data-dir", str(tmp_path)]
    )
    assert result.exit_code == 1
    assert "without API keys" in result.output


def test_a_malformed_key_setting_refuses_to_start_without_echoing_secrets(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        create_app(make_settings(tmp_path, api_keys=SecretStr("topsecretvalue")))
    assert "topsecretvalue" not in str(caught.value)
    with pytest.raises(ConfigError, match="entry 2"):
        create_app(make_settings(tmp_path, api_keys=SecretStr("a:haru;b:../etc")))


def test_a_damaged_key_file_refuses_to_start(tmp_path: Path) -> None:
    tmp_path.joinpath("keys.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"keys\.json"):
        create_app(make_settings(tmp_path, api_keys=SecretStr("s3cret:*")))


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.0.10", False),
        ("example.com", False),
        ("", False),
        (None, False),
    ],
)
def test_loopback_hosts(host: str | None, loopback: bool) -> None:
    assert is_loopback(host) is loopback
