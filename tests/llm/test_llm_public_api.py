from __future__ import annotations

import omoide.llm
from omoide.llm import ChatModel, ScriptedChatModel


def test_public_names_are_pinned() -> None:
    assert sorted(omoide.llm.__all__) == [
        "AnthropicChatModel",
        "ChatCall",
        "ChatMessage",
        "ChatModel",
        "ChatOptions",
        "OllamaChatModel",
        "OpenAIChatModel",
        "RetryPolicy",
        "Role",
        "ScriptedChatModel",
        "complete_json",
        "demo_reply",
        "demo_responder",
        "extract_json",
    ]
    for name in omoide.llm.__all__:
        assert getattr(omoide.llm, name) is not None


def every_backend_is_a_chat_model() -> list[ChatModel]:
    """Type-checked by mypy --strict: each backend must satisfy the ChatModel protocol."""
    return [
        ScriptedChatModel(),
        omoide.llm.OllamaChatModel("m"),
        omoide.llm.OpenAIChatModel("m"),
        omoide.llm.AnthropicChatModel("m"),
    ]


def test_backends_are_named() -> None:
    names = [model.name for model in every_backend_is_a_chat_model()]
    assert names == ["scripted", "ollama:m", "openai:m", "anthropic:m"]
