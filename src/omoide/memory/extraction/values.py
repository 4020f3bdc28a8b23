"""The values fact extraction produces, and the extractor seam."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from omoide.domain import Fact, FactCategory, TrustState, check_fact_slot, check_unit_interval
from omoide.errors import InvalidInput

FactAction = Literal["add", "confirm", "update", "delete", "end"]
FACT_ACTIONS: tuple[FactAction, ...] = ("add", "confirm", "update", "delete", "end")


@dataclass(frozen=True, slots=True)
class FactCandidate:
    """A fact about the viewer in the viewer's own words, typed by category and, when the
    extractor knows it, by slot and key terms (see ``memory.facts.text``)."""

    text: str
    category: FactCategory
    confidence: float
    salience: float
    trust: TrustState
    slot: str | None = None
    terms: tuple[str, ...] = ()
    corrects: bool = False
    """The viewer says they misspoke ("my bad, I meant...", "正しくは", "说错了"): the
    candidate replaces what they told last (:func:`~omoide.memory.extraction.decide`)."""
    changes: bool = False
    """The viewer says something of theirs changed ("finally got a job", "辞职了", "renamed
    the kitten"): the candidate replaces what held before
    (``extraction.replacing.replaced_fact``)."""

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not self.text.strip():
            raise InvalidInput("a fact candidate's text must not be empty")
        check_unit_interval(self.confidence, name="confidence")
        check_unit_interval(self.salience, name="salience")
        check_fact_slot(self.slot, self.terms)


@dataclass(frozen=True, slots=True)
class FactDecision:
    """What to do with one extracted fact, given the viewer's existing facts.

    * ``add``: ``candidate`` is new; no target.
    * ``confirm``: ``target_fact_id`` was said again (``candidate`` may repeat it).
    * ``update``: ``candidate`` supersedes ``target_fact_id``.
    * ``delete``: ``target_fact_id`` was contradicted.
    * ``end``: ``target_fact_id`` held until now and no longer does: the change
      ``candidate`` tells made it outdated (what the viewer told of the work they left).
      Not contradicted: said again later, it is taken at the viewer's word.
    """

    action: FactAction
    candidate: FactCandidate | None
    target_fact_id: str | None

    def __post_init__(self) -> None:
        if self.action not in FACT_ACTIONS:
            raise InvalidInput(f"unknown fact action {self.action!r}")
        needs_candidate = self.action in ("add", "update", "end")
        if needs_candidate and self.candidate is None:
            raise InvalidInput(f"a fact decision '{self.action}' needs a candidate")
        needs_target = self.action != "add"
        if needs_target != (self.target_fact_id is not None):
            wanted = "needs" if needs_target else "takes no"
            raise InvalidInput(f"a fact decision '{self.action}' {wanted} a target fact id")


class FactExtractor(Protocol):
    """Finds facts about the viewer in one exchange and decides how they change memory."""

    def may_hold_facts(self, user_message: str) -> bool:
        """A cheap check before the search for related facts: ``False`` means
        :meth:`extract` would find nothing, so the write path can skip it."""
        ...

    async def extract(
        self,
        user_message: str,
        bot_message: str,
        *,
        user_name: str | None,
        existing: Sequence[Fact],
    ) -> list[FactDecision]:
        """``existing``: the viewer's current facts related to this exchange."""
        ...
