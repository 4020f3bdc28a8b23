"""Latin words that are never a topic on their own: grammar, common words and interjections.

A free-word topic is a name the dictionary does not know (``Hollow Knight``, ``hades``).
What looks like a name but is not: chat filler and laughter (``lol``, ``www``, ``Ehehe``,
``uwu``), grammar (``the``, ``makes``), and common English words, which show up capitalised
at a line's start or inside Korean, Japanese or Chinese text (``오늘 진짜 tired``).
:func:`is_filler_word` also tries a word without its inflection (``makes`` -> ``make``,
``played`` -> ``play``), so the lists hold base forms.
"""

from __future__ import annotations

import re
from typing import Final

_GRAMMAR = """
    i i'm i've i'll i'd im me my mine myself you you're your yours u ur ya we us our they them
    their he him his she her it its this that these those there here who whom whose what
    which why how when where whatever a an the and or but nor so if then than because as of
    at by for from in into on onto out over under up down off to with without about after
    before since until while also just too very really quite maybe perhaps not no yes yet
    still even ever never always sometimes often all any some each every both either neither
    one two three many much more most less few lot lots other another such own same else
    am is are was were be been being do does did done doing have has had having will would
    shall should can could may might must let let's lets don't didn't doesn't isn't aren't
    wasn't weren't won't can't cannot couldn't shouldn't wouldn't haven't hasn't gonna wanna
    gotta kinda sorta ain't y'all
"""
_COMMON = """
    ok okay yeah yep yup nope nah hi hello hey yo bye welcome thanks thank thx ty please pls
    plz sorry oops wow omg wtf gg ggwp brb afk irl idk imo imho tbh btw asap np lol lmao
    lmfao rofl xd mr mrs ms dr emotion
    today tomorrow yesterday tonight now soon later morning afternoon evening night day week
    month year time times moment minute hour weekend
    good great nice cool fine bad best better worse worst awesome amazing sweet cute funny
    fun happy sad tired sleepy hungry busy bored lonely angry sure well right wrong true real
    new old big small little long short hard easy high low hot cold warm last next first
    same different whole full half ready done sick scared excited glad lucky
    make take get give go come see look watch know think feel want need like love hate try
    use find tell ask say said talk play work study eat drink sleep wake walk run stay leave
    start stop finish keep help call read write buy pay win lose beat meet hope wish wait
    mean guess seem happen live move turn open close bring hold sit stand learn change
    thing things stuff something anything nothing everything someone anyone everyone
    people person friend friends guy guys man woman kid kids chat stream streamer game
    games way place home house life world name part point fact end
    monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december
"""
FILLER_WORDS: Final = frozenset(_GRAMMAR.split()) | frozenset(_COMMON.split())
"""Base forms of Latin words that are grammar, chat filler or too common to be a name."""

_INTERJECTION: Final = re.compile(
    r"[aeiouy]?(?:h+[aeiouy]+){2,}h*"  # haha, hehe, ehehe, ahaha, hihi, huehue
    r"|h+[ae]+h+|a+h+a*|e+h+|o+h+|u+h+|h+m+|m+h*m+|u+m+|e+r+m+|u+g+h+|p+f+t+|p+s+t+|s+h+"
    r"|(?:ke)+k?|(?:ki)+k?|k{2,}|l+o+l+(?:o+l+)*|l+m+f?a+o+|r+o+f+l+|x+d+|w{2,}"
    r"|u+w+u+|o+w+o+|y+a+y+|w+o+w+|o+o+p+s+|a+w+|w+h+o+a+|y+i+k+e+s+|w+e+l+p+|p+h+e+w+"
    r"|w+h+e+w+|o+o+f+|o+o+h+|n+y+a+|k+y+a+|t+e+e+h+e+e+|m+e+h+|b+r+u+h+|d+a+m+n+|j+e+e+z+"
    r"|o+m+g+|y+e+s+|n+o+|o+k+|y+e+a+h*|n+a+h+|u+h+u+h+|m+m+"
)
"""Laughter, interjections and stretched reactions, however many letters repeat."""

_SUFFIXES: Final = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"),
                    ("ing", ""), ("ing", "e"), ("ly", ""), ("'s", ""))  # fmt: skip


def _base_forms(word: str) -> set[str]:
    forms = {word}
    for suffix, replacement in _SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < 2:
            continue
        if suffix == "es" and not word.endswith(("ses", "xes", "zes", "ches", "shes")):
            continue
        stem = word[: -len(suffix)] + replacement
        forms.add(stem)
        if len(stem) >= 3 and stem[-1] == stem[-2]:  # stopped -> stopp -> stop
            forms.add(stem[:-1])
    return forms


def is_filler_word(token: str) -> bool:
    """Whether a Latin word is grammar, chat filler, laughter or a common English word."""
    word = token.casefold().replace("’", "'")
    if _INTERJECTION.fullmatch(word):
        return True
    return not FILLER_WORDS.isdisjoint(_base_forms(word))
