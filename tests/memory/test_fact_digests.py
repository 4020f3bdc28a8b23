"""The digests a deleted fact leaves: the same for what reads the same, keyed per scope,
never the words."""

from __future__ import annotations

import re

from omoide.domain import FactCategory, Scope, TrustState
from omoide.memory.extraction.values import FactCandidate, FactDecision
from omoide.memory.facts.digests import candidate_digests, fact_digests, without_deleted

DANA = Scope("haru", "dana")


def test_text_that_reads_the_same_digests_the_same() -> None:
    first = fact_digests(DANA, "I live in Seoul", "home", ("Seoul",))
    assert len(first) == 2
    assert all(re.fullmatch(r"[0-9a-f]{32}", digest) for digest in first)
    for same in ("i live in SEOUL", "ｉ ｌｉｖｅ ｉｎ ｓｅｏｕｌ", "I live in  Seoul."):
        assert fact_digests(DANA, same, "home", ("seoul",)) == first


def test_the_slot_and_value_digest_matches_other_words_of_the_same_value() -> None:
    (_, home_seoul) = fact_digests(DANA, "I live in Seoul", "home", ("Seoul",))
    now = fact_digests(DANA, "I live in Seoul now", "home", ("Seoul",))
    busan = fact_digests(DANA, "I live in Busan", "home", ("Busan",))
    assert home_seoul in now
    assert home_seoul not in busan


def test_a_fact_without_a_slot_or_value_has_a_text_digest_only() -> None:
    assert len(fact_digests(DANA, "likes quiet mornings", None, ())) == 1
    assert len(fact_digests(DANA, "likes quiet mornings", "like:mornings", ())) == 1
    assert fact_digests(DANA, "!!!", None, ()) == ()


def test_digests_are_keyed_per_scope() -> None:
    scopes = [DANA, Scope("haru", "emma"), Scope("aoi", "dana"), Scope("haru")]
    digests = [set(fact_digests(scope, "I live in Seoul", "home", ("Seoul",))) for scope in scopes]
    for index, mine in enumerate(digests):
        for theirs in digests[index + 1 :]:
            assert mine.isdisjoint(theirs)


def test_only_adds_and_updates_matching_a_deleted_digest_are_dropped() -> None:
    def candidate(text: str, value: str) -> FactCandidate:
        category, trust = FactCategory.PERSONAL, TrustState.STATED
        return FactCandidate(text, category, 0.7, 0.5, trust, "home", (value,))

    seoul, busan = candidate("I live in Seoul", "Seoul"), candidate("I live in Busan", "Busan")
    deleted = frozenset(candidate_digests(DANA, seoul))
    decisions = [
        FactDecision("add", seoul, None),
        FactDecision("update", seoul, "f1"),
        FactDecision("confirm", seoul, "f2"),
        FactDecision("add", busan, None),
    ]
    kept = without_deleted(decisions, DANA, deleted)
    assert [(d.action, d.candidate) for d in kept] == [("confirm", seoul), ("add", busan)]
    assert without_deleted(decisions, Scope("haru", "emma"), deleted) == decisions
