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

import hashlib
from typing import TYPE_CHECKING, Literal

from omoide.store.keywords import analyze_document, analyze_query

if TYPE_CHECKING:
    from collections.abc import Iterable

    import apsw

KeywordTable = Literal["episode_keywords", "fact_keywords"]

_DIGEST_BYTES = 8


def term_digest(scope_id: int, token: str) -> str:
    """A lowercase base32 digest of ``token`` keyed by the scope id.

    The same string as ``base64.b32encode(blake2b(token, digest_size=8, key=scope id))``
    without its padding, lowercased.
    """
    return _digest_words(scope_id, (token,))


def document_terms(scope_id: int, text: str) -> str:
    """The space-separated digests to index for ``text``."""
    return _digest_words(scope_id, analyze_document(text))


def match_expression(scope_id: int, text: str) -> str | None:
    """An FTS5 query ORing the digests of ``text``'s tokens; None when it has no tokens."""
    words = _digest_words(scope_id, analyze_query(text))
    if not words:
        return None
    return " OR ".join(_string_literal(digest) for digest in dict.fromkeys(words.split(" ")))


def _digest_words(scope_id: int, tokens: Iterable[str]) -> str:
    """The space-separated :func:`term_digest` of each token, keying the hash once."""
    keyed = hashlib.blake2b(digest_size=_DIGEST_BYTES, key=str(scope_id).encode("ascii"))
    digests: list[bytes] = []
    for token in tokens:
        hasher = keyed.copy()
        hasher.update(token.encode("utf-8"))
        digests.append(hasher.digest())
    return _base32_words(digests)


def _base32_words(digests: list[bytes]) -> str:
    """Each 8-byte digest in lowercase base32 without padding (13 characters), space-separated.

    ``base64.b32encode`` is pure Python and cost most of the indexing time, so this spreads
    all the digests' 5-bit groups into bytes at once with big-integer arithmetic, then maps
    the bytes to letters with one ``bytes.translate``. Each digest gets a 128-bit lane:
    its 64 bits, shifted left by one (base32 pads the 65th bit with a zero), are 13 groups
    of 5 bits, which four mask-and-shift steps move into the lane's last 13 bytes
    (40 | 40 bits -> 20 | 20 -> 10 | 10 -> 5 | 5). Adding 64 to those bytes and 32 (a
    space) to the first byte, and deleting the two zero bytes between, gives
    " digest digest ...".
    """
    count = len(digests)
    if not count:
        return ""
    lanes = int.from_bytes(_LANE_PAD + _LANE_PAD.join(digests), "big") << 1
    for keep, shift in _SPREAD_STEPS:
        mask = int.from_bytes(keep * count, "big")
        lanes = (lanes & mask) | ((lanes & ~mask) << shift)
    lanes += int.from_bytes(_LANE_OFFSETS * count, "big")
    return lanes.to_bytes(16 * count, "big").translate(_LANE_LETTERS, b"\0").decode("ascii")[1:]


def _lane_mask(unit_bits: int, kept_bits: int) -> bytes:
    """A 16-byte lane whose every ``unit_bits``-bit unit has its low ``kept_bits`` bits set."""
    unit = (1 << kept_bits) - 1
    return sum(unit << offset for offset in range(0, 128, unit_bits)).to_bytes(16, "big")


_LANE_PAD = bytes(_DIGEST_BYTES)
_SPREAD_STEPS = (
    (_lane_mask(128, 40), 24),
    (_lane_mask(64, 20), 12),
    (_lane_mask(32, 10), 6),
    (_lane_mask(16, 5), 3),
)
_LANE_OFFSETS = bytes([ord(" "), 0, 0] + [64] * 13)
_LANE_LETTERS = bytes(range(64)) + b"abcdefghijklmnopqrstuvwxyz234567" + bytes(range(96, 256))


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
