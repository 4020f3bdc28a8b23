"""How the CLI shows library values: JSON for machines, tables for people."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from omoide.domain import Scope
from omoide.memory.context import MemoryContext
from omoide.memory.ranking import Ranked
from omoide.memory.recall import Recollection


def to_json(value: object) -> Any:
    """Library values (dataclasses, enums, times, scopes) as plain JSON values."""
    if isinstance(value, Scope):
        return {"character_id": value.character_id, "user_id": value.user_id}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: to_json(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_json(item) for item in value]
    if isinstance(value, float):
        return round(value, 6)
    return value


def ranked_json(ranked: Ranked[Any]) -> dict[str, Any]:
    return {"item": to_json(ranked.item), "components": to_json(ranked.components)}


def search_json(context: MemoryContext) -> dict[str, Any]:
    return {
        "facts": [ranked_json(ranked) for ranked in context.facts],
        "episodes": [ranked_json(ranked) for ranked in context.episodes],
        "emotions": to_json(context.emotions),
    }


def recollection_json(recollection: Recollection) -> dict[str, Any]:
    rendered = recollection.rendered
    return {
        "text": rendered.text,
        "tokens": rendered.tokens,
        "fact_ids": list(rendered.fact_ids),
        "episode_ids": list(rendered.episode_ids),
        "searched": recollection.searched,
        "now": recollection.now.isoformat(),
    }


def fact_rows(facts: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    rows = []
    for entry in facts:
        fact = entry.get("item", entry)
        components = entry.get("components")
        row = {
            "text": str(fact["text"]),
            "type": str(fact["category"]),
            "confidence": f"{fact['confidence']:.0%}",
            "confirmed": str(fact["confirmation_count"]),
            "since": str(fact["valid_from"])[:10],
        }
        if components:
            row["score"] = f"{components['total']:.3f}"
        rows.append(row)
    return rows


def episode_rows(episodes: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    rows = []
    for entry in episodes:
        episode, components = entry["item"], entry["components"]
        rows.append(
            {
                "when": str(episode["recorded_at"])[:16],
                "said": str(episode["user_message"])[:60],
                "relevance": f"{components['relevance']:.2f}",
                "recency": f"{components['recency']:.2f}",
                "importance": f"{components['importance']:.2f}",
                "score": f"{components['total']:.3f}",
            }
        )
    return rows


def print_table(console: Console, title: str, rows: Sequence[Mapping[str, str]]) -> None:
    if not rows:
        console.print(f"[dim]no {title}[/dim]")
        return
    table = Table(title=title)
    for column in rows[0]:
        table.add_column(column)
    for row in rows:
        table.add_row(*row.values())
    console.print(table)


def print_profile(console: Console, profile: Mapping[str, Any]) -> None:
    """The profile as a table per group, in reading order, best facts first."""
    who = f"{profile['character_id']}'s profile of {profile['user_id']}"
    if not profile["groups"]:
        console.print(f"[dim]{who}: no facts yet[/dim]")
        return
    console.print(
        f"[bold]{who}[/bold]: {profile['shown']} of {profile['total_facts']} current facts"
    )
    for group in profile["groups"]:
        table = Table(title=group["label"], title_justify="left", expand=True)
        table.add_column("fact", ratio=1, overflow="fold")
        for column in ("weight", "relevance", "score", "said", "since"):
            table.add_column(column, justify="right", no_wrap=True)
        for fact in group["facts"]:
            table.add_row(
                Text(str(fact["text"])),  # the viewer's words, never markup
                f"{fact['weight']:.2f}",
                f"{fact['relevance']:.2f}",
                f"{fact['score']:.3f}",
                f"{fact['confirmation_count']}x",
                str(fact["valid_from"])[:10],
            )
        console.print(table)
