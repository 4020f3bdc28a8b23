"""What makes the companion data valid: each check returns the problems it found (empty
when the data is sound), so a test can show every problem at once.

Key strings are compared as the judge compares them: NFKC, case-folded, substring.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence

from benchmarks.companion.dataset import FILES, KINDS, LANGUAGES, SPLITS, Case, FillerLine, Turn

CASES_PER_LANGUAGE = 16
MIXED_CASES = 8
MIN_FILLER_LINES = 60
MIN_OWN_TURNS = 10
TURNS_PER_CASE = range(40, 121)

ISSUE_EXAMPLES = (
    "요즘 운동을 시작했어요",
    "저는 백엔드 개발자예요",
    "저 요즘 배그에 빠져서 매일 새벽까지 해요",
    "我家有一只狗叫豆豆，特别调皮",
    "うちの猫、ミケって名前なんだ。もう十歳",
    "I've been obsessed with Hollow Knight lately, playing it every night",
    "내일 면접 보러 가요. 떨려요",
    "我下周要搬到上海了",
    "Next Saturday is my daughter's first birthday!",
    "커피는 안 마셔요",
    "오늘 비 와요",
    "너무 힘들고 외로워요",
    "今天好累啊",
    "오늘 날씨 진짜 좋네요",
    "나 롤 게임 엄청 좋아해요!",
    "Still playing League?",
)
"""The example sentences of issue 13 (and the README's): no message may contain one."""


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def contains(text: str, key: str) -> bool:
    return normalise(key) in normalise(text)


def _bare(text: str) -> str:
    return re.sub(r"[\W_]+", "", normalise(text))


def check_counts(cases: Sequence[Case]) -> list[str]:
    problems: list[str] = []
    for file in FILES:
        own = [case for case in cases if case.file == file]
        expected = MIXED_CASES if file == "mixed" else CASES_PER_LANGUAGE
        if len(own) < expected:
            problems.append(f"{file}: {len(own)} cases, at least {expected} expected")
        splits = Counter(case.split for case in own)
        if splits["heldout"] * 5 < len(own) * 2 or splits["dev"] + splits["heldout"] != len(own):
            problems.append(f"{file}: splits {dict(splits)} hold out less than two fifths")
        missing = set(KINDS) - {case.kind for case in own}
        if missing and file in LANGUAGES:
            problems.append(f"{file}: no case of kind {sorted(missing)}")
    duplicates = [name for name, n in Counter(case.id for case in cases).items() if n > 1]
    problems += [f"case id {name} is used twice" for name in duplicates]
    return problems


def check_schema(case: Case) -> list[str]:
    problems: list[str] = []
    if case.kind not in KINDS:
        problems.append(f"{case.id}: unknown kind {case.kind!r}")
    if case.split not in SPLITS:
        problems.append(f"{case.id}: unknown split {case.split!r}")
    if not case.expect_any:
        problems.append(f"{case.id}: expect_any is empty")
    if len(case.turns) < MIN_OWN_TURNS:
        problems.append(f"{case.id}: {len(case.turns)} own turns, at least {MIN_OWN_TURNS}")
    if len(case.turns) + case.filler not in TURNS_PER_CASE:
        problems.append(f"{case.id}: {len(case.turns) + case.filler} turns, not 40-120")
    for turn in [*case.turns, *(t for other in case.others for t in other.turns)]:
        if not 0 <= turn.day < case.probe.day or not 0 <= turn.hour < 24:
            problems.append(f"{case.id}: day {turn.day} {turn.hour}h is not before the probe")
    return problems


def check_kind(case: Case) -> list[str]:
    """Update and correction cases replace something; isolation cases have another viewer of
    the same character and the same viewer under another character, with forbidden markers."""
    problems: list[str] = []
    if case.kind in ("update", "correction") and not any(turn.replaced for turn in case.turns):
        problems.append(f"{case.id}: a {case.kind} case without a replaced turn")
    if case.kind == "isolation":
        same_character = any(
            o.character == case.character and o.viewer != case.viewer for o in case.others
        )
        same_viewer = any(
            o.viewer == case.viewer and o.character != case.character for o in case.others
        )
        if not (same_character and same_viewer and case.forbid):
            problems.append(f"{case.id}: an isolation case needs both other scopes and forbid")
    return problems


def _texts(turns: Iterable[Turn | FillerLine]) -> list[str]:
    return [text for turn in turns for text in (turn.user, turn.bot)]


def check_keys(case: Case) -> list[str]:
    """Every expected key is in the viewer's own words and nowhere else that could stand in
    for it; every forbidden string only in other scopes' turns or replaced turns."""
    problems: list[str] = []
    own_user = [turn.user for turn in case.turns]
    current = _texts(turn for turn in case.turns if not turn.replaced)
    other_texts = _texts(turn for other in case.others for turn in other.turns)
    confined = [*other_texts, *_texts(turn for turn in case.turns if turn.replaced)]
    for key in case.expect_any:
        if not any(contains(text, key) for text in own_user):
            problems.append(f"{case.id}: expected {key!r} is not in the viewer's own words")
        if contains(case.probe.text, key) or any(contains(text, key) for text in other_texts):
            problems.append(f"{case.id}: expected {key!r} is in the probe or another scope")
    for key in case.forbid:
        if any(contains(text, key) for text in [*current, case.probe.text]):
            problems.append(f"{case.id}: forbidden {key!r} is in the viewer's current turns")
        if not any(contains(text, key) for text in confined):
            problems.append(f"{case.id}: forbidden {key!r} is in no other scope or replaced turn")
        if any(contains(key, expected) for expected in case.expect_any):
            problems.append(f"{case.id}: forbidden {key!r} contains an expected key")
    return problems


def check_filler(pools: dict[str, list[FillerLine]], cases: Sequence[Case]) -> list[str]:
    problems: list[str] = []
    keys = sorted({key for case in cases for key in (*case.expect_any, *case.forbid)})
    for language, lines in sorted(pools.items()):
        if len({line.user for line in lines}) < MIN_FILLER_LINES:
            problems.append(f"filler {language}: fewer than {MIN_FILLER_LINES} distinct lines")
        for line in lines:
            found = [key for key in keys if contains(f"{line.user}\n{line.bot}", key)]
            if found:
                problems.append(f"filler {language}: {line.user!r} contains key {found}")
    return problems


def check_issue_examples(cases: Sequence[Case], pools: dict[str, list[FillerLine]]) -> list[str]:
    texts = [text for case in cases for text in _texts(case.turns)]
    texts += [text for case in cases for other in case.others for text in _texts(other.turns)]
    texts += [case.probe.text for case in cases]
    texts += [text for lines in pools.values() for text in _texts(lines)]
    examples = [_bare(example) for example in ISSUE_EXAMPLES]
    return [
        f"message {text!r} reuses an example sentence of the issue"
        for text in texts
        if any(example in _bare(text) for example in examples)
    ]


def all_problems(cases: Sequence[Case], pools: dict[str, list[FillerLine]]) -> list[str]:
    problems = check_counts(cases)
    for case in cases:
        problems += check_schema(case) + check_kind(case) + check_keys(case)
    return problems + check_filler(pools, cases) + check_issue_examples(cases, pools)
