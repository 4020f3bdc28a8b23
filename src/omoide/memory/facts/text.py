"""What a rule fact is: its kind, its slot, and its text in the viewer's own words.

A rule fact's text is the viewer's clause, lightly normalised (:func:`viewer_text`:
fillers, laughter, emoji and edge punctuation trimmed, spacing collapsed), never an English
template around their words: "요즘 배그에 빠져서 매일 새벽까지 해요" stays as said. What the
fact is about is in its fields: the category, a ``slot`` and the key ``terms`` (names,
objects, places, dates as said).

A slot names what the fact fills, so that a later statement about the same thing updates
it. Its shapes (see :class:`Kind`):

* single: one value per viewer ("home", "job", "name", "game_now", "diet"): the same slot
  with other terms supersedes, the same terms confirm;
* keyed: one value per key ("pet:<species or name>", "person:<relation>",
  "plan:<kind>"): the same, per key;
* object: the slot's key *is* the object ("like:<object>", "allergy:<object>"): the same
  slot confirms, an opposite slot ("dislike:<object>", "quit:<object>") supersedes.

Keys are :func:`object_key` forms (NFKC, casefolded, letters and digits only).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from omoide.domain import FactCategory

SlotShape = Literal["single", "keyed", "object"]


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of rule fact: how it is typed and how it changes."""

    key: str
    category: FactCategory
    salience: float
    shape: SlotShape
    slot_name: str = ""
    """The slot (single) or the slot's prefix (keyed, object); defaults to ``key``."""

    @property
    def prefix(self) -> str:
        return self.slot_name or self.key


_P, _PERSONAL, _GOAL = FactCategory.PREFERENCE, FactCategory.PERSONAL, FactCategory.GOAL
_HABIT, _EMOTION = FactCategory.HABIT, FactCategory.EMOTION
_KIND_LIST = (
    Kind("like", _P, 0.5, "object"),
    Kind("dislike", _P, 0.5, "object"),
    Kind("hobby", _P, 0.55, "object"),
    Kind("hooked", _P, 0.6, "object", "like"),
    Kind("game_now", _P, 0.65, "single"),
    Kind("quit", _P, 0.6, "object"),
    Kind("name", _PERSONAL, 0.8, "single"),
    Kind("nickname", _PERSONAL, 0.75, "single"),
    Kind("age", _PERSONAL, 0.6, "single"),
    Kind("job", _PERSONAL, 0.65, "single"),
    Kind("workplace", _PERSONAL, 0.55, "single"),
    Kind("school", _PERSONAL, 0.6, "single"),
    Kind("home", _PERSONAL, 0.65, "single"),
    Kind("hometown", _PERSONAL, 0.55, "single"),
    Kind("birthday", _PERSONAL, 0.8, "single"),
    Kind("pet", _PERSONAL, 0.7, "keyed"),
    Kind("person", _PERSONAL, 0.7, "keyed"),
    Kind("allergy", _PERSONAL, 0.85, "object"),
    Kind("limit", _PERSONAL, 0.75, "object"),
    Kind("diet", _PERSONAL, 0.75, "single"),
    Kind("health", _PERSONAL, 0.75, "object"),
    Kind("style", _PERSONAL, 0.8, "object"),
    Kind("fear", _PERSONAL, 0.7, "object"),
    Kind("care", _EMOTION, 0.8, "keyed"),
    Kind("breakup", _EMOTION, 0.8, "keyed", "person"),
    Kind("plan", _GOAL, 0.8, "keyed"),
    Kind("goal", _GOAL, 0.6, "object"),
    Kind("habit", _HABIT, 0.45, "object"),
    Kind("started", _HABIT, 0.55, "object", "habit"),
    Kind("situation", _EMOTION, 0.65, "object"),
    # told in passing (omoide.memory.extraction.mentions): one per profile group
    Kind("told_identity", _PERSONAL, 0.55, "object"),
    Kind("told_work", _PERSONAL, 0.6, "object"),
    Kind("told_people", _PERSONAL, 0.6, "object"),
    Kind("told_likes", _P, 0.5, "object"),
    Kind("told_health", _PERSONAL, 0.7, "object"),
    Kind("told_plans", _GOAL, 0.65, "object"),
    Kind("told_style", _PERSONAL, 0.65, "object"),
    Kind("told_habits", _HABIT, 0.45, "object"),
    Kind("told_situation", _EMOTION, 0.6, "object"),
    # read by the disclosure model (omoide.memory.extraction.disclosure): no group known
    Kind("told_said", _PERSONAL, 0.5, "object"),
)
KINDS: Mapping[str, Kind] = MappingProxyType({kind.key: kind for kind in _KIND_LIST})

SINGLE_SLOTS = frozenset(k.prefix for k in _KIND_LIST if k.shape == "single")
KEYED_SLOTS = frozenset(k.prefix for k in _KIND_LIST if k.shape == "keyed")
OPPOSITES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "like": frozenset({"dislike", "quit", "limit"}),
        "dislike": frozenset({"like", "hobby"}),
        "quit": frozenset({"like", "hobby", "habit"}),
        "limit": frozenset({"like"}),
    }
)
"""Object slots that a new fact of the key's prefix supersedes, for the same object."""


def slot_parts(slot: str) -> tuple[str, str]:
    """ "like:롤" -> ("like", "롤"); "home" -> ("home", "")."""
    prefix, _, key = slot.partition(":")
    return prefix, key


def typed_apart(slot: str | None, other: str | None) -> bool:
    """Whether two slots type their facts as different things: a home and a job read from
    one sentence ("대전 사는 직장인입니다") stay two facts however alike their words, so a
    later move has a home to replace (and a new job a job). Facts told in passing
    (``told_*``) are typed by their words alone and merge by meaning as before."""
    if slot is None or other is None:
        return False
    prefix, other_prefix = slot_parts(slot)[0], slot_parts(other)[0]
    told = prefix.startswith("told_") or other_prefix.startswith("told_")
    return prefix != other_prefix and not told


def slot_for(kind: Kind, key_words: str) -> str:
    """The slot of a fact of ``kind`` whose key words (object, species, relation) are given."""
    if kind.shape == "single":
        return kind.prefix
    return f"{kind.prefix}:{object_key(key_words) or '_'}"


# --- keys ---------------------------------------------------------------------------

_PARENTHESISED = re.compile(r"\s*[(（][^()（）]*[)）]\s*")
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
_LETTERS_AND_DIGITS = re.compile(r"[^\W_]+")
"""Unicode categories L and N: ``\\w`` is ``str.isalnum()`` and "_" for str patterns."""


def object_key(words: str) -> str:
    """Comparable form of an object: NFKC, casefolded, no notes, articles or spacing."""
    text = _PARENTHESISED.sub(" ", unicodedata.normalize("NFKC", words)).strip()
    text = _ARTICLE.sub("", text).casefold()
    return "".join(_LETTERS_AND_DIGITS.findall(text))


def terms_key(terms: tuple[str, ...]) -> str:
    """Comparable form of a fact's value: its first term (the object or the name)."""
    return object_key(terms[0]) if terms else ""


# --- the viewer's words, lightly normalised ------------------------------------------

_LAUGHTER = re.compile(
    r"(?:^|(?<=\s))(?:l+o+l+|lmf?a+o+|rofl|(?:ha){2,}h?|(?:he){2,}|xd+)(?=\s|$|[!?.,~])"
    r"|[ㅋㅎㅠㅜㄷㄱ\u110f\u1112\u1172\u116e\u1103\u1100]{2,}|(?:哈|呵|嘿|嘻){2,}|[wｗ]{2,}$|(?<=[\u3040-\u30ff\u4e00-\u9fff])w+$"
    r"|(?<=[\u3040-\u30ff])笑$|(?<=[\u3040-\u30ff])草$|\(笑\)",
    re.IGNORECASE,
)
_FILLERS = re.compile(
    r"^(?:(?:um+|uh+|erm+|well|oh|ah|so|okay|ok|hey|yeah|yo|hmm+|btw|anyway|and|but"
    r"|음+|어+|아+|그러니까|그냥요|저기|있잖아|근데|그리고|참|헐"
    r"|えっと|えーと|えー|あの|あのー|まあ|なんか|ねえ|あー|そういえば|ちなみに"
    r"|嗯+|啊+|哎+|那个|就是|话说|对了|然后|而且)(?:[\s,，、.。!！~〜…]+|$))+",
    re.IGNORECASE,
)
_ZH_FINAL = re.compile(r"(?<=[\u4e00-\u9fff])[啊呀哦呢吧啦嘛喔哟]+$")
_EDGE = "\"'`「」『』【】“”‘’[]<>《》~〜～-_*#@:;・…♡♥☆★,，、.。!！?？ \t"
_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufe0e\ufe0f]")
_HAN_COMMA = re.compile(r"(?<=[\u4e00-\u9fff]),\s*(?=[\u4e00-\u9fff])")
"""NFKC turns the Chinese comma into ","; between Han characters it is put back."""


_SYMBOLS = re.compile(
    "[\u2190-\u21ff\u2300-\u23ff\u2460-\u24ff\u25a0-\u27bf\u2900-\u297f\u2b00-\u2bff"
    "\u3030\u303d\u3297\u3299\U0001f000-\U0001faff\ud800-\udfff]"
)
"""Emoji, pictographs, dingbats, arrows and their skin-tone modifiers."""


def laughter_marked(text: str, mark: str) -> str:
    """``text`` with each run of laughter replaced by ``mark``: chat's full stop ("새벽 4시에
    일어났더니 지금 좀비임 ㅋㅋ 쌀 불리는 거 구경해봤어?")."""
    return _LAUGHTER.sub(mark, text)


def scrub(text: str) -> str:
    """``text`` with emoji and laughter replaced by spaces (before rules read it)."""
    if text.isascii():
        return _LAUGHTER.sub(" ", text)
    return _LAUGHTER.sub(" ", _SYMBOLS.sub(" ", _INVISIBLE.sub("", text)))


def viewer_text(text: str) -> str:
    """The viewer's words as a fact: no emoji, laughter, leading fillers, Chinese final
    particles or edge punctuation; spacing collapsed. May return an empty string."""
    kept = " ".join(scrub(text).split())
    kept = _HAN_COMMA.sub("\uff0c", kept)
    previous = None
    while previous != kept:
        previous = kept
        kept = _FILLERS.sub("", kept).strip(_EDGE)
        kept = _ZH_FINAL.sub("", kept).strip(_EDGE)
    return kept
