"""Which language a text is in, by script, for the demo model's deterministic replies."""

from __future__ import annotations

import re
from typing import Final

_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_LATIN = re.compile(r"[A-Za-z]")

DEMO_LANGUAGES: Final = ("ko", "ja", "zh", "en")
_NAMES: Final = {
    "korean": "ko",
    "한국어": "ko",
    "japanese": "ja",
    "日本語": "ja",
    "chinese": "zh",
    "中文": "zh",
    "english": "en",
}


def text_language(text: str, *, fallback: str = "en") -> str:
    """``ko``, ``ja``, ``zh`` or ``en`` from the script of ``text`` (kana makes it
    Japanese, Han alone Chinese); ``fallback`` when it has no letters (emoji, numbers)."""
    if _HANGUL.search(text):
        return "ko"
    if _KANA.search(text):
        return "ja"
    if _HAN.search(text):
        return "zh"
    return "en" if _LATIN.search(text) else fallback


def language_named(name: str) -> str | None:
    """The demo language a name or code stands for (``Korean``, ``ja``, ``zh-TW``)."""
    folded = name.strip().casefold()
    code = folded.split("-")[0].split("_")[0]
    if code in DEMO_LANGUAGES:
        return code
    return _NAMES.get(folded)
