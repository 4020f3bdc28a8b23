"""The embedded store: one SQLite file with sqlite-vec vectors and an FTS5 keyword index."""

from omoide.store.sqlite.files import Migration, apply_migrations, open_sqlite_file
from omoide.store.sqlite.migrations import MIGRATIONS
from omoide.store.sqlite.reembed import ReembedReport, reembed_store
from omoide.store.sqlite.store import SqliteMemoryStore, open_sqlite_store

__all__ = [
    "MIGRATIONS",
    "Migration",
    "ReembedReport",
    "SqliteMemoryStore",
    "apply_migrations",
    "open_sqlite_file",
    "open_sqlite_store",
    "reembed_store",
]
