"""Does a text read like an attempt to instruct the model? (English, Korean, Japanese, Chinese)

A flagged text is still remembered (what a viewer tried is worth knowing), but the prompt
quotes it as reported speech (:func:`omoide.fence.as_data`). Detection is a list of
phrases; the fence and the prompt's preamble are the defence for what it misses.

Before matching, a text is normalised the ways attackers disguise phrases:

* NFKC (full-width ``ｉｇｎｏｒｅ``), invisible characters removed (``ig\\u200dnore``),
  case folded;
* look-alike letters from Cyrillic and Greek made Latin (``іgnоrе`` with Cyrillic і, о, е);
* digits and symbols inside words read as letters (``1gn0r3``, ``pr3v!ous``), trying
  ``1`` and ``|`` as both ``i`` and ``l``;
* letters spelt out one at a time (``i g n o r e``, ``i.g.n.o.r.e``) joined back.

The English phrases are then also looked for in the text with everything but letters
removed (``ignore-all_previous...instructions``), and the Korean, Japanese and Chinese
ones in the text without spaces (``무 시 해``). ``benchmarks`` holds nothing for this: the
catch rate and false positives are measured by ``tests/hostile/test_injection_forms.py``.

Every memory line of a reply is read here once per process (:func:`omoide.fence.as_data`),
so a reading skips what cannot match it: the leet readings of a text holding no digit or
symbol they replace (they would be the text itself), the English phrases in a reading
without a Latin letter, the Korean ones in a reading without a Hangul syllable, the
Japanese ones without a kana or ideograph, the Chinese ones without an ideograph (every
phrase needs a letter of its own script, which ``tests/memory/test_reply_path_speedups.py``
reads from the patterns themselves). The English phrases are searched as one alternation.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

_CONFUSABLES: Final = str.maketrans(
    "аеорсухіјѕԁһԛԝвкмнтґɡαβεικνορτυχϲ",
    "aeopcyxijsdhqwbkmhtrgabeikvoptuxc",
)
"""Cyrillic and Greek letters that look like Latin ones, after case folding."""
_LEET_I: Final = str.maketrans("013457@$!|+", "oieastasiit")
_LEET_L: Final = str.maketrans("013457@$!|+", "oleastasilt")
_LEET_CHARACTER: Final = re.compile(r"[013457@$!|+]")
"""What the leet readings replace: a text without one reads the same in them."""
_LATIN_LETTER: Final = re.compile(r"[a-z]")
"""What every English phrase holds (readings are case folded)."""
_MIXED_WORD: Final = re.compile(r"[\w@$!|+]*[a-z][\w@$!|+]*")
_SPELT_OUT: Final = re.compile(r"(?<![\w])(?:\w[ .\-_*·,]){2,}\w(?![\w])")
_NOT_LETTERS: Final = re.compile(r"[\W\d_]+")
_SPACE: Final = re.compile(r"\s+")


def _compiled(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in patterns)


def _any_of(patterns: tuple[re.Pattern[str], ...]) -> re.Pattern[str]:
    """One pattern that matches somewhere exactly when one of ``patterns`` does: their
    alternation (none of them refers back to a group or sets a flag)."""
    return re.compile("|".join(f"(?:{pattern.pattern})" for pattern in patterns))


_ENGLISH: Final = _compiled(
    r"\b(ignore|disregard|forget|override|bypass|skip|drop)\b.{0,40}?\b(instructions?"
    r"|prompts?|rules|directions|guidelines|directives|system message|programming"
    r"|constraints|guardrails|filters)\b",
    r"\byou(?: are|'re| will)(?: no longer\b| now (?:a|an|in|free|no|not|called|named|dan"
    r"|evil|unrestricted|unfiltered|jailbroken|allowed|able|going to|my (?:slave|servant))\b)",
    r"\bfrom now on\b[\s,]*(you|act|respond|reply|answer|speak|talk|always|never|only)\b",
    r"\b(pretend|act) (to be|you are|you're|as if|as an?)\b",
    r"\b(new|updated|real|actual|hidden|secret|original|initial) (instructions?"
    r"|system prompt|rules|prompt)\b",
    r"\bsystem prompt\b|\bjailbreak|\bdeveloper mode\b|\bdo anything now\b|\bgod mode\b",
    r"\byou (must|shall|have to) (now )?(always|never|obey|ignore|forget|say|respond|reply)\b",
    r"\b(print|repeat|output|reveal|echo|dump|recite|leak|spit out|write out|type out)\b"
    r".{0,40}?\b(above|verbatim|word for word|preceding|your (instructions|prompt|rules))\b",
    r"\b(show|tell|give|display|reveal)\b.{0,20}?\b(your|the) (system |initial |original )?"
    r"(instructions|prompt|rules you were given)\b",
    r"\beverything (above|before) (this|that|here)\b",
    r"\b(what|which) (are|were) your (instructions|rules|orders)\b",
)
_SQUEEZED: Final = _compiled(
    r"(ignore|disregard|forget|override|bypass)[a-z]{0,24}?(instructions?|prompts?"
    r"|rules|guidelines|directives)",
    r"systemprompt|developermode|jailbreak|doanythingnow",
    r"(print|repeat|output|reveal)[a-z]{0,20}?(above|verbatim)",
    r"fromnowonyou(are|must|will)",
)
_ANY_ENGLISH: Final = _any_of(_ENGLISH)
_ANY_SQUEEZED: Final = _any_of(_SQUEEZED)
"""The English phrases searched at once: one pass over a reading, not one per phrase (the
Korean, Japanese and Chinese ones stay apart: each starts with a literal ``re`` looks
for quickly, which their alternation would lose)."""
_KOREAN: Final = _compiled(
    r"(지시|지침|명령|규칙|프롬프트|설정|지령)\S{0,3}\s*(모두|전부|다)?\s*(무시|잊)",
    r"(지금부터|이제부터|앞으로)\s*(너는|넌|당신은|너|당신)",
    r"(너는|넌|당신은)\s*이제",
    r"시스템\s*프롬프트|탈옥",
    r"(위|이전|앞)(의|에\s*있는)?\s*(내용|글|텍스트|지시|문장)\S{0,2}\s*(전부|모두|다)?\s*"
    r"(그대로|똑같이)?\s*(출력|보여|알려|반복|말해)",
)
_JAPANESE: Final = _compiled(
    r"(指示|命令|ルール|プロンプト|設定|指令|制約)\S{0,4}?(無視|忘れ)",
    r"(今から|これから|今後)\S{0,2}(あなた|君|きみ|お前|おまえ)(は|が)",
    r"(あなた|君|お前)は(今から|これから|もう)",
    r"システムプロンプト|脱獄",
    r"(上記|上の|以上の|これまでの)\S{0,6}?(そのまま|全部|すべて|全て)?\S{0,3}?"
    r"(出力|表示|繰り返|書き出)",
)
_CHINESE: Final = _compiled(
    r"(忽略|无视|無視|忽视|忽視|忘记|忘記|忘掉|不要理会|不要理會)\S{0,8}?"
    r"(指令|指示|命令|规则|規則|提示|设定|設定|要求)",
    r"(从现在开始|從現在開始|从现在起|從現在起|现在起|現在起)\S{0,2}(你|您)",
    r"(你|您)(现在|現在)是",
    r"系统提示|系統提示|越狱|越獄",
    r"(输出|打印|重复|显示|輸出|列印|重複|顯示)\S{0,4}?(以上|上面|上述|前面)",
    r"(以上|上面|上述|前面)\S{0,6}?(原样|原樣|逐字|完整)\S{0,2}?(输出|打印|重复|輸出|重複)",
)
_HANGUL: Final = re.compile("[\uac00-\ud7a3]")
_KANA_OR_HAN: Final = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
_HAN: Final = re.compile("[\u4e00-\u9fff]")
_CJK_BY_SCRIPT: Final = (
    (_HANGUL, _KOREAN),
    (_KANA_OR_HAN, _JAPANESE),
    (_HAN, _CHINESE),
)
"""Each language's phrases with the letters every one of them holds (a syllable, a kana
or ideograph, an ideograph): a reading without them is not searched for the phrases."""
_CJK: Final = (*_KOREAN, *_JAPANESE, *_CHINESE)


def _visible(text: str) -> str:
    """NFKC, case folded, without control and invisible format characters."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if folded.isprintable():  # printable text holds no control or format character
        return folded
    return "".join(
        character for character in folded if unicodedata.category(character) not in ("Cc", "Cf")
    )


def _unspelt(text: str) -> str:
    """Runs of single letters with separators (``i g n o r e``) joined into words."""
    return _SPELT_OUT.sub(lambda match: _NOT_LETTERS.sub("", match.group(0)), text)


def _read_leet(text: str, table: dict[int, int]) -> str:
    """Digits and symbols inside words (``1gn0r3``) read as the letters they stand for."""
    return _MIXED_WORD.sub(lambda match: match.group(0).translate(table), text)


def probes(text: str) -> tuple[str, ...]:
    """The normalised readings of ``text`` that the phrases are matched against."""
    base = _unspelt(_visible(text).translate(_CONFUSABLES))
    readings = {base}
    if _LEET_CHARACTER.search(base) is not None:
        readings |= {_read_leet(base, table) for table in (_LEET_I, _LEET_L)}
    return tuple(_SPACE.sub(" ", reading) for reading in sorted(readings))


def looks_like_instruction(text: str) -> bool:
    """Whether ``text`` reads like an attempt to instruct the model (see the module)."""
    return any(_english_phrase(reading) or _cjk_phrase(reading) for reading in probes(text))


def _english_phrase(reading: str) -> bool:
    if _LATIN_LETTER.search(reading) is None:  # every English phrase holds one
        return False
    squeezed = _NOT_LETTERS.sub("", reading)
    return _ANY_ENGLISH.search(reading) is not None or _ANY_SQUEEZED.search(squeezed) is not None


def _cjk_phrase(reading: str) -> bool:
    if reading.isascii():  # every Korean, Japanese and Chinese phrase holds its own letters
        return False
    unspaced = _SPACE.sub("", reading)
    return any(
        letters.search(reading) is not None
        and any(pattern.search(reading) or pattern.search(unspaced) for pattern in phrases)
        for letters, phrases in _CJK_BY_SCRIPT
    )
