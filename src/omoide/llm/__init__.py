"""Language-model backends behind one seam, :class:`ChatModel`.

* :class:`ScriptedChatModel`: deterministic, for tests and demos (no model needed);
* :class:`OllamaChatModel`: Ollama's ``/api/chat``;
* :class:`OpenAIChatModel`: any OpenAI-compatible ``/v1/chat/completions``;
* :class:`AnthropicChatModel`: Anthropic's ``/v1/messages``.

The HTTP backends retry unavailable servers with :class:`RetryPolicy` (streams only before
their first token) and raise only :mod:`omoide.errors` exceptions. :func:`complete_json`
asks any of them for JSON and validates it, raising ParseFailure rather than guessing.

Each name is imported from its module on first use, so that importing one module of the
package (``omoide.llm.base``, which the memory pipeline's types need) does not load the
HTTP clients.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.lazy_names import names_on_first_use

if TYPE_CHECKING:
    from omoide.llm.anthropic import AnthropicChatModel
    from omoide.llm.base import ChatMessage, ChatModel, ChatOptions, Role
    from omoide.llm.demo_replies import demo_responder
    from omoide.llm.json_reply import complete_json, extract_json
    from omoide.llm.ollama import OllamaChatModel
    from omoide.llm.openai import OpenAIChatModel
    from omoide.llm.retry import RetryPolicy
    from omoide.llm.scripted import ChatCall, ScriptedChatModel, demo_reply

_HOMES = {
    "AnthropicChatModel": "anthropic",
    "ChatCall": "scripted",
    "ChatMessage": "base",
    "ChatModel": "base",
    "ChatOptions": "base",
    "OllamaChatModel": "ollama",
    "OpenAIChatModel": "openai",
    "RetryPolicy": "retry",
    "Role": "base",
    "ScriptedChatModel": "scripted",
    "complete_json": "json_reply",
    "demo_reply": "scripted",
    "demo_responder": "demo_replies",
    "extract_json": "json_reply",
}

__all__ = [
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


__getattr__ = names_on_first_use(__name__, _HOMES, globals())
