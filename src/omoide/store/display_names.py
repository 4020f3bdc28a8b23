"""The names viewers go by, as both backends keep them: pure helpers, no I/O.

A turn may carry the name its viewer went by (chat ``user_name``, a stream comment's
``display_name``). Each backend keeps, per scope and name, when the name was first and last
seen; the latest is the one seen last (ties: the smaller name in code-point order). A name
follows the one-line text rule (:mod:`omoide.text_rules`) like every name the API takes. Search
matches names by their Unicode case folding, stored beside the name, so both backends
ignore case the same way for every script.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from omoide.domain import Scope, check_identifier
from omoide.errors import InvalidInput
from omoide.store.base import TurnWrite
from omoide.text_rules import check_text

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime


@dataclass(frozen=True, slots=True)
class NameSighting:
    """A viewer seen going by ``name`` at ``at``."""

    scope: Scope
    name: str
    folded: str
    at: datetime


def folded(text: str) -> str:
    """The form names are searched by: Unicode case folding."""
    return text.casefold()


def check_search(search: object) -> str:
    """The viewer search text ("" for none); InvalidInput when it is not a string."""
    if search is None:
        return ""
    if not isinstance(search, str):
        raise InvalidInput("search must be a string")
    return search


def name_sightings(turns: Sequence[TurnWrite]) -> list[NameSighting]:
    """The names a batch of turns carries, each at its turn's time (validated)."""
    sightings = []
    for turn in turns:
        if not isinstance(turn, TurnWrite) or turn.display_name is None:
            continue  # a value that is not a TurnWrite is refused by the write itself
        name = check_identifier(turn.display_name, name="display_name")
        name = check_text(name, name="display_name", one_line=True).strip()
        moment = _turn_time(turn)
        if moment is not None:
            sightings.append(NameSighting(turn.scope, name, folded(name), moment))
    return sightings


def _turn_time(turn: TurnWrite) -> datetime | None:
    if turn.episode is not None:
        return turn.episode.recorded_at
    if turn.emotion is not None:
        return turn.emotion.recorded_at
    return None
