"""CLI commands of the server profile: ``check``, ``reindex`` and ``migrate``.

They read the same settings as the service (``OMOIDE_DATABASE_URL``, ``OMOIDE_QDRANT_URL``,
``OMOIDE_QDRANT_COLLECTION_PREFIX``, ...). ``check`` exits with 1 when Qdrant has drifted
from PostgreSQL (a keyword index built by an older analyzer included: ``reindex`` fixes
that one), ``migrate`` when its verification failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from omoide.cli.common import AsJson, console, emit, fail, run_async, settings_from

if TYPE_CHECKING:
    from omoide.store.server.endpoints import ServerConfig
    from omoide.store.server.keyword_index import KeywordIndexVersion

SQLITE_PREFIX = "sqlite:///"

Repair = Annotated[bool, typer.Option("--repair", help="Re-publish drifted points")]
Source = Annotated[
    str, typer.Option("--from", help="The embedded store: sqlite:///path/to/omoide.sqlite3")
]
Target = Annotated[str, typer.Option("--to", help="Only 'server' (OMOIDE_DATABASE_URL + ...)")]
Sample = Annotated[int, typer.Option(help="Scopes whose searches are compared", min=0)]


def register(app: typer.Typer) -> None:
    app.command()(check)
    app.command()(reindex)
    app.command()(migrate)


def _server_config() -> ServerConfig:
    """The server store named by the settings; a setting missing is exit code 1."""
    from omoide.errors import OmoideError
    from omoide.wiring import server_config

    try:
        return server_config(settings_from(store="server"))
    except OmoideError as exc:
        raise fail(str(exc)) from exc


def sqlite_path(url: str) -> Path:
    """``sqlite:///relative/path`` or ``sqlite:////absolute/path`` as a path."""
    from omoide.errors import ConfigError

    if not url.startswith(SQLITE_PREFIX) or len(url) == len(SQLITE_PREFIX):
        raise ConfigError(f"--from must be sqlite:///path/to/store.sqlite3 (got {url!r})")
    return Path(url[len(SQLITE_PREFIX) :])


def check(repair: Repair = False, as_json: AsJson = False) -> None:
    """Compare Qdrant with PostgreSQL scope by scope; report (and repair) drift."""
    from omoide.cli.render import to_json
    from omoide.store.server.connect import open_recorded
    from omoide.store.server.maintenance import check_drift, repair_drift

    config = _server_config()

    async def action() -> dict[str, Any]:
        engines = await open_recorded(config)
        if engines is None:
            return {
                "in_step": True,
                "counts": {},
                "drifted": [],
                "keyword_index": None,
                "repaired": 0,
            }
        try:
            report = await check_drift(engines)
            repaired = await repair_drift(engines, report) if repair and not report.in_step else 0
            if repaired:
                report = await check_drift(engines)
        finally:
            await engines.close()
        drifted = [to_json(scope) for scope in report.drifted]
        return {
            "in_step": report.in_step,
            "counts": report.counts(),
            "drifted": drifted,
            "keyword_index": _keyword_index_json(report.keyword_index),
            "repaired": repaired,
        }

    result = run_async(action)
    emit(as_json, result, lambda: _show_check(result))
    if not result["in_step"]:
        raise typer.Exit(1)


def _keyword_index_json(version: KeywordIndexVersion) -> dict[str, Any]:
    return {
        "recorded": version.recorded,
        "current": version.current,
        "stale": version.stale,
        "fix": "omoide reindex" if version.stale else None,
        "message": version.describe() if version.stale else None,
    }


def _show_check(result: dict[str, Any]) -> None:
    state = "[green]in step[/green]" if result["in_step"] else "[red]drifted[/red]"
    counts = ", ".join(
        f"{value} {name.replace('_', ' ')}" for name, value in result["counts"].items()
    )
    console().print(f"Qdrant is {state} with PostgreSQL: {counts or 'nothing stored'}")
    for scope in result["drifted"]:
        console().print(
            f"  {scope['kind']} {scope['scope_key']}: {len(scope['missing'])} missing, "
            f"{len(scope['orphaned'])} orphaned, {len(scope['stale'])} stale"
        )
    keyword_index = result["keyword_index"]
    if keyword_index is not None and keyword_index["stale"]:
        console().print(f"  [red]stale keyword index[/red]: {keyword_index['message']}")
    if result["repaired"]:
        console().print(f"repaired {result['repaired']} points")


def reindex(as_json: AsJson = False) -> None:
    """Rebuild the Qdrant collections from PostgreSQL (no re-embedding)."""
    from omoide.cli.render import to_json
    from omoide.store.server.connect import open_recorded
    from omoide.store.server.maintenance import reindex as rebuild

    config = _server_config()

    async def action() -> dict[str, Any]:
        engines = await open_recorded(config)
        if engines is None:
            return {"episodes": 0, "facts": 0, "repaired": 0}
        try:
            with console().status("rebuilding the vector index from PostgreSQL"):
                report = await rebuild(engines)
        finally:
            await engines.close()
        return dict(to_json(report))

    result = run_async(action)
    emit(as_json, result, lambda: _show_reindex(result))


def _show_reindex(result: dict[str, Any]) -> None:
    from omoide.store.keywords import ANALYZER_VERSION

    counts = ", ".join(f"{value} {name}" for name, value in result.items())
    console().print(f"rebuilt the vector index from PostgreSQL: {counts}", highlight=False)
    console().print(f"keyword index built with keyword analyzer version {ANALYZER_VERSION}")


def migrate(
    source: Source, target: Target = "server", sample: Sample = 20, as_json: AsJson = False
) -> None:
    """Copy an embedded store into the server store (vectors included), and the growth
    store (identity versions, stream logs) and API keys beside it, then verify them."""
    from omoide.cli.render import to_json
    from omoide.errors import ConfigError
    from omoide.store.server.migrate import migrate_sqlite

    if target != "server":
        raise typer.BadParameter("only --to server is supported", param_hint="--to")
    try:
        path = sqlite_path(source)
    except ConfigError as exc:
        raise fail(str(exc)) from exc
    config = _server_config()

    async def action() -> dict[str, Any]:
        with console().status(f"copying {path} to the server store"):
            report = await migrate_sqlite(path, config, sample=sample)
        growth = report.growth
        growth_json = {**dict(to_json(growth)), "source": growth.source and str(growth.source)}
        keys = report.keys
        keys_json = {**dict(to_json(keys)), "source": keys.source and str(keys.source)}
        return {
            "verified": report.verified,
            **dict(to_json(report)),
            "source": str(report.source),
            "growth": {**growth_json, "verified": growth.verified},
            "keys": {**keys_json, "verified": keys.verified},
        }

    result = run_async(action)
    emit(as_json, result, lambda: _show_migration(result))
    if not result["verified"]:
        raise typer.Exit(1)


def _show_migration(result: dict[str, Any]) -> None:
    console().print(
        f"copied {result['copied']} from {result['source']} ({result['scopes']} scopes)"
    )
    matched = sum(1 for search in result["searches"] if search["matched"])
    console().print(f"searches matching: {matched}/{len(result['searches'])}")
    for scope in result["mismatched"]:
        console().print(f"[red]counts differ[/red] {scope}")
    growth = result["growth"]
    if growth["source"] is None:
        console().print("no growth store (identity versions, stream logs) beside it")
    else:
        console().print(
            f"copied {growth['copied']} from {growth['source']} ({growth['characters']} characters)"
        )
    for character in growth["kept"]:
        console().print(f"growth of {character!r} was already on the server: left as it is")
    for character in growth["mismatched"]:
        console().print(f"[red]growth counts differ[/red] {character}")
    _show_keys(result["keys"])
    verdict = "[green]verified[/green]" if result["verified"] else "[red]NOT verified[/red]"
    console().print(verdict)


def _show_keys(keys: dict[str, Any]) -> None:
    if keys["source"] is None:
        console().print("no API key file (keys.json) beside it")
        return
    console().print(
        f"copied {len(keys['copied'])} of {keys['total']} API keys from {keys['source']}"
    )
    if keys["kept"]:
        console().print(f"API keys already on the server, left as they are: {keys['kept']}")
    for key in keys["mismatched"]:
        console().print(f"[red]API key differs[/red] {key['key_id']}: {key['reason']}")
