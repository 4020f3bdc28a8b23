"""The companion suite's data: cases (``cases/<file>.json``) and filler pools
(``filler/<language>.json``), read into frozen dataclasses, and a case's timeline.

A case is one viewer's history with a character: hand-written turns (the target thing a
friend would remember among about a dozen other disclosures), ordinary talk drawn from the
filler pools, optionally other scopes (another viewer of the same character, the same
viewer under another character), then a probe message. The filler is chosen and placed
with a random generator seeded by the case id, so every run stores the same timeline.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from omoide import Scope

PACKAGE = Path(__file__).resolve().parent
CASES_DIR = PACKAGE / "cases"
FILLER_DIR = PACKAGE / "filler"
LANGUAGES = ("ko", "ja", "zh", "en")
FILES = (*LANGUAGES, "mixed")
KINDS = ("direct", "implied", "update", "correction", "isolation")
SPLITS = ("dev", "heldout")
START = datetime(2025, 1, 6, tzinfo=UTC)
"""Day 0 of every case (a fixed past date: the run does not depend on today)."""
FILLER_HOURS = range(8, 24)


@dataclass(frozen=True, slots=True)
class Turn:
    day: int
    hour: int
    user: str
    bot: str
    replaced: bool = False
    """A value the viewer later replaced or corrected (may hold a ``forbid`` string)."""
    minute: int = 0

    @property
    def at(self) -> datetime:
        return START + timedelta(days=self.day, hours=self.hour, minutes=self.minute)


@dataclass(frozen=True, slots=True)
class OtherScope:
    """Turns of another scope stored next to the case's viewer (isolation cases)."""

    character: str
    viewer: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True, slots=True)
class Probe:
    day: int
    hour: int
    text: str

    @property
    def at(self) -> datetime:
        return START + timedelta(days=self.day, hours=self.hour)


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    file: str
    character: str
    kind: str
    split: str
    viewer: str
    target: str
    filler: int
    filler_languages: tuple[str, ...]
    turns: tuple[Turn, ...]
    others: tuple[OtherScope, ...]
    probe: Probe
    expect_any: tuple[str, ...]
    forbid: tuple[str, ...]

    @property
    def scope(self) -> Scope:
        return Scope(self.character, self.viewer)


@dataclass(frozen=True, slots=True)
class FillerLine:
    user: str
    bot: str


@dataclass(frozen=True, slots=True)
class StoredTurn:
    """One exchange of a timeline, in the scope it is stored under."""

    scope: Scope
    turn: Turn
    filler: bool = False


def _turn(raw: dict[str, Any]) -> Turn:
    return Turn(
        day=int(raw["day"]),
        hour=int(raw["hour"]),
        user=str(raw["user"]),
        bot=str(raw["bot"]),
        replaced=bool(raw.get("replaced", False)),
    )


def _other(raw: dict[str, Any]) -> OtherScope:
    turns = tuple(_turn(turn) for turn in raw["turns"])
    return OtherScope(character=str(raw["character"]), viewer=str(raw["viewer"]), turns=turns)


def _case(raw: dict[str, Any], *, file: str, character: str, language: str) -> Case:
    probe = raw["probe"]
    return Case(
        id=str(raw["id"]),
        file=file,
        character=str(raw.get("character", character)),
        kind=str(raw["kind"]),
        split=str(raw["split"]),
        viewer=str(raw["viewer"]),
        target=str(raw["target"]),
        filler=int(raw["filler"]),
        filler_languages=tuple(raw.get("filler_languages", [language])),
        turns=tuple(_turn(turn) for turn in raw["turns"]),
        others=tuple(_other(other) for other in raw.get("others", [])),
        probe=Probe(day=int(probe["day"]), hour=int(probe["hour"]), text=str(probe["text"])),
        expect_any=tuple(raw["expect_any"]),
        forbid=tuple(raw.get("forbid", [])),
    )


def read_json(path: Path) -> dict[str, Any]:
    document = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(document, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return document


def load_cases(file: str, *, directory: Path = CASES_DIR) -> list[Case]:
    """The cases of ``cases/<file>.json`` in file order."""
    document = read_json(directory / f"{file}.json")
    character = str(document["character"])
    language = str(document["language"])
    return [
        _case(raw, file=file, character=character, language=language) for raw in document["cases"]
    ]


def load_all_cases(files: Sequence[str] = FILES, *, directory: Path = CASES_DIR) -> list[Case]:
    return [case for file in files for case in load_cases(file, directory=directory)]


def load_filler(language: str, *, directory: Path = FILLER_DIR) -> list[FillerLine]:
    document = read_json(directory / f"{language}.json")
    return [FillerLine(user=str(line["user"]), bot=str(line["bot"])) for line in document["lines"]]


def filler_turns(case: Case, pools: dict[str, list[FillerLine]]) -> list[Turn]:
    """``case.filler`` ordinary exchanges from the case's filler languages, spread over the
    days before the probe; the same for every run (the generator is seeded by the case id)."""
    rng = random.Random(f"omoide-companion:{case.id}")
    pool = [line for language in case.filler_languages for line in pools[language]]
    chosen: list[FillerLine] = []
    while len(chosen) < case.filler:
        chosen += rng.sample(pool, min(len(pool), case.filler - len(chosen)))
    return [
        Turn(
            day=rng.randrange(case.probe.day),
            hour=rng.choice(FILLER_HOURS),
            minute=rng.randrange(1, 60),
            user=line.user,
            bot=line.bot,
        )
        for line in chosen
    ]


def timeline(case: Case, pools: dict[str, list[FillerLine]]) -> list[StoredTurn]:
    """Every exchange to store before the probe, all scopes, oldest first."""
    own = [StoredTurn(case.scope, turn) for turn in case.turns]
    filler = [StoredTurn(case.scope, turn, filler=True) for turn in filler_turns(case, pools)]
    others = [
        StoredTurn(Scope(other.character, other.viewer), turn)
        for other in case.others
        for turn in other.turns
    ]
    return sorted([*own, *filler, *others], key=lambda stored: stored.turn.at)


def load_pools(cases: Sequence[Case]) -> dict[str, list[FillerLine]]:
    languages = sorted({language for case in cases for language in case.filler_languages})
    return {language: load_filler(language) for language in languages}
