"""The character: profile, per-viewer state, emotion engine, topic tracker, system prompt.

::

    library = CharacterLibrary([Path("characters")])     # shipped Haru is the fallback
    haru = await library.load("haru")
    engine = EmotionEngine(haru.profile)
    topics = TopicTracker.for_profile(haru.profile)
    state = await states.load(scope) or initial_state(haru.profile)
    system = haru.prompt.build_system_prompt(
        haru.profile, state, user_name="민준", memory_section=section, now=clock.now()
    )
    reply = engine.parse(raw_reply)                      # or engine.stream_filter()
    state = engine.update(state, detected_emotion=reply.emotion,
                          user_message=message, now=clock.now())
    state = topics.update(state, user_message=message, reply=reply.clean_text)
    await states.save(scope, state)
"""

from omoide.character.emotion import EmotionDynamics, EmotionEngine, ParsedReply
from omoide.character.emotion_tags import EmotionTagFilter
from omoide.character.emotion_words import EMOTION_SYNONYMS, is_warm_message
from omoide.character.library import (
    Character,
    CharacterLibrary,
    builtin_characters_dir,
)
from omoide.character.prompt import (
    IntimacyLevel,
    PromptBuilder,
    describe_intimacy,
    prompt_variables,
)
from omoide.character.state import initial_state
from omoide.character.state_store import CharacterStateStore, InMemoryCharacterStateStore
from omoide.character.topic_vocabulary import DEFAULT_VOCABULARY, TopicEntry
from omoide.character.topics import TopicTracker
from omoide.store.records.character_state import (
    MAX_RECENT_TOPICS,
    CharacterState,
    state_from_json,
    state_to_json,
)
from omoide.store.records.profile import (
    DEFAULT_EMOTIONS,
    EVOLVABLE_FIELDS,
    MATCH_VIEWER_LANGUAGE,
    PROTECTED_FIELDS,
    CharacterProfile,
    check_character_id,
    fold_emotion_label,
    parse_profile,
)

__all__ = [
    "DEFAULT_EMOTIONS",
    "DEFAULT_VOCABULARY",
    "EMOTION_SYNONYMS",
    "EVOLVABLE_FIELDS",
    "MATCH_VIEWER_LANGUAGE",
    "MAX_RECENT_TOPICS",
    "PROTECTED_FIELDS",
    "Character",
    "CharacterLibrary",
    "CharacterProfile",
    "CharacterState",
    "CharacterStateStore",
    "EmotionDynamics",
    "EmotionEngine",
    "EmotionTagFilter",
    "InMemoryCharacterStateStore",
    "IntimacyLevel",
    "ParsedReply",
    "PromptBuilder",
    "TopicEntry",
    "TopicTracker",
    "builtin_characters_dir",
    "check_character_id",
    "describe_intimacy",
    "fold_emotion_label",
    "initial_state",
    "is_warm_message",
    "parse_profile",
    "prompt_variables",
    "state_from_json",
    "state_to_json",
]
