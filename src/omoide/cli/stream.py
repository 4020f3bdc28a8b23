"""``omoide stream`` and ``omoide identity``: replay chat logs, end streams, review growth.

Every command talks to a server (``--url``, ``--api-key``) or, without ``--url``, to the
library directly on ``--data-dir``. A chat log is JSON lines, one comment per line:
``{"viewer_id", "display_name", "text", "time", "platform", "reply"?}``; every line is
validated before anything is sent.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar

import typer

from omoide.cli.common import DataDir, console, fail, run_async, settings_from, write_json

if TYPE_CHECKING:
    from pydantic import BaseModel

    from omoide.api.views_stream import (
        FieldChangeOut,
        IngestOut,
        PendingChangeOut,
        PendingListOut,
        StreamEndOut,
        VersionListOut,
        VersionOut,
    )
    from omoide.stream.events import StreamEvent
    from omoide.stream.service import StreamService

stream_app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None, help="Live streams: replay chat logs, end streams"
)
identity_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="A character's evolving identity: versions, diffs, approvals",
)
Result = TypeVar("Result")

Character = Annotated[str, typer.Option("--character", "-c", help="Character id")]
StreamId = Annotated[str, typer.Option("--stream-id", "-s", help="Stream id")]
Url = Annotated[str | None, typer.Option("--url", help="omoide server (default: the library)")]
ApiKey = Annotated[str | None, typer.Option("--api-key", help="API key for --url")]
AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable output")]


class Backend(Protocol):
    """What the commands need; a server (StreamClient) or the library (_Local)."""

    async def ingest(
        self, character_id: str, stream_id: str, events: Sequence[StreamEvent]
    ) -> IngestOut: ...
    async def end(self, character_id: str, stream_id: str) -> StreamEndOut: ...
    async def versions(self, character_id: str) -> VersionListOut: ...
    async def version(self, character_id: str, number: int) -> VersionOut: ...
    async def pending(self, character_id: str) -> PendingListOut: ...
    async def approve(self, character_id: str, change_id: str) -> VersionOut: ...
    async def reject(self, character_id: str, change_id: str) -> PendingChangeOut: ...
    async def rollback(self, character_id: str, number: int) -> VersionOut: ...


class _Local:
    """The library behind the same answers the server gives."""

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

    async def versions(self, character_id: str) -> VersionListOut:
        return self.wire.versions_out(
            character_id, await self.service.identity.versions(character_id)
        )

    async def version(self, character_id: str, number: int) -> VersionOut:
        found = await self.service.identity.version(character_id, number)
        return self.wire.version_out(found, with_profile=True)

    async def pending(self, character_id: str) -> PendingListOut:
        changes = await self.service.identity.changes(character_id)
        return self.wire.PendingListOut(changes=[self.wire.change_out(c) for c in changes])

    async def approve(self, character_id: str, change_id: str) -> VersionOut:
        version = await self.service.identity.approve(character_id, change_id)
        return self.wire.version_out(version, with_profile=True)

    async def reject(self, character_id: str, change_id: str) -> PendingChangeOut:
        return self.wire.change_out(await self.service.identity.reject(character_id, change_id))

    async def rollback(self, character_id: str, number: int) -> VersionOut:
        version = await self.service.identity.rollback(character_id, number)
        return self.wire.version_out(version, with_profile=True)


@asynccontextmanager
async def _backend(
    url: str | None, api_key: str | None, data_dir: Path | None
) -> AsyncIterator[Backend]:
    if url is not None:
        from omoide.api.stream_client import StreamClient

        client = StreamClient(url, api_key=api_key)
        try:
            yield client
        finally:
            await client.aclose()
        return
    from omoide.wiring import build

    built = await build(settings_from(data_dir=data_dir))
    try:
        yield _Local(built.streams)
        await built.streams.drain()
    finally:
        await built.aclose()


def _run(
    url: str | None,
    api_key: str | None,
    data_dir: Path | None,
    action: Callable[[Backend], Awaitable[Result]],
) -> Result:
    async def main() -> Result:
        async with _backend(url, api_key, data_dir) as backend:
            return await action(backend)

    return run_async(main)


def _print_json(model: BaseModel | dict[str, Any]) -> None:
    write_json(model if isinstance(model, dict) else model.model_dump(mode="json"))


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

    async def action(backend: Backend) -> dict[str, Any]:
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

    result = _run(url, api_key, data_dir, action)
    _print_json(result) if as_json else _show_replay(result, stream_id)


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
    as_json: AsJson = False,
) -> None:
    """End a stream: write its closing diary entry and show it."""
    result = _run(url, api_key, data_dir, lambda backend: backend.end(character, stream_id))
    _print_json(result) if as_json else _show_end(result)


def _show_changes(changes: Sequence[FieldChangeOut]) -> None:
    """Each field, and only its lines that changed (``-`` removed, ``+`` added)."""
    from rich.text import Text

    from omoide.cli.render import changed_lines

    out = console()
    for change in changes:
        out.print(f"[bold]{change.field}[/bold]")
        for line in changed_lines(change.before, change.after):
            style = "green" if line.startswith("+") else "red"
            out.print(Text(f"  {line}", style=style))


@identity_app.command("versions")
def versions(
    character: Character,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
    as_json: AsJson = False,
) -> None:
    """List a character's identity versions, oldest first."""
    result = _run(url, api_key, data_dir, lambda backend: backend.versions(character))
    if as_json:
        _print_json(result)
        return
    from rich.table import Table

    table = Table("version", "created", "reason", "fields changed", title=f"{character}")
    for version in result.versions:
        fields = ", ".join(change.field for change in version.changes) or "-"
        table.add_row(
            str(version.version), f"{version.created_at:%Y-%m-%d %H:%M}", version.reason, fields
        )
    console().print(table if result.versions else "no versions yet: the profile file is in use")


@identity_app.command("diff")
def diff(
    version: Annotated[int, typer.Argument(help="Version to show")],
    character: Character,
    against: Annotated[int | None, typer.Option(help="Compare with this version instead")] = None,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
    as_json: AsJson = False,
) -> None:
    """Field by field: what made a version, or how it differs from another (--against)."""

    async def action(backend: Backend) -> list[FieldChangeOut]:
        shown = await backend.version(character, version)
        if against is None:
            return shown.changes
        other = await backend.version(character, against)
        from omoide.api.views_stream import FieldChangeOut

        before, after = other.profile or {}, shown.profile or {}
        return [
            FieldChangeOut(field=name, before=before.get(name), after=after.get(name))
            for name in after
            if before.get(name) != after.get(name)
        ]

    changes = _run(url, api_key, data_dir, action)
    if as_json:
        _print_json({"changes": [change.model_dump(mode="json") for change in changes]})
    else:
        _show_changes(changes) if changes else console().print("no differences")


@identity_app.command("pending")
def pending(
    character: Character,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
    as_json: AsJson = False,
) -> None:
    """Proposed changes waiting for approval."""
    result = _run(url, api_key, data_dir, lambda backend: backend.pending(character))
    if as_json:
        _print_json(result)
        return
    for change in result.changes:
        console().print(
            f"[bold]change {change.id}[/bold] (proposed {change.created_at:%Y-%m-%d %H:%M})"
        )
        _show_changes(change.changes)
    if not result.changes:
        console().print("nothing is pending")


@identity_app.command("approve")
def approve(
    change_id: Annotated[str, typer.Argument(help="Pending change id")],
    character: Character,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
) -> None:
    """Apply a pending change as a new version."""
    result = _run(url, api_key, data_dir, lambda backend: backend.approve(character, change_id))
    console().print(f"{character} is now at version {result.version}")


@identity_app.command("reject")
def reject(
    change_id: Annotated[str, typer.Argument(help="Pending change id")],
    character: Character,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
) -> None:
    """Reject a pending change; the profile stays as it is."""
    result = _run(url, api_key, data_dir, lambda backend: backend.reject(character, change_id))
    console().print(f"change {result.id} is {result.status}")


@identity_app.command("rollback")
def rollback(
    version: Annotated[int, typer.Argument(help="Version to restore")],
    character: Character,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
) -> None:
    """Restore a version's profile exactly (recorded as a new version)."""
    result = _run(url, api_key, data_dir, lambda backend: backend.rollback(character, version))
    console().print(
        f"{character} is now at version {result.version} (the profile of version {version})"
    )


def register(app: typer.Typer) -> None:
    """Add ``stream`` and ``identity`` to the main ``omoide`` command."""
    app.add_typer(stream_app, name="stream")
    app.add_typer(identity_app, name="identity")
