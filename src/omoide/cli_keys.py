"""``omoide keys``: create, list and revoke API keys of the HTTP service.

Keys are kept as SHA-256 hashes where the settings say: ``<data_dir>/keys.json`` in the
embedded profile, the server store's PostgreSQL with ``OMOIDE_STORE=server`` (the same
``OMOIDE_DATABASE_URL`` as the service, so every instance sees them). A key's secret is
printed once, when it is created. A running service picks changes up on its next request.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from omoide.config import Settings, load_settings
from omoide.errors import OmoideError
from omoide.keys import KeyStore, environment_keys
from omoide.store.records.keys import ApiKey
from omoide.wiring import open_key_store

keys_app = typer.Typer(no_args_is_help=True, help="API keys for `omoide serve`")
console = Console()
errors = Console(stderr=True)
Result = TypeVar("Result")

DataDir = Annotated[
    Path | None, typer.Option("--data-dir", help="Where the key file lives (OMOIDE_DATA_DIR)")
]
AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable output")]


def _run(action: Callable[[], Awaitable[Result]]) -> Result:
    try:
        return anyio.run(action)
    except OmoideError as exc:
        errors.print(f"[red]error:[/red] {exc}", markup=True, highlight=False)
        raise typer.Exit(1) from exc


def _settings(data_dir: Path | None) -> Settings:
    try:
        return load_settings(**({} if data_dir is None else {"data_dir": data_dir}))
    except OmoideError as exc:
        errors.print(f"[red]error:[/red] {exc}", markup=True, highlight=False)
        raise typer.Exit(1) from exc


def _with_key_store(settings: Settings, action: Callable[[KeyStore], Awaitable[Result]]) -> Result:
    """Run ``action`` on the key store the settings name, opened for it and closed after."""

    async def opened() -> Result:
        async with open_key_store(settings) as store:
            return await action(store)

    return _run(opened)


def _key_json(key: ApiKey) -> dict[str, Any]:
    return {
        "key_id": key.key_id,
        "characters": sorted(key.characters),
        "created_at": key.created_at.isoformat() if key.created_at else None,
        "source": key.source,
    }


def _write_json(payload: object) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


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
        _write_json({**_key_json(created.key), "secret": created.secret})
        return
    who = ", ".join(sorted(created.key.characters))
    console.print(f"created key [bold]{created.key.key_id}[/bold] for {who}", highlight=False)
    console.print("secret (shown only this once; store it now):", highlight=False)
    sys.stdout.write(created.secret + "\n")


@keys_app.command("list")
def list_keys(data_dir: DataDir = None, as_json: AsJson = False) -> None:
    """List keys (ids, characters, creation time; never secrets)."""
    settings = _settings(data_dir)

    async def everything(store: KeyStore) -> tuple[list[ApiKey], str]:
        return [*environment_keys(settings), *await store.load()], store.location

    keys, location = _with_key_store(settings, everything)
    if as_json:
        _write_json([_key_json(key) for key in keys])
        return
    if not keys:
        console.print(f"[dim]no API keys (in {escape(location)})[/dim]", highlight=False)
        return
    table = Table(title="API keys")
    for column in ("id", "characters", "created", "source"):
        table.add_column(column)
    for key in keys:
        created = key.created_at.isoformat(timespec="seconds") if key.created_at else "-"
        table.add_row(key.key_id, ", ".join(sorted(key.characters)), created, key.source)
    console.print(table)


@keys_app.command("revoke")
def revoke(
    key_id: Annotated[str, typer.Argument(help="The key's id, as `omoide keys list` shows")],
    data_dir: DataDir = None,
) -> None:
    """Revoke a key: requests with it are refused from the service's next request on."""
    revoked = _with_key_store(_settings(data_dir), lambda store: store.revoke(key_id))
    console.print(f"revoked key {revoked.key_id}", highlight=False)
