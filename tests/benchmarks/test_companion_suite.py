"""The companion suite: its data is valid (these must pass), and a fixed subset runs end to
end on omoide with the real default embedder (the memory section holds the remembered
thing, no other scope's marker, and stays within its token budget).

Subset rule: the first two ``dev`` cases of each file (ko, ja, zh, en, mixed), in file
order. Cases are never weakened to pass; a failing case is a finding about omoide.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from benchmarks.companion.checks import (
    ISSUE_EXAMPLES,
    all_problems,
    check_counts,
    check_filler,
    check_issue_examples,
    check_keys,
    contains,
)
from benchmarks.companion.dataset import (
    FILES,
    LANGUAGES,
    Case,
    FillerLine,
    Turn,
    load_all_cases,
    load_filler,
    load_pools,
    timeline,
)
from benchmarks.companion.runner import CaseResult, run_cases
from omoide.config import Settings

CASES = load_all_cases()
POOLS = {language: load_filler(language) for language in LANGUAGES}
SUBSET_PER_FILE = 2
SUBSET = [
    case
    for file in FILES
    for case in [case for case in CASES if case.file == file and case.split == "dev"][
        :SUBSET_PER_FILE
    ]
]
DEFAULT_EMBEDDER = str(Settings.model_fields["embedder"].default)


# --- (a) the data -------------------------------------------------------------------------
def test_the_data_has_no_problem() -> None:
    assert all_problems(CASES, POOLS) == []


def test_there_are_at_least_490_cases_two_fifths_of_each_file_held_out() -> None:
    """Half of every set written for the suite is held out; one (blind5-*) was written as
    dev data, to look at, so held-out cases are at least two fifths of a file."""
    assert len(CASES) >= 490
    for file in FILES:
        own = [case for case in CASES if case.file == file]
        assert len(own) >= (58 if file == "mixed" else 102)
        assert sum(case.split == "heldout" for case in own) * 5 >= len(own) * 2


def test_every_case_stores_40_to_120_turns_of_its_viewer_before_the_probe() -> None:
    for case in CASES:
        own = [stored for stored in timeline(case, POOLS) if stored.scope == case.scope]
        assert 40 <= len(own) <= 120, case.id
        assert all(stored.turn.at < case.probe.at for stored in own), case.id


def test_the_timeline_is_the_same_on_every_run() -> None:
    case = CASES[0]
    assert timeline(case, POOLS) == timeline(case, load_pools([case]))
    assert timeline(case, POOLS) != timeline(dataclasses.replace(case, id="other"), POOLS)


def _broken(case: Case, **changes: Any) -> Case:
    return dataclasses.replace(case, **changes)


def test_the_checks_find_a_key_missing_from_the_viewers_words() -> None:
    case = _broken(CASES[0], expect_any=("no-such-key",))
    assert any("not in the viewer's own words" in problem for problem in check_keys(case))


def test_the_checks_find_a_forbidden_string_in_the_viewers_current_turns() -> None:
    isolation = next(case for case in CASES if case.kind == "isolation")
    leaked = Turn(day=1, hour=12, user=f"so {isolation.forbid[0]}", bot="ok")
    case = _broken(isolation, turns=(*isolation.turns, leaked))
    assert any("viewer's current turns" in problem for problem in check_keys(case))


def test_the_checks_find_a_key_in_the_filler_and_a_copied_example() -> None:
    key = CASES[0].expect_any[0]
    pools = {"ko": [FillerLine(user=f"{key}!", bot="ok")]}
    assert any("contains key" in problem for problem in check_filler(pools, CASES))
    copied = {"ko": [FillerLine(user=f"음 {ISSUE_EXAMPLES[0]} ㅋㅋ", bot="ok")]}
    assert check_issue_examples([], copied) != []


def test_the_checks_find_unbalanced_splits() -> None:
    cases = [_broken(case, split="dev") if case.file == "ko" else case for case in CASES]
    assert any(problem.startswith("ko: splits") for problem in check_counts(cases))


def test_keys_are_matched_after_nfkc_and_case_folding() -> None:
    assert contains("ＢＩＳＣＵＩＴ went out", "Biscuit")
    assert not contains("a biscuit-free day", "Sheldon")


# --- (b) a fixed subset end to end --------------------------------------------------------
@pytest.fixture(scope="module")
def subset_results() -> Iterator[dict[str, CaseResult]]:
    results = anyio.run(run_cases, SUBSET, load_pools(SUBSET), DEFAULT_EMBEDDER)
    yield {result.id: result for result in results}


def test_the_subset_is_two_dev_cases_per_file() -> None:
    assert [case.id for case in SUBSET] == [
        "ko-01", "ko-03", "ja-01", "ja-03", "zh-01", "zh-03",
        "en-01", "en-03", "mx-01", "mx-03",
    ]  # fmt: skip


@pytest.mark.companion
@pytest.mark.parametrize("case", SUBSET, ids=[case.id for case in SUBSET])
def test_the_section_recalls_what_a_friend_would(
    case: Case, subset_results: dict[str, CaseResult]
) -> None:
    result = subset_results[case.id]
    shown = "\n".join(result.section_head) or "(empty section)"
    assert result.leaked == (), f"another scope's marker in the section:\n{shown}"
    assert not result.over_budget, f"{result.tokens} tokens > {result.budget}"
    assert result.recalled, f"none of {case.expect_any} for {case.probe.text!r}:\n{shown}"
