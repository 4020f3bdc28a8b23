"""Language-model calls and tokens per 1,000 turns on the write path, and none on the reply path.

Configurations, each on a fresh store with the same turns:

* ``none``: no chat model at all (``OMOIDE_LLM=none``);
* ``scripted``: the default, a chat model that only chats (``uses_real_llm`` is false), so
  the memory pipeline must run on rules alone: any call it makes is counted;
* ``llm``: a "real" model (``OMOIDE_LLM=openai``) for the importance second pass and fact
  extraction, played by :class:`~omoide.llm.scripted.ScriptedChatModel` answering every
  prompt with valid JSON (``{"importance": 5}``, ``{"facts": []}``).

Tokens are the scripted model's estimates (about one per CJK character, one per four
letters), not a vendor tokenizer's. Because extraction answers ``{"facts": []}``, no fact
is ever known, so extraction prompts carry no known facts: prompt tokens are a lower bound.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.speed.corpus import CHARACTER_ID, DEFAULT_TIMELINE, viewer_scope
from benchmarks.speed.ingest import INGEST_VIEWERS, chunks, to_inputs
from benchmarks.speed.synthetic import ChatGenerator
from omoide.config import Settings
from omoide.embed.base import Embedder
from omoide.errors import InvalidInput
from omoide.llm.base import ChatMessage
from omoide.llm.scripted import ScriptedChatModel
from omoide.wiring import build

logger = logging.getLogger(__name__)

LLM_SEED = 5150
BATCH_SIZE = 64
PER_TURNS = 1000
IMPORTANCE_PROMPT = "You judge how worth remembering"
EXTRACTION_PROMPT = "You extract long-term facts"
REPLIES = {
    "importance": '{"importance": 5, "reason": "benchmark"}',
    "extraction": '{"facts": []}',
    "other": "{}",
}


def prompt_kind(messages: Sequence[ChatMessage]) -> str:
    """Which write-path prompt ``messages`` is: importance, extraction or other."""
    system = "\n".join(message.content for message in messages if message.role == "system")
    if system.startswith(IMPORTANCE_PROMPT):
        return "importance"
    if system.startswith(EXTRACTION_PROMPT):
        return "extraction"
    return "other"


class CountingResponder:
    """Answers each write-path prompt with valid JSON and counts the prompts by kind."""

    def __init__(self) -> None:
        self.counts = {kind: 0 for kind in REPLIES}

    def __call__(self, messages: Sequence[ChatMessage]) -> str:
        kind = prompt_kind(messages)
        self.counts[kind] += 1
        return REPLIES[kind]


@dataclass(frozen=True, slots=True)
class LLMCost:
    """Calls and tokens of one configuration."""

    name: str
    llm_setting: str
    uses_real_llm: bool
    has_model: bool
    turns: int
    stored: int
    write_calls: int
    write_calls_by_kind: dict[str, int]
    write_tokens_in: int
    write_tokens_out: int
    reply_queries: int
    reply_calls: int

    def per_thousand(self, value: int) -> float:
        return value * PER_TURNS / self.turns if self.turns else 0.0


@dataclass(frozen=True, slots=True)
class LLMCostResult:
    turns: int
    batch_size: int
    configurations: tuple[LLMCost, ...]


CONFIGURATIONS = ("none", "scripted", "llm")


def configuration_settings(name: str, directory: Path) -> Settings:
    """Settings of one configuration, with its data in ``directory``."""
    match name:
        case "none":
            return Settings(data_dir=directory, llm="none")
        case "scripted":
            return Settings(data_dir=directory, llm="scripted")
        case "llm":
            return Settings(data_dir=directory, llm="openai", llm_model="benchmark-model")
    raise InvalidInput(f"unknown LLM cost configuration {name!r}")


async def measure_llm_cost(
    *, embedder: Embedder, work_dir: Path, turns: int, reply_queries: int
) -> LLMCostResult:
    measured = []
    for name in CONFIGURATIONS:
        logger.info("llm cost: %s", name)
        settings = configuration_settings(name, work_dir / "llm" / name)
        measured.append(await _one_configuration(name, settings, embedder, turns, reply_queries))
    return LLMCostResult(turns=turns, batch_size=BATCH_SIZE, configurations=tuple(measured))


async def _one_configuration(
    name: str, settings: Settings, embedder: Embedder, turns: int, reply_queries: int
) -> LLMCost:
    for path in settings.data_dir.glob("*.sqlite3*"):
        path.unlink()
    responder = CountingResponder()
    model = None if settings.llm == "none" else ScriptedChatModel(responder=responder)
    service = await build(settings, embedder=embedder, chat_model=model)
    generator = ChatGenerator(seed=LLM_SEED, viewers=INGEST_VIEWERS, timeline=DEFAULT_TIMELINE)
    try:
        stored = 0
        for group in chunks(to_inputs(generator.turns(turns)), BATCH_SIZE):
            outcomes = await service.memory.store_interactions(CHARACTER_ID, group)
            stored += sum(1 for outcome in outcomes if outcome.stored)
        write_calls = model.call_count if model else 0
        tokens = (model.tokens_in, model.tokens_out) if model else (0, 0)
        by_kind = dict(responder.counts)
        now = DEFAULT_TIMELINE.end
        for _ in range(reply_queries):
            viewer = generator.random_viewer()
            await service.memory.retrieve_context(
                viewer_scope(viewer), generator.query(viewer), now=now
            )
        reply_calls = (model.call_count if model else 0) - write_calls
    finally:
        await service.aclose()
    return LLMCost(
        name=name,
        llm_setting=settings.llm,
        uses_real_llm=settings.uses_real_llm,
        has_model=model is not None,
        turns=turns,
        stored=stored,
        write_calls=write_calls,
        write_calls_by_kind=by_kind,
        write_tokens_in=tokens[0],
        write_tokens_out=tokens[1],
        reply_queries=reply_queries,
        reply_calls=reply_calls,
    )
