"""Caches that hold remembered text, emptied when memory is forgotten.

The reply path keeps per-process caches keyed by the texts it reads again and again: the
quoted prompt line of a fact, a decoded fact row, a message's low-signal or question
reading, its words, its token count, a fact's vector. A forgotten viewer's words must not
outlive the forgetting in any of them, even until they would be evicted: every such cache
is registered here, and :func:`forget_cached_texts` (called by every deletion of memory)
empties them all. Forgetting is rare; emptying everything costs a few cold reads.
"""

from __future__ import annotations

import threading
import weakref
from typing import Protocol, TypeVar


class _CacheInfo(Protocol):
    @property
    def currsize(self) -> int: ...


class _Clearable(Protocol):
    def cache_clear(self) -> None: ...

    def cache_info(self) -> _CacheInfo: ...


class HoldsText(Protocol):
    """An object with a cache of remembered text (a token counter, a vector cache)."""

    def forget_texts(self) -> None: ...

    def texts_held(self) -> int: ...


_Cache = TypeVar("_Cache", bound=_Clearable)
_functions: list[_Clearable] = []
_holders: weakref.WeakSet[HoldsText] = weakref.WeakSet()
_lock = threading.Lock()


def remembers_text(cache: _Cache) -> _Cache:
    """Register a function cache (``functools.lru_cache``) that holds remembered text."""
    with _lock:
        _functions.append(cache)
    return cache


def holds_text(holder: HoldsText) -> None:
    """Register an object whose cache holds remembered text, for as long as it lives."""
    with _lock:
        _holders.add(holder)


def forget_cached_texts() -> None:
    """Empty every registered cache (a viewer, an exchange or a fact was forgotten)."""
    with _lock:
        functions = list(_functions)
        holders = list(_holders)
    for cache in functions:
        cache.cache_clear()
    for holder in holders:
        holder.forget_texts()


def cached_text_count() -> int:
    """How many entries the registered caches hold now (all of them, every viewer's)."""
    with _lock:
        functions = list(_functions)
        holders = list(_holders)
    held = sum(cache.cache_info().currsize for cache in functions)
    return held + sum(holder.texts_held() for holder in holders)
