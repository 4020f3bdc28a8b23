"""The pieces fact rules are written with: the rule type, subject prefixes, copulas, dates.

Shared by the rule tables (``memory.extraction.patterns``, ``memory.extraction.life``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from omoide.memory.extraction.vocab import EN_ADVERBS, ZH_ADVERBS, ZH_CONJUNCTIONS

Script = Literal["en", "ko", "ja", "zh"]


@dataclass(frozen=True, slots=True)
class FactRule:
    kind: str
    """A key of ``memory.facts.text.KINDS``."""
    script: Script
    pattern: re.Pattern[str]
    others_ok: bool = False
    """Korean/Japanese: fires even when the clause's subject is someone else."""


ZH_PREFIX = rf"^\s*(?:(?:{ZH_CONJUNCTIONS})\s*)*(?:我|本人)?\s*(?:(?:{ZH_ADVERBS})\s*)*"
ZH_I_PREFIX = rf"^\s*(?:(?:{ZH_CONJUNCTIONS})\s*)*(?:我|本人)\s*(?:(?:{ZH_ADVERBS})\s*)*"
KO_COPULA = r"(?:이에요|예요|에요|이야|야|입니다|이고|이다|임|이요|요|라고\s*해요?|이라고\s*해요?)?"
JA_COPULA = (
    r"(?:です(?:よ|ね)?|だよ?|なんだ|なんです|って言います|っていいます|と言います"
    r"|といいます|と申します)?"
)
KO_NUM = r"(?:\d{1,2}|[일이삼사오육칠팔구십]{1,3})"
ZH_NUM = r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})"
EN_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
EN_DATE = (
    rf"(?:{EN_MONTHS}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"{EN_MONTHS}|the\s+\d{{1,2}}(?:st|nd|rd|th)\b|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|\d{{4}}-\d{{2}}-\d{{2}})"
)
I_ = r"\bI"
I_AM = r"\bI(?:'m|\s+am|m)"
I_HAVE = r"\bI(?:'ve|\s+have)"
I_S = r"(?:\bI\s+|^)"
I_AM_S = r"(?:\bI(?:'m|\s+am|m)\s+|(?:\bI(?:'ve|\s+have)\s+|^)been\s+|^)"
I_HAVE_S = r"(?:\bI(?:'ve|\s+have)\s+|^)"
"""The subject and its space, or nothing at the start of a clause: chat English drops
"I" ("quit vaping", "allergic to cats", "been vegan for years", "into stardew lately");
``I_AM_S`` also takes "I've been" and a bare "been"."""
EN_ADV = rf"(?:(?:{EN_ADVERBS})\s+)*"
EN_LATELY = r"(?:lately|recently|these\s+days|right\s+now|nowadays|at\s+the\s+moment)"

OTHER_PERSON = re.compile(
    r"(?:^|\s)(?:동생|여동생|남동생|친형|친누나|친언니|친오빠|사촌|삼촌|이모|고모|엄마|아빠|어머니|아버지|친구|형|누나|언니|오빠|남친|여친"
    r"|남자친구|여자친구|남편|아내|와이프|아들|딸|걔|쟤|그녀|그|할머니|할아버지|선생님|사장님"
    r"|너|당신|니|네)(?:이|가|은|는|도|께서)(?=\s|$)|(?:^|\s)(?:너|넌|걔|쟤)(?=\s|$)"
    r"|(?:弟|妹|兄|姉|母|父|ママ|パパ|友達|友だち|彼氏|彼女|彼|夫|妻|旦那|嫁|息子|娘|先生"
    r"|あなた|君|きみ|お前|おまえ)(?:さん|ちゃん|くん)?(?:は|が|も)"
)
"""A Korean or Japanese clause whose subject is someone other than the speaker."""


def rule(kind: str, script: Script, pattern: str, *, others_ok: bool = False) -> FactRule:
    return FactRule(kind, script, re.compile(pattern, re.IGNORECASE), others_ok)


SOFTENERS = re.compile(
    r"\b(?:don'?t|do\s+not|not|never)\s+really\b|별로|그다지|あまり|そんなに|不太|不怎么|不是很",
    re.IGNORECASE,
)
"""Words that make a (dis)like weaker: "don't really like", "별로 안 좋아해", "不太喜欢"."""
