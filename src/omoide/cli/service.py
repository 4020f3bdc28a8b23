"""CLI commands that talk to a character: ``demo``, ``chat``, ``serve`` and ``mcp``."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from omoide.cli.common import DataDir, Embedder, console, fail, run_async, settings_from
from omoide.cli.keys import keys_app

if TYPE_CHECKING:
    from omoide.chat.conversation import ChatRequest, Conversation
    from omoide.clock import FixedClock
    from omoide.wiring import Omoide

DEMO_VIEWER = ("minjun", "민준")
DEMO_OPENING = "나 롤 게임 엄청 좋아해요!"
DEMO_SMALL_TALK = (
    "오늘 날씨 진짜 춥네요",
    "점심에 김치찌개 먹었어요",
    "회사 일이 너무 많아서 야근했어요",
    "주말에 비 온대요",
    "어제 잠을 잘 못 잤어요",
    "동생이 이번에 대학교 입학했어요",
    "요즘 운동을 시작했어요",
    "감기 기운이 있어요",
    "버스가 늦게 와서 지각할 뻔했어요",
    "커피를 너무 많이 마신 것 같아요",
)
DEMO_QUESTION = "요즘 뭐하면서 놀아요?"


async def say(conversation: Conversation, request: ChatRequest, *, show: bool) -> str:
    from omoide.chat.conversation import DoneEvent, ErrorEvent, TokenEvent

    out = console()
    prepared = await conversation.prepare(request)
    reply = []
    async for event in conversation.stream(prepared):
        if isinstance(event, TokenEvent):
            reply.append(event.content)
            if show:
                out.print(event.content, end="", markup=False, highlight=False)
        elif isinstance(event, ErrorEvent):
            raise fail(event.message)
        elif isinstance(event, DoneEvent) and show:
            out.print(f"\n[dim]({event.emotion}, memories used: {event.memories_used})[/dim]")
    return "".join(reply)


async def play_demo(built: Omoide, clock: FixedClock, start: datetime) -> None:
    from rich.panel import Panel

    from omoide.chat.conversation import ChatRequest
    from omoide.domain import Scope
    from omoide.errors import ConfigError
    from omoide.llm.scripted import ScriptedChatModel

    out = console()
    conversation = built.conversation
    if conversation is None:
        raise ConfigError("the demo needs a chat model")
    user_id, user_name = DEMO_VIEWER
    moments = [start + timedelta(hours=19 * index) for index in range(len(DEMO_SMALL_TALK) + 2)]
    messages = [DEMO_OPENING, *DEMO_SMALL_TALK, DEMO_QUESTION]
    for index, (moment, message) in enumerate(zip(moments, messages, strict=True)):
        clock.set(moment)
        last = index == len(messages) - 1
        out.print(f"[bold]{moment:%m/%d %H:%M} {user_name}:[/bold] {message}")
        if last:
            out.print("[bold]Haru:[/bold] ", end="")
        request = ChatRequest("haru", user_id, user_name, f"session-{index // 4}", message)
        await say(conversation, request, show=last)
        await built.drainer.drain_all()
    model = built.chat_model
    if isinstance(model, ScriptedChatModel) and model.last_call is not None:
        prompt = model.last_call.system_prompt or ""
        out.print(Panel(prompt, title="the system prompt Haru received", expand=False))
    facts = await built.memory.list_facts(Scope("haru", user_id))
    out.print("[bold]What Haru believes about 민준:[/bold]")
    for fact in facts:
        out.print(f"  - {fact.text} ({fact.category.value}, {fact.confidence:.0%})")
    state = await built.states.load(Scope("haru", user_id))
    if state is not None:
        from omoide.character.prompt import describe_intimacy

        level = describe_intimacy(state.intimacy)
        out.print(
            f"[bold]Haru and {user_name} after {state.turn_count} exchanges:[/bold] "
            f"{level.label} (rapport {state.intimacy:.2f} of 1). {level.description}"
        )


def register(app: typer.Typer) -> None:
    app.command()(demo)
    app.command()(chat)
    app.command()(serve)
    app.command()(mcp)
    app.add_typer(keys_app, name="keys")


def demo(data_dir: DataDir = None, embedder: Embedder = None) -> None:
    """Replay the seed's scenario with the scripted model and show what Haru received."""
    from omoide.clock import FixedClock

    start = datetime.now(UTC).replace(microsecond=0) - timedelta(days=9)
    clock = FixedClock(start)

    with tempfile.TemporaryDirectory(prefix="omoide-demo-") as scratch:
        settings = settings_from(
            data_dir=data_dir or Path(scratch), embedder=embedder, llm="scripted"
        )

        async def main() -> None:
            from omoide.wiring import build

            built = await build(settings, clock=clock)
            try:
                await play_demo(built, clock, start)
            finally:
                await built.aclose()

        run_async(main)


def chat(
    character: Annotated[str, typer.Option("--character", "-c")] = "haru",
    user: Annotated[str, typer.Option("--user", "-u")] = "me",
    name: Annotated[str | None, typer.Option(help="Your display name")] = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    llm: Annotated[str | None, typer.Option(help="ollama | openai | anthropic | scripted")] = None,
    llm_url: Annotated[str | None, typer.Option()] = None,
    llm_model: Annotated[str | None, typer.Option()] = None,
) -> None:
    """Talk with a character in the terminal (replies stream; empty line or Ctrl-D quits)."""
    settings = settings_from(
        data_dir=data_dir, embedder=embedder, llm=llm, llm_url=llm_url, llm_model=llm_model
    )

    async def main() -> None:
        import anyio

        from omoide.chat.conversation import ChatRequest
        from omoide.errors import ConfigError
        from omoide.wiring import build

        out = console()
        built = await build(settings)
        try:
            conversation = built.conversation
            if conversation is None:
                raise ConfigError("chat needs a language model: set --llm or OMOIDE_LLM")
            while line := await anyio.to_thread.run_sync(_read_line, f"{name or user}> "):
                request = ChatRequest(character, user, name or user, "terminal", line)
                out.print(f"{character}> ", end="", markup=False)
                await say(conversation, request, show=True)
                await built.drainer.drain_all()
        finally:
            await built.aclose()

    run_async(main)


def _read_line(prompt: str) -> str:
    try:
        return input(prompt).strip()
    except EOFError:
        return ""


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on")] = None,
    port: Annotated[int | None, typer.Option(help="Port")] = None,
    data_dir: DataDir = None,
    embedder: Embedder = None,
    llm: Annotated[str | None, typer.Option(help="ollama | openai | anthropic | scripted")] = None,
    llm_url: Annotated[str | None, typer.Option()] = None,
    llm_model: Annotated[str | None, typer.Option()] = None,
) -> None:
    """Start the HTTP service (REST API and chat over SSE)."""
    import uvicorn

    from omoide.api.app import create_app
    from omoide.errors import OmoideError

    settings = settings_from(
        host=host,
        port=port,
        data_dir=data_dir,
        embedder=embedder,
        llm=llm,
        llm_url=llm_url,
        llm_model=llm_model,
    )
    try:
        application = create_app(settings)
    except OmoideError as exc:
        raise fail(str(exc)) from exc
    uvicorn.run(  # proxy headers are omoide's to judge (Settings.forwarded_allow_ips)
        application, host=settings.host, port=settings.port, log_level="info", proxy_headers=False
    )


def mcp(data_dir: DataDir = None, embedder: Embedder = None) -> None:
    """Serve the memory tools over MCP on stdin and stdout (for an MCP client to start)."""
    from omoide.api.mcp import serve_stdio

    settings = settings_from(data_dir=data_dir, embedder=embedder)
    run_async(lambda: serve_stdio(settings))
