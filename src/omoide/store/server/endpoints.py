"""Where the server profile's engines are and how its Qdrant collections are laid out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from omoide.errors import ConfigError

_PREFIX = re.compile(r"[A-Za-z0-9_-]{1,48}")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """PostgreSQL (records, the source of truth) and Qdrant (the derived vector index).

    With ``qdrant_grpc_port`` the client talks gRPC to that port of the same host (much less
    overhead per search than REST). ``collection_prefix`` names the Qdrant collections
    (``<prefix>_episodes`` and ``<prefix>_facts``), so several stores can share one Qdrant.
    ``shard_number``, ``replication_factor`` and ``write_consistency_factor`` apply when omoide
    creates the collections; on a cluster use a replication factor of at least 2 so a node
    can fail.
    """

    database_url: str = field(repr=False)
    qdrant_url: str
    qdrant_api_key: str | None = field(default=None, repr=False)
    qdrant_grpc_port: int | None = None
    collection_prefix: str = "omoide"
    shard_number: int = 1
    replication_factor: int = 1
    write_consistency_factor: int = 1
    pool_size: int = 10
    timeout_seconds: float = 30.0

    def __post_init__(self) -> None:
        if urlsplit(self.database_url).scheme not in ("postgresql", "postgres"):
            raise ConfigError("the database URL must start with postgresql://")
        if urlsplit(self.qdrant_url).scheme not in ("http", "https"):
            raise ConfigError(
                f"the Qdrant URL must start with http:// or https:// (got {self.qdrant_url!r})"
            )
        if self.qdrant_grpc_port is not None and not 0 < self.qdrant_grpc_port < 65536:
            raise ConfigError(
                f"the Qdrant gRPC port must be a port number (got {self.qdrant_grpc_port})"
            )
        if not _PREFIX.fullmatch(self.collection_prefix):
            raise ConfigError(
                "the Qdrant collection prefix must be 1-48 letters, digits, '_' or '-' "
                f"(got {self.collection_prefix!r})"
            )
        for name in ("shard_number", "replication_factor", "write_consistency_factor", "pool_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name} must be a positive integer (got {value!r})")
        if self.timeout_seconds <= 0:
            raise ConfigError("timeout_seconds must be positive")

    @property
    def episode_collection(self) -> str:
        return f"{self.collection_prefix}_episodes"

    @property
    def fact_collection(self) -> str:
        return f"{self.collection_prefix}_facts"

    @property
    def database_location(self) -> str:
        """The database URL without credentials, for messages."""
        parts = urlsplit(self.database_url)
        host = parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
        return f"postgresql://{host}{port}{parts.path}"
