"""``omoide identity``: a character's evolving identity, its versions, diffs and approvals.

Every command talks to a server (``--url``, ``--api-key``) or, without ``--url``, to the
library on ``--data-dir``. The reading commands (``versions``, ``diff``, ``pending``) open
only the growth file there (``wiring.open_reader``); the deciding ones (``approve``,
``reject``, ``rollback``) build the library as the service does, with ``--embedder``
naming the store's model as in every other library command.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Protocol, TypeVar

import typer

from omoide.cli.common import (
    AsJson,
    DataDir,
    Embedder,
    Library,
    console,
    run_async,
    settings_from,
)
from omoide.cli.remote import ApiKey, Character, Url, print_json, server

if TYPE_CHECKING:
    from omoide.api.views_stream import (
        FieldChangeOut,
        PendingChangeOut,
        PendingListOut,
        VersionListOut,
        VersionOut,
    )
    from omoide.character.identity import IdentityService
    from omoide.wiring.reader import IdentityReading

identity_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="A character's evolving identity: versions, diffs, approvals",
)
Result = TypeVar("Result")


class IdentityViews(Protocol):
    """What the reading commands need: a server (StreamClient) or the library's reader."""

    async def versions(self, character_id: str) -> VersionListOut: ...
    async def version(self, character_id: str, number: int) -> VersionOut: ...
    async def pending(self, character_id: str) -> PendingListOut: ...


class IdentityDecisions(Protocol):
    """What the deciding commands need: a server (StreamClient) or the library."""

    async def approve(self, character_id: str, change_id: str) -> VersionOut: ...
    async def reject(self, character_id: str, change_id: str) -> PendingChangeOut: ...
    async def rollback(self, character_id: str, number: int) -> VersionOut: ...


class _LocalViews:
    """The library's identity reads, answered as the server answers them."""

    def __init__(self, identity: IdentityReading) -> None:
        from omoide.api import views_stream as wire

        self.identity = identity
        self.wire = wire

    async def versions(self, character_id: str) -> VersionListOut:
        return self.wire.versions_out(character_id, await self.identity.versions(character_id))

    async def version(self, character_id: str, number: int) -> VersionOut:
        found = await self.identity.version(character_id, number)
        return self.wire.version_out(found, with_profile=True)

    async def pending(self, character_id: str) -> PendingListOut:
        changes = await self.identity.changes(character_id)
        return self.wire.PendingListOut(changes=[self.wire.change_out(c) for c in changes])


class _LocalDecisions:
    """The library's identity decisions, answered as the server answers them."""

    def __init__(self, identity: IdentityService) -> None:
        from omoide.api import views_stream as wire

        self.identity = identity
        self.wire = wire

    async def approve(self, character_id: str, change_id: str) -> VersionOut:
        version = await self.identity.approve(character_id, change_id)
        return self.wire.version_out(version, with_profile=True)

    async def reject(self, character_id: str, change_id: str) -> PendingChangeOut:
        return self.wire.change_out(await self.identity.reject(character_id, change_id))

    async def rollback(self, character_id: str, number: int) -> VersionOut:
        version = await self.identity.rollback(character_id, number)
        return self.wire.version_out(version, with_profile=True)


def _read(
    url: str | None,
    api_key: str | None,
    data_dir: Path | None,
    action: Callable[[IdentityViews], Awaitable[Result]],
) -> Result:
    async def main() -> Result:
        if url is not None:
            async with server(url, api_key) as client:
                return await action(client)
        from omoide.wiring.reader import open_reader

        async with open_reader(settings_from(data_dir=data_dir)) as reader:
            return await action(_LocalViews(await reader.identity()))

    return run_async(main)


def _decide(
    url: str | None,
    api_key: str | None,
    library: Library,
    action: Callable[[IdentityDecisions], Awaitable[Result]],
) -> Result:
    async def main() -> Result:
        if url is not None:
            async with server(url, api_key) as client:
                return await action(client)
        from omoide.wiring import build

        built = await build(library.settings())
        try:
            result = await action(_LocalDecisions(built.streams.identity))
            await built.streams.drain()
            return result
        finally:
            await built.aclose()

    return run_async(main)


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
    result = _read(url, api_key, data_dir, lambda backend: backend.versions(character))
    if as_json:
        print_json(result)
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

    async def action(backend: IdentityViews) -> list[FieldChangeOut]:
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

    changes = _read(url, api_key, data_dir, action)
    if as_json:
        print_json({"changes": [change.model_dump(mode="json") for change in changes]})
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
    result = _read(url, api_key, data_dir, lambda backend: backend.pending(character))
    if as_json:
        print_json(result)
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
    embedder: Embedder = None,
) -> None:
    """Apply a pending change as a new version."""
    result = _decide(
        url,
        api_key,
        Library(data_dir, embedder),
        lambda backend: backend.approve(character, change_id),
    )
    console().print(f"{character} is now at version {result.version}")


@identity_app.command("reject")
def reject(
    change_id: Annotated[str, typer.Argument(help="Pending change id")],
    character: Character,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
) -> None:
    """Reject a pending change; the profile stays as it is."""
    result = _decide(
        url,
        api_key,
        Library(data_dir, embedder),
        lambda backend: backend.reject(character, change_id),
    )
    console().print(f"change {result.id} is {result.status}")


@identity_app.command("rollback")
def rollback(
    version: Annotated[int, typer.Argument(help="Version to restore")],
    character: Character,
    url: Url = None,
    api_key: ApiKey = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
) -> None:
    """Restore a version's profile exactly (recorded as a new version)."""
    result = _decide(
        url,
        api_key,
        Library(data_dir, embedder),
        lambda backend: backend.rollback(character, version),
    )
    console().print(
        f"{character} is now at version {result.version} (the profile of version {version})"
    )
