"""The pydantic types every JSON edge shares: the HTTP API's bodies and stream events.

Each applies one rule of :mod:`omoide.text_rules`, so a route's body, a path and a stream
event refuse the same things with the same words (a 422 naming the field).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, AwareDatetime, BeforeValidator, Field, StrictStr

from omoide.text_rules import MAX_ID_LENGTH, id_problem, moment_problem, text_problem


def _refusing(problem: Callable[[str], str | None]) -> Callable[[str], str]:
    def validate(value: str) -> str:
        found = problem(value)
        if found is not None:
            raise ValueError(found)
        return value

    return validate


def _iso_text(value: object) -> object:
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str):
        raise ValueError("a time must be an ISO 8601 string with a timezone, not a number")
    return value


def _in_range(moment: datetime) -> datetime:
    problem = moment_problem(moment)
    if problem is not None:
        raise ValueError(f"a time {problem}")
    return moment


_C1 = "\\u007f-\\u009f"
TEXT_PATTERN = f"^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f{_C1}]*$"
LABEL_PATTERN = f"^[^\\u0000-\\u001f{_C1}]*$"
ID_PATTERN = f"^(?!\\.\\.?$)(?=.*\\S)[^/\\\\\\u0000-\\u001f{_C1}\\ufffd]+$"
"""The rules as JSON Schema patterns, for the OpenAPI document (the validators enforce them)."""

Text = Annotated[
    StrictStr,
    Field(json_schema_extra={"pattern": TEXT_PATTERN}),
    AfterValidator(_refusing(text_problem)),
]
"""Free text: no lone surrogates, no control characters but tab and line breaks."""
Label = Annotated[
    StrictStr,
    Field(json_schema_extra={"pattern": LABEL_PATTERN}),
    AfterValidator(_refusing(lambda value: text_problem(value, one_line=True))),
]
"""Text on one line: no control characters at all."""
Identifier = Annotated[
    StrictStr,
    Field(min_length=1, max_length=MAX_ID_LENGTH, json_schema_extra={"pattern": ID_PATTERN}),
    AfterValidator(_refusing(id_problem)),
]
"""An id every route can reach (:func:`omoide.text_rules.check_id`)."""
Moment = Annotated[AwareDatetime, BeforeValidator(_iso_text), AfterValidator(_in_range)]
"""A timezone-aware ISO 8601 time (``2026-05-01T21:30:00+09:00`` or ``...Z``), 1970-2200."""
