"""What a turn is about: topics found in its own text, the viewer's message first.

Two sources, in this order of priority:

1. a keyword dictionary (:mod:`omoide.character.topic_vocabulary`) of common stream topics
   and game titles in Korean, Japanese, Chinese and English; a title also yields its
   category (``롤`` -> ``League of Legends``, then ``games``);
2. proper nouns the dictionary does not know, written in Latin letters: capitalised words
   mid-sentence in Latin-script text (``I played Hollow Knight`` -> ``Hollow Knight``), and
   any Latin word inside Korean, Japanese or Chinese text (``hades 했어`` -> ``hades``),
   where Latin letters almost always spell a name. The character's and viewer's names,
   grammar, common words and interjections (``lol``, ``www``, ``Ehehe``, ``makes``; see
   :mod:`omoide.character.topic_filler`) are skipped.

Within one text, dictionary topics come in order of appearance, then implied categories,
then proper nouns. An exchange's topics are the viewer's message's; the character's reply
may only add dictionary topics that share a topic or category with the viewer's message
(``I played a game`` / ``Was it Minecraft?`` adds ``Minecraft``), never free words. When the
viewer's message is empty (an imported reply on its own), the reply's dictionary topics
stand. A turn's topics never come from earlier turns: :meth:`TopicTracker.update` keeps
those on the character's state, for the prompt only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from omoide.character.topic_filler import is_filler_word
from omoide.character.topic_vocabulary import DEFAULT_VOCABULARY, TopicEntry
from omoide.errors import InvalidInput
from omoide.store.records.character_state import MAX_RECENT_TOPICS, MAX_TOPIC_CHARS, CharacterState
from omoide.store.records.profile import CharacterProfile

DEFAULT_KEEP: Final = 5
MAX_PROPER_NOUNS_PER_TEXT: Final = 3
MAX_PHRASE_WORDS: Final = 4

TOPIC_TEXT_CHARS = 4000
_LATIN_LETTER = "A-Za-z\u00c0-\u024f"
_HANGUL = "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f"
_CJK_TEXT = re.compile(f"[{_HANGUL}\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_PARTICLE_STARTS = "은는이가을를도만에의와과로으랑나야요께서하해했할한함좀중인엔임입며면처보까부라"
_NOT_LATIN_BEFORE = f"(?<![{_LATIN_LETTER}0-9])"
_NOT_LATIN_AFTER = f"(?![{_LATIN_LETTER}0-9])"
_NOT_HANGUL_BEFORE = f"(?<![{_HANGUL}])"
_WORD_END_OR_PARTICLE = f"(?:(?![{_HANGUL}])|(?=[{_PARTICLE_STARTS}]))"
_TOKEN = re.compile(f"[{_LATIN_LETTER}][{_LATIN_LETTER}0-9'’\\-]*|[0-9]+")
_URL_OR_MENTION = re.compile(r"(?:https?://|www\.)\S+|@\S+", re.IGNORECASE)
_SENTENCE_END = ".!?。！？…\n"
_OPENING_MARKS = " \t\"'“‘(「『["


@dataclass(frozen=True, slots=True)
class _Found:
    position: int
    entry: TopicEntry


def _keyword_pattern(keyword: str, *, exact_case: bool) -> str:
    """The regular expression for one keyword (notation in :mod:`topic_vocabulary`)."""
    prefix = keyword.endswith("~")
    strict = keyword.endswith("$")
    word = keyword.rstrip("~$")
    body = r"\s+".join(re.escape(part) for part in word.split())
    if re.search(f"[{_LATIN_LETTER}]", word):
        tail = f"[{_LATIN_LETTER}]*" if prefix else ("" if exact_case else "(?:e?s)?")
        pattern = _NOT_LATIN_BEFORE + body + tail + _NOT_LATIN_AFTER
        return pattern if exact_case else f"(?i:{pattern})"
    if re.search(f"[{_HANGUL}]", word):
        single_syllable = len(word) == 1
        ending = _WORD_END_OR_PARTICLE if (strict or single_syllable) and not prefix else ""
        return _NOT_HANGUL_BEFORE + body + ending
    return body


@functools.lru_cache(maxsize=16)
def _compile(vocabulary: tuple[TopicEntry, ...]) -> tuple[tuple[TopicEntry, re.Pattern[str]], ...]:
    """One alternation per entry; cached, since a big vocabulary takes a while to compile."""
    compiled = []
    for entry in vocabulary:
        patterns = [_keyword_pattern(word, exact_case=False) for word in entry.keywords]
        patterns += [_keyword_pattern(word, exact_case=True) for word in entry.exact_case]
        compiled.append((entry, re.compile("|".join(patterns))))
    return tuple(compiled)


def _name_tokens(names: Iterable[str]) -> frozenset[str]:
    tokens: set[str] = set()
    for name in names:
        tokens.update(token.casefold() for token in _TOKEN.findall(name))
        tokens.update(part.casefold() for part in re.split(r"[\s()（）/,]+", name) if part)
    return frozenset(tokens)


def _is_sentence_start(text: str, position: int) -> bool:
    index = position - 1
    while index >= 0 and text[index] in _OPENING_MARKS:
        index -= 1
    return index < 0 or text[index] in _SENTENCE_END


def _clean_token(token: str) -> str:
    for suffix in ("'s", "’s"):
        if token.endswith(suffix):
            return token[: -len(suffix)]
    return token.rstrip("'’-")


class TopicTracker:
    """Extracts topics from an exchange and keeps the ``keep`` most recent on the state."""

    def __init__(
        self,
        *,
        keep: int = DEFAULT_KEEP,
        vocabulary: Sequence[TopicEntry] = DEFAULT_VOCABULARY,
        ignored_names: Collection[str] = (),
    ) -> None:
        if (
            isinstance(keep, bool)
            or not isinstance(keep, int)
            or not 1 <= keep <= MAX_RECENT_TOPICS
        ):
            raise InvalidInput(f"keep must be an integer in [1, {MAX_RECENT_TOPICS}]")
        self._keep = keep
        self._vocabulary = tuple(vocabulary)
        self._compiled: tuple[tuple[TopicEntry, re.Pattern[str]], ...] | None = None
        self._ignored = _name_tokens(ignored_names)

    @classmethod
    def for_profile(
        cls,
        profile: CharacterProfile,
        *,
        keep: int = DEFAULT_KEEP,
        vocabulary: Sequence[TopicEntry] = DEFAULT_VOCABULARY,
    ) -> TopicTracker:
        """A tracker that never takes the character's own name for a topic."""
        return cls(keep=keep, vocabulary=vocabulary, ignored_names=(profile.name, profile.id))

    @property
    def keep(self) -> int:
        return self._keep

    def extract(
        self, user_message: str, reply: str = "", *, viewer_name: str | None = None
    ) -> tuple[str, ...]:
        """Topics of one exchange, deduplicated: the viewer's message's, then the reply's
        dictionary topics that share a topic or category with them. A long text (a paste)
        is read from its first ``TOPIC_TEXT_CHARS`` characters: the topics of a 100,000
        character message took half a minute and name its beginning anyway."""
        ignored = self._ignored | _name_tokens([viewer_name] if viewer_name else [])
        user_message, reply = user_message[:TOPIC_TEXT_CHARS], reply[:TOPIC_TEXT_CHARS]
        own = self._topics_of(user_message, ignored)
        return _deduplicate(
            [*own, *self._reply_topics(reply, own, user_message)], limit=MAX_RECENT_TOPICS
        )

    def update(
        self,
        state: CharacterState,
        *,
        user_message: str,
        reply: str,
        viewer_name: str | None = None,
    ) -> CharacterState:
        """``state`` with this exchange's topics in front of the ones it already had."""
        fresh = self.extract(user_message, reply, viewer_name=viewer_name)
        topics = _deduplicate([*fresh, *state.recent_topics], limit=self._keep)
        return replace(state, recent_topics=topics)

    def _reply_topics(self, reply: str, own: Sequence[str], user_message: str) -> list[str]:
        """The reply's dictionary topics the viewer's message shares (all of them when the
        viewer said nothing); never the reply's free words."""
        if not reply.strip():
            return []
        matches, _ = self._dictionary_matches(_without_links(reply))
        if not user_message.strip():
            return [
                *(found.entry.topic for found in matches),
                *(found.entry.category for found in matches if found.entry.category),
            ]
        said = {topic.casefold() for topic in own}
        return [
            found.entry.topic
            for found in matches
            if found.entry.topic.casefold() in said
            or (found.entry.category or "").casefold() in said
        ]

    def _topics_of(self, text: str, ignored: frozenset[str]) -> list[str]:
        text = _without_links(text)
        matches, covered = self._dictionary_matches(text)
        topics = [found.entry.topic for found in matches]
        topics += [found.entry.category for found in matches if found.entry.category]
        topics += _proper_nouns(text, covered, ignored)
        return topics

    def _patterns(self) -> tuple[tuple[TopicEntry, re.Pattern[str]], ...]:
        """The vocabulary compiled on first use, not when built: a command that only reads
        memory builds a tracker it never asks."""
        if self._compiled is None:
            self._compiled = _compile(self._vocabulary)
        return self._compiled

    def _dictionary_matches(self, text: str) -> tuple[list[_Found], list[tuple[int, int]]]:
        """The entries named in ``text`` by first appearance, and every span naming one."""
        matches: list[_Found] = []
        covered: list[tuple[int, int]] = []
        for entry, pattern in self._patterns():
            spans = [hit.span() for hit in pattern.finditer(text)]
            if spans:
                matches.append(_Found(min(start for start, _ in spans), entry))
                covered += spans
        matches.sort(key=lambda found: found.position)
        return matches, covered


def _without_links(text: str) -> str:
    return _URL_OR_MENTION.sub(lambda match: " " * len(match.group()), text)


def _deduplicate(topics: Iterable[str], *, limit: int) -> tuple[str, ...]:
    seen: set[str] = set()
    kept: list[str] = []
    for topic in topics:
        key = topic.casefold()
        if key in seen:
            continue
        seen.add(key)
        kept.append(topic[:MAX_TOPIC_CHARS])
        if len(kept) == limit:
            break
    return tuple(kept)


def _proper_nouns(
    text: str, covered: Sequence[tuple[int, int]], ignored: frozenset[str]
) -> list[str]:
    """Latin-letter names the dictionary did not cover, at most a few per text."""
    in_cjk_text = _CJK_TEXT.search(text) is not None
    phrases: list[list[re.Match[str]]] = []
    for match in _TOKEN.finditer(text):
        token = _clean_token(match.group())
        previous = phrases[-1][-1] if phrases and phrases[-1] else None
        joins = previous is not None and text[previous.end() : match.start()] == " "
        if token.isdigit():
            if joins and len(phrases[-1]) < MAX_PHRASE_WORDS:
                phrases[-1].append(match)
            continue
        is_candidate = (
            len(token) >= 2
            and not is_filler_word(token)
            and token.casefold() not in ignored
            and not any(start < match.end() and match.start() < end for start, end in covered)
            and (in_cjk_text or token[0].isupper())
        )
        if not is_candidate:
            phrases.append([])
        elif joins and len(phrases[-1]) < MAX_PHRASE_WORDS:
            phrases[-1].append(match)
        else:
            phrases.append([match])
    return _phrases_to_topics(text, phrases, in_cjk_text=in_cjk_text)


def _phrases_to_topics(
    text: str, phrases: Sequence[Sequence[re.Match[str]]], *, in_cjk_text: bool
) -> list[str]:
    topics: list[str] = []
    for phrase in phrases:
        if not phrase:
            continue
        lone_opener = len(phrase) == 1 and _is_sentence_start(text, phrase[0].start())
        if lone_opener and not in_cjk_text:
            continue
        words = [_clean_token(match.group()) for match in phrase]
        topics.append(" ".join(words))
        if len(topics) == MAX_PROPER_NOUNS_PER_TEXT:
            break
    return topics
