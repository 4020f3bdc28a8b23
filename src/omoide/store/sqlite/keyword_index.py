"""FTS5 keyword index: scoped term digests, written in the same transaction as the record.

Each token from :mod:`omoide.store.keywords` is stored as a 13-character digest of
(scope id, token) rather than as text:

* Scope isolation lives in the index itself: a query's digests are computed with the
  querying scope's id, so they cannot match another scope's rows, and a query reads only
  its own scope's posting lists (13x faster than filtering a shared vocabulary on 100k rows;
  see ``docs/store.md``).
* Deleted text leaves nothing readable: FTS5 keeps deleted terms in its segment pages
  until they are merged, even with ``secure-delete``; a digest cannot be read back.
* User text can never be parsed as FTS5 query syntax: digests are ``[a-z2-7]`` only,
  and each is still quoted as a string literal.

The FTS tables are contentless (``content=''``, ``contentless_delete=1``) and share rowids
with the record tables (``internal_id``).
"""

from __future__ import annotations

import base64
import hashlib
from typing import Literal

import apsw

from omoide.store.keywords import analyze_document, analyze_query

KeywordTable = Literal["episode_keywords", "fact_keywords"]

_DIGEST_BYTES = 8


def term_digest(scope_id: int, token: str) -> str:
    """A lowercase base32 digest of ``token`` keyed by the scope id."""
    digest = hashlib.blake2b(
        token.encode("utf-8"), digest_size=_DIGEST_BYTES, key=str(scope_id).encode("ascii")
    ).digest()
    return base64.b32encode(digest).decode("ascii").rstrip("=").lower()


def document_terms(scope_id: int, text: str) -> str:
    """The space-separated digests to index for ``text``."""
    return " ".join(term_digest(scope_id, token) for token in analyze_document(text))


def match_expression(scope_id: int, text: str) -> str | None:
    """An FTS5 query ORing the digests of ``text``'s tokens; None when it has no tokens."""
    digests = dict.fromkeys(term_digest(scope_id, token) for token in analyze_query(text))
    if not digests:
        return None
    return " OR ".join(_string_literal(digest) for digest in digests)


def _string_literal(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def index_text(
    connection: apsw.Connection, table: KeywordTable, internal_id: int, scope_id: int, text: str
) -> None:
    """Add the row for a new record."""
    connection.execute(_INSERT[table], (internal_id, document_terms(scope_id, text)))


def reindex_text(
    connection: apsw.Connection, table: KeywordTable, internal_id: int, scope_id: int, text: str
) -> None:
    """Replace the row of an existing record."""
    remove_rows(connection, table, [internal_id])
    index_text(connection, table, internal_id, scope_id, text)


def remove_rows(connection: apsw.Connection, table: KeywordTable, internal_ids: list[int]) -> None:
    for internal_id in internal_ids:
        connection.execute(_DELETE[table], (internal_id,))


_INSERT: dict[KeywordTable, str] = {
    "episode_keywords": "INSERT INTO episode_keywords (rowid, terms) VALUES (?, ?)",
    "fact_keywords": "INSERT INTO fact_keywords (rowid, terms) VALUES (?, ?)",
}
_DELETE: dict[KeywordTable, str] = {
    "episode_keywords": "DELETE FROM episode_keywords WHERE rowid = ?",
    "fact_keywords": "DELETE FROM fact_keywords WHERE rowid = ?",
}
