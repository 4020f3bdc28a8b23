"""Splitting text the way a streaming model sends it, and estimating its token count.

Both are approximations that need no tokenizer: words travel with the whitespace before
them (as OpenAI-style deltas do), while Chinese characters and Japanese kana, which are
written without spaces, travel one character at a time. Korean uses spaces, so it splits
by words like English.
"""

from __future__ import annotations

import math
import re

_UNSPACED = (
    "\u3000-\u303f"  # CJK symbols and punctuation (、。「」)
    "\u3040-\u30ff"  # hiragana, katakana
    "\u31f0-\u31ff"  # katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK unified ideographs extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff00-\uffef"  # half-width and full-width forms
    "\U00020000-\U0003134f"  # CJK extensions B-G
)
_STREAM_PIECE = re.compile(rf"\s*(?:[{_UNSPACED}]|[^\s{_UNSPACED}]+)|\s+")
_TOKEN_PIECE = re.compile(rf"[{_UNSPACED}]|\w+|[^\w\s]", re.UNICODE)
_CHARACTERS_PER_WORD_TOKEN = 4


def stream_chunks(text: str) -> list[str]:
    """Split ``text`` into small deltas whose concatenation is exactly ``text``.

    >>> stream_chunks("I like ramen")
    ['I', ' like', ' ramen']
    >>> stream_chunks("ラーメン好き")
    ['ラ', 'ー', 'メ', 'ン', '好', 'き']
    """
    return _STREAM_PIECE.findall(text)


def estimate_tokens(text: str) -> int:
    """A rough token count: one per CJK character or symbol, one per ~4 letters of a word."""
    total = 0
    for piece in _TOKEN_PIECE.findall(text):
        if len(piece) == 1:
            total += 1
        else:
            total += math.ceil(len(piece) / _CHARACTERS_PER_WORD_TOKEN)
    return total
