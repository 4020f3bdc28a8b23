"""The JSON forms of stream and identity values: the HTTP API's request and response models.

The router (``omoide.api.routes_stream``) answers with these,
:class:`~omoide.api.stream_client.StreamClient` reads them back, and the CLI prints them, so
all three agree by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from omoide.store.records.identity import FieldChange, IdentityVersion, PendingChange, value_to_json
from omoide.store.records.stream import ViewerSummaryRecord
from omoide.wire_types import Identifier, Label, Moment, Text

if TYPE_CHECKING:  # only the converters' annotations: reading identity loads no stream service
    from omoide.character.identity import IdentityOutcome
    from omoide.stream.diary import DiaryEntry
    from omoide.stream.events import StreamEvent
    from omoide.stream.ingest import IngestReport
    from omoide.stream.service import StreamEnd

ProfileJson = str | list[str] | None
MAX_EVENTS_PER_REQUEST = 5000


class StreamEventIn(BaseModel):
    """One comment. ``time`` needs a UTC offset; ``reply`` is the character's answer."""

    model_config = ConfigDict(extra="ignore")

    viewer_id: Identifier
    display_name: Label | None = None
    text: Text
    time: Moment
    platform: Label | None = None
    reply: Text | None = None


class EventsIn(BaseModel):
    events: list[StreamEventIn] = Field(max_length=MAX_EVENTS_PER_REQUEST)

    def to_events(self) -> list[StreamEvent]:
        """Validated events; InvalidInput names the index and field of the first bad one."""
        from omoide.stream.events import events_from_json

        return events_from_json([event.model_dump() for event in self.events])


class IngestOut(BaseModel):
    received: int
    stored: int
    replied: int
    skipped_low_signal: int
    skipped_below_threshold: int
    comment_count: int
    diary_entries_written: int
    diary_entries_queued: int


class DiaryEntryOut(BaseModel):
    id: str
    character_id: str
    stream_id: str
    number: int
    reason: str
    text: str
    method: str
    written_at: datetime
    from_comment: int
    to_comment: int
    comment_count: int
    viewer_count: int
    mood: str | None
    topics: list[str]
    llm_failed: bool
    model: str | None = None
    """The chat model that wrote the entry (``scripted``: the offline demo model)."""


class DiaryListOut(BaseModel):
    entries: list[DiaryEntryOut]


class FieldChangeOut(BaseModel):
    field: str
    before: ProfileJson
    after: ProfileJson


class RefusedFieldOut(BaseModel):
    field: str
    reason: str


class IdentityOutcomeOut(BaseModel):
    character_id: str
    status: str
    accepted: list[FieldChangeOut]
    refused: list[RefusedFieldOut]
    change_id: str | None
    version: int | None
    diary_entry_id: str | None
    message: str


class StreamEndOut(BaseModel):
    diary: DiaryEntryOut
    earlier_entries: list[DiaryEntryOut]
    identity: list[IdentityOutcomeOut]


class VersionOut(BaseModel):
    character_id: str
    version: int
    created_at: datetime
    reason: str
    diary_entry_id: str | None
    change_id: str | None
    changes: list[FieldChangeOut]
    profile: dict[str, Any] | None = None


class VersionListOut(BaseModel):
    character_id: str
    current_version: int | None
    versions: list[VersionOut]


class PendingChangeOut(BaseModel):
    id: str
    character_id: str
    base_version: int | None
    created_at: datetime
    status: str
    diary_entry_id: str | None
    decided_at: datetime | None
    version: int | None
    changes: list[FieldChangeOut]
    refused: list[RefusedFieldOut]
    proposed_by: str | None = None
    """The chat model that proposed the change (``scripted``: the offline demo model),
    when the diary entry it followed is known."""


class PendingListOut(BaseModel):
    changes: list[PendingChangeOut]


class RollbackIn(BaseModel):
    version: int = Field(ge=0)


class ViewerSummaryOut(BaseModel):
    character_id: str
    viewer_id: str
    display_name: str
    text: str
    method: str
    message_count: int
    updated_at: datetime


def ingest_out(report: IngestReport) -> IngestOut:
    return IngestOut(
        received=report.received,
        stored=report.stored,
        replied=report.replied,
        skipped_low_signal=report.skipped_low_signal,
        skipped_below_threshold=report.skipped_below_threshold,
        comment_count=report.comment_count,
        diary_entries_written=report.diary_entries_written,
        diary_entries_queued=report.diary_entries_queued,
    )


def diary_out(entry: DiaryEntry) -> DiaryEntryOut:
    fields = {name: getattr(entry, name) for name in DiaryEntryOut.model_fields}
    return DiaryEntryOut.model_validate(
        fields | {"reason": entry.reason.value, "topics": list(entry.topics)}
    )


def changes_out(changes: Sequence[FieldChange]) -> list[FieldChangeOut]:
    return [
        FieldChangeOut(field=c.field, before=value_to_json(c.before), after=value_to_json(c.after))
        for c in changes
    ]


def outcome_out(outcome: IdentityOutcome) -> IdentityOutcomeOut:
    return IdentityOutcomeOut(
        character_id=outcome.character_id,
        status=outcome.status.value,
        accepted=changes_out(outcome.accepted),
        refused=[RefusedFieldOut(field=r.field, reason=r.reason) for r in outcome.refused],
        change_id=outcome.change_id,
        version=outcome.version,
        diary_entry_id=outcome.diary_entry_id,
        message=outcome.message,
    )


def end_out(end: StreamEnd) -> StreamEndOut:
    return StreamEndOut(
        diary=diary_out(end.diary),
        earlier_entries=[diary_out(entry) for entry in end.earlier_entries],
        identity=[outcome_out(outcome) for outcome in end.identity],
    )


def version_out(version: IdentityVersion, *, with_profile: bool) -> VersionOut:
    return VersionOut(
        character_id=version.character_id,
        version=version.number,
        created_at=version.created_at,
        reason=version.reason,
        diary_entry_id=version.diary_entry_id,
        change_id=version.change_id,
        changes=changes_out(version.changes),
        profile=version.profile.model_dump(mode="json") if with_profile else None,
    )


def versions_out(character_id: str, versions: Sequence[IdentityVersion]) -> VersionListOut:
    return VersionListOut(
        character_id=character_id,
        current_version=versions[-1].number if versions else None,
        versions=[version_out(version, with_profile=False) for version in versions],
    )


def change_out(change: PendingChange, *, proposed_by: str | None = None) -> PendingChangeOut:
    return PendingChangeOut(
        proposed_by=proposed_by,
        id=change.id,
        character_id=change.character_id,
        base_version=change.base_version,
        created_at=change.created_at,
        status=change.status.value,
        diary_entry_id=change.diary_entry_id,
        decided_at=change.decided_at,
        version=change.version,
        changes=changes_out(change.changes),
        refused=[RefusedFieldOut(field=r.field, reason=r.reason) for r in change.refused],
    )


def summary_out(summary: ViewerSummaryRecord) -> ViewerSummaryOut:
    fields = {name: getattr(summary, name) for name in ViewerSummaryOut.model_fields}
    return ViewerSummaryOut.model_validate(fields)
