"""``omoide keys``: create, list and revoke API keys of the HTTP service.

Keys are kept as SHA-256 hashes where the settings say: ``<data_dir>/keys.json`` in the
embedded profile, the server store's PostgreSQL with ``OMOIDE_STORE=server`` (the same
``OMOIDE_DATABASE_URL`` as the service, so every instance sees them). A key's secret is
printed once, when it is created. A running service picks changes up on its next request.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from omoide.cli.common import AsJson, console, run_async, settings_from, write_json

if TYPE_CHECKING:
    from omoide.config import Settings
    from omoide.keys import KeyStore
    from omoide.store.records.keys import ApiKey

keys_app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None, help="API keys for `omoide serve`"
)
Result = TypeVar("Result")

DataDir = Annotated[
    Path | None, typer.Option("--data-dir", help="Where the key file lives (OMOIDE_DATA_DIR)")
]


def _settings(data_dir: Path | None) -> Settings:
    return settings_from(data_dir=data_dir)


def _with_key_store(settings: Settings, action: Callable[[KeyStore], Awaitable[Result]]) -> Result:
    """Run ``action`` on the key store the settings name, opened for it and closed after."""

    async def opened() -> Result:
        from omoide.wiring import open_key_store

        async with open_key_store(settings) as store:
            return await action(store)

    return run_async(opened)


def _key_json(key: ApiKey) -> dict[str, Any]:
    return {
        "key_id": key.key_id,
        "characters": sorted(key.characters),
        "created_at": key.created_at.isoformat() if key.created_at else None,
        "source": key.source,
    }


@keys_app.command("create")
def create(
    character: Annotated[
        list[str],
        typer.Option("--character", "-c", help="A character the key may use ('*': all)"),
    ],
    data_dir: DataDir = None,
    as_json: AsJson = False,
) -> None:
    """Create a key bound to the given characters and print its secret (shown only once)."""
    created = _with_key_store(
        _settings(data_dir), lambda store: store.create(character, now=datetime.now(UTC))
    )
    if as_json:
        write_json({**_key_json(created.key), "secret": created.secret})
        return
    who = ", ".join(sorted(created.key.characters))
    out = console()
    out.print(f"created key [bold]{created.key.key_id}[/bold] for {who}", highlight=False)
    out.print("secret (shown only this once; store it now):", highlight=False)
    sys.stdout.write(created.secret + "\n")


@keys_app.command("list")
def list_keys(data_dir: DataDir = None, as_json: AsJson = False) -> None:
    """List keys (ids, characters, creation time; never secrets)."""
    from rich.markup import escape
    from rich.table import Table

    from omoide.keys import environment_keys

    settings = _settings(data_dir)

    async def everything(store: KeyStore) -> tuple[list[ApiKey], str]:
        return [*environment_keys(settings), *await store.load()], store.location

    keys, location = _with_key_store(settings, everything)
    if as_json:
        write_json([_key_json(key) for key in keys])
        return
    out = console()
    if not keys:
        out.print(f"[dim]no API keys (in {escape(location)})[/dim]", highlight=False)
        return
    table = Table(title="API keys")
    for column in ("id", "characters", "created", "source"):
        table.add_column(column)
    for key in keys:
        created = key.created_at.isoformat(timespec="seconds") if key.created_at else "-"
        table.add_row(key.key_id, ", ".join(sorted(key.characters)), created, key.source)
    out.print(table)


@keys_app.command("revoke")
def revoke(
    key_id: Annotated[str, typer.Argument(help="The key's id, as `omoide keys list` shows")],
    data_dir: DataDir = None,
) -> None:
    """Revoke a key: requests with it are refused from the service's next request on."""
    revoked = _with_key_store(_settings(data_dir), lambda store: store.revoke(key_id))
    console().print(f"revoked key {revoked.key_id}", highlight=False)
