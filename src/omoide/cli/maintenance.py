"""``omoide decay`` (with ``--dry-run``), ``omoide restore``, ``omoide reembed`` and
``omoide reread``.

``decay --json`` and ``restore --json`` print the HTTP API's ``DecayOut`` and
``RestoreOut``; ``reembed`` shows a progress bar with counts and rate; ``reread`` keeps
this version's readings with episodes stored by an older one (``memory.rereading``).
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
    When,
    console,
    emit,
    read,
    run,
    run_async,
    settings_from,
    time_option,
)

if TYPE_CHECKING:
    from rich.console import Console

    from omoide.wiring import Omoide, Reader

PurgeBefore = Annotated[
    datetime | None,
    time_option("--purge-before", help="Also destroy memories archived before this time"),
]


def register(app: typer.Typer) -> None:
    app.command()(decay)
    app.command()(restore)
    app.command()(reembed)
    app.command()(reread)


def decay(
    character: Character = "haru",
    now: When = None,
    purge_before: PurgeBefore = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only show what would be archived and purged")
    ] = False,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Archive faded memories; --dry-run only shows what would change.

    Episodes whose retention fell below the threshold leave retrieval but stay stored
    (`omoide restore` brings them back); --purge-before destroys those archived before a
    time. With --json: the shape of POST /v1/maintenance/decay."""

    async def preview(reader: Reader) -> dict[str, Any]:
        from omoide.api.views_decay import DecayOut

        memory = await reader.memory()
        found = await memory.preview_decay(character, now=now, purge_archived_before=purge_before)
        return DecayOut.preview(found).model_dump(mode="json")

    async def action(built: Omoide) -> dict[str, Any]:
        from omoide.api.views_decay import DecayOut

        report = await built.memory.run_decay(
            character, now=now, purge_archived_before=purge_before
        )
        return DecayOut.of(report).model_dump(mode="json")

    settings = settings_from(data_dir=data_dir, embedder=embedder)
    result = read(settings, preview) if dry_run else run(settings, action)
    emit(as_json, result, lambda: print_decay(console(), result))


def print_decay(out: Console, result: dict[str, Any]) -> None:
    """A ``DecayOut`` in sentences."""
    who, scanned = result["character_id"], result["scanned"]
    if result["dry_run"]:
        out.print(
            f"dry run for {who} at {result['now']}: of {scanned} episodes in retrieval, "
            f"{result['archived']} would be archived and {result['purged']} purged; "
            "nothing changed",
            highlight=False,
        )
        for label, ids in (("archive", result["archived_ids"]), ("purge", result["purged_ids"])):
            if ids:
                out.print(f"  first to {label}: {', '.join(ids)}", highlight=False)
        return
    out.print(
        f"{who}: archived {result['archived']} of {scanned} episodes, purged {result['purged']}",
        highlight=False,
    )
    if result["archived"]:
        out.print(
            f"  undo: omoide restore -c {who} --archived-since {result['now']}", highlight=False
        )


def restore(
    episode_ids: Annotated[
        list[str] | None, typer.Argument(help="Archived episode ids to bring back")
    ] = None,
    character: Character = "haru",
    archived_since: Annotated[
        datetime | None,
        time_option(
            "--archived-since",
            help="Every episode archived at or after this time (a decay run's now)",
        ),
    ] = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Bring archived (decayed) episodes back into retrieval.

    The ids given, or every episode archived since --archived-since (a decay run's time
    undoes that run). With --json: the shape of POST /v1/maintenance/decay/restore."""
    if not episode_ids and archived_since is None:
        raise typer.BadParameter("give episode ids or --archived-since", param_hint="EPISODE_IDS")

    async def action(built: Omoide) -> dict[str, Any]:
        from omoide.api.views_decay import RestoreOut

        report = await built.memory.restore_archived(
            character, episode_ids=episode_ids or None, archived_since=archived_since
        )
        return RestoreOut.of(report).model_dump(mode="json")

    result = run(settings_from(data_dir=data_dir, embedder=embedder), action)

    def show() -> None:
        console().print(
            f"{result['character_id']}: restored {result['restored']} archived episodes",
            highlight=False,
        )

    emit(as_json, result, show)


def reembed(
    data_dir: DataDir = None,
    embedder: Embedder = None,
    batch_size: Annotated[int, typer.Option(help="Texts per embedding batch", min=1)] = 64,
    as_json: AsJson = False,
) -> None:
    """Re-embed every stored memory with the configured embedder.

    Run it after changing the embedder, with the service stopped; it shows a progress bar
    with counts and rate."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from omoide.cli.render import to_json

    settings = settings_from(data_dir=data_dir, embedder=embedder)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
    )

    async def main() -> dict[str, Any]:
        from omoide.store.sqlite.reembed import reembed_store
        from omoide.wiring import build_embedder

        model = await build_embedder(settings)
        with Progress(*columns, console=console(), disable=as_json) as progress:
            task = progress.add_task(f"re-embedding with {model.model_name}", rate="")

            def told(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)
                speed = progress.tasks[task].speed
                rate = f"{speed:,.0f} records/s" if speed else ""
                progress.update(task, rate=rate)

            report = await reembed_store(
                settings.database_path, model, batch_size=batch_size, progress=told
            )
        return dict(to_json(report))

    result = run_async(main)
    emit(as_json, result, lambda: _print_reembed(console(), result))


def _print_reembed(out: Console, result: dict[str, Any]) -> None:
    previous = result["previous"]
    before = f"{previous['model_name']} ({previous['dimensions']})" if previous else "none"
    current = result["current"]
    out.print(
        f"re-embedded {result['episodes']} episodes and {result['facts']} facts: "
        f"{before} -> {current['model_name']} ({current['dimensions']} dimensions)",
        highlight=False,
    )


def reread(
    character: Character = "haru",
    data_dir: DataDir = None,
    embedder: Embedder = None,
    as_json: AsJson = False,
) -> None:
    """Keep this version's readings with a character's episodes stored by an older one.

    Replies read what an older version stored from its words each time (correct, slower);
    after an upgrade this reads them once; a second run changes nothing."""

    async def action(built: Omoide) -> dict[str, Any]:
        from omoide.cli.render import to_json
        from omoide.memory.rereading import reread_episodes

        return dict(to_json(await reread_episodes(built.store, character)))

    settings = settings_from(data_dir=data_dir, embedder=embedder)
    result = run(settings, action)
    emit(
        as_json,
        result,
        lambda: console().print(
            f"{result['character_id']}: {result['reread']} of {result['scanned']} episodes "
            "reread (the others already had this version's readings)",
            highlight=False,
        ),
    )
