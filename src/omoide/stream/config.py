"""Typed tuning for stream ingestion, per-viewer batching and the diary."""

from __future__ import annotations

from dataclasses import dataclass

from omoide.domain import check_unit_interval
from omoide.errors import InvalidInput

DEFAULT_DIARY_EVERY = 300
"""The seed's cadence: a diary entry every 300 comments of a stream, and one at its end."""


def _check_positive(value: int, *, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"{name} must be a positive integer (got {value!r})")
    return value


@dataclass(frozen=True, slots=True)
class StreamConfig:
    """How a stream is remembered.

    * ``store_threshold``: rule importance an unanswered comment needs to be kept as an
      episode. Stream comments carry no emotion reading, so the rule score of a plain
      comment is the base 0.3; the default 0.4 keeps comments with a signal (a preference,
      a date, thanks, tiredness, ...) or a long message, and lets "hi all" go by.
      Answered comments are always kept.
    * ``fact_extraction_threshold``: rule importance a kept comment needs before the rule
      extractor looks for facts in it on the ingestion path.
    * ``read_disclosures``: a comment the rules found no fact in is also read by the
      disclosure model shipped for the embedder (``omoide.memory.extraction.disclosure``);
      a disclosure is kept, with its fact, whatever its rule score.
    * ``rate_lasting``: the salience of those facts is rated by how long they will matter
      (``omoide.memory.extraction.lasting``; the model shipped for the embedder).
    * ``viewer_batch_size`` / ``viewer_idle_seconds``: a viewer's comments wait for the
      language model until ``viewer_batch_size`` of them carry signal, or the oldest has
      waited ``viewer_idle_seconds``; then ONE model call reads them all, updates the
      viewer's facts and rewrites the viewer's rolling summary.
    * ``viewer_min_llm_comments``: a batch flushed by idle time with fewer comments than
      this gets a structured summary and no model call (the rule facts of its comments
      were stored on ingestion). With thousands of viewers most write only a few
      comments a stream; this keeps their cost at zero. 1 sends every batch to the model.
    * ``diary_every``: comments of one stream per diary entry.
    * ``digest_comments`` / ``digest_characters``: how much of the stream log a diary
      prompt may quote (a sample when the window is larger).
    * ``evolve_identity``: after each diary entry, ask the model which profile fields
      should change (see :mod:`omoide.character.identity_policy` for what is accepted).
    * ``llm_concurrency``: model calls the background worker runs at once.
    """

    store_threshold: float = 0.4
    fact_extraction_threshold: float = 0.4
    read_disclosures: bool = True
    rate_lasting: bool = True
    extract_topics: bool = True
    viewer_batch_size: int = 20
    viewer_idle_seconds: float = 3600.0
    viewer_min_llm_comments: int = 3
    viewers_per_flush: int = 64
    diary_every: int = DEFAULT_DIARY_EVERY
    digest_comments: int = 80
    digest_characters: int = 6000
    evolve_identity: bool = True
    llm_concurrency: int = 4
    max_events_per_batch: int = 5000

    def __post_init__(self) -> None:
        check_unit_interval(self.store_threshold, name="store_threshold")
        check_unit_interval(self.fact_extraction_threshold, name="fact_extraction_threshold")
        for name in (
            "viewer_batch_size",
            "viewer_min_llm_comments",
            "viewers_per_flush",
            "diary_every",
            "digest_comments",
            "digest_characters",
            "llm_concurrency",
            "max_events_per_batch",
        ):
            _check_positive(getattr(self, name), name=name)
        idle = self.viewer_idle_seconds
        if isinstance(idle, bool) or not isinstance(idle, int | float) or not idle >= 0:
            raise InvalidInput(f"viewer_idle_seconds must be a number >= 0 (got {idle!r})")
