"""The read path (``wiring.open_reader``), which the CLI's reading commands use.

It reads what the full build wrote, prints the same JSON the full build's answers make,
and writes nothing: a store's files stay byte for byte as they were, and a data directory
with no store yet reads as empty and is not created.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import anyio
from typer.testing import CliRunner

from omoide.api.views import FactOut
from omoide.api.views_profile import ProfileOut
from omoide.api.views_stream import PendingListOut, change_out, version_out, versions_out
from omoide.cli import app
from omoide.config import Settings
from omoide.domain import Fact, FactCategory, Scope
from omoide.store.records.identity import PendingChange
from omoide.wiring import build, memory_config, open_reader
from omoide.wiring.reader import profile_config

runner = CliRunner()
SCOPE = Scope("haru", "minjun")
FACTS = [
    ("간호사로 일해요", FactCategory.PERSONAL, 0.8),
    ("롤을 좋아해요", FactCategory.PREFERENCE, 0.6),
    ("고양이를 좋아해요", FactCategory.PREFERENCE, 0.5),
]


def settings(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir, embedder="hashing")


def write_store(data_dir: Path) -> dict[str, Any]:
    """Facts, an approved identity change and a pending one, written by the full build;
    what the full build answers for each read, as JSON."""

    async def main() -> dict[str, Any]:
        built = await build(settings(data_dir))
        try:
            for text, category, salience in FACTS:
                await built.memory.add_fact(SCOPE, text, category, salience=salience)
            likes = (await built.characters.load("haru")).profile.likes
            first = await built.identity.propose("haru", {"likes": [*likes, "비 오는 날 로파이"]})
            assert first.change_id is not None
            await built.identity.approve("haru", first.change_id)
            await built.identity.propose("haru", {"likes": [*likes[:-1]]})
            versions = await built.identity.versions("haru")
            return {
                "facts": [FactOut.of(fact) for fact in await built.memory.list_facts(SCOPE)],
                "profile": ProfileOut.of(await built.memory.profile(SCOPE)),
                "versions": versions_out("haru", versions),
                "version": version_out(versions[-1], with_profile=True),
                "pending": PendingListOut(
                    changes=[change_out(change) for change in await built.identity.changes("haru")]
                ),
            }
        finally:
            await built.aclose()

    answers = anyio.run(main)
    return {
        name: [item.model_dump(mode="json") for item in value]
        if isinstance(value, list)
        else value.model_dump(mode="json")
        for name, value in answers.items()
    }


def printed(*arguments: str) -> Any:
    result = runner.invoke(app, [*arguments, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def fingerprint(data_dir: Path) -> dict[str, str]:
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(data_dir.iterdir())
        if path.is_file()
    }


def test_the_read_commands_print_what_the_full_build_answers(tmp_path: Path) -> None:
    expected = write_store(tmp_path)
    assert len(expected["facts"]) == 3 and expected["pending"]["changes"]  # something to read
    store = ["--data-dir", str(tmp_path)]
    memory = [*store, "--embedder", "hashing"]
    before = fingerprint(tmp_path)

    assert printed("facts", "-u", "minjun", *memory) == expected["facts"]
    assert printed("profile", "-u", "minjun", *memory) == expected["profile"]
    assert printed("identity", "versions", "-c", "haru", *store) == expected["versions"]
    assert printed("identity", "pending", "-c", "haru", *store) == expected["pending"]
    shown = printed("identity", "diff", "1", "-c", "haru", *store)
    assert shown == {"changes": expected["version"]["changes"]}

    assert fingerprint(tmp_path) == before  # nothing written, nothing created


def test_the_reader_reads_without_the_configured_model(tmp_path: Path) -> None:
    """The store is read as it is bound (hashing), whatever embedder the settings name."""
    expected = write_store(tmp_path)

    async def read() -> tuple[list[Fact], list[PendingChange]]:
        async with open_reader(Settings(data_dir=tmp_path, embedder="e5")) as reader:
            found = await (await reader.memory()).list_facts(SCOPE)
            return found, await (await reader.identity()).changes("haru")

    found, pending = anyio.run(read)
    assert [FactOut.of(fact).model_dump(mode="json") for fact in found] == expected["facts"]
    assert [change_out(change).model_dump(mode="json") for change in pending] == (
        expected["pending"]["changes"]
    )


def test_a_data_directory_without_a_store_reads_as_empty_and_stays_absent(
    tmp_path: Path,
) -> None:
    nowhere = tmp_path / "nothing-here"
    store = ["--data-dir", str(nowhere)]
    assert printed("facts", "-u", "minjun", *store) == []
    assert printed("profile", "-u", "minjun", *store) == {
        "character_id": "haru",
        "user_id": "minjun",
        "groups": [],
        "total_facts": 0,
        "shown": 0,
    }
    assert printed("identity", "versions", "-c", "haru", *store) == {
        "character_id": "haru",
        "current_version": None,
        "versions": [],
    }
    assert printed("identity", "pending", "-c", "haru", *store) == {"changes": []}
    missing = runner.invoke(app, ["identity", "diff", "1", "-c", "haru", *store])
    assert missing.exit_code == 1 and "no identity version 1" in missing.output
    assert not nowhere.exists()


def test_the_reader_refuses_a_bad_character_id_as_the_library_does(tmp_path: Path) -> None:
    result = runner.invoke(app, ["identity", "pending", "-c", "../x", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and "error" in result.output


def test_the_reader_chooses_a_profile_as_the_memory_pipeline_does() -> None:
    changed = Settings(profile_share=0.3, profile_max_facts=4)
    for settings in (Settings(), changed):
        assert profile_config(settings) == memory_config(settings).profile
