"""Numbers and tables for the Markdown report."""

from __future__ import annotations

import math
from collections.abc import Sequence

from omoide.errors import InvalidInput

MISSING = "–"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-flavoured Markdown table; ``|`` and line breaks in cells are escaped."""
    if not headers:
        raise InvalidInput("a table needs at least one column")
    for row in rows:
        if len(row) != len(headers):
            raise InvalidInput(f"a row has {len(row)} cells for {len(headers)} columns")
    lines = [
        _row(headers),
        "| " + " | ".join("---" for _ in headers) + " |",
        *(_row(row) for row in rows),
    ]
    return "\n".join(lines)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(_cell(cell) for cell in cells) + " |"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def milliseconds(value: float | None) -> str:
    """``12.3 ms``; three significant digits below 100 ms."""
    if value is None or not math.isfinite(value):
        return MISSING
    if value >= 100:
        return f"{value:,.0f} ms"
    return f"{value:.3g} ms"


def seconds(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return MISSING
    if value >= 600:
        return f"{value / 60:.1f} min"
    return f"{value:.3g} s" if value < 100 else f"{value:,.0f} s"


def size_bytes(value: float | None) -> str:
    """Decimal units, as targets are stated: ``1.5 GB``, ``312 MB``."""
    if value is None or not math.isfinite(value):
        return MISSING
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.0f} B"


def rate(value: float | None, unit: str = "turns/s") -> str:
    if value is None or not math.isfinite(value):
        return MISSING
    return f"{value:,.0f} {unit}" if value >= 100 else f"{value:.3g} {unit}"


def percent(value: float | None) -> str:
    """A fraction shown as a percentage: ``0.294`` -> ``29.4%``."""
    if value is None or not math.isfinite(value):
        return MISSING
    return f"{value * 100:.1f}%"


def times(value: float | None) -> str:
    """A ratio: ``3.2x``."""
    if value is None or not math.isfinite(value):
        return MISSING
    return f"{value:.2g}x" if value < 10 else f"{value:,.0f}x"


def count(value: float) -> str:
    return f"{value:,.0f}"
