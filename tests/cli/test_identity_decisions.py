"""``omoide identity approve | reject | rollback`` (and ``stream replay | end``) build the
library with ``--embedder``, the store's model, as every other library command does
(without it, a store written with another model is refused before anything is decided)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from omoide.cli import app
from tests.cli.test_read_path import printed, write_store

runner = CliRunner()


@pytest.mark.parametrize(
    "command",
    [
        ["identity", "approve"],
        ["identity", "reject"],
        ["identity", "rollback"],
        ["stream", "replay"],
        ["stream", "end"],
    ],
)
def test_every_command_that_builds_the_library_has_the_embedder_option(
    command: list[str],
) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0 and "--embedder" in result.output


def test_the_deciding_commands_use_the_stores_embedder(tmp_path: Path) -> None:
    write_store(tmp_path)  # hashing vectors; version 1 approved, one change pending
    store = ["-c", "haru", "--data-dir", str(tmp_path)]
    (change,) = printed("identity", "pending", *store)["changes"]

    refused = runner.invoke(app, ["identity", "approve", change["id"], *store])
    assert refused.exit_code == 1 and "omoide reembed" in " ".join(refused.output.split())
    assert printed("identity", "pending", *store)["changes"] == [change]

    hashing = [*store, "--embedder", "hashing"]
    rejected = runner.invoke(app, ["identity", "reject", change["id"], *hashing])
    assert rejected.exit_code == 0 and "rejected" in rejected.output, rejected.output
    rolled = runner.invoke(app, ["identity", "rollback", "0", *hashing])
    assert rolled.exit_code == 0 and "version 2" in rolled.output, rolled.output
    assert printed("identity", "versions", *store)["current_version"] == 2
