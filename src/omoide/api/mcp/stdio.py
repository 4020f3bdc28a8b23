"""``omoide mcp``: the MCP server over stdin and stdout, for a client that starts it."""

from __future__ import annotations

from omoide.api.mcp.tools import build_mcp_server
from omoide.config import Settings
from omoide.errors import NotFound
from omoide.wiring import Omoide, build


class LocalAccess:
    """Every character: whoever can start the process can read its data directory."""

    def __init__(self, built: Omoide) -> None:
        self._built = built

    async def omoide_for(self, request: object | None, character_id: str) -> Omoide:
        try:
            await self._built.characters.load(character_id)
        except NotFound as exc:
            raise NotFound(f"character {character_id!r} not found") from exc
        return self._built


async def serve_stdio(settings: Settings) -> None:
    """Build omoide from ``settings`` and answer MCP over stdio until the client leaves."""
    built = await build(settings)
    try:
        await build_mcp_server(LocalAccess(built)).run_stdio_async()
    finally:
        await built.aclose()
