"""Timeline neighbours of the best episodes join the ranking, at a share of their score."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.domain import Episode, Scope
from omoide.embed.hashing import HashingEmbedder
from omoide.errors import ConfigError
from omoide.memory.neighbours import NeighbourConfig, expanded_totals, with_neighbours
from omoide.memory.ranking import Ranked, ScoreComponents
from omoide.wiring import build

START = datetime(2026, 6, 1, 20, tzinfo=UTC)
SORA = Scope("haru", "sora")


def test_neighbours_of_the_best_are_lent_a_share_of_their_score() -> None:
    ranked = [("a", 0.9), ("b", 0.8), ("c", 0.3), ("d", 0.2)]
    neighbours = {"a": ["x", "c"], "b": ["y"], "d": ["z"]}
    got = expanded_totals(ranked, neighbours, best=2, share=0.5)
    assert got == [
        ("a", 0.9, None),
        ("b", 0.8, None),
        ("c", 0.45, "a"),  # its own 0.3 is below what a lends; it keeps its place in a tie
        ("x", 0.45, "a"),  # added at half of a's
        ("y", 0.4, "b"),
        ("d", 0.2, None),
    ]
    assert ("z", 0.1, "d") not in got  # d is not among the best two


def test_a_ranked_neighbour_keeps_the_higher_of_its_own_and_the_lent_score() -> None:
    ranked = [("a", 0.9), ("b", 0.8), ("c", 0.3)]
    got = expanded_totals(ranked, {"a": ["c", "b"]}, best=1, share=0.5)
    assert got == [("a", 0.9, None), ("b", 0.8, None), ("c", 0.45, "a")]


def test_ties_keep_the_ranking_order_with_added_episodes_after() -> None:
    got = expanded_totals([("a", 0.8), ("b", 0.4)], {"a": ["x"]}, best=1, share=0.5)
    assert [key for key, _, _ in got] == ["a", "b", "x"]


def _episode(episode_id: str, minutes: int, said: str = "ok", reply: str = "") -> Episode:
    return Episode(episode_id, SORA, said, reply, START + timedelta(minutes=minutes), 0.5)


def _ranked(episode: Episode, total: float) -> Ranked[Episode]:
    components = ScoreComponents(total, total, total, total, 0.7, 0.9, 0.5)
    return Ranked(episode, components)


def test_the_answer_after_a_question_carries_its_scaled_components_and_name() -> None:
    question = _ranked(_episode("question", 0, "Any plans for the summer?"), 0.8)
    before, answer = _episode("before", -1), _episode("answer", 1)
    got = with_neighbours([question], {"question": (before, answer)}, NeighbourConfig())
    assert [entry.item.id for entry in got] == ["question", "answer"]  # not the one before
    lent = got[1].components
    assert lent.total == pytest.approx(0.4)
    assert lent.relevance == pytest.approx(0.4)
    assert lent.neighbour_of == "question"
    assert got[0].components.neighbour_of is None


@pytest.mark.parametrize(
    ("said", "reply", "minutes", "joins"),
    [
        ("I went camping", "How was it?", 5, True),  # the character asked
        ("요즘 뭐 하고 지내?", "", 5, True),
        ("夏休みの予定は？", "", 5, True),
        ("Deadlock is my favourite game", "Nice!", 5, False),  # nothing asked
        ("Any plans for the summer?", "", 61, False),  # an hour later: another conversation
    ],
)
def test_only_an_answer_to_an_asking_episode_in_the_same_conversation_joins(
    said: str, reply: str, minutes: int, joins: bool
) -> None:
    anchor = _ranked(_episode("anchor", 0, said, reply), 0.8)
    found = {"anchor": (_episode("next", minutes),)}
    got = with_neighbours([anchor], found, NeighbourConfig())
    assert [entry.item.id for entry in got] == (["anchor", "next"] if joins else ["anchor"])


@pytest.mark.parametrize(
    ("best", "share", "gap"), [(-1, 0.5, 1), (3, 1.0, 1), (3, -0.1, 1), (3, 0.5, -1)]
)
def test_bad_neighbour_settings_are_refused(best: int, share: float, gap: int) -> None:
    with pytest.raises(ConfigError):
        NeighbourConfig(best=best, share=share, max_gap=timedelta(minutes=gap))


@pytest.mark.anyio
@pytest.mark.parametrize("share", [0.5, 0.0])
async def test_the_answer_after_a_matching_question_reaches_the_prompt(
    tmp_path: Path, share: float
) -> None:
    app = await build(
        Settings(data_dir=tmp_path, embedder="hashing", neighbour_share=share),
        clock=FixedClock(START + timedelta(days=4)),
        embedder=HashingEmbedder(128),
    )
    conversation = [
        "Any plans for the summer holidays?",
        "Camping by the lake with my sister, three whole weeks!",
        "My printer broke again at work",
    ]
    try:
        for minute, message in enumerate(conversation):
            moment = START + timedelta(minutes=minute) + timedelta(days=minute // 2 * 3)
            await app.memory.store_interaction(SORA, message, "", timestamp=moment)
        recollection = await app.memory.retrieve_context(SORA, "summer holidays plans")
        said = [entry.item.user_message for entry in recollection.context.episodes]
        if share:
            assert said[:2] == conversation[:2]
            assert recollection.context.episodes[1].components.neighbour_of is not None
        else:
            assert conversation[1] not in said
        assert conversation[2] not in said  # not asked about, and days later
    finally:
        await app.aclose()
