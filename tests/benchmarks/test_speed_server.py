"""The server-profile section of the speed benchmark: load bounds, cached loads, report."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from benchmarks.speed import formatting as fmt
from benchmarks.speed.context_latency import ContextResult, ContextSize, ReplyTiming
from benchmarks.speed.report_server import server_section, side_by_side_rows
from benchmarks.speed.results import to_json
from benchmarks.speed.server_latency import (
    ServerResult,
    ServerSize,
    projected_load_seconds,
    skip_reason,
)
from benchmarks.speed.server_load import (
    ServerLoad,
    local_engines,
    namespace_for,
    recorded_load,
    store_fingerprint,
    with_search_path,
)
from benchmarks.speed.stats import LatencySummary
from omoide.errors import ConfigError


def _summary(p50: float) -> LatencySummary:
    return LatencySummary(200, p50, p50 * 2, p50 * 3, p50 * 1.1, p50 / 2, p50 * 4)


def _load(episodes: int, seconds: float) -> ServerLoad:
    return ServerLoad(
        episodes=episodes, namespace=namespace_for(episodes), reused=False,
        loaded_at="2026-01-01T00:00:00+00:00", load_seconds=seconds, index_seconds=1.5,
        copied_episodes=episodes, copied_facts=20_000, copied_emotions=episodes,
        verified=True, episode_points=episodes, fact_points=20_000, indexed_vectors=0,
    )  # fmt: skip


def _latency(with_embedding: float, precomputed: float) -> dict[str, LatencySummary]:
    return {
        "with_embedding": _summary(with_embedding),
        "precomputed_query": _summary(precomputed),
        "embed_query_alone": _summary(1.0),
    }


def _server(*episodes: int) -> ServerResult:
    sizes = tuple(
        ServerSize(
            episodes=count, viewers=1000, load=_load(count, 500.0),
            timing=ReplyTiming(
                latency=_latency(12.0, 10.0), store_calls={"episode_vectors": _summary(4.0)},
                mean_context_tokens=150.0, mean_context_episodes=3.0, mean_context_facts=2.0,
                precomputed_misses=0, paired_embedding_ms=2.0,
            ),
        )
        for count in episodes
    )  # fmt: skip
    return ServerResult(
        postgres_version="17.2", qdrant_version="1.16.3", transport="gRPC", sizes=sizes,
        load_bound_seconds=1800.0, not_measured={"100000": "too slow"},
    )  # fmt: skip


def _context(episodes: int) -> ContextResult:
    size = ContextSize(
        episodes=episodes, viewers=1000, store_reused=True, store_built_at="2026-01-01",
        build_write_seconds=1.0, build_episodes_per_second=1.0, build_fact_seconds=1.0,
        store_bytes=1, latency=_latency(6.0, 4.0),
        store_calls={"episode_vectors": _summary(2.0)}, mean_context_tokens=1.0,
        mean_context_episodes=1.0, mean_context_facts=1.0, precomputed_misses=0,
        paired_embedding_ms=2.0,
    )  # fmt: skip
    return ContextResult(10, 10, 1.0, 10.0, True, 0.2, (size,))


def test_nothing_is_projected_before_a_first_load() -> None:
    assert projected_load_seconds(100_000, []) is None
    assert skip_reason(100_000, [], bound=1.0) is None


def test_a_size_is_skipped_when_its_projected_load_exceeds_the_bound() -> None:
    earlier = [_load(10_000, 500.0), _load(20_000, 500.0)]
    assert projected_load_seconds(100_000, earlier) == 5000.0  # the slower rate: 20/s
    reason = skip_reason(100_000, earlier, bound=1800.0)
    assert reason is not None
    assert "about 83 min at the 20 episodes/s" in reason
    assert "bound of 30 min" in reason
    assert skip_reason(100_000, earlier, bound=6000.0) is None


def test_a_recorded_load_is_reused_only_for_the_same_embedded_store(tmp_path: Path) -> None:
    store = tmp_path / "episodes-10000"
    store.mkdir()
    (store / "manifest.json").write_text('{"built_at": "first"}', encoding="utf-8")
    base = tmp_path / "server"
    assert recorded_load(base, store, 10_000) is None
    record = base / "loads" / f"{namespace_for(10_000)}.json"
    record.parent.mkdir(parents=True)
    saved = {"store": store_fingerprint(store), "load": asdict(_load(10_000, 500.0))}
    record.write_text(json.dumps(saved), encoding="utf-8")
    assert recorded_load(base, store, 10_000) == replace(_load(10_000, 500.0), reused=True)
    (store / "manifest.json").write_text('{"built_at": "rebuilt"}', encoding="utf-8")
    assert recorded_load(base, store, 10_000) is None


def test_the_search_path_is_added_to_the_database_url() -> None:
    assert with_search_path("postgresql://u@h:1/db", "episodes_10") == (
        "postgresql://u@h:1/db?options=-csearch_path%3Depisodes_10"
    )
    assert with_search_path("postgresql://u@h/db?sslmode=off", "x") == (
        "postgresql://u@h/db?sslmode=off&options=-csearch_path%3Dx"
    )


def test_server_and_embedded_percentiles_sit_side_by_side() -> None:
    rows = side_by_side_rows(_server(10_000, 20_000), _context(10_000))
    assert rows[0] == [
        "10,000", "query embedded by USE", "6 ms", "12 ms", "18 ms",
        "12 ms", "24 ms", "36 ms", "2x",
    ]  # fmt: skip
    assert rows[1][1] == "query vector precomputed"
    assert rows[1][-1] == "2.5x"
    assert rows[2][2:5] == [fmt.MISSING] * 3  # no embedded measurement at 20,000
    assert rows[2][-1] == fmt.MISSING


def test_the_section_says_what_the_server_numbers_include_and_what_was_left_out() -> None:
    section = server_section(_server(10_000), _context(10_000), None)
    assert "gRPC round trips to Qdrant" in section
    assert "PostgreSQL queries" in section
    assert "PostgreSQL 17.2, Qdrant 1.16.3" in section
    assert "- 100,000 episodes: not measured, too slow." in section
    assert "- 10,000 episodes: embedded 1 / 1.0 / 1.0, server 150 / 3.0 / 2.0" in section
    assert "| 10,000 | episode vector search (k=30) | 4 ms | 8 ms | 2 ms |" in section
    assert "| 500 s | 20 episodes/s | 1.5 s | passed |" in section


def test_a_section_that_did_not_run_gives_the_reason_and_no_numbers() -> None:
    section = server_section(None, _context(10_000), "skipped: PostgreSQL binaries missing")
    assert section.endswith(
        "Not run (skipped: PostgreSQL binaries missing). Nothing in this section is estimated."
    )
    assert " ms" not in section


def test_the_json_form_nests_the_load_and_timing() -> None:
    document = to_json(_server(10_000))
    assert isinstance(document, dict)
    json.dumps(document)
    sizes = document["sizes"]
    assert isinstance(sizes, list) and isinstance(sizes[0], dict)
    load = sizes[0]["load"]
    assert isinstance(load, dict) and load["load_seconds"] == 500.0


@pytest.mark.anyio
async def test_servers_that_cannot_start_make_the_section_not_run_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMOIDE_TEST_POSTGRES_BIN", str(tmp_path / "no-postgres" / "bin"))
    with pytest.raises(ConfigError, match="could not start"):
        async with local_engines(tmp_path / "server"):
            raise AssertionError("the servers must not start")
