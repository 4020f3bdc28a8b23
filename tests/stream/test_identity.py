"""Identity evolution: diffs checked against the schema, protected fields and size bounds;
versions, approval, rejection and exact rollback; unusable model answers change nothing.

The ``growth`` fixture (tests/stream/conftest.py) runs each store-backed test against the
SQLite file and against PostgreSQL."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.character.identity import IdentityService, OutcomeStatus
from omoide.character.identity_policy import (
    IdentityPolicy,
    changed_characters,
    check_diff,
    list_edits,
)
from omoide.character.library import CharacterLibrary
from omoide.clock import FixedClock
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.llm.scripted import ScriptedChatModel
from omoide.metrics import Metrics
from omoide.store.records.identity import ChangeStatus
from omoide.store.records.profile import CharacterProfile
from omoide.store.records.stream import DiaryReason
from omoide.stream.diary import DiaryEntry
from omoide.stream.evolution import IdentityEvolver
from omoide.wiring.storage import GrowthLogs
from tests.stream.harness import START

LIBRARY = CharacterLibrary([])


def service(growth: GrowthLogs, **policy: object) -> IdentityService:
    return IdentityService(
        versions=growth.identity,
        changes=growth.identity,
        characters=LIBRARY,
        policy=IdentityPolicy(**policy),  # type: ignore[arg-type]
        clock=FixedClock(START),
        metrics=Metrics(),
    )


async def haru() -> CharacterProfile:
    return (await LIBRARY.load("haru")).profile


def diary(text: str = "Tonight everyone talked about rainy days.") -> DiaryEntry:
    return DiaryEntry("diary-1", "haru", "s1", 1, DiaryReason.END, text, "llm", START, 1, 10, 10, 3)


@pytest.mark.anyio
async def test_pending_by_default_then_approved_into_a_version(growth: GrowthLogs) -> None:
    identity = service(growth)
    original = await haru()
    likes = [*original.likes, "비 오는 날 시청자와 듣는 로파이"]
    outcome = await identity.propose("haru", {"likes": likes}, diary_entry_id="d1")
    assert outcome.status is OutcomeStatus.PENDING
    assert await identity.current_profile("haru") == original
    (pending,) = await identity.changes("haru")
    assert pending.id == outcome.change_id and pending.base_version is None

    assert outcome.change_id is not None
    version = await identity.approve("haru", outcome.change_id)
    assert version.number == 1 and version.diary_entry_id == "d1"
    assert [change.field for change in version.changes] == ["likes"]
    assert version.changes[0].before == original.likes
    assert (await identity.current_profile("haru")).likes == tuple(likes)
    base, applied = await identity.versions("haru")
    assert (base.number, base.profile) == (0, original)
    assert applied == version
    assert await identity.changes("haru") == []
    (decided,) = await identity.changes("haru", status=ChangeStatus.APPROVED)
    assert decided.version == 1
    with pytest.raises(Conflict, match="already approved"):
        await identity.approve("haru", outcome.change_id)


@pytest.mark.anyio
async def test_rejected_changes_change_nothing(growth: GrowthLogs) -> None:
    identity = service(growth)
    original = await haru()
    outcome = await identity.propose(
        "haru", {"speaking_style": original.speaking_style + " 가끔 일본어도."}
    )
    assert outcome.change_id is not None
    rejected = await identity.reject("haru", outcome.change_id)
    assert rejected.status is ChangeStatus.REJECTED and rejected.decided_at == START
    assert await identity.current_profile("haru") == original
    assert await identity.versions("haru") == []
    with pytest.raises(Conflict):
        await identity.reject("haru", outcome.change_id)
    with pytest.raises(NotFound):
        await identity.approve("haru", "no-such-change")


@pytest.mark.anyio
async def test_auto_apply_makes_a_version_at_once(growth: GrowthLogs) -> None:
    identity = service(growth, auto_apply=True)
    original = await haru()
    outcome = await identity.propose("haru", {"personality": [*original.personality[:-1]]})
    assert (outcome.status, outcome.version) == (OutcomeStatus.APPLIED, 1)
    assert (await identity.current_profile("haru")).personality == original.personality[:-1]
    (recorded,) = await identity.changes("haru", status=ChangeStatus.APPLIED)
    assert recorded.version == 1


@pytest.mark.anyio
async def test_rollback_restores_any_version_exactly(growth: GrowthLogs) -> None:
    identity = service(growth, auto_apply=True)
    original = await haru()
    await identity.propose("haru", {"likes": [*original.likes[:-1], "새벽 라디오"]})
    second = await identity.current_profile("haru")
    await identity.propose("haru", {"background": original.background + " 요즘은 라디오도 한다."})
    rolled = await identity.rollback("haru", 0)
    assert (await identity.current_profile("haru")).model_dump() == original.model_dump()
    assert rolled.number == 3 and rolled.reason == "rollback to version 0"
    assert {change.field for change in rolled.changes} == {"likes", "background"}
    await identity.rollback("haru", 1)
    assert (await identity.current_profile("haru")).model_dump() == second.model_dump()
    with pytest.raises(Conflict):
        await identity.rollback("haru", 4)
    with pytest.raises(NotFound):
        await identity.rollback("haru", 99)


@pytest.mark.anyio
async def test_protected_unknown_and_invalid_fields_are_refused(growth: GrowthLogs) -> None:
    identity = service(growth)
    original = await haru()
    outcome = await identity.propose(
        "haru",
        {
            "name": "Natsu",
            "safety_rules": [],
            "id": "natsu",
            "favourite_colour": "blue",
            "likes": 5,
            "default_emotion": "ecstatic",
            "dislikes": [*original.dislikes, "무서운 BGM"],
        },
    )
    refused = {item.field: item.reason for item in outcome.refused}
    assert set(refused) == {
        "name",
        "safety_rules",
        "id",
        "favourite_colour",
        "likes",
        "default_emotion",
    }
    assert "protected" in refused["name"] and "not a field" in refused["favourite_colour"]
    assert "default_emotion" in refused["default_emotion"]
    assert [change.field for change in outcome.accepted] == ["dislikes"]
    opened = service(growth, protected_fields=frozenset({"dislikes"}))
    assert (await opened.propose("haru", {"name": "Natsu"})).accepted[0].after == "Natsu"


@pytest.mark.anyio
async def test_too_large_changes_are_refused_with_their_size(growth: GrowthLogs) -> None:
    identity = service(
        growth, max_list_changes=2, min_text_change_chars=20, max_text_change_ratio=0.1
    )
    original = await haru()
    rewritten = "완전히 다른 캐릭터. " * 20
    replaced = ["새 성격 하나", "새 성격 둘", "새 성격 셋"]
    outcome = await identity.propose("haru", {"background": rewritten, "personality": replaced})
    assert outcome.status is OutcomeStatus.REFUSED
    reasons = {item.field: item.reason for item in outcome.refused}
    assert "characters" in reasons["background"] and "at most" in reasons["background"]
    assert "items" in reasons["personality"]
    assert await identity.changes("haru") == []
    small = await identity.propose(
        "haru", {"personality": [*original.personality, "조금 더 솔직해졌다."]}
    )
    assert small.status is OutcomeStatus.PENDING


@pytest.mark.anyio
async def test_an_empty_diff_is_no_change(growth: GrowthLogs) -> None:
    identity = service(growth)
    original = await haru()
    assert (await identity.propose("haru", {})).status is OutcomeStatus.NO_CHANGE
    same = await identity.propose("haru", {"likes": list(original.likes)})
    assert same.status is OutcomeStatus.NO_CHANGE and not same.refused


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("replies", "status", "calls"),
    [
        (["sorry, I cannot do that", "still prose"], OutcomeStatus.FAILED, 2),
        (["", '["likes"]'], OutcomeStatus.FAILED, 2),
        (["{}"], OutcomeStatus.NO_CHANGE, 1),
        (['```json\n{"name": "Natsu"}\n```'], OutcomeStatus.REFUSED, 1),
    ],
)
async def test_unusable_model_answers_change_nothing_and_are_reported(
    growth: GrowthLogs, replies: list[str], status: OutcomeStatus, calls: int
) -> None:
    metrics = Metrics()
    identity = IdentityService(
        versions=growth.identity,
        changes=growth.identity,
        characters=LIBRARY,
        policy=IdentityPolicy(auto_apply=True),
        clock=FixedClock(START),
        metrics=metrics,
    )
    model = ScriptedChatModel(replies)
    evolver = IdentityEvolver(identity=identity, llm=model, metrics=metrics)
    outcome = await evolver.evolve(diary())
    assert outcome.status is status
    assert model.call_count == calls
    assert (
        await identity.versions("haru") == [] and await identity.changes("haru", status=None) == []
    )
    failures = metrics.get("identity.parse_failures")
    assert failures == (1 if status is OutcomeStatus.FAILED else 0)
    if status is OutcomeStatus.FAILED:
        assert "no usable diff" in outcome.message


@pytest.mark.anyio
async def test_the_prompt_names_the_protected_fields_and_carries_the_diary(
    growth: GrowthLogs,
) -> None:
    model = ScriptedChatModel(["{}"])
    evolver = IdentityEvolver(identity=service(growth), llm=model, metrics=Metrics())
    await evolver.evolve(diary("비 오는 날 방송이 제일 좋았다"))
    call = model.last_call
    assert "core_values, id, name, safety_rules" in call.system_prompt
    assert "비 오는 날 방송이 제일 좋았다" in (call.last_user_message or "")


def test_policy_validation() -> None:
    with pytest.raises(InvalidInput):
        IdentityPolicy(protected_fields=frozenset({"nickname"}))
    with pytest.raises(InvalidInput):
        IdentityPolicy(max_list_changes=-1)


def test_list_edits_count_rewordings_once() -> None:
    before = ["好き嫌いや意見をはっきり持っている"]
    after = ["好き嫌いや意見をはっきり持っており、自然に言葉にする", "みる兄を翻弄したい"]
    count, edits = list_edits(before, after, similarity=0.5)
    assert count == 2 and edits == [(before[0], after[0])]
    assert list_edits(["a", "b"], ["b", "a"], similarity=0.5) == (0, [])


@settings(max_examples=60, deadline=None)
@given(
    old=st.text(alphabet="abcdefg 하루", max_size=60),
    new=st.text(alphabet="abcdefg 하루", max_size=60),
)
def test_a_text_change_is_accepted_exactly_when_within_its_bound(old: str, new: str) -> None:
    policy = IdentityPolicy(min_text_change_chars=8, max_text_change_ratio=0.25)
    profile = CharacterProfile(id="haru", name="Haru", speaking_style=old)
    accepted, refused = check_diff(profile, {"speaking_style": new}, policy)
    normalised = new.strip()
    if normalised == old.strip() or old != old.strip():
        return
    within = changed_characters(old, normalised) <= policy.text_allowance(old)
    assert bool(accepted) == within
    assert bool(refused) == (not within)


@settings(max_examples=60, deadline=None)
@given(
    diff=st.dictionaries(
        st.sampled_from(["name", "id", "core_values", "likes", "background", "colour"]),
        st.one_of(st.text(max_size=20), st.lists(st.text(min_size=1, max_size=10), max_size=4)),
        max_size=4,
    )
)
def test_merges_never_touch_protected_or_unknown_fields(diff: dict[str, object]) -> None:
    profile = CharacterProfile(id="haru", name="Haru", likes=("games",), core_values=("kind",))
    accepted, refused = check_diff(profile, diff, IdentityPolicy())
    assert {change.field for change in accepted} <= {"likes", "background"}
    assert {"name", "id", "core_values", "colour"} & set(diff) <= {item.field for item in refused}
    merged = CharacterProfile.model_validate(
        {**profile.model_dump(), **{change.field: change.after for change in accepted}}
    )
    assert (merged.id, merged.name, merged.core_values) == ("haru", "Haru", ("kind",))
