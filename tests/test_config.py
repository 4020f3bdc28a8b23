from __future__ import annotations

from pathlib import Path

import pytest

from omoide.config import load_settings
from omoide.errors import ConfigError


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hashing")
    monkeypatch.setenv("OMOIDE_DATA_DIR", "/tmp/omoide-x")
    monkeypatch.setenv("OMOIDE_WEIGHT_RECENCY", "0.1")
    settings = load_settings()
    assert settings.embedder == "hashing"
    assert settings.data_dir == Path("/tmp/omoide-x")
    assert settings.weight_recency == 0.1
    assert load_settings(embedder="use").embedder == "use"


def test_the_model_cache_is_the_users_unless_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("OMOIDE_CACHE_DIR")  # the test run's own (tests/conftest.py)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert load_settings().cache_dir == tmp_path / ".cache" / "omoide"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert load_settings().cache_dir == tmp_path / ".cache" / "omoide"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert load_settings().cache_dir == tmp_path / "xdg" / "omoide"
    monkeypatch.setenv("OMOIDE_CACHE_DIR", str(tmp_path / "mine"))
    assert load_settings().cache_dir == tmp_path / "mine"


@pytest.mark.parametrize(
    "overrides",
    [{"embedder": "word2vec"}, {"port": 0}, {"unknown_setting": 1}, {"weight_relevance": -1}],
)
def test_bad_settings_are_a_config_error(overrides: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        load_settings(**overrides)


def test_only_real_models_help_the_memory_pipeline() -> None:
    assert not load_settings(llm="scripted").uses_real_llm
    assert not load_settings(llm="none").uses_real_llm
    assert load_settings(llm="ollama", llm_model="x").uses_real_llm
