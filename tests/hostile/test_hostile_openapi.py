"""Schemathesis over the OpenAPI document: no 5xx, and only documented statuses and shapes.

Every operation gets :data:`POSITIVE_EXAMPLES` requests built from its schema and
:data:`NEGATIVE_EXAMPLES` that break it, derandomised (the same requests every run), against
the service on a real port. Most examples name the character ``haru`` so they reach past
the 404 for an unknown character into the route itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import APIOperation, GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.result import Err

from omoide.api.app import create_app
from omoide.clock import FixedClock
from omoide.embed.hashing import HashingEmbedder
from tests.api.harness import NOW, live_server, make_settings

POSITIVE_EXAMPLES = 50
NEGATIVE_EXAMPLES = 25
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
SCHEMA = schemathesis.openapi.from_dict(
    create_app(make_settings(Path("unused-data-dir"))).openapi()
)


def _operations() -> dict[str, APIOperation[Any, Any, Any, Any]]:
    found: dict[str, APIOperation[Any, Any, Any, Any]] = {}
    for result in SCHEMA.get_all_operations():
        if isinstance(result, Err):
            raise result.err()  # the document itself is broken
        found[result.ok().label] = result.ok()
    return found


OPERATIONS = _operations()
BREAKABLE = sorted(label for label, op in OPERATIONS.items() if len(op.query) or len(op.body))
"""Operations with a query or a body that a request can break (a bare path string can't)."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings_ = make_settings(tmp_path_factory.mktemp("openapi") / "data")
    app = create_app(settings_, clock=FixedClock(NOW), embedder=HashingEmbedder(256))
    with live_server(app) as url:
        yield url


def aimed_at_haru(case: Any, aimed: bool) -> Any:
    """The case, naming the character that exists when ``aimed``."""
    if aimed and "character_id" in (case.path_parameters or {}):
        case.path_parameters["character_id"] = "haru"
    if aimed and isinstance(case.body, dict) and "character_id" in case.body:
        case.body["character_id"] = "haru"
    return case


def run_operation(label: str, base_url: str, mode: GenerationMode, examples: int) -> None:
    cases = st.tuples(OPERATIONS[label].as_strategy(generation_mode=mode), st.integers(0, 9))

    @settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(cases)
    def check(drawn: tuple[Any, int]) -> None:
        case = aimed_at_haru(drawn[0], aimed=drawn[1] < 8)
        response = case.call(base_url=base_url, timeout=30)
        case.validate_response(response, checks=CHECKS)

    check()


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_valid_requests_get_documented_answers(label: str, base_url: str) -> None:
    run_operation(label, base_url, GenerationMode.POSITIVE, POSITIVE_EXAMPLES)


@pytest.mark.parametrize("label", BREAKABLE)
def test_invalid_requests_get_documented_refusals(label: str, base_url: str) -> None:
    run_operation(label, base_url, GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES)
