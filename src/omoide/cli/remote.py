"""What ``omoide stream`` and ``omoide identity`` share: a server (``--url``) or the library.

Light like :mod:`omoide.cli.common`: the HTTP client and the wire models are imported
when a command runs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from omoide.cli.common import write_json

if TYPE_CHECKING:
    from pydantic import BaseModel

    from omoide.api.stream_client import StreamClient

Character = Annotated[str, typer.Option("--character", "-c", help="Character id")]
Url = Annotated[str | None, typer.Option("--url", help="omoide server (default: the library)")]
ApiKey = Annotated[str | None, typer.Option("--api-key", help="API key for --url")]


@asynccontextmanager
async def server(url: str, api_key: str | None) -> AsyncIterator[StreamClient]:
    """A client of the omoide server at ``url``, closed after."""
    from omoide.api.stream_client import StreamClient

    client = StreamClient(url, api_key=api_key)
    try:
        yield client
    finally:
        await client.aclose()


def print_json(model: BaseModel | dict[str, Any]) -> None:
    write_json(model if isinstance(model, dict) else model.model_dump(mode="json"))
