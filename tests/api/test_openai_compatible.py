"""The OpenAI-compatible endpoint, driven by the official ``openai`` SDK only.

``omoide serve`` runs as a real subprocess whose upstream chat model is a fake
OpenAI-compatible server started here (it records every request it receives). The SDK
streams a reply, tells the character something, and a later request shows the upstream
received the memory inside the client's own system message; another viewer's does not.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam, ChatCompletionUserMessageParam

from omoide.api.app import create_app
from omoide.embed.hashing import HashingEmbedder
from tests.api.harness import (
    free_port,
    live_server,
    make_settings,
    viewer_path,
    wait_until_healthy,
)
from tests.llm.fake_servers import FakeChatServer, openai_stream, running_server

START_TIMEOUT_SECONDS = 60.0
STORE_TIMEOUT_SECONDS = 20.0
ALL_KEY = "sk-all-0123456789"
HARU_KEY = "sk-haru-0123456789"
PERSONA = "You are Mika, a cheerful streamer. Answer in one short sentence."
TOLD = "My cat is called Nabi and she turned five years old today."
LIVES = "I moved to Busan last month and I work as a nurse there."
TOKENS = ("Happy", " birthday", " to", " Nabi!")


@dataclass
class Served:
    url: str
    upstream: FakeChatServer
    clients: list[openai.OpenAI] = field(default_factory=list)

    def client(self, key: str = ALL_KEY) -> openai.OpenAI:
        """An SDK client for the service's base URL (closed after the test)."""
        made = openai.OpenAI(base_url=f"{self.url}/v1", api_key=key, max_retries=0, timeout=30)
        self.clients.append(made)
        return made

    def close_clients(self) -> None:
        while self.clients:
            self.clients.pop().close()

    def last_received(self) -> dict[str, Any]:
        body: dict[str, Any] = self.upstream.received[-1].body
        return body


def service_environment(data_dir: Path, upstream_url: str) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("OMOIDE_")}
    environment.update(
        OMOIDE_DATA_DIR=str(data_dir),
        OMOIDE_EMBEDDER="hashing",
        OMOIDE_LLM="openai",
        OMOIDE_LLM_URL=f"{upstream_url}/v1",
        OMOIDE_LLM_MODEL="upstream-model",
        OMOIDE_LLM_MAX_RETRIES="0",
        OMOIDE_LLM_IMPORTANCE="false",
        OMOIDE_LLM_EXTRACTION="false",
        OMOIDE_API_KEYS=f"{ALL_KEY}:*;{HARU_KEY}:haru",
        OMOIDE_DEFAULT_VIEWER="stream-owner",
    )
    return environment


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("openai")
    log = root / "serve.log"
    port = free_port()
    with running_server(FakeChatServer(default_tokens=TOKENS)) as upstream:
        command = [
            sys.executable,
            "-m",
            "omoide",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ]
        environment = service_environment(root / "data", upstream.base_url)
        with log.open("ab") as output:
            process = subprocess.Popen(command, env=environment, stdout=output, stderr=output)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_healthy(process, url, log)
            yield Served(url, upstream)
        finally:
            process.terminate()
            process.wait(timeout=START_TIMEOUT_SECONDS)


@pytest.fixture
def upstream(served: Served) -> Iterator[FakeChatServer]:
    served.upstream.reset()
    served.upstream.default_tokens = TOKENS
    yield served.upstream
    served.close_clients()


def stored_user_messages(url: str, user: str, count: int) -> list[str]:
    """The viewer's stored user messages, polled until ``count`` are stored (the queue
    drains in the background)."""
    deadline = time.monotonic() + STORE_TIMEOUT_SECONDS
    headers = {"Authorization": f"Bearer {ALL_KEY}"}
    while True:
        exported = httpx.get(url + viewer_path("haru", user) + "/export", headers=headers).json()
        messages = [episode["user_message"] for episode in exported["episodes"]]
        if len(messages) >= count or time.monotonic() > deadline:
            return messages
        time.sleep(0.05)


def system_messages(body: dict[str, Any]) -> list[str]:
    return [message["content"] for message in body["messages"] if message["role"] == "system"]


def test_a_told_fact_reaches_the_upstream_inside_the_clients_own_system_message(
    served: Served, upstream: FakeChatServer
) -> None:
    client = served.client()
    first: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": PERSONA},
        {"role": "user", "content": TOLD},
    ]
    stream = client.chat.completions.create(
        model="haru",
        messages=first,
        stream=True,
        user="viewer-a",
    )
    chunks = list(stream)
    assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks) == "".join(TOKENS)
    assert all(chunk.object == "chat.completion.chunk" for chunk in chunks)
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert len(chunks) >= len(TOKENS) + 1, "the reply streams token by token"
    assert stored_user_messages(served.url, "viewer-a", 1) == [TOLD]

    later: list[ChatCompletionMessageParam] = [
        *first,
        {"role": "assistant", "content": "".join(TOKENS)},
        {"role": "user", "content": "Do you remember my cat?"},
    ]
    reply = client.chat.completions.create(model="haru", messages=later, user="viewer-a")
    assert reply.choices[0].message.content == "".join(TOKENS)
    received = served.last_received()
    (system,) = system_messages(received)
    assert system.startswith(PERSONA), "the client's own system text is kept as it is"
    assert "Nabi" in system.removeprefix(PERSONA), "the memory is added to it"
    assert received["messages"][1:] == later[1:], "the client's history is passed on unchanged"

    client.chat.completions.create(model="haru", messages=later, user="viewer-b")
    (other,) = system_messages(served.last_received())
    assert "Nabi" not in other, "another viewer's memory never appears"

    told = stored_user_messages(served.url, "viewer-a", 2)
    assert told.count(TOLD) == 1, "the client's history is not stored again"


def test_without_a_system_message_the_characters_own_prompt_is_used(
    served: Served, upstream: FakeChatServer
) -> None:
    served.client().chat.completions.create(
        model="haru",
        messages=[{"role": "user", "content": LIVES}],
        extra_headers={"X-Omoide-User": "viewer-header"},
    )
    (system,) = system_messages(served.last_received())
    assert "Haru" in system
    assert stored_user_messages(served.url, "viewer-header", 1) == [LIVES]


def test_messages_after_the_turn_follow_it_unchanged(
    served: Served, upstream: FakeChatServer
) -> None:
    closing = "Reply in one line."
    messages: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": PERSONA},
        {"role": "user", "content": "Good evening!"},
        {"role": "system", "content": closing},
    ]
    served.client().chat.completions.create(model="haru", messages=messages, user="viewer-late")
    sent = served.last_received()["messages"]
    assert sent[1:] == [
        {"role": "user", "content": "Good evening!"},
        {"role": "system", "content": closing},
    ]
    assert sent[0]["content"].startswith(PERSONA)


def test_a_request_naming_no_viewer_is_the_default_viewers(
    served: Served, upstream: FakeChatServer
) -> None:
    message = "My name is Jisoo and I love playing the piano every evening."
    served.client().chat.completions.create(
        model="haru", messages=[{"role": "user", "content": message}]
    )
    assert stored_user_messages(served.url, "stream-owner", 1) == [message]


def test_sampling_parameters_reach_the_upstream(served: Served, upstream: FakeChatServer) -> None:
    served.client().chat.completions.create(
        model="haru",
        messages=[{"role": "user", "content": "Tell me a joke"}],
        user="viewer-sampling",
        temperature=0.25,
        top_p=0.5,
        max_tokens=33,
        stop=["\n\n"],
        seed=7,
    )
    body = served.last_received()
    sent = {name: body.get(name) for name in ("temperature", "top_p", "max_tokens", "stop", "seed")}
    assert sent == {
        "temperature": 0.25,
        "top_p": 0.5,
        "max_tokens": 33,
        "stop": ["\n\n"],
        "seed": 7,
    }
    assert body["model"] == "upstream-model"


def test_models_are_the_characters_the_key_may_use(
    served: Served, upstream: FakeChatServer
) -> None:
    everything = {model.id for model in served.client().models.list()}
    assert "haru" in everything
    assert [model.id for model in served.client(HARU_KEY).models.list()] == ["haru"]
    assert served.client(HARU_KEY).models.retrieve("haru").id == "haru"


def test_errors_come_in_openais_shape(served: Served, upstream: FakeChatServer) -> None:
    hello: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hello"}]
    with pytest.raises(openai.NotFoundError) as unknown:
        served.client().chat.completions.create(model="nobody", messages=hello)
    assert unknown.value.code == "model_not_found"
    with pytest.raises(openai.AuthenticationError):
        served.client("sk-wrong-key-000000").chat.completions.create(model="haru", messages=hello)
    with pytest.raises(openai.PermissionDeniedError):
        served.client(HARU_KEY).models.retrieve("nobody")
    assert upstream.received == [], "nothing refused reaches the upstream"


@pytest.mark.parametrize(
    "extra",
    [
        {"tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]},
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "what is this?"},
                        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                    ],
                }
            ]
        },
        {
            "messages": [
                {"role": "user", "content": "weather?"},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            ]
        },
        {"messages": [{"role": "system", "content": "no user turn"}]},
    ],
    ids=["tools", "image", "tool-calls", "no-user-turn"],
)
def test_what_omoide_cannot_pass_on_is_a_clear_400(
    served: Served, upstream: FakeChatServer, extra: dict[str, Any]
) -> None:
    request: dict[str, Any] = {"model": "haru", "messages": [{"role": "user", "content": "hi"}]}
    request.update(extra)
    with pytest.raises(openai.BadRequestError) as refused:
        served.client().chat.completions.create(**request)
    assert refused.value.status_code == 400
    assert refused.value.type == "invalid_request_error"
    assert upstream.received == []


def test_an_upstream_failing_mid_reply_ends_the_stream_with_an_error_chunk(
    served: Served, upstream: FakeChatServer
) -> None:
    upstream.enqueue(openai_stream(["Once", " upon"], done=False, abort_after=3))
    stream = served.client().chat.completions.create(
        model="haru",
        messages=[{"role": "user", "content": "Tell me a story"}],
        stream=True,
        user="viewer-cut",
    )
    seen: list[str] = []
    with pytest.raises(openai.APIError, match="failed"):
        for chunk in stream:
            seen.append(chunk.choices[0].delta.content or "")
    assert "".join(seen) == "Once upon"


def test_an_unreachable_upstream_is_a_502(served: Served, upstream: FakeChatServer) -> None:
    upstream.enqueue(
        openai_stream(["x"], abort_after=0),
    )
    with pytest.raises(openai.APIStatusError) as failed:
        served.client().chat.completions.create(
            model="haru", messages=[{"role": "user", "content": "hello?"}], stream=True
        )
    assert failed.value.status_code == 502


def test_an_upstream_nobody_listens_on_is_a_502(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path / "data",
        llm="openai",
        llm_url=f"http://127.0.0.1:{free_port()}/v1",
        llm_model="upstream-model",
        llm_max_retries=0,
    )
    hello: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hello?"}]
    app = create_app(settings, embedder=HashingEmbedder(256))
    with (
        live_server(app) as url,
        openai.OpenAI(base_url=f"{url}/v1", api_key="open", max_retries=0) as client,
    ):
        for stream in (False, True):
            with pytest.raises(openai.APIStatusError) as failed:
                client.chat.completions.create(model="haru", messages=hello, stream=stream)
            assert failed.value.status_code == 502
            assert failed.value.code == "upstream_error"


def test_a_reply_regenerated_or_swiped_stores_the_viewers_turn_once(
    served: Served, upstream: FakeChatServer
) -> None:
    client = served.client()
    asked: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": PERSONA},
        {"role": "user", "content": "Guess what I had for lunch"},
    ]
    for _ in range(3):  # the first reply, then two regenerations of it
        client.chat.completions.create(model="haru", messages=asked, user="viewer-r")
    again: list[ChatCompletionMessageParam] = [
        *asked,
        {"role": "assistant", "content": "".join(TOKENS)},
        {"role": "user", "content": "Guess what I had for lunch"},  # said again, later
    ]
    client.chat.completions.create(model="haru", messages=again, user="viewer-r")
    last: list[ChatCompletionMessageParam] = [
        *again,
        {"role": "assistant", "content": "".join(TOKENS)},
        {"role": "user", "content": "It was ramen with an extra egg"},
    ]
    client.chat.completions.create(model="haru", messages=last, user="viewer-r")

    # turns are stored in order: three stored means all, unless the resent one was kept
    stored = stored_user_messages(served.url, "viewer-r", 3)
    assert sorted(stored) == sorted(
        ["Guess what I had for lunch"] * 2 + ["It was ramen with an extra egg"]
    )


def test_the_name_of_the_users_message_is_the_viewers_name(
    served: Served, upstream: FakeChatServer
) -> None:
    headers = {"Authorization": f"Bearer {ALL_KEY}"}
    names = served.url + viewer_path("haru", "named-viewer") + "/names"
    said = "I baked bread with my sister today."
    message: ChatCompletionUserMessageParam = {"role": "user", "content": said, "name": "Yuna"}
    served.client().chat.completions.create(model="haru", messages=[message], user="named-viewer")
    assert stored_user_messages(served.url, "named-viewer", 1) == [said]
    assert httpx.get(names, headers=headers).json()["display_name"] == "Yuna"
    burnt = "The bread came out a little burnt."
    unnamed: ChatCompletionUserMessageParam = {"role": "user", "content": burnt}
    served.client().chat.completions.create(model="haru", messages=[unnamed], user="plain")
    assert stored_user_messages(served.url, "plain", 1) == [burnt]
    plain = served.url + viewer_path("haru", "plain") + "/names"
    assert httpx.get(plain, headers=headers).json()["names"] == [], "the id is not a name"
