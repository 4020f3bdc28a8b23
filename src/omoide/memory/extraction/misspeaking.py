"""A viewer saying they misspoke: what they say next replaces what they told.

"my bad", "잘못 말함", "間違えた", "说错了": the message corrects a fact
(:func:`~omoide.memory.extraction.rules.decide`); when the same words name what holds
("학교 이름 잘못 말함 it's Leiden", "間違えた、正しくは3月8日"), they are the correction.
"""

from __future__ import annotations

import re

_CORRECTION = re.compile(
    r"\b(?:my\s+bad|i\s+mean|i\s+meant|correction|scratch\s+that|wait\s+no|i\s+misspoke"
    r"|mix(?:ed|ing)\s+(?:it|them)\s+up|typo|autocorrect(?:ed)?"
    r"|(?:had|got)\s+(?:it|that|the\s+\w+|(?:his|her|their|its|my)\s+\w+)\s+wrong)\b"
    r"|정정|잘못\s?(?:말했|말함|썼|씀|적었|적음|쳤|침|알았|알고)|오타|헷갈렸|헷갈려서|착각"
    r"|間違えた|間違えました|間違ってた|まちがえた|まちがえてた|まちがってた|言い間違"
    r"|訂正|正しくは|混ざって|勘違い|打ち間違|誤字"
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
    "間違えた、正しくは3月8日"), not only that they misspoke."""
    said = _CORRECTION.search(text)
    return said is not None and _A_VALUE.search(text[said.end() :]) is not None


_A_VALUE = re.compile(
    r"(?<![\w'])(?!(?:It|The|This|That|She|He|They|We|You|And|But|So|Not|Now|Sorry)\b)"
    r"[A-Z][\w'+-]{2,}|\d|[\u30a1-\u30fa\u30fc]{2,}"
)
