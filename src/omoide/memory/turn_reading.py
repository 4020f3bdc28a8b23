"""A turn's emotion and topics, read from its own text when the caller did not give them.

A turn from ``POST /turns``, an import or a stream comment usually arrives with the
default reading (``neutral``, no topics). The write path then fills it in from the turn's
own words:

* the emotion and its intensity from the viewer's message
  (:func:`~omoide.character.emotion_reading.read_emotion`); a caller's label other than
  ``neutral`` is kept as given, since the caller knows more than a word list;
* the topics from the viewer's message, the reply adding only what it shares with it
  (:meth:`~omoide.character.topics.TopicTracker.extract`); topics a caller gives are kept.

Importance weighs the feeling only when one was read or given: a ``neutral`` label says
nothing, whatever intensity came with it (:func:`felt_intensity`).
"""

from __future__ import annotations

from dataclasses import replace

from omoide.character.emotion_reading import read_emotion
from omoide.character.topics import TopicTracker
from omoide.domain import MAX_TOPICS, TurnInput, TurnState
from omoide.memory.emotions import UNINFORMATIVE_LABELS, normalise_label


def gives_no_emotion(state: TurnState) -> bool:
    """Whether the caller's label says nothing about a feeling (``neutral``, ``unknown``)."""
    return normalise_label(state.emotion) in UNINFORMATIVE_LABELS


def felt_intensity(state: TurnState) -> float:
    """How strongly a feeling was expressed: the intensity, or 0 for a ``neutral`` label."""
    return 0.0 if gives_no_emotion(state) else state.emotion_intensity


def read_turn(turn: TurnInput, topics: TopicTracker) -> TurnState:
    """``turn.state`` with what the caller left out read from the turn's own text."""
    state = turn.state
    if gives_no_emotion(state):
        reading = read_emotion(turn.user_message)
        if reading is not None:
            state = replace(state, emotion=reading.emotion, emotion_intensity=reading.intensity)
    if not state.topics:
        found = topics.extract(turn.user_message, turn.bot_message, viewer_name=turn.user_name)
        state = replace(state, topics=found[:MAX_TOPICS])
    return state
