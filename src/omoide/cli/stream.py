"""``omoide stream``: replay chat logs into a stream, end streams.

Every command talks to a server (``--url``, ``--api-key``) or, without ``--url``, to the
library directly on ``--data-dir`` (built with ``--embedder``, the store's model). A chat
log is JSON lines, one comment per line: ``{"viewer_id", "display_name", "text", "time",
"platform", "reply"?}``; every line is validated before anything is sent. ``omoide
identity`` is :mod:`omoide.cli.identity`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar

import typer

from omoide.cli.common import AsJson, DataDir, Embedder, Library, console, fail, run_async
from omoide.cli.remote import ApiKey, Character, Url, print_json, server

if TYPE_CHECKING:
    from omoide.api.views_stream import IngestOut, StreamEndOut
    from omoide.stream.events import StreamEvent
    from omoide.stream.service import StreamService

stream_app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None, help="Live streams: replay chat logs, end streams"
)
Result = TypeVar("Result")

StreamId = Annotated[str, typer.Option("--stream-id", "-s", help="Stream id")]


class StreamBackend(Protocol):
    """What the stream commands need; a server (StreamClient) or the library (_Local)."""

    async def ingest(
        self, character_id: str, stream_id: str, events: Sequence[StreamEvent]
    ) -> IngestOut: ...
    async def end(self, character_id: str, stream_id: str) -> StreamEndOut: ...


class _Local:
    """The library's stream service behind the same answers the server gives."""

    def __init__(self, service: StreamService) -> None:
        from omoide.api import views_stream as wire

        self.service = service
        self.wire = wire

    async def ingest(
        self, character_id: str, stream_id: str, events: Sequence[StreamEvent]
    ) -> IngestOut:
        return self.wire.ingest_out(await self.service.ingest(character_id, stream_id, events))

    async def end(self, character_id: str, stream_id: str) -> StreamEndOut:
        return self.wire.end_out(await self.service.end_stream(character_id, stream_id))


@asynccontextmanager
async def _backend(
    url: str | None, api_key: str | None, library: Library
) -> AsyncIterator[StreamBackend]:
    if url is not None:
        async with server(url, api_key) as client:
            yield client
        return
    from omoide.wiring import build

    built = await build(library.settings())
    try:
        yield _Local(built.streams)
        await built.streams.drain()
    finally:
        await built.aclose()


def _run(
    url: str | None,
    api_key: str | None,
    library: Library,
    action: Callable[[StreamBackend], Awaitable[Result]],
) -> Result:
    async def main() -> Result:
        async with _backend(url, api_key, library) as backend:
            return await action(backend)

    return run_async(main)


def read_log(path: Path) -> list[StreamEvent]:
    """Every line of a JSON-lines chat log as an event; InvalidInput names the line."""
    from omoide.errors import InvalidInput
    from omoide.stream.events import event_from_json

    events = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                events.append(event_from_json(json.loads(line)))
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{path}:{number}: not JSON ({exc.msg})") from exc
            except InvalidInput as exc:
                raise InvalidInput(f"{path}:{number}: {exc}") from exc
    return events


def _total(reports: Sequence[IngestOut]) -> dict[str, int]:
    from omoide.api.views_stream import IngestOut

    names = IngestOut.model_fields
    totals = {name: sum(getattr(report, name) for report in reports) for name in names}
    totals["comment_count"] = max((report.comment_count for report in reports), default=0)
    return totals


@stream_app.command("replay")
def replay(
    log: Annotated[Path, typer.Argument(help="Chat log, JSON lines", exists=True, dir_okay=False)],
    character: Character,
    stream_id: StreamId,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    batch_size: Annotated[int, typer.Option(min=1, max=5000, help="Comments per request")] = 500,
    end: Annotated[bool, typer.Option("--end", help="End the stream after the log")] = False,
    as_json: AsJson = False,
) -> None:
    """Replay a chat log into a stream, batch by batch, with a progress bar."""
    from rich.progress import Progress

    from omoide.errors import InvalidInput

    try:
        events = read_log(log)
    except (InvalidInput, OSError) as exc:
        raise fail(str(exc)) from exc

    async def action(backend: StreamBackend) -> dict[str, Any]:
        reports = []
        with Progress(console=console(), disable=as_json) as progress:
            task = progress.add_task(f"replaying into {stream_id}", total=len(events))
            for start in range(0, len(events), batch_size):
                batch = events[start : start + batch_size]
                reports.append(await backend.ingest(character, stream_id, batch))
                progress.advance(task, len(batch))
        result: dict[str, Any] = {"ingest": _total(reports)}
        if end:
            result["end"] = (await backend.end(character, stream_id)).model_dump(mode="json")
        if isinstance(backend, _Local):
            stats = backend.service.stats()
            result["llm_calls_per_1000_messages"] = round(stats.llm_calls_per_1000_messages, 2)
        return result

    result = _run(url, api_key, Library(data_dir, embedder), action)
    print_json(result) if as_json else _show_replay(result, stream_id)


def _show_replay(result: dict[str, Any], stream_id: str) -> None:
    from omoide.api.views_stream import StreamEndOut
    from omoide.cli.render import print_counts

    print_counts(console(), f"stream {stream_id}", result["ingest"])
    if "end" in result:
        _show_end(StreamEndOut.model_validate(result["end"]))


def _show_end(end: StreamEndOut) -> None:
    out = console()
    diary = end.diary
    out.print(
        f"[bold]Diary entry {diary.number}[/bold] ({diary.method}, {diary.comment_count} comments)"
    )
    out.print(diary.text, markup=False, highlight=False)
    for outcome in end.identity:
        fields = ", ".join(change.field for change in outcome.accepted) or "-"
        out.print(f"identity: {outcome.status} (fields: {fields}) {outcome.message}", markup=False)
        for refused in outcome.refused:
            out.print(f"  refused {refused.field}: {refused.reason}", markup=False)


@stream_app.command("end")
def end_stream(
    character: Character,
    stream_id: StreamId,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """End a stream: write its closing diary entry and show it."""
    library = Library(data_dir, embedder)
    result = _run(url, api_key, library, lambda backend: backend.end(character, stream_id))
    print_json(result) if as_json else _show_end(result)


def register(app: typer.Typer) -> None:
    """Add ``stream`` and ``identity`` (:mod:`omoide.cli.identity`) to the main command."""
    from omoide.cli.identity import identity_app

    app.add_typer(stream_app, name="stream")
    app.add_typer(identity_app, name="identity")
