"""What the reply path reads from an exchange's words, read once when it is stored.

The reply path reads four things from a candidate exchange's two messages: which groups of
the viewer profile the viewer's message is about (:mod:`.associations`), whether either
message asks something (:mod:`.neighbours`), what it said in comparable form and its words
(repeats, :mod:`.diversity`) and its quoted prompt line (:mod:`.context`). Read from the
words they cost about 115 us an exchange no cache holds, and a viewer's first reply reads a
dozen or more. Their words do not change (a redaction that rewrites them writes new
readings), so the write path reads them once (:func:`with_readings`) and the store keeps
them in the episode's row (:attr:`~omoide.domain.Episode.readings`), which goes wherever
the episode goes: deleted, forgotten or copied with it. Measured at 100,000 episodes (query
vector precomputed, every text cache empty, the same queries read both ways in one
process): p50 5.9 -> 4.8 ms, p95 9.8 -> 7.4 ms; writing costs the 115 us once.

What is kept is the readings' text (JSON) beginning with :data:`READINGS_FORMAT`: this
code's version of the readings with those of what they are made of (the keyword analysis,
the Unicode database). An exchange stored before readings were kept (``None``), or by code
whose readings differ (another format), is read from its words exactly as before, so an
upgrade never serves a stale reading: bump :data:`READINGS_VERSION` with every change that
can alter a reading of any text (a test pins the readings of a fixed corpus to it).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

from omoide.domain import Episode
from omoide.fence import as_data
from omoide.memory.extraction.clauses import asks_something
from omoide.memory.facet_cues import cued_facets
from omoide.memory.facets import Facet, facet_of_kind
from omoide.memory.patterns import characters_within
from omoide.store.keywords import ANALYZER_VERSION, analyze_document
from omoide.text_caches import remembers_text

READINGS_VERSION = 6
"""Bump it with every change that can alter a reading of any text (a cue or told word, a
question rule, the fence or the injection phrases, :func:`comparable`, the line length)."""
READINGS_FORMAT = f"{READINGS_VERSION}/{ANALYZER_VERSION}/{unicodedata.unidata_version}"
EPISODE_CHARACTERS = 80
"""How much of what was said an episode's prompt line quotes at least, in characters."""
EPISODE_LENGTH = 160
"""How much it quotes at most in English characters
(:func:`~omoide.memory.patterns.english_equivalent_length`) when that is more: 80
characters of Chinese or Korean say as much as 200-320 of English, so an English line may
be longer ("long day at the dental practice, … and Rafi's in Vancouver, 8 hours behind")."""


QUOTES_CACHED = 8192
"""Texts whose quoted line is remembered per process (a text never changes)."""


@remembers_text
@lru_cache(maxsize=QUOTES_CACHED)
def quoted_text(text: str) -> str:
    """``text`` as an episode's prompt line quotes it: the first :data:`EPISODE_CHARACTERS`
    characters or :data:`EPISODE_LENGTH` English characters, whichever is more."""
    return as_data(text, max(EPISODE_CHARACTERS, characters_within(text, EPISODE_LENGTH)))


@dataclass(frozen=True, slots=True)
class EpisodeReadings:
    """One exchange's readings (see the module's docstring)."""

    facets: frozenset[Facet]
    """The profile groups the viewer's message is about (:func:`memory_facets`)."""
    asks: bool
    """Whether the viewer's message or the character's reply asks something."""
    key: str
    """The digest of :func:`comparable` of what was said (:func:`said`; ``""`` when that is
    empty): two sayings of the same words have the same key."""
    terms: frozenset[str]
    """The keyword terms of what was said."""
    quoted: str
    """What was said, as the prompt quotes it (:func:`quoted_text`)."""


def said(episode: Episode) -> str:
    """What an episode is about for comparison: the viewer's words, else the reply."""
    return episode.user_message if episode.user_message.strip() else episode.bot_message


def read_episode(episode: Episode) -> EpisodeReadings:
    """``episode``'s readings, read from its words (never the kept ones)."""
    key, terms = _saying(said(episode))
    return EpisodeReadings(
        facets=memory_facets(episode.user_message),
        asks=_asks(episode.user_message) or _asks(episode.bot_message),
        key=key,
        terms=terms,
        quoted=quoted_text(said(episode)),
    )


def with_readings(episode: Episode) -> Episode:
    """``episode`` carrying its readings, to be kept with it: a JSON list of the format and
    the readings, the groups and the terms each as one string of words (neither holds a
    space: a term is a run of letters and digits)."""
    readings = read_episode(episode)
    encoded = [
        READINGS_FORMAT,
        " ".join(sorted(readings.facets)),
        readings.asks,
        readings.key,
        " ".join(sorted(readings.terms)),
        readings.quoted,
    ]
    return replace(episode, readings=json.dumps(encoded, ensure_ascii=False))


KEPT_DECODED = 8192
"""Kept readings held decoded per process, by their text."""


_KEPT_PREFIX = json.dumps([READINGS_FORMAT])[:-1]


@remembers_text
@lru_cache(maxsize=KEPT_DECODED)
def _decoded(kept: str) -> EpisodeReadings | None:
    """The readings ``kept`` holds, or ``None`` when another format (version) wrote them
    or they cannot be read (a row changed by hand): the words are read instead."""
    if not kept.startswith(_KEPT_PREFIX):
        return None
    try:
        _, facets, asks, key, terms, quoted = json.loads(kept)
        return EpisodeReadings(
            frozenset(Facet(facet) for facet in facets.split()),
            bool(asks),
            str(key),
            frozenset(terms.split()),
            str(quoted),
        )
    except (ValueError, TypeError, AttributeError):
        return None


def kept_readings(episode: Episode) -> EpisodeReadings | None:
    """The readings kept with ``episode`` if this code wrote them, else ``None``."""
    kept = episode.readings
    return None if kept is None else _decoded(kept)


def told_facets(episode: Episode) -> frozenset[Facet]:
    """The profile groups the viewer's message is about."""
    kept = kept_readings(episode)
    return kept.facets if kept is not None else memory_facets(episode.user_message)


def asked(episode: Episode) -> bool:
    """Whether the viewer's message or the character's reply asked something."""
    kept = kept_readings(episode)
    if kept is not None:
        return kept.asks
    return _asks(episode.user_message) or _asks(episode.bot_message)


def saying(episode: Episode) -> tuple[str, frozenset[str]]:
    """The key of what the episode said (:attr:`EpisodeReadings.key`), and its terms."""
    kept = kept_readings(episode)
    return (kept.key, kept.terms) if kept is not None else _saying(said(episode))


def quoted_saying(episode: Episode) -> str:
    """What the episode said (:func:`said`) as its prompt line quotes it."""
    kept = kept_readings(episode)
    return kept.quoted if kept is not None else quoted_text(said(episode))


FACETS_CACHED = 4096
"""Exchanges whose groups are remembered per process (their text never changes)."""


@remembers_text
@lru_cache(maxsize=FACETS_CACHED)
def memory_facets(text: str) -> frozenset[Facet]:
    """The profile groups a remembered message is about: its cue words and the words
    naming what viewers tell in passing."""
    # the fact rules' tables load with the first lift (a reply): a search lifts nothing
    from omoide.memory.extraction.mentions import told_kinds

    told = {facet_of_kind(kind) for kind in told_kinds(text)}
    return cued_facets(text) | {facet for facet in told if facet is not None}


QUESTIONS_CACHED = 8192
"""Messages whose reading as a question is remembered per process (a text never changes)."""
_asks = remembers_text(lru_cache(maxsize=QUESTIONS_CACHED)(asks_something))

_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]")
"""A character ``str.isalnum`` refuses: its complement is exactly ``isalnum`` (checked on
every code point by a test), so ``re`` removes them instead of a look at each character."""


def comparable(text: str) -> str:
    """``text`` folded to its letters and digits (NFKC, case-folded): what two sayings
    of the same words have in common."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_LETTER_OR_DIGIT.sub("", folded)


SAYINGS_CACHED = 8192
"""Texts whose comparable form and words are remembered per process (texts never change)."""


@remembers_text
@lru_cache(maxsize=SAYINGS_CACHED)
def _saying(text: str) -> tuple[str, frozenset[str]]:
    """The digest of ``text``'s :func:`comparable` form (``""`` for an empty one) and its
    keyword terms. A digest of 128 bits: two different forms share it with a chance of
    about 2**-128, and a pasted text's key stays short."""
    folded = comparable(text)
    key = hashlib.blake2b(folded.encode(), digest_size=16).hexdigest() if folded else ""
    return key, frozenset(analyze_document(text))
