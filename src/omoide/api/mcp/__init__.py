"""omoide as an MCP server: memory tools over stdio (``omoide mcp``) and at ``/mcp``.

The tools are the HTTP API's use cases over another protocol: they take the API's request
bodies and answer with its views, so they live beside it.
"""

from omoide.api.mcp.stdio import LocalAccess, serve_stdio
from omoide.api.mcp.tools import ToolAccess, build_mcp_server

__all__ = ["LocalAccess", "ToolAccess", "build_mcp_server", "serve_stdio"]
