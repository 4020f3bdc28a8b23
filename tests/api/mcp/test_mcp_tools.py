"""The MCP tools, driven by the ``mcp`` SDK's own client: over stdio (``omoide mcp`` as a
real subprocess) and over streamable HTTP at ``/mcp`` on a real uvicorn server."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, TextContent
from pydantic import SecretStr

from omoide.api.app import create_app
from omoide.embed.hashing import HashingEmbedder
from tests.api.harness import live_server, make_characters_dir, make_settings

pytestmark = pytest.mark.anyio

ALL_KEY = "sk-all-0123456789"
HARU_KEY = "sk-haru-0123456789"
TOLD = "My dog is called Bori and he loves long walks by the river."
TOOLS = {
    "remember",
    "recall",
    "search",
    "profile",
    "list_facts",
    "correct_fact",
    "delete_fact",
    "forget_viewer",
}


def structured(result: CallToolResult) -> Any:
    assert not result.is_error, error_text(result)
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    return " ".join(block.text for block in result.content if isinstance(block, TextContent))


async def remember_and_recall(client: Client, character: str = "haru") -> None:
    """The tools a memory client needs most, end to end."""
    names = {tool.name for tool in (await client.list_tools()).tools}
    assert names == TOOLS
    viewer = {"character_id": character, "user_id": "viewer-a"}
    stored = structured(await client.call_tool("remember", {**viewer, "text": TOLD}))
    assert stored["stored"] is True
    recalled = structured(await client.call_tool("recall", {**viewer, "query": "my dog"}))
    assert "Bori" in recalled["text"]
    found = structured(await client.call_tool("search", {**viewer, "query": "dog walks"}))
    assert found["episodes"][0]["user_message"] == TOLD
    other = {"character_id": character, "user_id": "viewer-b", "query": "my dog"}
    assert "Bori" not in structured(await client.call_tool("recall", other))["text"]


async def facts_are_corrected_deleted_and_forgotten(client: Client) -> None:
    viewer = {"character_id": "haru", "user_id": "viewer-facts"}
    said = "I live in Busan and I work as a nurse at the city hospital."
    structured(await client.call_tool("remember", {**viewer, "text": said}))
    facts = structured(await client.call_tool("list_facts", viewer))["facts"]
    assert facts, "the rules extractor keeps a fact from this turn"
    first = facts[0]["fact_id"]
    corrected = {**viewer, "fact_id": first, "text": "lives in Seoul"}
    assert structured(await client.call_tool("correct_fact", corrected))["text"] == "lives in Seoul"
    current = structured(await client.call_tool("list_facts", viewer))["facts"]
    victim = current[0]["fact_id"]
    deleted = structured(await client.call_tool("delete_fact", {**viewer, "fact_id": victim}))
    assert deleted["memory_id"] == victim
    assert isinstance(structured(await client.call_tool("profile", viewer)), dict)
    refused = await client.call_tool("forget_viewer", {**viewer, "confirm": False})
    assert refused.is_error and "confirm=true" in error_text(refused)
    forgotten = structured(await client.call_tool("forget_viewer", {**viewer, "confirm": True}))
    assert forgotten["episodes"] >= 1
    assert structured(await client.call_tool("list_facts", viewer))["facts"] == []


# --- stdio ----------------------------------------------------------------------------
def stdio_server(data_dir: Path) -> StdioServerParameters:
    environment = {
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "OMOIDE_EMBEDDER": "hashing",
        "OMOIDE_LLM": "scripted",
        "OMOIDE_DATA_DIR": str(data_dir),
    }
    return StdioServerParameters(
        command=sys.executable, args=["-m", "omoide", "mcp"], env=environment
    )


async def test_the_tools_remember_and_recall_over_stdio(tmp_path: Path) -> None:
    with (tmp_path / "stderr.log").open("w") as log:
        async with Client(stdio_client(stdio_server(tmp_path / "data"), errlog=log)) as client:
            await remember_and_recall(client)
            await facts_are_corrected_deleted_and_forgotten(client)
            unknown = await client.call_tool(
                "recall", {"character_id": "nobody", "user_id": "v", "query": "hi"}
            )
            assert unknown.is_error and "not found" in error_text(unknown)


# --- streamable HTTP at /mcp ------------------------------------------------------------
@pytest.fixture(scope="module")
def service_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("mcp-http")
    settings = make_settings(
        root / "data",
        characters_dirs=[make_characters_dir(root, "ash")],
        api_keys=SecretStr(f"{ALL_KEY}:*;{HARU_KEY}:haru"),
    )
    with live_server(create_app(settings, embedder=HashingEmbedder(256))) as url:
        yield url


@asynccontextmanager
async def http_client(url: str, key: str | None) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,
    ):
        yield client


async def test_the_tools_remember_and_recall_over_http(service_url: str) -> None:
    async with http_client(service_url, ALL_KEY) as client:
        await remember_and_recall(client, "ash")
        await facts_are_corrected_deleted_and_forgotten(client)


async def test_over_http_the_key_limits_the_characters(service_url: str) -> None:
    async with http_client(service_url, HARU_KEY) as client:
        await remember_and_recall(client, "haru")
        refused = await client.call_tool(
            "recall", {"character_id": "ash", "user_id": "viewer-a", "query": "my dog"}
        )
        assert refused.is_error and "ash" in error_text(refused)


async def test_over_http_a_missing_key_is_refused(service_url: str) -> None:
    response = httpx2.post(f"{service_url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert response.status_code == 401
    assert response.json()["error"]["type"] == "AccessDenied"


async def test_the_name_given_to_remember_is_the_viewers_name(service_url: str) -> None:
    async with http_client(service_url, ALL_KEY) as client:
        viewer = {"character_id": "haru", "user_id": "viewer-named"}
        structured(await client.call_tool("remember", {**viewer, "text": TOLD, "name": "보라"}))
    headers = {"Authorization": f"Bearer {ALL_KEY}"}
    names = httpx2.get(
        f"{service_url}/v1/characters/haru/users/viewer-named/names", headers=headers
    )
    assert names.status_code == 200, names.text
    assert names.json()["display_name"] == "보라"
