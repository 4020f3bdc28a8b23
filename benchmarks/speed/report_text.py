"""Fixed prose of the report: what each measurement does and what limits it."""

from __future__ import annotations

CONTEXT_METHOD = (
    "Query embedding, vector and keyword search over episodes and facts, emotion summary, "
    "ranking and rendering under the 300-token budget (what was used is only noted for "
    "reinforcement here: the write happens off the reply path, with the next write); "
    "1,000 viewers; the three rows of a size were interleaved query by query."
)
CONTEXT_LIMITS = (
    "**What limits these numbers.** Two cores shared with other work: the p99 of a few "
    "hundred samples moves with background load. The stores are built from {pool} really "
    "embedded texts reused with noise ({noise}), so search work per query matches real data "
    "but the relevance of what is found does not. The page cache is warm (the store file is "
    "read once before measuring, as in a service that has been running). Every call also "
    "reinforces what it returned, so the WAL grows during the run."
)
INGEST_METHOD = (
    "Default configuration without an LLM (rule importance, rule fact extraction), "
    "{viewers} viewers, a fresh store per mode. The service writes with the default "
    "embedder as the composition root builds it (USE; large document batches embedded in a "
    "worker process); the embedder row is the model alone, in this process, embedding the "
    "same stored texts in the same batches in the same rounds (order alternating)."
)
INGEST_NOTE = (
    'Medians over rounds. "batch-N" calls `store_interactions` once per batch; "batch-N '
    'pipelined" hands every batch to `store_interaction_batches` (same transactions, the '
    "next batch embedded while the current one is written and its facts kept, the one "
    "after scored meanwhile). The target (≥ 80 % of the embedder) is judged on the "
    'pipelined rows: that is the API a bulk importer should use; the row "embedding in '
    'this process" turns the worker off (`OMOIDE_EMBEDDER_WORKER=false`) to show what it '
    'adds. "Texts embedded per stored turn" above 1 counts the texts of new facts; '
    "embedding's share passes 100 % when calls overlap."
)
INGEST_LIMITS = (
    "**What limits these numbers.** Two cores: the model takes one (in the worker), the "
    "write path's own work (rules, keyword indexing, SQLite, the batch's fact read and "
    "write) the other, and the model runs slower while that work shares memory bandwidth "
    "with it. In each round the first batch is embedded before anything can be written "
    "and the last one is written after the model is done: the fewer batches a round has "
    "(the quick profile's), the larger that unoverlapped share. Anything else running on "
    "the machine takes from the two cores both pipelines need."
)
INGEST_HEADERS = [
    "mode", "ingest", "embedder alone", "ingest ÷ embedder",
    "embedding's share of ingest time", "texts embedded per stored turn", "rounds", "turns",
]  # fmt: skip
OPEN_METHOD = (
    '"SQLite store alone" opens the store with `open_sqlite_store` and runs the store calls '
    "of one reply (vector and keyword search of episodes and facts, emotions) with a random "
    'query vector; "omoide service" runs `wiring.build` with the default settings (USE, no '
    "LLM; calibration already cached in the data directory) and one `retrieve_context`. "
    "Cold runs follow `echo 3 > /proc/sys/vm/drop_caches`."
)
OPEN_LIMITS = (
    "**What limits these numbers.** The disk is a virtual disk shared with other work; a "
    "cold open reads only the pages the first query touches, so it depends on the disk's "
    'random-read latency. Interpreter start-up and imports are in "process (wall)" but not '
    'in "open". RSS counts shared library pages too.'
)
OPEN_HEADERS = [
    "what", "episodes", "page cache", "process (wall)", "imports", "open", "first query",
    "RSS after open", "peak RSS", "on disk",
]  # fmt: skip
BASELINE_METHOD = (
    "As in seed 000: `QdrantClient(path=...)`, cosine collection with payload indexes on "
    "`user_id` and `importance`, one `embed` + one `upsert` per turn (same USE model, same "
    "rule filter for what is stored), search = embed the query + `query_points` filtered on "
    "`user_id`, `importance` and `decay_factor`, top 5. The bulk load that fills the "
    "collection for the query test is not the seed's path: batches of 1,000 precomputed "
    "vectors, with local mode's per-point SQLite commits left unsynced (journal in memory); "
    "the per-call ingest keeps local mode's defaults."
)
BASELINE_LIMITS = (
    "**What limits these numbers.** Local mode is Qdrant's embedded Python implementation "
    "(no HNSW, filters evaluated in Python); a Qdrant server would search faster but is a "
    "second process to run. Our reply path does more than the seed's search (keyword "
    "search, facts, emotions, ranking, rendering, reinforcement), and the seed's write path "
    "as measured leaves out its per-turn LLM fact extraction, so the comparison favours "
    "the seed."
)
BASELINE_HEADERS = [
    "points", "bulk load", "per-call ingest (measured, time-capped)",
    "time to ingest all (extrapolated)", "query p50 / p95 with embedding",
    "search only p50 / p95", "queries", "on disk",
]  # fmt: skip
COMPARISON_HEADERS = [
    "episodes", "reply p95, ours (full context) vs seed (search)", "ingest one by one",
    "ingest batched (256) vs seed", "cold open + first query",
]  # fmt: skip
LLM_METHOD = (
    "{turns} synthetic turns per configuration through `store_interactions` (batches of "
    "{batch}), scaled to 1,000; the model is `ScriptedChatModel` answering "
    '`{{"importance": 5}}` and `{{"facts": []}}`.'
)
LLM_LIMITS = (
    "**What limits these numbers.** Tokens are the scripted model's estimate (about one per "
    "CJK character, one per four Latin letters), not a vendor tokenizer. With "
    '`{"facts": []}` no fact is ever learned, so extraction prompts list no known facts: '
    "real prompts are longer (up to 10 known facts). The importance pass runs only for rule "
    "scores in the ambiguous band, so its share depends on the chat."
)
LLM_HEADERS = [
    "configuration", "setting", "real LLM", "write calls / 1k turns", "importance",
    "extraction", "tokens in / 1k", "tokens out / 1k", "reply-path calls",
]  # fmt: skip
METHOD = """\
## Method

- Synthetic chat (`benchmarks/speed/synthetic.py`): Korean, Japanese, Chinese and English \
templates with varied vocabulary; each viewer has a main language and switches in 10% of \
turns; 10% of turns are low-signal reactions.
- Large stores (`corpus.py`): a pool of distinct texts is embedded with USE; episodes reuse \
pool texts (in the viewer's language) and their vectors plus Gaussian noise, renormalised \
(cosine ≈ 0.98 to the original), written through `write_turns` in batches of 5,000, one \
transaction each. Stores and pools are cached in `benchmarks/work/` and reused while their \
spec is unchanged.
- Latencies are medians and percentiles over many calls; every comparison is a ratio \
against a baseline measured in the same run. No number here is asserted in a test.
- Results as JSON: `speed-{profile}.json` beside this file."""
