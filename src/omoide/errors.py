"""The whole omoide error tree.

::

    OmoideError                  catch-all for callers
    ├── ConfigError              a setting is missing, malformed or contradictory
    ├── InvalidInput             a caller passed something omoide refuses (names the field)
    ├── NotFound                 a memory, fact, viewer or character does not exist in scope
    ├── Conflict                 the request contradicts stored state (e.g. embedder mismatch)
    ├── AccessDenied             an API key is missing, wrong, or bound to other characters
    └── BackendError             an embedder, LLM or store failed
        ├── BackendUnavailable   retrying may help (timeouts, refused connections, 5xx)
        └── ParseFailure         an LLM answered with something that could not be parsed

Vendor exceptions are translated at the boundary with ``raise Mapped(...) from exc``;
HTTP status codes are chosen only in ``omoide.api``.
"""

from __future__ import annotations


class OmoideError(Exception):
    """Base class of every error omoide raises on purpose."""


class ConfigError(OmoideError):
    """A setting is missing, malformed or contradictory."""


class InvalidInput(OmoideError):
    """Input that omoide refuses; the message names the field and what is wrong."""


class NotFound(OmoideError):
    """The named thing does not exist in the given scope."""


class Conflict(OmoideError):
    """The request contradicts stored state (for example a different embedding model)."""


class AccessDenied(OmoideError):
    """The caller may not use this character or endpoint."""

    def __init__(self, message: str, *, authenticated: bool) -> None:
        super().__init__(message)
        self.authenticated = authenticated


class BackendError(OmoideError):
    """An embedder, language model or store failed."""


class BackendUnavailable(BackendError):
    """A backend could not be reached or timed out; retrying may help."""


class ParseFailure(BackendError):
    """A language model answered with text that could not be parsed as asked."""

    def __init__(self, message: str, *, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


def first_omoide_error(failures: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first of our own errors inside a task group's failures (the group if none)."""
    for failure in failures.exceptions:
        if isinstance(failure, BaseExceptionGroup):
            failure = first_omoide_error(failure)
        if isinstance(failure, OmoideError):
            return failure
    return failures
