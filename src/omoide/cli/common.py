"""What every ``omoide`` command shares: options, settings, running, printing.

Light on purpose: the command group imports this module to declare its options, so it
loads only typer and the standard library. The settings, the store, the embedder and rich
are imported by the functions that need them, when a command runs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from omoide.config import Settings
    from omoide.wiring import Omoide, Reader

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


def iso_time(text: str) -> datetime:
    """An ISO 8601 time (``2026-01-05T21:00:00+09:00``, ``...Z``), parsed by the standard
    library: typer's own parsing needs a format list, or pydantic, which takes ~0.15 s to
    load before any usage error could be shown."""
    try:
        return datetime.fromisoformat(text)
    except ValueError as exc:
        raise typer.BadParameter(f"{text!r} is not an ISO 8601 time") from exc


def time_option(*names: str, help: str) -> Any:
    """A ``datetime`` option read as ISO 8601 (:func:`iso_time`)."""
    return typer.Option(*names, help=help, parser=iso_time, metavar="ISO-8601")


When = Annotated[
    datetime | None, time_option("--now", help="Act as if it were this time (ISO 8601 with offset)")
]


def console() -> Console:
    """Standard output for people (rich, loaded on first use)."""
    from rich.console import Console

    return Console()


def errors() -> Console:
    """Standard error for people."""
    from rich.console import Console

    return Console(stderr=True)


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error; the exit (code 1) for the caller to raise."""
    from rich.markup import escape

    errors().print(f"[red]error:[/red] {escape(message)}", highlight=False)
    return typer.Exit(1)


def settings_from(**options: Any) -> Settings:
    """Settings from the environment, with the options actually given on top."""
    from omoide.config import load_settings
    from omoide.errors import OmoideError

    try:
        return load_settings(**{key: value for key, value in options.items() if value is not None})
    except OmoideError as exc:
        raise fail(str(exc)) from exc


@dataclass(frozen=True, slots=True)
class Library:
    """The library on ``data_dir``, for a command that could also talk to a server: built
    with ``embedder``, the store's model, as every library command builds it."""

    data_dir: Path | None
    embedder: str | None

    def settings(self) -> Settings:
        return settings_from(data_dir=self.data_dir, embedder=self.embedder)


def run_async(action: Callable[[], Awaitable[Result]]) -> Result:
    """Run ``action``; an omoide error becomes a message and exit code 1."""
    import anyio

    from omoide.errors import OmoideError

    try:
        return anyio.run(action)
    except OmoideError as exc:
        raise fail(str(exc)) from exc


def run(settings: Settings, action: Callable[[Omoide], Awaitable[Result]]) -> Result:
    """Build omoide, run one action, close everything; errors become exit code 1."""

    async def main() -> Result:
        from omoide.wiring import build

        built = await build(settings)
        try:
            return await action(built)
        finally:
            await built.aclose()

    return run_async(main)


def read(settings: Settings, action: Callable[[Reader], Awaitable[Result]]) -> Result:
    """Run one read over the store files alone (``wiring.open_reader``): no chat model,
    no worker, nothing written but what the full build writes too (the reinforcement of
    what a reply's section recalled); errors become exit code 1."""

    async def main() -> Result:
        from omoide.wiring.reader import open_reader

        async with open_reader(settings) as reader:
            return await action(reader)

    return run_async(main)


def write_json(payload: object) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


def emit(as_json: bool, payload: object, show: Callable[[], None]) -> None:
    if as_json:
        write_json(payload)
    else:
        show()
