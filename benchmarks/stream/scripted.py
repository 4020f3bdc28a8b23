"""The benchmark's stand-in for an LLM: valid JSON for every stream task, instantly.

A viewer batch gets one fact (the viewer's first words, as a preference) and a summary;
a diary entry retells the digest's numbers; an identity proposal changes nothing. The
point is to count calls and exercise the write path behind them, not to judge answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from omoide.llm.base import ChatMessage
from omoide.stream.diary_prompt import DIARY_TASK
from omoide.stream.evolution import IDENTITY_TASK
from omoide.stream.viewer_prompt import VIEWER_BATCH_TASK


def stream_benchmark_responder(messages: Sequence[ChatMessage]) -> str:
    system, request = messages[0].content, messages[1].content
    if system.startswith(VIEWER_BATCH_TASK):
        data = json.loads(request)
        first = data["comments"][0]["comment"][:60]
        fact = {
            "action": "add",
            "fact": f"talks about {first}",
            "category": "preference",
            "confidence": 0.7,
            "importance": 0.5,
            "stated": False,
            "target": None,
        }
        summary = f"{data['viewer_name']} wrote {len(data['comments'])} comments lately."
        return json.dumps({"facts": [fact], "summary": summary}, ensure_ascii=False)
    if system.startswith(DIARY_TASK):
        entry = "Tonight's stream. " + " ".join(request.splitlines()[1:4])
        return json.dumps(
            {"entry": entry[:1400], "mood": "happy", "topics": []}, ensure_ascii=False
        )
    if system.startswith(IDENTITY_TASK):
        return "{}"
    raise ValueError(f"unexpected prompt: {system[:60]}")
