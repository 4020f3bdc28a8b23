"""How big a stream each profile replays."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StreamProfile:
    name: str
    messages: int
    viewers: int
    events_per_request: int = 250
    """Comments per ingest call, as a chat relay would batch them."""
    seconds_between_messages: float = 0.1
    """Spacing of the comments' own timestamps (100,000 comments: a 2.8-hour stream)."""
    recall_pause_seconds: float = 0.02
    """The sampler's pause between two context requests."""
    seed: int = 20260302


QUICK = StreamProfile(name="quick", messages=10_000, viewers=500)
FULL = StreamProfile(name="full", messages=100_000, viewers=5_000)
PROFILES = {profile.name: profile for profile in (QUICK, FULL)}
