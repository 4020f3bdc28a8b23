"""omoide as an MCP server: memory tools over stdio (``omoide mcp``) and at ``/mcp``."""

from omoide.mcp.server import ToolAccess, build_mcp_server
from omoide.mcp.stdio import LocalAccess, serve_stdio

__all__ = ["LocalAccess", "ToolAccess", "build_mcp_server", "serve_stdio"]
