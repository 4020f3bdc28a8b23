"""Remembering calibrated duplicate thresholds in a JSON file, so a restart skips the work.

A threshold is a pure function of the model, the calibration pairs and the false-merge
cost, so that triple is the key. The file is rewritten atomically (temporary file, then
rename); an unreadable or malformed file is treated as empty and replaced on the next
save, since everything in it can be recomputed.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import anyio.to_thread

from omoide.embed.base import Embedder
from omoide.embed.calibration import (
    CALIBRATION_SET_ID,
    DEFAULT_FALSE_MERGE_COST,
    DuplicateThreshold,
    Pair,
    SimilarityStats,
    calibrate_duplicate_threshold,
    calibration_set_id,
)
from omoide.embed.calibration_pairs import DIFFERENT_FACT_PAIRS, PARAPHRASE_PAIRS
from omoide.errors import BackendError

logger = logging.getLogger(__name__)

FILE_FORMAT_VERSION = 1


def cache_key(model_name: str, calibration_set: str, false_merge_cost: float) -> str:
    return f"{model_name}|{calibration_set}|{float(false_merge_cost)!r}"


class ThresholdCache:
    """Calibrated thresholds stored in one JSON file at ``path`` (created on first save)."""

    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        return self._path

    async def load(
        self,
        model_name: str,
        *,
        calibration_set: str = CALIBRATION_SET_ID,
        false_merge_cost: float = DEFAULT_FALSE_MERGE_COST,
    ) -> DuplicateThreshold | None:
        """The stored result for this key, or None when there is none (or it is unreadable)."""
        key = cache_key(model_name, calibration_set, false_merge_cost)
        entries = await anyio.to_thread.run_sync(self._read_entries)
        raw = entries.get(key)
        if raw is None:
            return None
        try:
            return _threshold_from_json(raw)
        except (KeyError, TypeError, ValueError) as exc:
            logger.warning(
                "ignoring malformed threshold cache entry %r in %s: %s", key, self._path, exc
            )
            return None

    async def save(self, result: DuplicateThreshold) -> None:
        """Add or replace the entry for ``result``'s key, keeping the others."""
        await anyio.to_thread.run_sync(self._write_entry, result)

    def _read_entries(self) -> dict[str, Any]:
        try:
            document = json.loads(self._path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            logger.warning("ignoring unreadable threshold cache %s: %s", self._path, exc)
            return {}
        entries = document.get("entries") if isinstance(document, dict) else None
        if not isinstance(entries, dict) or document.get("version") != FILE_FORMAT_VERSION:
            logger.warning("ignoring threshold cache %s in an unknown format", self._path)
            return {}
        return entries

    def _write_entry(self, result: DuplicateThreshold) -> None:
        key = cache_key(result.model_name, result.calibration_set, result.false_merge_cost)
        with self._lock:
            entries = self._read_entries()
            entries[key] = asdict(result)
            document = {"version": FILE_FORMAT_VERSION, "entries": entries}
            self._replace_file(json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True))

    def _replace_file(self, content: str) -> None:
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(
                prefix=f".{self._path.name}.", suffix=".tmp", dir=self._path.parent
            )
        except OSError as exc:
            raise BackendError(f"cannot write threshold cache {self._path}: {exc}") from exc
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(content)
            os.replace(temporary, self._path)
        except OSError as exc:
            Path(temporary).unlink(missing_ok=True)
            raise BackendError(f"cannot write threshold cache {self._path}: {exc}") from exc


async def cached_duplicate_threshold(
    embedder: Embedder,
    cache: ThresholdCache,
    *,
    paraphrases: Sequence[Pair] = PARAPHRASE_PAIRS,
    different_facts: Sequence[Pair] = DIFFERENT_FACT_PAIRS,
    false_merge_cost: float = DEFAULT_FALSE_MERGE_COST,
) -> DuplicateThreshold:
    """The cached threshold for ``embedder``'s model, calibrating and saving it if missing."""
    calibration_set = calibration_set_id(paraphrases, different_facts)
    found = await cache.load(
        embedder.model_name, calibration_set=calibration_set, false_merge_cost=false_merge_cost
    )
    if found is not None:
        return found
    result = await calibrate_duplicate_threshold(
        embedder,
        paraphrases=paraphrases,
        different_facts=different_facts,
        false_merge_cost=false_merge_cost,
    )
    await cache.save(result)
    return result


def _threshold_from_json(raw: Any) -> DuplicateThreshold:
    fields = dict(raw)
    return DuplicateThreshold(
        model_name=str(fields["model_name"]),
        threshold=float(fields["threshold"]),
        paraphrases=SimilarityStats(**fields["paraphrases"]),
        different_facts=SimilarityStats(**fields["different_facts"]),
        accuracy=float(fields["accuracy"]),
        missed_paraphrases=int(fields["missed_paraphrases"]),
        false_merges=int(fields["false_merges"]),
        false_merge_cost=float(fields["false_merge_cost"]),
        calibration_set=str(fields["calibration_set"]),
    )
