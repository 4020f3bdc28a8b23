"""The README's snippets run as pasted.

Every fenced block of ``README.md`` is ``python`` or ``sh`` (run here), ``text`` (a
picture, not code), or carries ``no-test`` in its info string (```` ```sh no-test ````:
long-running, or needs a running service), so nothing is skipped silently. Each runnable
block runs in a temporary directory of its own, with no ``OMOIDE_*`` variable but those
the block sets, and offline: every proxy variable points at a closed port, so a snippet
that reached for the network would fail. Python blocks run as a file (``python
snippet.py``); shell blocks run under ``bash -euo pipefail`` with ``.venv/bin/`` meaning
this interpreter's directory.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
RUN = frozenset({"python", "sh"})
PICTURE = frozenset({"text"})
SKIP = "no-test"
TIMEOUT_SECONDS = 900
CLOSED_PORT = "http://127.0.0.1:9"
EXPECTED = {
    "retrieve_context": "롤",
    "omoide context": "롤",
    "omoide chat -c mio": "mio>",
}
"""A piece of a snippet, and what its output must then hold (the memory it recalls)."""


@dataclass(frozen=True)
class Snippet:
    line: int
    language: str
    markers: frozenset[str]
    code: str

    @property
    def runs(self) -> bool:
        return self.language in RUN and SKIP not in self.markers


def snippets(text: str) -> list[Snippet]:
    found = []
    for match in FENCE.finditer(text):
        words = match.group(1).split()
        language = words[0] if words else ""
        line = text.count("\n", 0, match.start()) + 1
        found.append(Snippet(line, language, frozenset(words[1:]), match.group(2)))
    return found


README_SNIPPETS = snippets(README.read_text(encoding="utf-8"))


def test_every_block_is_run_or_marked() -> None:
    for snippet in README_SNIPPETS:
        where = f"README.md:{snippet.line}"
        assert snippet.language in RUN | PICTURE, f"{where}: say python, sh or text"
        assert snippet.markers <= {SKIP}, f"{where}: unknown marker {set(snippet.markers)}"
        if snippet.language == "python":
            assert snippet.runs, f"{where}: Python snippets always run"
    running = [snippet for snippet in README_SNIPPETS if snippet.runs]
    assert {snippet.language for snippet in running} == RUN
    assert sum(snippet.language == "python" for snippet in running) >= 1


def test_the_fence_reader_sees_info_strings_and_bodies() -> None:
    text = "intro\n```sh no-test\nmake test\n```\n\n```python\nprint(1)\n```\n"
    assert snippets(text) == [
        Snippet(2, "sh", frozenset({SKIP}), "make test\n"),
        Snippet(6, "python", frozenset(), "print(1)\n"),
    ]


def offline_environment() -> dict[str, str]:
    """This environment without OMOIDE_* settings, with every proxy at a closed port."""
    kept = {k: v for k, v in os.environ.items() if not k.upper().startswith("OMOIDE_")}
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        kept[name] = CLOSED_PORT
    kept["all_proxy"] = CLOSED_PORT
    kept["NO_PROXY"] = kept["no_proxy"] = ""
    return kept


def command(snippet: Snippet, directory: Path) -> list[str]:
    if snippet.language == "python":
        path = directory / "snippet.py"
        path.write_text(snippet.code, encoding="utf-8")
        return [sys.executable, str(path)]
    bin_dir = Path(sys.executable).parent
    code = snippet.code.replace(".venv/bin/", f"{bin_dir}/")
    return ["bash", "-euo", "pipefail", "-c", code]


@pytest.mark.slow
@pytest.mark.parametrize(
    "snippet",
    [snippet for snippet in README_SNIPPETS if snippet.runs],
    ids=lambda snippet: f"{snippet.language}-line-{snippet.line}",
)
def test_the_snippet_runs_as_pasted(snippet: Snippet, tmp_path: Path) -> None:
    done = subprocess.run(
        command(snippet, tmp_path),
        cwd=tmp_path,
        env=offline_environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    report = f"README.md:{snippet.line}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    assert done.returncode == 0, report
    for piece, expected in EXPECTED.items():
        if piece in snippet.code:
            assert expected in done.stdout, report
