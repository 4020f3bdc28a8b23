"""A deterministic embedder with no model: signed feature hashing of keyword tokens.

This is the fake that ships in the package, for tests and demos. Texts that share words
(or, in Chinese and Japanese, characters and character pairs) get positive cosine
similarity; texts with nothing in common score about 0. It has no notion of meaning.

Tokens follow the keyword analyzer's scheme: text is NFKC-normalised and lower-cased;
runs of Han, Hiragana and Katakana become single characters plus adjacent-character
bigrams; other runs of letters and digits (Latin, Hangul, Cyrillic, ...) become words,
and Hangul words of three or more syllables also yield their syllable bigrams, so that
a particle ("좋아해요" vs "좋아해") does not hide a shared stem. Each token is hashed
with BLAKE2b (stable across processes and Python versions, unlike ``hash()``) to a
bucket and a sign.

A text with no letters or digits (only punctuation or emoji) is hashed character by
character; the empty or all-whitespace text maps to one fixed unit vector.

With ``max_input_chars`` it behaves like a model with a bounded input: it sees only that
many characters of a text, and documents longer than that are embedded in chunks
(:mod:`omoide.embed.chunking`), so tests can exercise what real models do with long text.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence

import numpy as np

from omoide.domain import Matrix, Vector
from omoide.embed.chunking import check_max_chars, embed_chunked
from omoide.embed.vectors import check_text, check_texts
from omoide.errors import ConfigError

DEFAULT_HASHING_DIMENSIONS = 256
EMPTY_TEXT_TOKEN = "\x00empty"

# Han (with extension A and compatibility ideographs), Hiragana, Katakana (with the
# prolonged sound mark and half-width forms).
_CJK_CHARS = (
    "\u3005\u3006\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
)
_TOKEN_RUN = re.compile(f"(?P<cjk>[{_CJK_CHARS}]+)|(?P<word>(?:(?![{_CJK_CHARS}])\\w)+)")
_HANGUL = re.compile("[\uac00-\ud7a3]")


def keyword_tokens(text: str) -> list[str]:
    """The tokens of ``text``, in order, as the keyword analyzer would produce them."""
    normalised = unicodedata.normalize("NFKC", text).casefold()
    tokens: list[str] = []
    for match in _TOKEN_RUN.finditer(normalised):
        if match.group("cjk") is not None:
            tokens.extend(_character_grams(match.group("cjk")))
            continue
        word = match.group("word")
        tokens.append(word)
        if len(word) > 2 and _HANGUL.search(word):
            tokens.extend(_bigrams(word))
    return tokens


def _character_grams(run: str) -> Iterator[str]:
    yield from run
    yield from _bigrams(run)


def _bigrams(run: str) -> Iterator[str]:
    for index in range(len(run) - 1):
        yield run[index : index + 2]


def _features(text: str) -> Counter[str]:
    tokens = keyword_tokens(text)
    if not tokens:
        tokens = [character for character in text if not character.isspace()]
    if not tokens:
        tokens = [EMPTY_TEXT_TOKEN]
    return Counter(tokens)


def _bucket_and_sign(token: str, dimensions: int) -> tuple[int, float]:
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    sign = 1.0 if value >> 63 == 0 else -1.0
    return (value & ((1 << 63) - 1)) % dimensions, sign


class HashingEmbedder:
    """Signed feature hashing of keyword tokens into ``dimensions`` buckets, L2-normalised.

    Symmetric (queries and documents alike) and cheap enough to run on the event loop.
    Token counts are dampened (``1 + log(count)``) so one repeated word does not dominate.
    """

    def __init__(
        self, dimensions: int = DEFAULT_HASHING_DIMENSIONS, *, max_input_chars: int | None = None
    ) -> None:
        if isinstance(dimensions, bool) or not isinstance(dimensions, int) or dimensions < 2:
            raise ConfigError(
                f"hashing embedder dimensions must be at least 2 (got {dimensions!r})"
            )
        self._dimensions = dimensions
        self._max_chars = check_max_chars(max_input_chars, owner="hashing embedder")

    @property
    def model_name(self) -> str:
        window = f":{self._max_chars}" if self._max_chars is not None else ""
        return f"hashing:{self._dimensions}{window}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await embed_chunked(
            self._embed_all,
            check_texts(texts),
            max_chars=self._max_chars,
            dimensions=self.dimensions,
        )

    async def aclose(self) -> None:
        """Nothing to release."""

    async def embed_query(self, text: str) -> Vector:
        return self._embed(check_text(text))

    async def _embed_all(self, texts: list[str]) -> Matrix:
        return np.stack([self._embed(text) for text in texts])

    def _embed(self, text: str) -> Vector:
        text = text[: self._max_chars] if self._max_chars is not None else text
        vector = np.zeros(self._dimensions, dtype=np.float64)
        for token, count in _features(text).items():
            bucket, sign = _bucket_and_sign(token, self._dimensions)
            vector[bucket] += sign * (1.0 + np.log(count))
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:
            # Every feature cancelled out in its bucket: fall back to the empty-text vector.
            bucket, sign = _bucket_and_sign(EMPTY_TEXT_TOKEN, self._dimensions)
            vector[bucket] = sign
            norm = 1.0
        return (vector / norm).astype(np.float32)
