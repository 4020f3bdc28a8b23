"""The lasting model (:mod:`omoide.memory.extraction.lasting`): a fact a friend would still
know in a month keeps more salience than a passing remark about today; the shipped model
is the default embedder's; turned off, salience is the rules' own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import FactCategory, Scope, TrustState
from omoide.memory.extraction.lasting import (
    lasting_salience,
    load_lasting_model,
    rated_candidates,
)
from omoide.memory.extraction.sentence_models import SentenceModel
from omoide.memory.extraction.values import FactCandidate
from omoide.wiring import Omoide, build

START = datetime(2025, 5, 1, 20, tzinfo=UTC)
MINA = Scope("haru", "mina")

# Written for this test (not in benchmarks/lasting/data.jsonl): both told of oneself, and
# each a fact for the rules or the disclosure model (a relative, a pet, a plan).
LASTING = (
    "my son starts kindergarten in september, already bought the tiny backpack",
    "할머니가 올해 아흔이신데 아직도 텃밭 하세요",
    "来年の春にカナダへワーホリ行く予定",
    "我在考研，目标是浙大的计算机",
)
PASSING = (
    "my cat knocked my coffee over just now",
    "엄마가 방금 과일 깎아줬어요",
    "さっき猫がキーボードの上で寝てた",
    "刚才我弟抢了我的薯片",
)


def _candidate(text: str, salience: float = 0.6) -> FactCandidate:
    return FactCandidate(
        text=text,
        category=FactCategory.PERSONAL,
        confidence=0.6,
        salience=salience,
        trust=TrustState.STATED,
    )


def test_salience_moves_by_a_bounded_share_either_way() -> None:
    assert lasting_salience(0.6, 0.5) == pytest.approx(0.6)
    assert lasting_salience(0.6, 1.0) == pytest.approx(0.9)
    assert lasting_salience(0.6, 0.0) == pytest.approx(0.3)
    assert lasting_salience(0.9, 1.0) == 1.0


def test_only_candidates_with_a_vector_are_rated() -> None:
    model = SentenceModel(embedder="t", weights=np.ones(2, np.float32), bias=0.0, threshold=0.0)
    rated = rated_candidates(
        model,
        [_candidate("kept"), _candidate("unknown")],
        {"kept": np.asarray([3.0, 3.0], np.float32)},
    )
    assert rated[0].salience > 0.6 and rated[1].salience == 0.6


def test_the_default_embedder_has_a_model_and_others_have_none() -> None:
    model = load_lasting_model("use:multilingual-v3@0.2.1")
    assert model is not None and model.weights.shape == (512,)
    assert load_lasting_model("hashing:256") is None


async def _saliences(tmp_path: Path, *, lasting_model: bool) -> dict[str, float]:
    settings = Settings(
        data_dir=tmp_path,
        embedder="use",
        embedder_worker=False,
        llm="none",
        lasting_model=lasting_model,
    )
    app: Omoide = await build(settings, clock=FixedClock(START + timedelta(days=30)))
    try:
        for day, message in enumerate((*LASTING, *PASSING)):
            await app.memory.store_interaction(
                MINA, message, "I see!", timestamp=START + timedelta(days=day)
            )
        return {fact.text: fact.salience for fact in await app.memory.list_facts(MINA)}
    finally:
        await app.aclose()


@pytest.mark.anyio
async def test_lasting_facts_outweigh_passing_ones(tmp_path: Path) -> None:
    rated = await _saliences(tmp_path / "on", lasting_model=True)
    plain = await _saliences(tmp_path / "off", lasting_model=False)
    lasting = [rated[text] for text in LASTING if text in rated]
    passing = [rated[text] for text in PASSING if text in rated]
    assert len(lasting) >= 3 and len(passing) >= 3, (rated, plain)
    assert min(lasting) > max(passing)
    changed = [text for text in rated if text in plain and rated[text] != plain[text]]
    assert changed, "the model changed no salience"
