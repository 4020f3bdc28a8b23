"""A keyword index built by an older analyzer is noticed at start and by the check, and
``reindex`` rebuilds it and records the current version."""

from __future__ import annotations

import json
import logging

import anyio
import pytest
import typer
from qdrant_client import AsyncQdrantClient, models
from typer.testing import CliRunner, Result

from omoide.cli.server import register
from omoide.domain import Scope
from omoide.store.base import FactFilter
from omoide.store.keywords import ANALYZER_VERSION
from omoide.store.server import ServerConfig, ServerMemoryStore, open_server_store
from omoide.store.server.database import Database, execute
from omoide.store.server.keyword_index import ANALYZER_KEY, keyword_index_version
from omoide.store.server.maintenance import check_drift, reindex
from omoide.store.server.points import KEYWORDS
from omoide.store.server.scopes import scope_key
from omoide.store.server.sparse import document_terms
from tests.server.servers import LocalServers
from tests.store.builders import EMBEDDING, add_facts, fact, fact_write, unit

pytestmark = pytest.mark.anyio

VIEWER = Scope("haru", "minjun")
OLDER = ANALYZER_VERSION - 1
CONNECT_LOGGER = "omoide.store.server.connect"
FACT_TEXT = "likes green tea"  # stemmed: like green tea; before stemming: likes green tea


async def recorded(database: Database) -> list[str]:
    rows = await database.fetch_all("SELECT value FROM store_meta WHERE key = %s", (ANALYZER_KEY,))
    return [str(row[0]) for row in rows]


async def set_recorded(database: Database, version: int | None) -> None:
    async with database.transaction() as connection:
        await execute(connection, "DELETE FROM store_meta WHERE key = %s", (ANALYZER_KEY,))
        if version is not None:
            await execute(
                connection,
                "INSERT INTO store_meta (key, value) VALUES (%s, %s)",
                (ANALYZER_KEY, str(version)),
            )


async def index_like_an_older_omoide(
    store: ServerMemoryStore, servers: LocalServers, namespace: str
) -> None:
    """Store one fact, then give its point the keyword vector of the analysis before
    stemming and record that version, as an omoide of that version would have left it."""
    await add_facts(store, VIEWER, [fact_write(fact(VIEWER, "f1", FACT_TEXT), unit(0))])
    rows = await store.engines.database.fetch_all("SELECT internal_id FROM facts WHERE id = 'f1'")
    unstemmed = document_terms(scope_key(VIEWER), FACT_TEXT, stem_words=False)
    client = AsyncQdrantClient(url=servers.qdrant_url, check_compatibility=False)
    try:
        point = models.PointVectors(id=int(rows[0][0]), vector={KEYWORDS: unstemmed.to_qdrant()})
        await client.update_vectors(f"{namespace}_facts", points=[point], wait=True)
    finally:
        await client.close()
    await set_recorded(store.engines.database, OLDER)


async def keyword_hits(store: ServerMemoryStore, query: str) -> list[str]:
    hits = await store.search_fact_keywords(VIEWER, query, where=FactFilter(), limit=5)
    return [hit.item.id for hit in hits]


def run_command(config: ServerConfig, *arguments: str) -> Result:
    app = typer.Typer()
    register(app)
    environment = {
        "OMOIDE_DATABASE_URL": config.database_url,
        "OMOIDE_QDRANT_URL": config.qdrant_url,
        "OMOIDE_QDRANT_COLLECTION_PREFIX": config.collection_prefix,
    }
    return CliRunner().invoke(app, list(arguments), env=environment)


async def test_a_new_store_records_the_current_analyzer_and_is_in_step(
    server_store: ServerMemoryStore,
) -> None:
    await add_facts(server_store, VIEWER, [fact_write(fact(VIEWER, "f1", FACT_TEXT), unit(0))])

    report = await check_drift(server_store.engines)

    assert await recorded(server_store.engines.database) == [str(ANALYZER_VERSION)]
    assert report.in_step
    assert not report.keyword_index.stale


async def test_an_older_keyword_index_is_drift_until_reindexed(
    server_store: ServerMemoryStore, servers: LocalServers, namespace: str
) -> None:
    await index_like_an_older_omoide(server_store, servers, namespace)
    engines = server_store.engines

    before = await check_drift(engines)
    missed = await keyword_hits(server_store, "like")
    await reindex(engines)
    after = await check_drift(engines)

    assert (before.keyword_index.recorded, before.keyword_index.current) == (
        OLDER,
        ANALYZER_VERSION,
    )
    assert before.keyword_index.stale and not before.in_step
    assert before.drifted == ()  # the payloads match: only the analyzer tells
    assert missed == []
    assert await recorded(engines.database) == [str(ANALYZER_VERSION)]
    assert after.in_step
    assert await keyword_hits(server_store, "like") == ["f1"]


async def test_a_store_with_records_and_no_recorded_analyzer_is_stale(
    server_store: ServerMemoryStore, config: ServerConfig
) -> None:
    await add_facts(server_store, VIEWER, [fact_write(fact(VIEWER, "f1", FACT_TEXT), unit(0))])
    await set_recorded(server_store.engines.database, None)

    reopened = await open_server_store(config, embedding=EMBEDDING)
    try:
        version = await keyword_index_version(reopened.engines.database)
    finally:
        await reopened.close()

    assert (version.recorded, version.stale) == (None, True)
    assert "an unrecorded version" in version.describe()


async def test_an_empty_store_records_the_current_analyzer_when_opened(
    server_store: ServerMemoryStore, config: ServerConfig
) -> None:
    await set_recorded(server_store.engines.database, OLDER)

    reopened = await open_server_store(config, embedding=EMBEDDING)
    await reopened.close()

    assert await recorded(server_store.engines.database) == [str(ANALYZER_VERSION)]


async def test_opening_a_stale_store_warns_and_still_serves(
    server_store: ServerMemoryStore,
    config: ServerConfig,
    servers: LocalServers,
    namespace: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await index_like_an_older_omoide(server_store, servers, namespace)

    with caplog.at_level(logging.WARNING, logger=CONNECT_LOGGER):
        reopened = await open_server_store(config, embedding=EMBEDDING)
    try:
        hits = await keyword_hits(reopened, "tea")
    finally:
        await reopened.close()

    warnings = [record for record in caplog.records if record.name == CONNECT_LOGGER]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    message = warnings[0].getMessage()
    assert f"keyword analyzer version {OLDER}" in message
    assert f"version {ANALYZER_VERSION}" in message and "omoide reindex" in message
    assert hits == ["f1"]
    assert await recorded(server_store.engines.database) == [str(OLDER)]


async def test_opening_a_current_store_does_not_warn(
    server_store: ServerMemoryStore, config: ServerConfig, caplog: pytest.LogCaptureFixture
) -> None:
    await add_facts(server_store, VIEWER, [fact_write(fact(VIEWER, "f1", FACT_TEXT), unit(0))])

    with caplog.at_level(logging.WARNING, logger=CONNECT_LOGGER):
        reopened = await open_server_store(config, embedding=EMBEDDING)
    await reopened.close()

    assert [record for record in caplog.records if record.name == CONNECT_LOGGER] == []


async def test_the_check_command_names_the_fix_and_reindex_clears_it(
    server_store: ServerMemoryStore, config: ServerConfig, servers: LocalServers, namespace: str
) -> None:
    await index_like_an_older_omoide(server_store, servers, namespace)

    stale = await anyio.to_thread.run_sync(run_command, config, "check", "--json")
    repaired = await anyio.to_thread.run_sync(run_command, config, "check", "--repair")
    rebuilt = await anyio.to_thread.run_sync(run_command, config, "reindex")
    clean = await anyio.to_thread.run_sync(run_command, config, "check", "--json")

    assert stale.exit_code == 1, stale.output
    keyword_index = json.loads(stale.output)["keyword_index"]
    assert keyword_index["stale"] and keyword_index["fix"] == "omoide reindex"
    assert (keyword_index["recorded"], keyword_index["current"]) == (OLDER, ANALYZER_VERSION)
    assert repaired.exit_code == 1 and "omoide reindex" in " ".join(repaired.output.split())
    assert rebuilt.exit_code == 0, rebuilt.output
    assert f"keyword analyzer version {ANALYZER_VERSION}" in " ".join(rebuilt.output.split())
    assert clean.exit_code == 0, clean.output
    assert json.loads(clean.output)["keyword_index"]["stale"] is False
