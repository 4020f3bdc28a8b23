"""The server profile's store: records in PostgreSQL, a derived vector index in Qdrant."""

from omoide.store.server.connect import open_engines, open_server_store
from omoide.store.server.endpoints import ServerConfig
from omoide.store.server.engines import Engines
from omoide.store.server.store import ServerMemoryStore

__all__ = ["Engines", "ServerConfig", "ServerMemoryStore", "open_engines", "open_server_store"]
