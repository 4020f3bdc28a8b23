"""Decay over HTTP: a dry run changes nothing; restoring undoes a run; counts agree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.api.harness import Api, make_settings, running_api, viewer_path

pytestmark = pytest.mark.anyio
DECAY = "/v1/maintenance/decay"
RESTORE = "/v1/maintenance/decay/restore"
NOW = "2026-05-01T00:00:00Z"


async def remember_faded(api: Api, user: str, message: str) -> str:
    response = await api.client.post(
        viewer_path("haru", user) + "/turns",
        json={"user_message": message, "timestamp": "2020-01-01T00:00:00Z", "importance": 0.1},
    )
    assert response.status_code == 200, response.text
    episode_id: str = response.json()["episode_id"]
    return episode_id


async def listing(api: Api, user: str) -> dict[str, Any]:
    page = (await api.client.get("/v1/characters/haru/users", params={"search": user})).json()
    (entry,) = [found for found in page["users"] if found["user_id"] == user]
    return dict(entry)


async def test_a_dry_run_reports_and_changes_nothing_then_restore_undoes_the_run(
    tmp_path: Path,
) -> None:
    async with running_api(make_settings(tmp_path)) as api:
        first = await remember_faded(api, "minjun", "the bus was late")
        second = await remember_faded(api, "sora", "I had cereal")
        export = viewer_path("haru", "minjun") + "/export"
        before = (await api.client.get(export)).json()

        dry = await api.client.post(
            DECAY, json={"character_id": "haru", "now": NOW, "dry_run": True}
        )

        assert dry.status_code == 200, dry.text
        assert dry.json() == {
            "character_id": "haru",
            "dry_run": True,
            "now": NOW,
            "scanned": 2,
            "archived": 2,
            "purged": 0,
            "archived_ids": sorted([first, second]),
            "purged_ids": [],
        }
        assert (await api.client.get(export)).json() == before
        assert (await listing(api, "minjun"))["episode_count"] == 1

        run = (await api.client.post(DECAY, json={"character_id": "haru", "now": NOW})).json()
        assert (run["dry_run"], run["archived"], run["now"]) == (False, 2, NOW)
        entry = await listing(api, "minjun")
        episodes = viewer_path("haru", "minjun") + "/episodes"
        assert (entry["episode_count"], entry["archived_episode_count"]) == (0, 1)
        assert (await api.client.get(episodes)).json()["total"] == entry["episode_count"]

        restored = await api.client.post(
            RESTORE, json={"character_id": "haru", "archived_since": run["now"]}
        )

        assert restored.status_code == 200, restored.text
        assert restored.json() == {
            "character_id": "haru",
            "restored": 2,
            "episode_ids": sorted([first, second]),
        }
        assert (await api.client.get(episodes)).json()["total"] == 1
        found = await api.client.post(
            viewer_path("haru", "minjun") + "/search", json={"query": "the bus was late"}
        )
        assert [hit["episode_id"] for hit in found.json()["episodes"]] == [first]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"character_id": "haru"}, 422),
        ({"character_id": "haru", "episode_ids": []}, 422),
        ({"character_id": "haru", "archived_since": "2026-05-01T00:00:00"}, 422),
        ({"character_id": "haru", "episode_ids": "e1"}, 422),
        ({"character_id": "nobody", "episode_ids": ["e1"]}, 404),
    ],
)
async def test_bad_restore_requests(api: Api, body: dict[str, Any], status: int) -> None:
    response = await api.client.post(RESTORE, json=body)
    assert response.status_code == status, response.text
    assert set(response.json()["error"]) == {"type", "message", "details"}


async def test_a_dry_run_must_be_a_boolean(api: Api) -> None:
    response = await api.client.post(DECAY, json={"character_id": "haru", "dry_run": "yes"})
    assert response.status_code == 422
