"""With a model, facts come back in the viewer's language and are stored as given."""

from __future__ import annotations

import json

import pytest

from omoide.errors import ParseFailure
from omoide.llm.scripted import ScriptedChatModel
from omoide.memory.extraction.llm import LLMFactExtractor, extraction_messages
from omoide.metrics import Metrics


def answer(fact: str, slot: str | None, terms: list[str]) -> str:
    item = {
        "action": "add",
        "fact": fact,
        "category": "personal",
        "confidence": 0.9,
        "importance": 0.7,
        "stated": True,
        "target": None,
        "slot": slot,
        "terms": terms,
    }
    return json.dumps({"facts": [item]}, ensure_ascii=False)


def test_the_prompt_asks_for_the_viewers_own_language_untranslated() -> None:
    (system, _user) = extraction_messages("저 수원 살아요", "", user_name=None, existing=[])
    assert "viewer's own language" in system.content
    assert "never translated" in system.content
    assert '"slot"' in system.content and '"terms"' in system.content


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("message", "fact", "slot", "terms"),
    [
        ("저 요즘 수원에서 자취해요 ㅎㅎ", "요즘 수원에서 자취해요", "home", ["수원"]),
        (
            "実家の柴犬、コタロウっていうの",
            "実家の柴犬はコタロウという名前",
            "pet:柴犬",
            ["コタロウ"],
        ),
        ("我对猫毛过敏，有点难受", "我对猫毛过敏", "allergy:猫毛", ["猫毛"]),
    ],
)
async def test_a_reply_in_the_viewers_language_is_stored_as_given(
    message: str, fact: str, slot: str, terms: list[str]
) -> None:
    model = ScriptedChatModel([answer(fact, slot, terms)])
    extractor = LLMFactExtractor(model, metrics=Metrics(), fallback=None)
    (decision,) = await extractor.extract(message, "そうなんだ!", user_name=None, existing=[])
    assert decision.candidate is not None
    assert decision.candidate.text == fact
    assert (decision.candidate.slot, decision.candidate.terms) == (slot, tuple(terms))


@pytest.mark.anyio
async def test_malformed_slot_or_terms_are_retried_then_reported() -> None:
    bad_terms = answer("我对猫毛过敏", "allergy:猫毛", []).replace("[]", '"猫毛"')
    bad_slot = answer("我对猫毛过敏", None, []).replace('"slot": null', '"slot": 42')
    good = answer("我对猫毛过敏", "allergy:猫毛", ["猫毛"])
    metrics = Metrics()
    model = ScriptedChatModel([bad_terms, good])
    extractor = LLMFactExtractor(model, metrics=metrics, fallback=None)
    (decision,) = await extractor.extract("我对猫毛过敏", "", user_name=None, existing=[])
    assert decision.candidate is not None and decision.candidate.terms == ("猫毛",)
    failing = LLMFactExtractor(
        ScriptedChatModel([bad_slot, bad_terms]), metrics=metrics, fallback=None
    )
    with pytest.raises(ParseFailure):
        await failing.extract("我对猫毛过敏", "", user_name=None, existing=[])
    assert metrics.get("extraction.parse_failures") == 1
