"""The test-server helpers: CI must fail loudly where a developer's run may skip."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import local_servers
from tests.server.servers import unavailable


def test_missing_servers_fail_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="not available: no npm"):
        unavailable("no npm")


def test_missing_servers_skip_on_a_developers_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="not available: no npm"):
        unavailable("no npm")


def test_the_qdrant_config_keeps_the_node_on_loopback_without_telemetry() -> None:
    config = local_servers.qdrant_config(Path("/data"), 7000, 7001, 7002)
    assert '"host": "127.0.0.1"' in config
    assert '"telemetry_disabled": true' in config
    assert '"enabled": true' in config


def test_a_binary_with_the_wrong_checksum_is_refused(tmp_path: Path) -> None:
    installed = local_servers.npm_folder(tmp_path)
    binary = installed / "node_modules" / local_servers.QDRANT_PACKAGE / "bin" / "qdrant"
    binary.parent.mkdir(parents=True)
    binary.write_bytes(b"#!/bin/sh\necho not qdrant\n")
    schema = installed / local_servers.COMPOSE_SCHEMA
    schema.parent.mkdir(parents=True)
    schema.write_text("{}")

    with pytest.raises(local_servers.ServerSetupError, match="sha256"):
        local_servers.install_qdrant(tmp_path)
