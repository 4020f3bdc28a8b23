"""End to end on a tiny synthetic dataset: real SQLite stores in tmp_path, the hashing
embedder that ships with omoide, omoide's write and recall paths, and the report files."""

from __future__ import annotations

import json
import pickle
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from benchmarks.quality.dataset import Dataset, Haystack, Probe, Unit
from benchmarks.quality.embedding_cache import DiskCachedEmbedder
from benchmarks.quality.evaluate import Embedding, Tools, run_dataset
from benchmarks.quality.harness import Calibration
from benchmarks.quality.ingest_cost import measure_ingest
from benchmarks.quality.plots import can_plot
from benchmarks.quality.report import write_report
from benchmarks.quality.runner import save_runs
from benchmarks.quality.split import DEV, HELDOUT
from benchmarks.quality.systems import default_name, grid
from omoide.embed.hashing import HashingEmbedder
from omoide.memory.extraction.rules import RuleFactExtractor
from omoide.memory.relevance import calibrate_relevance_floor
from omoide.memory.tokens import SentencePieceTokenCounter

START = datetime(2024, 3, 1, 12, tzinfo=UTC)
TEXTS = (
    "Ana: I adopted a grey cat named Miso",
    "Bo: My brother plays the violin in an orchestra",
    "Ana: We hiked up Mount Takao last weekend",
    "Bo: I am learning to bake sourdough bread",
    "Ana: My favourite food is spicy ramen",
    "Bo: The train to Osaka was delayed again",
)
QUESTIONS: tuple[tuple[str, set[str], str], ...] = (
    ("What is the name of Ana's cat?", {"u0"}, "single-hop"),
    ("Which instrument does Bo's brother play?", {"u1"}, "single-hop"),
    ("Where did Ana hike and what does she like to eat?", {"u2", "u4"}, "multi-hop"),
    ("What did Bo bake?", {"u3"}, "adversarial"),
    ("Something nobody said", set(), "single-hop"),
)


def haystack(key: str) -> Haystack:
    units = tuple(
        Unit(f"u{index}", text, START + timedelta(hours=index), f"S{index // 2}")
        for index, text in enumerate(TEXTS)
    )
    now = START + timedelta(days=1)
    probes = tuple(
        Probe(
            f"{key}#{index}",
            question,
            now,
            frozenset(evidence),
            category,
            frozenset(f"S{int(unit[1:]) // 2}" for unit in evidence),
        )
        for index, (question, evidence, category) in enumerate(QUESTIONS)
    )
    return Haystack(key, "en", units, probes)


@pytest.fixture
async def embedding(tmp_path: Path) -> Embedding:
    embedder = DiskCachedEmbedder(HashingEmbedder(128), tmp_path / "embeddings")
    floors = await calibrate_relevance_floor(embedder)
    return Embedding("hash", embedder, Calibration(0.95, floors))


@pytest.mark.anyio
async def test_a_small_run_ranks_scores_checks_and_reports(
    tmp_path: Path, embedding: Embedding
) -> None:
    dataset = Dataset("tiny", (haystack("h1"), haystack("h2")), ("a note",))
    tools = Tools(tmp_path / "work", RuleFactExtractor(), SentencePieceTokenCounter(), 3)
    run = await run_dataset(
        dataset,
        character_id="bench",
        selection_metric="recall@10",
        embeddings=[embedding],
        limits={},
        tools=tools,
    )
    phase = run.embeddings["hash"]
    assert phase.counts["ingested_units"] == 2 * len(TEXTS)
    assert phase.counts["recaller_checked"] == 3
    assert phase.counts["recaller_agreed"] == 3
    assert phase.counts["fast_agreed"] == phase.counts["fast_checked"] > 0
    assert run.skipped_probes == 2
    default = default_name("hash")
    assert len(run.rows["bm25"]) == len(run.rows[default]) == 8
    assert {spec.name for spec in grid("hash")} <= set(run.rows)
    assert run.splits == {
        f"{key}#{index}": half
        for key, half in (("h1", DEV), ("h2", HELDOUT))
        for index in range(len(QUESTIONS))
    }
    cat_question = next(row for row in run.rows["bm25"] if row.probe_id == "h1#0")
    assert cat_question.scores["hit@10"] == 1.0
    assert not list((tmp_path / "work" / "stores").rglob("*.sqlite3*"))

    document = write_report(
        [run],
        profile="test",
        results_dir=tmp_path / "results",
        seconds=1.0,
        command="python -m benchmarks.quality --profile test",
    )
    saved = json.loads((tmp_path / "results" / "quality-test.json").read_text("utf-8"))
    assert saved["datasets"]["tiny"]["systems"]["bm25"]["all"]["n"] == 6.0
    assert saved["recommended"] == document["recommended"]
    halves = saved["datasets"]["tiny"]["splits"]
    assert halves[DEV]["questions"] == halves[HELDOUT]["questions"] == 5
    assert halves[HELDOUT]["systems"]["bm25"]["n"] == 3.0
    markdown = (tmp_path / "results" / "quality-test.md").read_text("utf-8")
    assert "python -m benchmarks.quality --profile test" in markdown
    assert "(nproc)" in markdown and "commit:" in markdown
    for question, _, _ in QUESTIONS:
        assert question not in markdown
    pngs = sorted(path.name for path in (tmp_path / "results").glob("*.png"))
    expected = ["quality-test-tiny-fusion.png", "quality-test-tiny-recall.png"]
    assert pngs == (expected if can_plot() else [])
    assert sorted(saved["plots"]) == pngs


@pytest.mark.anyio
async def test_the_disk_cache_returns_the_inner_vectors_and_reuses_them(tmp_path: Path) -> None:
    inner = HashingEmbedder(64)
    first = DiskCachedEmbedder(inner, tmp_path)
    texts = ["a cat", "a much longer text about dogs", "a cat"]
    matrix = await first.embed_documents(texts)
    expected = await inner.embed_documents(texts)
    np.testing.assert_allclose(matrix, expected, rtol=1e-6)
    assert first.computed == 2 and first.reused == 1
    first.close()
    second = DiskCachedEmbedder(inner, tmp_path)
    np.testing.assert_allclose(await second.embed_documents(texts), expected, rtol=1e-6)
    assert second.computed == 0
    query = await second.embed_query("a cat")
    np.testing.assert_allclose(query, await inner.embed_query("a cat"), rtol=1e-6)
    assert second.computed == 1
    assert await second.warm(["a cat", "new text"]) == 1
    second.close()


@pytest.mark.anyio
async def test_ingest_cost_compares_with_and_without_fact_extraction(
    tmp_path: Path, embedding: Embedding
) -> None:
    tools = Tools(tmp_path / "work", RuleFactExtractor(), SentencePieceTokenCounter(), 0)
    cost = await measure_ingest("tiny", haystack("h"), embedding, tools)
    assert cost["units"] == len(TEXTS)
    assert cost["fact_changes"] > 0
    assert cost["fact_changes_without"] == 0
    assert cost["ms_per_unit_with_facts"] > 0 and cost["ms_per_unit_without_facts"] > 0
    assert not list((tmp_path / "work" / "stores").rglob("*.sqlite3*"))


@pytest.mark.anyio
async def test_the_decision_compares_embedders_on_shared_questions(tmp_path: Path) -> None:
    embeddings = []
    for name, dimensions in (("hash", 128), ("wide", 512)):
        embedder = DiskCachedEmbedder(HashingEmbedder(dimensions), tmp_path / "embeddings")
        floors = await calibrate_relevance_floor(embedder)
        embeddings.append(Embedding(name, embedder, Calibration(0.95, floors)))
    tools = Tools(tmp_path / "work", RuleFactExtractor(), SentencePieceTokenCounter(), 2)
    conversations = Dataset("locomo", (haystack("a"), haystack("b")))
    questions = Dataset("longmemeval", (haystack("c"), haystack("d"), haystack("e")))
    runs = [
        await run_dataset(
            dataset,
            character_id="bench",
            selection_metric=metric,
            embeddings=embeddings,
            limits=limits,
            tools=tools,
        )
        for dataset, metric, limits in (
            (conversations, "recall@10", {}),
            (questions, "all@10", {"wide": 1}),
        )
    ]
    document = write_report(
        runs,
        profile="pair",
        results_dir=tmp_path / "results",
        seconds=2.0,
        command="python -m benchmarks.quality --profile pair",
    )
    decision = document["decision"]
    assert decision["embedder"]["questions"] == {"locomo": 4, "longmemeval": 4}
    for config in decision["configs"].values():
        assert config["candidates"] == len(grid("hash"))
        best = config["top"][0]
        assert best["system"] == config["chosen"]
        assert best["mean"] == max(entry["mean"] for entry in config["top"])
    assert decision["embedder"]["chosen"] in {"hash", "wide"}
    assert document["recommended"].startswith(f"omoide:{decision['embedder']['chosen']} ")
    subsets = document["datasets"]["longmemeval"]["subsets"]
    assert [subset["questions"] for subset in subsets] == [4]
    names = {entry["target"] for entry in document["targets"]}
    assert "LoCoMo hit@1" in names
    assert {entry["split"] for entry in document["targets"]} == {DEV, HELDOUT}
    assert "LongMemEval turn recall_all@10 (official averaging)" in names
    markdown = (tmp_path / "results" / "quality-pair.md").read_text("utf-8")
    assert "## Decision" in markdown and "## longmemeval" in markdown
    for embedding in embeddings:
        embedding.embedder.close()


@pytest.mark.anyio
async def test_saved_scores_hold_no_text_and_rebuild_the_same_tables(
    tmp_path: Path, embedding: Embedding
) -> None:
    tools = Tools(
        tmp_path / "work", RuleFactExtractor(), SentencePieceTokenCounter(), 0, tune=False
    )
    run = await run_dataset(
        Dataset("tiny", (haystack("h1"),)),
        character_id="bench",
        selection_metric="recall@10",
        embeddings=[embedding],
        limits={},
        tools=tools,
    )
    path = tmp_path / "runs.pickle"
    save_runs(path, [run], [], 1.0, "python -m benchmarks.quality --profile test")
    raw = path.read_bytes()
    for text in TEXTS:
        assert text.encode() not in raw
    (saved,), _, _, _ = pickle.loads(raw)
    assert saved.rows.keys() == run.rows.keys()
    assert saved.dataset.unit_count == run.dataset.unit_count
    first = write_report([run], profile="a", results_dir=tmp_path / "a", seconds=1.0, command="x")
    again = write_report([saved], profile="a", results_dir=tmp_path / "b", seconds=1.0, command="x")
    assert first["datasets"] == again["datasets"]
