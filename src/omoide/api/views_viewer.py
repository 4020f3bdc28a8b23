"""Response models of a viewer's export and forget: everything kept, everything removed."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from omoide.api.views import ExportOut, ForgetOut, LibraryView
from omoide.api.views_stream import ViewerSummaryOut, summary_out
from omoide.domain import TurnInput
from omoide.metadata import MetadataValue
from omoide.privacy.viewer_export import ViewerExport
from omoide.store.records.character_state import state_to_json
from omoide.store.records.stream import LearnedFact, LoggedComment, ViewerStreamData

if TYPE_CHECKING:  # the use case loads the memory pipeline; an export is read without it
    from omoide.privacy.viewer_data import ViewerForgetReport


class QueuedTurnOut(LibraryView):
    """A turn accepted by the chat path and not yet remembered."""

    turn_id: str | None
    user_message: str
    bot_message: str
    timestamp: datetime | None
    user_name: str | None
    metadata: dict[str, MetadataValue]

    @classmethod
    def of(cls, turn: TurnInput) -> QueuedTurnOut:
        return cls.model_validate(turn)


class StreamCommentOut(LibraryView):
    """One of the viewer's stream comments, as the stream log keeps it."""

    stream_id: str
    seq: int
    display_name: str
    text: str
    time: datetime
    platform: str
    reply: str | None = Field(description="The character's reply, if it answered")
    stored: bool
    episode_id: str | None

    @classmethod
    def of(cls, comment: LoggedComment) -> StreamCommentOut:
        entry = comment.entry
        fields = {name: getattr(entry, name) for name in cls.model_fields if hasattr(entry, name)}
        return cls.model_validate(fields | {"stream_id": comment.stream_id, "seq": comment.seq})


class StreamFactOut(LibraryView):
    """A change to the viewer's facts, noted in the stream log for the diary."""

    display_name: str
    action: str
    fact_id: str
    text: str

    @classmethod
    def of(cls, fact: LearnedFact) -> StreamFactOut:
        return cls.model_validate(fact)


class StreamWorkOut(LibraryView):
    processed_through: int
    pending_count: int
    messages_seen: int


class StreamDataOut(BaseModel):
    """What the stream log keeps about the viewer."""

    comments: list[StreamCommentOut]
    facts: list[StreamFactOut]
    summary: ViewerSummaryOut | None
    work: StreamWorkOut | None

    @classmethod
    def of(cls, data: ViewerStreamData) -> StreamDataOut:
        return cls(
            comments=[StreamCommentOut.of(comment) for comment in data.comments],
            facts=[StreamFactOut.of(fact) for fact in data.learned],
            summary=None if data.summary is None else summary_out(data.summary),
            work=None if data.work is None else StreamWorkOut.model_validate(data.work),
        )


class SessionMessageOut(LibraryView):
    role: str
    content: str


class ViewerExportOut(ExportOut):
    """Everything kept about one viewer, wherever it is kept: what forgetting removes."""

    queued_turns: list[QueuedTurnOut] = Field(description="Chat turns not yet remembered")
    state: dict[str, Any] | None = Field(description="The character's state for the viewer")
    sessions: dict[str, list[SessionMessageOut]] = Field(
        description="Short-term chat history by session id (this instance's)"
    )
    stream: StreamDataOut
    quoted_in: list[str] = Field(
        description="Ids of the character's own memories (diary entries) that quote the "
        "viewer; their text is about others too and is not shown here. Forgetting the "
        "viewer takes the viewer's words out of them"
    )
    quoted_in_versions: list[int] = Field(
        description="Numbers of the character's identity versions that quote the viewer "
        "(not shown, redacted by forgetting, as quoted_in)"
    )
    quoted_in_changes: list[str] = Field(
        description="Ids of the character's proposed identity changes that quote the viewer "
        "(not shown, redacted by forgetting, as quoted_in)"
    )

    @classmethod
    def of_viewer(cls, export: ViewerExport) -> ViewerExportOut:
        base = ExportOut.of(export.memory)
        return cls(
            **dict(base),
            queued_turns=[QueuedTurnOut.of(turn) for turn in export.queued_turns],
            state=None if export.state is None else state_to_json(export.state),
            sessions={
                session: [SessionMessageOut.model_validate(m) for m in messages]
                for session, messages in export.sessions.items()
            },
            stream=StreamDataOut.of(export.stream),
            quoted_in=list(export.quoted_in),
            quoted_in_versions=list(export.quoted_in_versions),
            quoted_in_changes=list(export.quoted_in_changes),
        )


class ViewerForgetOut(ForgetOut):
    """What forgetting a viewer removed (tombstones remain, without content)."""

    queued_turns: int
    stream_comments: int
    stream_facts: int
    stream_summaries: int
    redacted_memories: int = Field(
        description="The character's own memories (diary entries) the viewer's words were "
        "taken out of"
    )
    redacted_identity: int = Field(
        description="The character's identity versions and proposed changes the viewer's "
        "words were taken out of"
    )

    @classmethod
    def of(cls, report: ViewerForgetReport) -> ViewerForgetOut:
        memory = report.memory
        return cls(
            character_id=memory.scope.character_id,
            user_id=memory.scope.user_id or "",
            episodes=memory.episodes,
            facts=memory.facts,
            emotions=memory.emotions,
            queued_turns=report.queued_turns,
            stream_comments=report.stream_comments,
            stream_facts=report.stream_facts,
            stream_summaries=report.stream_summaries,
            redacted_memories=report.redacted_memories,
            redacted_identity=report.redacted_identity,
        )
