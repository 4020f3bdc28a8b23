"""Sampling parameters (top_p, stop, seed) in each vendor's request, sent only when set."""

from __future__ import annotations

from typing import Any

import pytest

from omoide.errors import InvalidInput
from omoide.llm import ChatMessage, ChatOptions
from omoide.llm.anthropic import anthropic_request_body
from omoide.llm.ollama import ollama_request_body
from omoide.llm.openai import openai_request_body
from omoide.llm.validation import check_chat_request

HELLO = [ChatMessage("user", "hello")]
SAMPLED = ChatOptions(max_tokens=50, temperature=0.3, top_p=0.9, stop=("\n\n", "END"), seed=7)


def test_openai_sends_them_under_their_own_names() -> None:
    body = openai_request_body("m", HELLO, SAMPLED, stream=True)
    assert (body["top_p"], body["stop"], body["seed"]) == (0.9, ["\n\n", "END"], 7)


def test_ollama_sends_them_in_its_options() -> None:
    options: Any = ollama_request_body("m", HELLO, SAMPLED, stream=True)["options"]
    assert (options["top_p"], options["stop"], options["seed"]) == (0.9, ["\n\n", "END"], 7)


def test_anthropic_sends_top_p_and_stop_sequences_and_has_no_seed() -> None:
    body = anthropic_request_body("m", HELLO, SAMPLED, stream=True)
    assert (body["top_p"], body["stop_sequences"]) == (0.9, ["\n\n", "END"])
    assert "seed" not in body


def test_unset_parameters_are_not_sent() -> None:
    plain = ChatOptions()
    assert not {"top_p", "stop", "seed"} & set(openai_request_body("m", HELLO, plain, stream=False))
    ollama: Any = ollama_request_body("m", HELLO, plain, stream=False)["options"]
    assert not {"top_p", "stop", "seed"} & set(ollama)
    anthropic = anthropic_request_body("m", HELLO, plain, stream=False)
    assert not {"top_p", "stop_sequences"} & set(anthropic)


@pytest.mark.parametrize(
    "options",
    [
        ChatOptions(top_p=-0.1),
        ChatOptions(top_p=1.5),
        ChatOptions(stop=("a", "b", "c", "d", "e")),
        ChatOptions(stop=("",)),
        ChatOptions(seed=True),
    ],
)
def test_out_of_range_parameters_are_refused(options: ChatOptions) -> None:
    with pytest.raises(InvalidInput):
        check_chat_request(HELLO, options)


@pytest.mark.parametrize("top_p", [0.0, 1.0])
def test_top_p_takes_openais_whole_range(top_p: float) -> None:
    # SillyTavern's slider goes down to 0, which OpenAI accepts
    check_chat_request(HELLO, ChatOptions(top_p=top_p))
