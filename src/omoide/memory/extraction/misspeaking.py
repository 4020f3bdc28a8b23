"""A viewer saying they misspoke: what they say next replaces what they told.

"my bad", "잘못 말함", "間違えた", "说错了": the message corrects a fact
(:func:`~omoide.memory.extraction.decisions.decide`); when the same words name what holds
("학교 이름 잘못 말함 it's Leiden", "間違えた、正しくは3月8日"), they are the correction.
"""

from __future__ import annotations

import re

from omoide.memory.extraction.value_words import value_words

_CORRECTION = re.compile(
    r"\b(?:my\s+bad|i\s+mean|i\s+meant|correction|scratch\s+that|wait\s+no|i\s+misspoke"
    r"|mix(?:ed|ing)\s+(?:it|them)\s+up|typo|autocorrect(?:ed)?"
    r"|i\s+was\s+(?:wrong|mistaken)(?!\s+(?:about|abt|to|for|in)\b)"
    r"|(?:had|got)\s+(?:it|that|the\s+\w+|(?:his|her|their|its|my)\s+\w+)\s+wrong)\b"
    r"|정정|잘못\s?(?:말했|말함|썼|씀|적었|적음|쳤|침|알았|알고)|오타|헷갈렸|헷갈려서|착각"
    r"|間違えた|間違えました|間違ってた|まちがえた|まちがえてた|まちがってた|言い間違"
    r"|訂正|正しくは|混ざって|勘違い|打ち間違|誤字"
    r"|(?:さっき|(?<![名お午手])前|この前|こないだ|昨日)の(?:は)?間違い(?=です|でした|だった|[!！。、w\s]|$)"
    r"|说错了|打错了|写错了|更正|纠正|搞错了|记错了|口误|搞混了",
    re.IGNORECASE,
)
"""A viewer saying they misspoke: what follows replaces what they told last."""


def says_misspoke(text: str) -> bool:
    """Whether ``text`` says the viewer misspoke (what it tells replaces what they told)."""
    return _CORRECTION.search(text) is not None


def corrects_with_a_value(text: str) -> bool:
    """Whether ``text`` says the viewer misspoke and then names what holds: a name, a
    number or a katakana word after the saying ("학교 이름 잘못 말함 it's Leiden",
    "間違えた、正しくは3月8日"), not only that they misspoke. "I mean" alone is a filler
    of talk, not a correction naming a value."""
    said = _CORRECTION.search(text)
    if said is None or _FILLER_MEAN.fullmatch(said.group(0)):
        return False
    rest = text[said.end() :]
    return bool(value_words(rest)) or _DIGIT.search(rest) is not None


def only_misspeaking(text: str) -> bool:
    """Whether ``text`` says nothing but that the viewer misspoke ("my bad", "I had it
    wrong"): no value to put in a fact's place."""
    rest = _CORRECTION.sub(" ", text)
    return len(_WORD.findall(rest.replace("I ", " "))) == 0


_FILLER_MEAN = re.compile(r"i\s+mean", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[^\W_]{2,}")
