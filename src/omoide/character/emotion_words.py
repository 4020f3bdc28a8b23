"""Word lists behind the emotion engine: label synonyms and warm messages (ko/ja/zh/en).

``EMOTION_SYNONYMS`` maps a label a model might write to the labels it may stand for, most
fitting first; the engine takes the first one the character actually has. It also lists
fallbacks between the default labels (``excited`` -> ``happy``) so a character with only a
few emotions still gets the nearest one. Keys and values are folded labels
(:func:`~omoide.store.records.profile.fold_emotion_label`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

EMOTION_SYNONYMS: Final[Mapping[str, tuple[str, ...]]] = {
    # between the default labels, for characters that have only some of them
    "happy": ("excited", "playful", "affectionate", "calm"),
    "excited": ("happy", "surprised", "playful"),
    "playful": ("happy", "excited"),
    "affectionate": ("happy", "shy"),
    "calm": ("neutral", "happy"),
    "neutral": ("calm",),
    "tired": ("calm", "sad", "neutral"),
    "nervous": ("concerned", "shy", "surprised"),
    "concerned": ("nervous", "sad"),
    "sad": ("concerned", "tired"),
    "angry": ("concerned", "sad"),
    "surprised": ("excited", "nervous"),
    "shy": ("nervous", "affectionate"),
    # common English synonyms
    "joy": ("happy",),
    "joyful": ("happy",),
    "glad": ("happy",),
    "cheerful": ("happy", "playful"),
    "delighted": ("happy", "excited"),
    "pleased": ("happy",),
    "content": ("calm", "happy"),
    "smile": ("happy",),
    "smiling": ("happy",),
    "laughing": ("happy", "playful"),
    "amused": ("playful", "happy"),
    "proud": ("happy",),
    "grateful": ("affectionate", "happy"),
    "thankful": ("affectionate", "happy"),
    "ecstatic": ("excited", "happy"),
    "thrilled": ("excited", "happy"),
    "enthusiastic": ("excited", "happy"),
    "energetic": ("excited", "happy"),
    "hyped": ("excited",),
    "curious": ("excited", "surprised"),
    "teasing": ("playful",),
    "mischievous": ("playful",),
    "smug": ("playful",),
    "silly": ("playful",),
    "relaxed": ("calm",),
    "peaceful": ("calm",),
    "serene": ("calm",),
    "relieved": ("calm", "happy"),
    "thoughtful": ("calm", "neutral"),
    "default": ("neutral", "calm"),
    "normal": ("neutral", "calm"),
    "unhappy": ("sad",),
    "upset": ("sad", "angry"),
    "lonely": ("sad",),
    "crying": ("sad",),
    "disappointed": ("sad",),
    "melancholy": ("sad",),
    "hurt": ("sad",),
    "sleepy": ("tired",),
    "stressed": ("tired", "concerned", "sad"),
    "sick": ("tired", "sad"),
    "overwhelmed": ("tired", "concerned"),
    "exhausted": ("tired",),
    "bored": ("tired", "neutral"),
    "anxious": ("nervous", "concerned"),
    "scared": ("nervous", "surprised"),
    "afraid": ("nervous",),
    "fear": ("nervous",),
    "fearful": ("nervous",),
    "worried": ("concerned", "nervous"),
    "sympathetic": ("concerned", "affectionate"),
    "caring": ("affectionate", "concerned"),
    "empathetic": ("concerned",),
    "mad": ("angry",),
    "annoyed": ("angry",),
    "irritated": ("angry",),
    "frustrated": ("angry", "sad"),
    "pouting": ("angry", "playful"),
    "shocked": ("surprised",),
    "amazed": ("surprised", "excited"),
    "astonished": ("surprised",),
    "confused": ("surprised", "nervous"),
    "embarrassed": ("shy",),
    "flustered": ("shy", "nervous"),
    "bashful": ("shy",),
    "blushing": ("shy", "affectionate"),
    "loving": ("affectionate",),
    "love": ("affectionate",),
    "warm": ("affectionate", "happy"),
    "tender": ("affectionate",),
    # labels written in Korean, Japanese or Chinese
    "기쁨": ("happy",),
    "행복": ("happy",),
    "신남": ("excited",),
    "슬픔": ("sad",),
    "화남": ("angry",),
    "분노": ("angry",),
    "놀람": ("surprised",),
    "피곤": ("tired",),
    "걱정": ("concerned",),
    "부끄러움": ("shy",),
    "嬉しい": ("happy",),
    "楽しい": ("happy", "playful"),
    "悲しい": ("sad",),
    "怒り": ("angry",),
    "驚き": ("surprised",),
    "照れ": ("shy",),
    "眠い": ("tired",),
    "开心": ("happy",),
    "高兴": ("happy",),
    "难过": ("sad",),
    "伤心": ("sad",),
    "生气": ("angry",),
    "惊讶": ("surprised",),
    "害羞": ("shy",),
    "平静": ("calm",),
}

_LATIN_WARM_PHRASES: Final = (
    r"thanks?",
    r"thank\s+you",
    r"thx",
    r"ty(?:sm)?",
    r"appreciate(?:\s+it|\s+you)?",
    r"grateful",
    r"love\s+(?:you|u|ya|this|it|your)",
    r"luv\s+(?:you|u|ya)",
    r"ily",
    r"miss(?:ed)?\s+(?:you|u|ya)",
    r"you(?:'re|\s+are)\s+(?:the\s+best|amazing|so\s+(?:kind|sweet|cute))",
    r"best\s+streamer",
    r"so\s+(?:kind|sweet)",
)

_CJK_WARM_PHRASES: Final = (
    # Korean
    "고마워",
    "고맙",
    "감사",
    "사랑해",
    "사랑합",
    "보고 싶",
    "보고싶",
    "좋아해",
    "최고야",
    "최고예요",
    "덕분",
    # Japanese
    "ありがと",
    "感謝",
    "大好き",
    "愛して",
    "会いたかった",
    "会いたい",
    "嬉しい",
    "好きだよ",
    "最高",
    # Chinese (simplified and traditional)
    "谢谢",
    "謝謝",
    "多谢",
    "感谢",
    "爱你",
    "愛你",
    "喜欢你",
    "喜歡你",
    "想你",
    "辛苦了",
)

_WARM_SYMBOLS: Final = "❤♥💕💖💗💓💞💘🥰😍😘🫶"

WARM_MESSAGE_PATTERN: Final = re.compile(
    r"(?<![a-z])(?:" + "|".join(_LATIN_WARM_PHRASES) + r")(?![a-z])"
    r"|"
    + "|".join(re.escape(phrase) for phrase in _CJK_WARM_PHRASES)
    + r"|["
    + _WARM_SYMBOLS
    + r"]",
    re.IGNORECASE,
)


def is_warm_message(text: str) -> bool:
    """Whether a viewer's message carries gratitude or affection (ko, ja, zh, en)."""
    return WARM_MESSAGE_PATTERN.search(text) is not None
