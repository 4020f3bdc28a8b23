"""``omoide demo`` with the scripted model: the relationship grows over the conversation,
and Haru's last reply uses a remembered detail in the viewer's language."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from omoide.cli import app


def test_the_demo_shows_the_relationship_grown_and_a_remembered_detail(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--data-dir", str(tmp_path), "--embedder", "hashing"])
    assert result.exit_code == 0, result.output
    output = result.output
    prompt = output[output.index("the system prompt Haru received") :]
    assert "acquaintance (rapport" in prompt and "only just met" not in prompt
    assert re.search(r"Haru and 민준 after 12 exchanges:\s+acquaintance", output)
    reply = next(line for line in output.splitlines() if line.startswith("Haru:"))
    assert "롤 게임" in reply and re.search(r"[\uac00-\ud7af]", reply)
    assert "You and" not in reply and "rapport" not in reply
