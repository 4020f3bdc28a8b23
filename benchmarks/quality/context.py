"""Episodes that carry the turn before them: what the store would hold if a conversation
between two people were remembered as exchanges (omoide's unit: a message and the reply
it drew) rather than as single turns.

In LoCoMo the answer to "What did Caroline research?" is often a short reply ("Adoption
agencies!") whose words are in the question that came before it. Here each turn is stored
with the previous turn of the same session as its ``reply`` (the episode's second
message), so both are embedded and indexed together; the unit is still the turn itself.
"""

from __future__ import annotations

from dataclasses import replace

from benchmarks.quality.dataset import Dataset, Haystack

CONTEXT_SUFFIX = "-context"


def with_previous_turn(haystack: Haystack) -> Haystack:
    units = list(haystack.units)
    paired = [
        replace(unit, reply=units[index - 1].text)
        if index > 0 and units[index - 1].group == unit.group
        else unit
        for index, unit in enumerate(units)
    ]
    return replace(haystack, units=tuple(paired))


def context_dataset(dataset: Dataset) -> Dataset:
    """``dataset`` with every unit paired with the unit before it in its session."""
    return Dataset(
        dataset.name + CONTEXT_SUFFIX,
        tuple(with_previous_turn(haystack) for haystack in dataset.haystacks),
        dataset.notes,
    )
