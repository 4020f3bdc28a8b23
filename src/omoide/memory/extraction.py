"""What is worth remembering about a viewer: fact extraction, by rules or by a model.

An extractor turns one exchange into :class:`FactDecision` values against the viewer's
existing related facts: add a new fact, confirm a known one, update (supersede) one, or
delete (contradict) one. :class:`RuleFactExtractor` needs no model and reads Korean,
Japanese, Chinese and English; :class:`LLMFactExtractor` asks a chat model and validates
its answer strictly. Facts are phrased as an English predicate followed by the viewer's
own words ("likes 롤 게임", "name: 민준"): see :mod:`omoide.memory.fact_text`.
"""

from __future__ import annotations

from omoide.memory.extraction_llm import LLMFactExtractor
from omoide.memory.extraction_rules import RuleFactExtractor, decide, find_facts
from omoide.memory.extraction_values import (
    FACT_ACTIONS,
    FactAction,
    FactCandidate,
    FactDecision,
    FactExtractor,
)

__all__ = [
    "FACT_ACTIONS",
    "FactAction",
    "FactCandidate",
    "FactDecision",
    "FactExtractor",
    "LLMFactExtractor",
    "RuleFactExtractor",
    "decide",
    "find_facts",
]
