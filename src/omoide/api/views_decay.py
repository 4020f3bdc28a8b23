"""Response models of decay: a run (or its dry run) and restoring archived episodes.

The CLI prints the same models with ``--json``.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from omoide.memory.decay import DecayPreview, DecayReport, RestoreReport


class DecayOut(BaseModel):
    character_id: str
    dry_run: bool = Field(description="True: nothing changed; the counts are what would")
    now: datetime | None = Field(
        description="The moment the run archived at: restoring archived_since it undoes the run"
    )
    scanned: int = Field(description="Episodes not archived before the run")
    archived: int = Field(description="Episodes that left retrieval (still stored)")
    purged: int = Field(description="Archived episodes destroyed (tombstones remain)")
    archived_ids: list[str] = Field(
        default_factory=list, description="Dry run: the first 20 that would be archived"
    )
    purged_ids: list[str] = Field(
        default_factory=list, description="Dry run: the first 20 that would be purged"
    )

    @classmethod
    def of(cls, report: DecayReport) -> DecayOut:
        return cls(
            character_id=report.character_id,
            dry_run=False,
            now=report.now,
            scanned=report.scanned,
            archived=report.archived,
            purged=report.purged,
        )

    @classmethod
    def preview(cls, preview: DecayPreview) -> DecayOut:
        return cls(
            character_id=preview.character_id,
            dry_run=True,
            now=preview.now,
            scanned=preview.scanned,
            archived=preview.would_archive,
            purged=preview.would_purge,
            archived_ids=list(preview.archive_ids),
            purged_ids=list(preview.purge_ids),
        )


class RestoreOut(BaseModel):
    character_id: str
    restored: int = Field(description="Archived episodes back in retrieval")
    episode_ids: list[str] = Field(description="The first 20 of them, in id order")

    @classmethod
    def of(cls, report: RestoreReport) -> RestoreOut:
        return cls(
            character_id=report.character_id,
            restored=report.restored,
            episode_ids=list(report.episode_ids),
        )
