"""``omoide remember | search | context | facts | profile | forget | export``.

Each prints a table or a sentence for people, and with ``--json`` the HTTP API's response
model for the same request (``TurnOut``, ``SearchOut``, ``ContextOut``, ``FactOut``,
``ProfileOut``, ``ViewerForgetOut``, ``ViewerExportOut``): one shape for both.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from omoide.cli.common import (
    AsJson,
    Character,
    DataDir,
    Embedder,
    User,
    When,
    console,
    emit,
    read,
    run,
    settings_from,
    time_option,
)

if TYPE_CHECKING:
    from omoide.wiring import Omoide, Reader

MAX_RESULTS = 10


def register(app: typer.Typer) -> None:
    for command in (remember, search, context, facts, profile, forget, export):
        app.command()(command)


def remember(
    message: Annotated[str, typer.Argument(help="What the viewer said")],
    character: Character = "haru",
    user: User = "viewer",
    bot: Annotated[str, typer.Option(help="What the character answered")] = "",
    emotion: Annotated[str, typer.Option(help="Emotion label of the exchange")] = "neutral",
    intensity: Annotated[float, typer.Option(help="Emotion intensity in [0, 1]")] = 0.5,
    timestamp: Annotated[
        datetime | None, time_option("--timestamp", help="When it was said")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Store whatever the importance")] = False,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Remember one exchange between a viewer and a character."""

    async def action(built: Omoide) -> dict[str, Any]:
        from omoide.api.views import TurnOut
        from omoide.domain import Scope, TurnState

        stored = await built.memory.store_interaction(
            Scope(character, user),
            message,
            bot,
            TurnState(emotion, intensity),
            timestamp=timestamp,
            force_store=force,
        )
        return TurnOut.of(stored).model_dump(mode="json")

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)

    def show() -> None:
        from omoide.cli.render import print_turn

        print_turn(console(), result)

    emit(as_json, result, show)


def search(
    query: Annotated[str, typer.Argument(help="What to look for")],
    character: Character = "haru",
    user: User = "viewer",
    limit: Annotated[int, typer.Option("--limit", "-k", min=1, max=100)] = MAX_RESULTS,
    now: When = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Search a viewer's memories; shows why each ranked where it did."""

    async def action(reader: Reader) -> dict[str, Any]:
        from omoide.api.views import SearchOut
        from omoide.domain import Scope

        memory = await reader.search()  # the store and the embedder: no pipeline, no LLM
        found = await memory.search(Scope(character, user), query, now=now, limit=limit)
        return SearchOut.of(found, limit=limit).model_dump(mode="json")

    result = read(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: _print_search(result))


def _print_search(result: dict[str, Any]) -> None:
    from omoide.cli.render import print_search

    print_search(console(), result)


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

    async def action(reader: Reader) -> dict[str, Any]:
        from omoide.api.views import ContextOut
        from omoide.domain import Scope

        memory = await reader.context()  # recall and the token counter: no write path, no LLM
        recollection = await memory.retrieve_context(
            Scope(character, user), query, now=now, token_budget=budget
        )
        return ContextOut.of(recollection).model_dump(mode="json")

    result = read(settings_from(data_dir=data_dir, embedder=embedder), action)

    def show() -> None:
        out = console()
        out.print(result["text"] or "(nothing to remember)", markup=False, highlight=False)
        out.print(f"[dim]{result['tokens']} tokens[/dim]")

    emit(as_json, result, show)


def facts(
    character: Character = "haru",
    user: User = "viewer",
    history: Annotated[bool, typer.Option(help="Include superseded facts")] = False,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """List what the character believes about a viewer.

    With --json: the shape of GET .../facts."""

    async def action(reader: Reader) -> list[dict[str, Any]]:
        from omoide.api.views import FactOut
        from omoide.domain import Scope

        memory = await reader.memory()
        found = await memory.list_facts(Scope(character, user), include_inactive=history)
        return [FactOut.of(fact).model_dump(mode="json") for fact in found]

    result = read(settings_from(data_dir=data_dir, embedder=embedder), action)

    def show() -> None:
        from omoide.cli.render import fact_table, print_listing

        print_listing(console(), "facts", fact_table(result), len(result))

    emit(as_json, result, show)


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
    """Show the viewer profile the prompt carries.

    With --json: the shape of GET .../profile."""

    async def steered(reader: Reader) -> dict[str, Any]:
        from omoide.api.views_profile import ProfileOut
        from omoide.domain import Scope

        memory = await reader.steered_profile()  # recall and the embedder: no write path
        found = await memory.profile(Scope(character, user), message)
        return ProfileOut.of(found).model_dump(mode="json")

    async def by_weight(reader: Reader) -> dict[str, Any]:
        from omoide.api.views_profile import ProfileOut
        from omoide.domain import Scope

        memory = await reader.memory()
        return ProfileOut.of(await memory.profile(Scope(character, user))).model_dump(mode="json")

    settings = settings_from(data_dir=data_dir, embedder=embedder)
    # a message is embedded to steer the choice: only then is the model needed
    result = read(settings, steered if message and message.strip() else by_weight)

    def show() -> None:
        from omoide.cli.render import print_profile

        print_profile(console(), result)

    emit(as_json, result, show)


def forget(
    user: Annotated[str, typer.Option("--user", "-u", help="Viewer id (required: no default)")],
    character: Character = "haru",
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation")] = False,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Forget everything about a viewer (--user is required).

    Tombstones remain, without content. With --json: the shape of DELETE .../{user}."""
    if not yes:
        typer.confirm(f"Forget everything {character} remembers about {user}?", abort=True)

    async def action(built: Omoide) -> dict[str, Any]:
        from omoide.api.views_viewer import ViewerForgetOut
        from omoide.domain import Scope

        report = await built.viewer_data.forget_viewer(Scope(character, user))
        return ViewerForgetOut.of(report).model_dump(mode="json")

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)

    def show() -> None:
        from omoide.cli.render import print_counts

        counts = {k: v for k, v in result.items() if k not in ("character_id", "user_id")}
        print_counts(console(), f"{character} forgot {user}; removed:", counts)

    emit(as_json, result, show)


def export(
    character: Character = "haru",
    user: User = "viewer",
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Everything stored about a viewer: counts and tables.

    With --json: all of it, the shape of GET .../export."""

    async def action(reader: Reader) -> dict[str, Any]:
        from omoide.api.views_viewer import ViewerExportOut
        from omoide.domain import Scope

        exported = await (await reader.viewer_data()).export_viewer(Scope(character, user))
        return ViewerExportOut.of_viewer(exported).model_dump(mode="json")

    result = read(settings_from(data_dir=data_dir, embedder=embedder), action)
    emit(as_json, result, lambda: _print_export(result))


def _print_export(result: dict[str, Any]) -> None:
    from omoide.cli.render import episode_table, fact_table, print_counts, print_listing

    out = console()
    counts = {name: len(value) for name, value in result.items() if isinstance(value, list | dict)}
    counts.pop("stream", None)
    print_counts(out, f"what {result['character_id']} keeps about {result['user_id']}", counts)
    print_listing(out, "facts", fact_table(result["facts"]), len(result["facts"]))
    episodes = result["episodes"]
    print_listing(out, "episodes", episode_table(episodes), len(episodes))
    out.print("[dim]all of it, as JSON: add --json[/dim]")
