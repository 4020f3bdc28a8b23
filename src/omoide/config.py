"""Settings: the only place that reads the environment (``OMOIDE_`` prefix)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from omoide.errors import ConfigError

EmbedderName = Literal["use", "e5", "sentence-transformers", "ollama", "openai", "hashing"]
LLMName = Literal["none", "scripted", "ollama", "openai", "anthropic"]
StoreName = Literal["sqlite", "server"]


class Settings(BaseSettings):
    """Everything configurable, each field settable as ``OMOIDE_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="OMOIDE_", extra="forbid", frozen=True)

    data_dir: Path = Path("./data")
    store: StoreName = "sqlite"

    embedder: EmbedderName = "use"
    embedder_model: str | None = None
    embedder_url: str | None = None
    embedder_api_key: SecretStr | None = None
    embedder_threads: int = Field(default=1, ge=1, le=64)
    query_cache_size: int = Field(default=512, ge=0)
    query_cache_seconds: float = Field(default=300.0, ge=0)

    llm: LLMName = "none"
    llm_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout_seconds: float = Field(default=60.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)

    @property
    def database_path(self) -> Path:
        return self.data_dir / "omoide.sqlite3"


def load_settings(**overrides: object) -> Settings:
    """Read settings from the environment, with explicit overrides winning."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(f"invalid omoide settings: {exc}") from exc
