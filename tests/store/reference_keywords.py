"""The keyword analysis and term digests as first written: a frozen reference.

``omoide.store.keywords`` and ``omoide.store.sqlite.keyword_index`` were since made
faster; their output must stay byte-identical to this (analyzer version 2), character by
character and with ``base64.b32encode``.
"""

from __future__ import annotations

import base64
import hashlib
import unicodedata
from bisect import bisect_right

from omoide.store.keywords import QUERY_STOP_WORDS, is_laughter, normalize, stem

_UNSPACED_RANGES = (
    (0x0E00, 0x0EFF),
    (0x1000, 0x109F),
    (0x1100, 0x11FF),
    (0x1780, 0x17FF),
    (0x3005, 0x3007),
    (0x3040, 0x30FF),
    (0x3130, 0x318F),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7FF),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9F),
    (0x20000, 0x323AF),
)
_UNSPACED_STARTS = tuple(low for low, _ in _UNSPACED_RANGES)
SEPARATOR, WORD, UNSPACED, MARK = "separator", "word", "unspaced", "mark"


def reference_term_digest(scope_id: int, token: str) -> str:
    digest = hashlib.blake2b(
        token.encode("utf-8"), digest_size=8, key=str(scope_id).encode("ascii")
    ).digest()
    return base64.b32encode(digest).decode("ascii").rstrip("=").lower()


def reference_document_terms(scope_id: int, text: str) -> str:
    return " ".join(reference_term_digest(scope_id, token) for token in reference_document(text))


def reference_match_expression(scope_id: int, text: str) -> str | None:
    tokens = reference_query(text)
    digests = dict.fromkeys(reference_term_digest(scope_id, token) for token in tokens)
    if not digests:
        return None
    return " OR ".join('"' + digest.replace('"', '""') + '"' for digest in digests)


def reference_document(text: str) -> list[str]:
    tokens: list[str] = []
    for run, unspaced in reference_runs(normalize(text)):
        if not unspaced or len(run) == 1:
            tokens.append(stem(run))
        else:
            tokens.extend(run[index : index + 2] for index in range(len(run) - 1))
            tokens.extend(run)
    return tokens


def reference_query(text: str) -> list[str]:
    tokens: list[str] = []
    for run, unspaced in reference_runs(normalize(text)):
        if unspaced and len(run) > 1:
            tokens.extend(run[index : index + 2] for index in range(len(run) - 1))
        else:
            tokens.append(run)
    # laughter left queries later (tests/store/test_keywords_analyzer.py pins it)
    content = [
        token for token in tokens if token not in QUERY_STOP_WORDS and not is_laughter(token)
    ]
    return list(dict.fromkeys(stem(token) for token in content or tokens))


def reference_runs(text: str) -> list[tuple[str, bool]]:
    runs: list[tuple[str, bool]] = []
    current: list[str] = []
    current_class = SEPARATOR
    for character in text:
        kind = _classify(character)
        if kind == MARK and current:
            current.append(character)
            continue
        if kind == MARK:
            kind = WORD
        if kind != current_class and current:
            runs.append(("".join(current), current_class == UNSPACED))
            current = []
        current_class = kind
        if kind != SEPARATOR:
            current.append(character)
    if current:
        runs.append(("".join(current), current_class == UNSPACED))
    return runs


def _classify(character: str) -> str:
    category = unicodedata.category(character)
    code_point = ord(character)
    index = bisect_right(_UNSPACED_STARTS, code_point) - 1
    if index >= 0 and code_point <= _UNSPACED_RANGES[index][1]:
        return UNSPACED if category[0] in "LNM" else SEPARATOR
    if category[0] in "LN":
        return WORD
    if category[0] == "M":
        return MARK
    return SEPARATOR
