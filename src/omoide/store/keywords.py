"""Keyword analysis for every language: the tokens a keyword index stores and searches.

Pure Python and backend-neutral: the SQLite store indexes these tokens with FTS5, and a
sparse-vector backend can count the same tokens for BM25.

The rules, applied after NFKC normalisation and case folding:

* Scripts written with spaces (Latin, Cyrillic, Greek, Arabic, ...): a run of letters,
  digits and combining marks is one token. ``"Deadlock2"`` -> ``deadlock2``.
* A token of ASCII letters only is reduced by the English Snowball stemmer (Porter 2):
  ``games`` and ``game`` are both ``game``, ``adopted`` and ``adoption`` both ``adopt``.
  Measured (``docs/benchmarks.md``): BM25 recall@10 on LoCoMo 0.571 -> 0.612, all@10 on
  LongMemEval 0.710 -> 0.774, MemoryBank hit@10 unchanged. Tokens with digits or other
  letters (``deadlock2``, ``café``, Cyrillic) are left as they are. Documents keep stop
  words; queries drop English function words (see :func:`analyze_query`).
* Scripts written without spaces between words (Han, Hiragana, Katakana, Hangul, Thai,
  Lao, Khmer, Myanmar): a run of such characters is cut into overlapping character
  bigrams, because no dictionary-free tokenizer can find the word boundaries.
  ``"火锅"`` -> ``火锅``; ``"좋아해요"`` -> ``좋아 아해 해요``.
* A document also indexes every character of such a run on its own (unigrams), so a
  one-character word in a query (``猫``, ``롤``, ``吃``) finds it inside longer runs.
  A query uses bigrams only, unless a run is a single character: then that character.
  Bigram matches are rarer than unigram matches, so BM25 ranks them higher.
* Whole Hangul words (eojeol) are not kept as tokens: Korean attaches particles to words
  (``게임을``, ``게임이``), so whole eojeol rarely match the query's form, and the bigrams
  (``게임``) already cover them.
* Everything else (punctuation, symbols, emoji, spaces) separates tokens.
"""

from __future__ import annotations

import enum
import re
import threading
import unicodedata
from bisect import bisect_right
from functools import lru_cache

import snowballstemmer

from omoide.text_caches import remembers_text

ANALYZER_VERSION = 2
"""The version of the analysis below: 1 was before stemming, 2 stems English words.

Bump it with every change that can alter the tokens of any text (a new rule, a changed
range, another stemmer or stop-word list): an index built by one version does not match
the queries of another. The server store records it beside its keyword vectors, and
``omoide check`` reports a stale index (fixed by ``omoide reindex``); the embedded store
re-indexes in a schema migration (add one with the bump).
"""

# Code point ranges of scripts written without spaces between words.
_UNSPACED_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1780, 0x17FF),  # Khmer
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3040, 0x30FF),  # Hiragana, Katakana (with the prolonged sound mark ー)
    (0x3130, 0x318F),  # Hangul Compatibility Jamo
    (0x31F0, 0x31FF),  # Katakana Phonetic Extensions
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xAC00, 0xD7FF),  # Hangul Syllables, Hangul Jamo Extended-B
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFF66, 0xFF9F),  # Halfwidth Katakana (NFKC widens these; kept for safety)
    (0x20000, 0x323AF),  # CJK Unified Ideographs Extensions B-H, Compatibility Supplement
)
_UNSPACED_STARTS = tuple(low for low, _ in _UNSPACED_RANGES)
_UNSPACED_CLASS = "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in _UNSPACED_RANGES)

# ``[^\W_]`` is a letter or digit (``str.isalnum``), which is exactly a character of the
# categories L and N (a test checks every code point). Group 1 is a run of them in a script
# written without spaces, group 2 a run in any other script.
_RUN_PATTERN = re.compile(f"((?:(?=[{_UNSPACED_CLASS}])[^\\W_])+)|([^\\W_{_UNSPACED_CLASS}]+)")
_NON_ASCII_OTHERS = re.compile(r"[^\w\x00-\x7f]")
"""A character that is not ASCII and not a letter or digit: a combining mark is one."""


class _CharacterClass(enum.Enum):
    SEPARATOR = enum.auto()
    WORD = enum.auto()
    UNSPACED = enum.auto()
    MARK = enum.auto()


def normalize(text: str) -> str:
    """NFKC, then case folding, then NFKC again (folding can denormalise)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def analyze_document(text: str, *, stem_words: bool = True) -> list[str]:
    """The tokens to index for ``text``, in order, repeated as often as they occur.

    ``stem_words=False`` is the analysis before stemming (the benchmarks compare both).
    """
    reduce = stem if stem_words else _unchanged
    tokens: list[str] = []
    for run, unspaced in _runs(normalize(text)):
        if not unspaced or len(run) == 1:
            tokens.append(reduce(run))
        else:
            tokens.extend(_bigrams(run))
            tokens.extend(run)
    return tokens


def analyze_query(text: str, *, stem_words: bool = True) -> list[str]:
    """The distinct tokens to search for ``text``, in first-seen order.

    English function words ("what", "do", "you", ...) and laughter ("ㅋㅋ", "www", "哈哈",
    "lol": :func:`is_laughter`) are dropped from queries when the query has any other
    token: in a viewer's small history they match nearly every message. A query made only
    of them keeps them. Stop words are matched before stemming.
    """
    reduce = stem if stem_words else _unchanged
    tokens: list[str] = []
    for run, unspaced in _runs(normalize(text)):
        if unspaced and len(run) > 1:
            tokens.extend(_bigrams(run))
        else:
            tokens.append(run)
    content = [
        token for token in tokens if token not in QUERY_STOP_WORDS and not is_laughter(token)
    ]
    return list(dict.fromkeys(reduce(token) for token in content or tokens))


_LAUGHTER = re.compile(
    r"[\u1100-\u11ff\u3130-\u318f]+|w{2,}|(?:ha){2,}h?|(?:he){2,}h?|(?:hi){2,}|l+o+l+|lmf?a+o+"
    r"|xd+|草+|笑+|[哈呵嘿嘻]+"
)


def is_laughter(token: str) -> bool:
    """Laughter, crying and bare jamo ("ㅋㅋ", "ㅠㅠ", "www", "草", "哈哈", "lol"): a token
    that says how the viewer felt, not what they talked about, so it is no search term."""
    return _LAUGHTER.fullmatch(token) is not None


_STEMMERS = threading.local()
"""One Snowball stemmer per thread: a stemmer keeps its working word in its own state."""


def _unchanged(token: str) -> str:
    return token


def stem(token: str) -> str:
    """The English Snowball stem of a token of ASCII letters; any other token unchanged."""
    if not (token.isascii() and token.isalpha()):
        return token
    return _english_stem(token)


@remembers_text
@lru_cache(maxsize=65536)
def _english_stem(token: str) -> str:
    """Cached: a Snowball stem costs ~18 us. Only ASCII words are held, and
    :func:`omoide.text_caches.forget_cached_texts` drops them when memory is forgotten."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = snowballstemmer.stemmer("english")
        _STEMMERS.english = stemmer
    return str(stemmer.stemWord(token))


def cached_word_count() -> int:
    """How many words the stemmer cache holds now."""
    return _english_stem.cache_info().currsize


QUERY_STOP_WORDS = frozenset(
    """
    a about above after again all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into
    is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would
    you your yours yourself yourselves im ive id youre dont doesnt didnt isnt wasnt
    cant wont thats whats hey hi hello please tell let lets know think really also
    don doesn didn isn wasn aren weren haven hasn won t s m re ve ll d
    today tomorrow tonight yesterday lately
    오늘 내일 어제 지금 요즘 今日 明日 昨日 今天 明天 昨天 现在 現在 最近
    """.split()  # noqa: SIM905 (a word block reads better than 150 quoted strings)
)
"""Also the words of *when* (today, tomorrow, 오늘, 明日, 今天, …: the two-character
tokens of the unspaced scripts): every day's chat has them, so a memory that shares
only its day with the message is not about the same thing; recency weighs time."""


def _bigrams(run: str) -> list[str]:
    return [run[index : index + 2] for index in range(len(run) - 1)]


def _runs(text: str) -> list[tuple[str, bool]]:
    """Split normalised text into maximal runs of one class: (run, is_unspaced_script).

    One regular expression finds the runs unless the text has a combining mark (they
    attach to the run before them), which is left to the character-by-character rules.
    """
    if not text.isascii() and _has_marks(text):
        return _runs_by_character(text)
    return [(unspaced or word, bool(unspaced)) for unspaced, word in _RUN_PATTERN.findall(text)]


def _has_marks(text: str) -> bool:
    """Whether ``text`` has a combining mark (category M)."""
    category = unicodedata.category
    return any(category(character)[0] == "M" for character in _NON_ASCII_OTHERS.findall(text))


def _runs_by_character(text: str) -> list[tuple[str, bool]]:
    """Split normalised text into maximal runs of one class: (run, is_unspaced_script)."""
    runs: list[tuple[str, bool]] = []
    current: list[str] = []
    current_class = _CharacterClass.SEPARATOR
    for character in text:
        kind = _classify(character)
        if kind is _CharacterClass.MARK and current:
            current.append(character)  # a combining mark belongs to the run it follows
            continue
        if kind is _CharacterClass.MARK:
            kind = _CharacterClass.WORD
        if kind is not current_class and current:
            runs.append(("".join(current), current_class is _CharacterClass.UNSPACED))
            current = []
        current_class = kind
        if kind is not _CharacterClass.SEPARATOR:
            current.append(character)
    if current:
        runs.append(("".join(current), current_class is _CharacterClass.UNSPACED))
    return runs


def _classify(character: str) -> _CharacterClass:
    category = unicodedata.category(character)
    if _is_unspaced_script(character):
        if category[0] in "LNM":
            return _CharacterClass.UNSPACED
        return _CharacterClass.SEPARATOR  # e.g. the Japanese middle dot ・
    if category[0] in "LN":
        return _CharacterClass.WORD
    if category[0] == "M":
        return _CharacterClass.MARK
    return _CharacterClass.SEPARATOR


def _is_unspaced_script(character: str) -> bool:
    code_point = ord(character)
    index = bisect_right(_UNSPACED_STARTS, code_point) - 1
    return index >= 0 and code_point <= _UNSPACED_RANGES[index][1]
