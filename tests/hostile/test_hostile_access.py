"""Access and honesty: counters need a key for every character, proxy headers are not
trusted blindly, and /health says when the chat model fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from omoide.api.auth import is_local_request
from omoide.errors import BackendUnavailable
from omoide.llm.scripted import ScriptedChatModel
from tests.api.harness import make_settings, running_api

pytestmark = pytest.mark.anyio

ALL_SECRET = "hostile-secret-for-everything"
HARU_SECRET = "hostile-secret-for-haru"
FORWARDED = [
    {"X-Real-IP": "203.0.113.9"},
    {"Forwarded": "for=203.0.113.9;proto=https"},
    {"Forwarded": 'for="[2001:db8::1]:4711"'},
    {"X-Forwarded-For": "203.0.113.9"},
    {"X-Forwarded-For": "127.0.0.1, 203.0.113.9"},
    {"X-Real-IP": ""},
]


async def test_metrics_need_a_key_for_all_characters(tmp_path: Path) -> None:
    keys = SecretStr(f"{ALL_SECRET}:*;{HARU_SECRET}:haru")
    async with running_api(make_settings(tmp_path, api_keys=keys)) as running:
        bound = {"Authorization": f"Bearer {HARU_SECRET}"}
        refused = await running.client.get("/v1/metrics", headers=bound)
        assert refused.status_code == 403
        assert "all characters" in refused.json()["error"]["message"]
        admin = {"Authorization": f"Bearer {ALL_SECRET}"}
        assert (await running.client.get("/v1/metrics", headers=admin)).status_code == 200


@pytest.mark.parametrize("headers", FORWARDED)
async def test_open_mode_refuses_a_request_forwarded_by_a_local_proxy(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    async with running_api(make_settings(tmp_path), headers=headers) as running:
        response = await running.client.get("/v1/characters")
        assert response.status_code == 401, response.text
        assert (await running.client.get("/health")).status_code == 200


async def test_a_configured_proxy_is_believed_about_local_clients(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, forwarded_allow_ips=["127.0.0.1"])
    local = {"X-Forwarded-For": "127.0.0.1", "X-Real-IP": "::1"}
    async with running_api(settings, headers=local) as running:
        assert (await running.client.get("/v1/characters")).status_code == 200
    remote = {"X-Forwarded-For": "203.0.113.9"}
    async with running_api(settings, headers=remote) as running:
        assert (await running.client.get("/v1/characters")).status_code == 401


@pytest.mark.parametrize(
    ("peer", "headers", "trusted", "local"),
    [
        ("127.0.0.1", {}, [], True),
        ("203.0.113.9", {}, [], False),
        (None, {}, [], False),
        ("127.0.0.1", {"x-real-ip": "127.0.0.1"}, [], False),
        ("127.0.0.1", {"x-real-ip": "127.0.0.1"}, ["127.0.0.1"], True),
        ("127.0.0.1", {"forwarded": "for=127.0.0.1:5000"}, ["127.0.0.1"], True),
        ("127.0.0.1", {"forwarded": "by=127.0.0.1"}, ["127.0.0.1"], False),
        ("127.0.0.1", {"forwarded": 'for="[::1]:80"'}, ["127.0.0.1"], True),
        ("127.0.0.1", {"x-forwarded-for": "127.0.0.1, 10.0.0.2"}, ["127.0.0.1"], False),
    ],
)
def test_which_requests_are_local(
    peer: str | None, headers: dict[str, str], trusted: list[str], local: bool
) -> None:
    assert is_local_request(peer, headers.items(), trusted) is local


async def test_health_is_degraded_while_the_model_fails_and_asks_it_once(tmp_path: Path) -> None:
    model = ScriptedChatModel([BackendUnavailable("the model server is down (test)")])
    async with running_api(make_settings(tmp_path), chat_model=model) as running:
        for _ in range(3):
            response = await running.client.get("/health")
            assert response.status_code == 200
            health = response.json()
            assert health["status"] == "degraded"
            assert health["llm"]["ok"] is False and "down" in health["llm"]["error"]
        assert len(model.calls) == 1, "a polled /health must not become a stream of model calls"


def test_every_line_of_a_repeated_proxy_header_counts() -> None:
    lines = [("x-forwarded-for", "127.0.0.1"), ("x-forwarded-for", "203.0.113.9")]
    assert not is_local_request("127.0.0.1", lines, ["127.0.0.1"])
