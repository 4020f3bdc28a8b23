"""What every ``omoide`` command shares: options, settings, running, printing."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
import typer
from rich.console import Console

from omoide.config import Settings, load_settings
from omoide.errors import OmoideError
from omoide.wiring import Omoide, build

console = Console()
errors = Console(stderr=True)
Result = TypeVar("Result")

DataDir = Annotated[
    Path | None, typer.Option("--data-dir", help="Where the store lives (OMOIDE_DATA_DIR)")
]
Embedder = Annotated[
    str | None, typer.Option("--embedder", help="use | e5 | hashing | ... (OMOIDE_EMBEDDER)")
]
AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable output")]
Character = Annotated[str, typer.Option("--character", "-c", help="Character id")]
User = Annotated[str, typer.Option("--user", "-u", help="Viewer id")]
When = Annotated[
    datetime | None,
    typer.Option("--now", help="Act as if it were this time (ISO 8601 with offset)"),
]


def settings_from(**options: Any) -> Settings:
    """Settings from the environment, with the options actually given on top."""
    return load_settings(**{key: value for key, value in options.items() if value is not None})


def run(settings: Settings, action: Callable[[Omoide], Awaitable[Result]]) -> Result:
    """Build omoide, run one action, close everything; errors become exit code 1."""

    async def main() -> Result:
        built = await build(settings)
        try:
            return await action(built)
        finally:
            await built.aclose()

    try:
        return anyio.run(main)
    except OmoideError as exc:
        errors.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc


def emit(as_json: bool, payload: object, show: Callable[[], None]) -> None:
    if as_json:
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    else:
        show()
