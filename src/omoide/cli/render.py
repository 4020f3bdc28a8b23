"""How the CLI shows what the commands print: the HTTP API's JSON shapes, as tables.

Every table takes the JSON a command would print with ``--json`` (the response models of
:mod:`omoide.api.views`), so people and machines read the same values. Words a viewer said
wrap (rich measures Korean, Japanese and Chinese characters as two columns); times are
never cut.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

JSON = Mapping[str, Any]


def to_json(value: object) -> Any:
    """A report with no HTTP shape (maintenance of the server store, re-embedding) as
    plain JSON values: dataclasses, enums, times and scopes."""
    from omoide.domain import Scope

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


def moment(value: object) -> str:
    """An ISO 8601 time as ``YYYY-MM-DD HH:MM UTC`` (whole, never cut); ``-`` for none."""
    if value is None:
        return "-"
    parsed = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return parsed.strftime("%Y-%m-%d %H:%M %Z").strip()


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", expand=True)


def fact_table(facts: Sequence[JSON], *, title: str = "facts") -> Table:
    """Facts (``FactOut``, or ``FactHit`` with its score) in full."""
    table = _table(title)
    table.add_column("fact", ratio=1, overflow="fold")
    table.add_column("type", no_wrap=True)
    table.add_column("conf", justify="right", no_wrap=True)
    table.add_column("said", justify="right", no_wrap=True)
    table.add_column("since", no_wrap=True)
    scored = any("score" in fact for fact in facts)
    if scored:
        table.add_column("score", justify="right", no_wrap=True)
    for fact in facts:
        cells: list[str | Text] = [
            Text(str(fact["text"])),  # the viewer's words, never markup
            str(fact["category"]),
            f"{fact['confidence']:.0%}",
            f"{fact['confirmation_count']}x",
            moment(fact["valid_from"]),
        ]
        if scored:
            cells.append(f"{fact['score']:.3f}")
        table.add_row(*cells)
    return table


def episode_table(episodes: Sequence[JSON], *, title: str = "episodes") -> Table:
    """Episodes (``EpisodeOut``, or ``EpisodeHit`` with its score components) in full."""
    table = _table(title)
    table.add_column("when", no_wrap=True)
    table.add_column("said", ratio=1, overflow="fold")
    scored = any("components" in episode for episode in episodes)
    if scored:
        for column in ("rel", "rec", "imp", "score"):
            table.add_column(column, justify="right", no_wrap=True)
    else:
        table.add_column("imp", justify="right", no_wrap=True)
    for episode in episodes:
        cells: list[str | Text] = [moment(episode["timestamp"]), Text(episode["user_message"])]
        if scored:
            components = episode["components"]
            cells += [f"{components[name]:.2f}" for name in ("relevance", "recency", "importance")]
            cells.append(f"{episode['score']:.3f}")
        else:
            cells.append(f"{episode['importance']:.2f}")
        table.add_row(*cells)
    return table


def print_listing(console: Console, title: str, table: Table, count: int) -> None:
    if count:
        console.print(table)
    else:
        console.print(f"[dim]no {title}[/dim]")


def print_search(console: Console, result: JSON) -> None:
    """A ``SearchOut`` (or ``ContextOut``): facts, then episodes, best first."""
    print_listing(console, "facts", fact_table(result["facts"]), len(result["facts"]))
    episodes = result["episodes"]
    print_listing(console, "episodes", episode_table(episodes), len(episodes))


def print_turn(console: Console, turn: JSON) -> None:
    """A ``TurnOut``: whether the exchange was stored, why, and what facts it changed."""
    score = f"importance {turn['importance']:.2f} ({turn['scoring']})"
    if turn["stored"]:
        console.print(f"remembered as episode {turn['episode_id']}: {score}", highlight=False)
    else:
        console.print(f"not stored, too slight: {score}", highlight=False)
    if turn["signals"]:
        console.print(f"  signals: {', '.join(turn['signals'])}", markup=False, highlight=False)
    for change in turn["fact_changes"]:
        console.print(f"  fact {change['action']}: {change['text']}", markup=False)
    if turn["extraction_failed"]:
        console.print("  [yellow]fact extraction failed; the episode is stored[/yellow]")


def print_counts(console: Console, title: str, counts: JSON) -> None:
    """A flat report of counts as a two-column table (names spelled out)."""
    table = Table("", "", title=title, title_justify="left", show_header=False)
    for name, value in counts.items():
        table.add_row(name.replace("_", " "), str(value))
    console.print(table)


def print_profile(console: Console, profile: JSON) -> None:
    """The profile as a table per group, in reading order, best facts first."""
    who = f"{profile['character_id']}'s profile of {profile['user_id']}"
    if not profile["groups"]:
        console.print(f"[dim]{who}: no facts yet[/dim]", highlight=False)
        return
    console.print(
        f"[bold]{who}[/bold]: {profile['shown']} of {profile['total_facts']} current facts",
        highlight=False,
    )
    for group in profile["groups"]:
        table = _table(group["label"])
        table.add_column("fact", ratio=1, overflow="fold")
        for column in ("weight", "relevance", "score", "said", "since"):
            table.add_column(column, justify="right", no_wrap=True)
        for fact in group["facts"]:
            table.add_row(
                Text(str(fact["text"])),
                f"{fact['weight']:.2f}",
                f"{fact['relevance']:.2f}",
                f"{fact['score']:.3f}",
                f"{fact['confirmation_count']}x",
                moment(fact["valid_from"]),
            )
        console.print(table)


def _lines(value: object) -> list[str]:
    """A profile field's value as lines: one per list item, or the text's own lines."""
    if value is None:
        return []
    if isinstance(value, list):
        return [str(item) for item in value]
    return str(value).splitlines()


def changed_lines(before: object, after: object) -> list[str]:
    """Only what changed between two values of a profile field, as ``- old`` / ``+ new``
    lines in order (unchanged lines left out)."""
    import difflib

    return [
        line
        for line in difflib.ndiff(_lines(before), _lines(after))
        if line.startswith(("- ", "+ "))
    ]
