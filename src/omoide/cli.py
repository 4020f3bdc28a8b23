"""The ``omoide`` command: a thin shell over the library.

Every option is also settable as an ``OMOIDE_`` environment variable; options given on the
command line win. ``--json`` prints machine-readable output.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Annotated, Any

import anyio
import typer

from omoide.cli_common import (
    AsJson,
    Character,
    DataDir,
    Embedder,
    User,
    When,
    console,
    emit,
    errors,
    run,
    settings_from,
)
from omoide.cli_render import (
    episode_rows,
    fact_rows,
    print_profile,
    print_table,
    recollection_json,
    search_json,
    to_json,
)
from omoide.cli_server import register as register_server
from omoide.cli_service import register as register_service
from omoide.cli_stream import register as register_stream
from omoide.domain import Scope, TurnState
from omoide.errors import OmoideError
from omoide.wiring import Omoide

app = typer.Typer(no_args_is_help=True, add_completion=False, help="omoide: memory for AI VTubers")


@app.command()
def remember(
    message: Annotated[str, typer.Argument(help="What the viewer said")],
    character: Character = "haru",
    user: User = "viewer",
    bot: Annotated[str, typer.Option(help="What the character answered")] = "",
    emotion: Annotated[str, typer.Option(help="Emotion label of the exchange")] = "neutral",
    intensity: Annotated[float, typer.Option(help="Emotion intensity in [0, 1]")] = 0.5,
    timestamp: Annotated[datetime | None, typer.Option(help="When it was said")] = None,
    force: Annotated[bool, typer.Option("--force", help="Store whatever the importance")] = False,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Remember one exchange between a viewer and a character."""

    async def action(built: Omoide) -> dict[str, Any]:
        stored = await built.memory.store_interaction(
            Scope(character, user),
            message,
            bot,
            TurnState(emotion, intensity),
            timestamp=timestamp,
            force_store=force,
        )
        return dict(to_json(stored))

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: console.print(result))


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for")],
    character: Character = "haru",
    user: User = "viewer",
    now: When = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Search a viewer's memories; shows why each ranked where it did."""

    async def action(built: Omoide) -> dict[str, Any]:
        return search_json(await built.memory.search(Scope(character, user), query, now=now))

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: _show_search(result))


def _show_search(result: dict[str, Any]) -> None:
    print_table(console, "facts", fact_rows(result["facts"]))
    print_table(console, "episodes", episode_rows(result["episodes"]))


@app.command()
def context(
    query: Annotated[str, typer.Argument(help="The viewer's message")],
    character: Character = "haru",
    user: User = "viewer",
    now: When = None,
    budget: Annotated[int | None, typer.Option(help="Token budget")] = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Show the memory section a reply to this message would get."""

    async def action(built: Omoide) -> dict[str, Any]:
        recollection = await built.memory.retrieve_context(
            Scope(character, user), query, now=now, token_budget=budget
        )
        return recollection_json(recollection)

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: console.print(result["text"] or "(nothing to remember)"))


@app.command()
def facts(
    character: Character = "haru",
    user: User = "viewer",
    history: Annotated[bool, typer.Option(help="Include superseded facts")] = False,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """List what the character believes about a viewer."""

    async def action(built: Omoide) -> list[dict[str, Any]]:
        found = await built.memory.list_facts(Scope(character, user), include_inactive=history)
        return [to_json(fact) for fact in found]

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: print_table(console, "facts", fact_rows(result)))


@app.command()
def profile(
    character: Character = "haru",
    user: User = "viewer",
    message: Annotated[
        str | None, typer.Option(help="Choose as a reply to this message would")
    ] = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Show the viewer profile the prompt carries (the shape of GET .../profile)."""
    from omoide.api.views_profile import ProfileOut

    async def action(built: Omoide) -> dict[str, Any]:
        found = await built.memory.profile(Scope(character, user), message)
        return ProfileOut.of(found).model_dump(mode="json")

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: print_profile(console, result))


@app.command()
def forget(
    character: Character = "haru",
    user: User = "viewer",
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation")] = False,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Forget everything about a viewer (tombstones remain, without content)."""
    if not yes:
        typer.confirm(f"Forget everything {character} remembers about {user}?", abort=True)

    from omoide.api.views_viewer import ViewerForgetOut

    async def action(built: Omoide) -> dict[str, Any]:
        report = await built.viewer_data.forget_viewer(Scope(character, user))
        return ViewerForgetOut.of(report).model_dump(mode="json")

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: console.print(result))


@app.command()
def export(
    character: Character = "haru",
    user: User = "viewer",
    data_dir: DataDir = None,
    embedder: Embedder = None,
) -> None:
    """Print everything stored about a viewer as JSON (the shape of GET .../export)."""
    from omoide.api.views_viewer import ViewerExportOut

    async def action(built: Omoide) -> dict[str, Any]:
        export = await built.viewer_data.export_viewer(Scope(character, user))
        return ViewerExportOut.of_viewer(export).model_dump(mode="json")

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")


@app.command()
def decay(
    character: Character = "haru",
    now: When = None,
    purge_before: Annotated[
        datetime | None, typer.Option(help="Also destroy memories archived before this time")
    ] = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Archive memories whose retention fell below the threshold."""

    async def action(built: Omoide) -> dict[str, Any]:
        report = await built.memory.run_decay(
            character, now=now, purge_archived_before=purge_before
        )
        return dict(to_json(report))

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: console.print(result))


@app.command()
def reembed(
    data_dir: DataDir = None,
    embedder: Embedder = None,
    batch_size: Annotated[int, typer.Option(help="Texts per embedding batch")] = 64,
    as_json: AsJson = False,
) -> None:
    """Re-embed every stored memory with the configured embedder (after changing it)."""
    from omoide.store.sqlite.reembed import reembed_store
    from omoide.wiring import build_embedder

    settings = settings_from(data_dir=data_dir, embedder=embedder)

    async def main() -> dict[str, Any]:
        model = await build_embedder(settings)
        with console.status(f"re-embedding with {model.model_name}"):
            report = await reembed_store(settings.database_path, model, batch_size=batch_size)
        return dict(to_json(report))

    try:
        result = anyio.run(main)
    except OmoideError as exc:
        errors.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc
    emit(as_json, result, lambda: console.print(result))


def main() -> None:
    app()


register_service(app)
register_server(app)
register_stream(app)
